/// One kind of primitive the renderer draws, declared as data: its per-instance memory layout, its
/// shaders, how it blends and where the batcher places it.
///
/// A renderer builds one pipeline per entry of `DrawKind.all` from this declaration alone and copies
/// each kind's instance bytes without knowing the instance type, so a new kind is one declaration
/// here, one pair of shaders in `Shaders/` and the code that emits its instances. The declaration is
/// Vulkan-neutral: the server module stays free of any graphics API.
public struct DrawKind: Sendable, Equatable {
    /// The kind's index in `DrawKind.all`: what `DrawBatch.kind` and `DisplayList.instances` use.
    public let id: Int
    /// A short name for logs, benchmarks and test messages.
    public let name: String
    /// Bytes per instance: the stride of the instance type and of the vertex buffer binding.
    public let stride: Int
    /// The per-instance vertex attributes at shader locations 0, 1, 2, ... in order.
    public let attributes: [Attribute]
    /// The vertex shader's resource name (`Shaders/NAME`, compiled to `NAME.spv`).
    public let vertexShader: String
    /// The fragment shader's resource name.
    public let fragmentShader: String
    /// How the fragment shader's output is combined with the target.
    public let blend: Blend
    /// True when the shaders keep llvmpipe's linear rasterizer engaged: an axis-aligned rectangle in
    /// device pixels, only smooth varyings, and a fragment shader that only moves and multiplies
    /// (docs/architecture.md, "The renderer and llvmpipe's linear path").
    public let linearPathCapable: Bool
    /// True for kinds whose fragment shader samples an image: their batches carry a `TextureSampling`
    /// (`DrawBatch.texture`), and a renderer binds that image and sampler for the batch.
    public let samplesTexture: Bool

    /// Declares a kind whose instances have the memory layout of `Instance`.
    ///
    /// `attributes` must lie within the instance (checked by a test); `id` must be the kind's index
    /// in `DrawKind.all`.
    public init<Instance>(
        id: Int, name: String, instance: Instance.Type, attributes: [Attribute],
        vertexShader: String, fragmentShader: String, blend: Blend, linearPathCapable: Bool,
        samplesTexture: Bool = false
    ) {
        self.id = id
        self.name = name
        self.stride = MemoryLayout<Instance>.stride
        self.attributes = attributes
        self.vertexShader = vertexShader
        self.fragmentShader = fragmentShader
        self.blend = blend
        self.linearPathCapable = linearPathCapable
        self.samplesTexture = samplesTexture
    }

    /// One per-instance vertex attribute: where it lies in the instance and what it holds.
    public struct Attribute: Sendable, Equatable {
        /// The attribute's offset in bytes from the start of the instance.
        public let offset: Int
        /// The attribute's type.
        public let format: Format

        /// An attribute of `format` at `offset` bytes.
        public init(offset: Int, format: Format) {
            self.offset = offset
            self.format = format
        }

        /// `count` consecutive `vec4` attributes starting at byte 0, the layout every kind uses today.
        public static func vec4s(_ count: Int) -> [Attribute] {
            (0..<count).map { Attribute(offset: $0 * Format.float4.size, format: .float4) }
        }
    }

    /// An attribute's type, as the vertex shader reads it.
    public enum Format: Sendable, Equatable {
        /// Two 32-bit floats (`vec2`).
        case float2
        /// Four 32-bit floats (`vec4`).
        case float4
        /// Four 32-bit unsigned integers (`uvec4`), for packed data (a gradient's colours and locations).
        case uint4

        /// The size in bytes.
        public var size: Int {
            switch self {
            case .float2: 8
            case .float4, .uint4: 16
            }
        }
    }

    /// How a kind's output meets the pixels already in the target.
    public enum Blend: Sendable, Equatable {
        /// The output replaces the target: for primitives known to be opaque.
        case off
        /// Premultiplied "over": `ONE`, `ONE_MINUS_SRC_ALPHA` for colour and alpha alike.
        case premultipliedOver
        /// "Destination in": `ZERO`, `SRC_ALPHA` for colour and alpha alike, so the target keeps what it
        /// holds times the source's alpha (a mask applied in an offscreen pass).
        case destinationIn
        /// Premultiplied addition ("plus-lighter"): `ONE`, `ONE` for colour and alpha alike (the
        /// target's values and the source's add, saturating at 1). An emitter layer's `additive` render
        /// mode, and the sum of a dissolve's weighted drawings (`DisplayListBuilder+Dissolve.swift`),
        /// whose alpha must add too: (1 − p)·a + p·b.
        case additive
    }
}

extension DrawKind {
    /// Flat `FillInstance` rectangles whose colour is opaque, drawn with blending off.
    public static let opaqueFill = DrawKind(
        id: 0, name: "opaqueFill", instance: FillInstance.self, attributes: Attribute.vec4s(2),
        vertexShader: "fill.vert", fragmentShader: "fill.frag", blend: .off, linearPathCapable: true)
    /// Flat `FillInstance` rectangles blended with premultiplied "over".
    public static let blendedFill = DrawKind(
        id: 1, name: "blendedFill", instance: FillInstance.self, attributes: Attribute.vec4s(2),
        vertexShader: "fill.vert", fragmentShader: "fill.frag", blend: .premultipliedOver, linearPathCapable: true)
    /// `CornerInstance` corner pieces of axis-aligned, uniformly scaled layers.
    public static let corner = DrawKind(
        id: 2, name: "corner", instance: CornerInstance.self, attributes: Attribute.vec4s(5),
        vertexShader: "corner.vert", fragmentShader: "corner.frag", blend: .premultipliedOver,
        linearPathCapable: false)
    /// `ImageInstance` rectangles of layer contents drawn at opacity 1, axis-aligned on whole device
    /// pixels: one texel fetch, blended with premultiplied "over", on llvmpipe's linear path. A kind of
    /// its own because without the opacity multiply llvmpipe copies texels about twice as fast (the
    /// textured benchmark's render: 17–21 ms of CPU time instead of 33–45 ms).
    public static let plainImage = DrawKind(
        id: 3, name: "plainImage", instance: ImageInstance.self, attributes: Attribute.vec4s(2),
        vertexShader: "image-plain.vert", fragmentShader: "image-plain.frag", blend: .premultipliedOver,
        linearPathCapable: true, samplesTexture: true)
    /// `ImageInstance` rectangles of layer contents, axis-aligned on whole device pixels: one texel
    /// fetch times the opacity, blended with premultiplied "over", on llvmpipe's linear path.
    public static let image = DrawKind(
        id: 4, name: "image", instance: ImageInstance.self, attributes: Attribute.vec4s(3),
        vertexShader: "image.vert", fragmentShader: "image.frag", blend: .premultipliedOver,
        linearPathCapable: true, samplesTexture: true)
    /// `ShapeInstance` pieces of rounded rectangles or border rings under any transform and clip.
    public static let shape = DrawKind(
        id: 5, name: "shape", instance: ShapeInstance.self, attributes: Attribute.vec4s(16),
        vertexShader: "shape.vert", fragmentShader: "shape.frag", blend: .premultipliedOver,
        linearPathCapable: false)

    /// `ImageShapeInstance` rectangles of layer contents under any transform and clip, with
    /// perspective-correct texture coordinates and anti-aliased outer edges.
    public static let imageShape = DrawKind(
        id: 6, name: "imageShape", instance: ImageShapeInstance.self, attributes: Attribute.vec4s(16),
        vertexShader: "image-shape.vert", fragmentShader: "image-shape.frag", blend: .premultipliedOver,
        linearPathCapable: false, samplesTexture: true)

    /// `corner` for pieces with continuous corners (`cornerCurve = .continuous`): the same instances,
    /// a fragment shader that also evaluates the continuous curve. A kind of its own because that
    /// curve's cost would otherwise be paid by every circular corner on lavapipe.
    public static let continuousCorner = DrawKind(
        id: 7, name: "continuousCorner", instance: CornerInstance.self, attributes: Attribute.vec4s(5),
        vertexShader: "corner.vert", fragmentShader: "corner-continuous.frag", blend: .premultipliedOver,
        linearPathCapable: false)
    /// `shape` for pieces whose own corners or whose clips' corners are continuous.
    public static let continuousShape = DrawKind(
        id: 8, name: "continuousShape", instance: ShapeInstance.self, attributes: Attribute.vec4s(16),
        vertexShader: "shape.vert", fragmentShader: "shape-continuous.frag", blend: .premultipliedOver,
        linearPathCapable: false)

    /// `GradientInstance` quads of `CAGradientLayer`s: up to eight stops each, interpolated on
    /// unpremultiplied colours in the fragment shader (axial, radial or conic), shaped by the layer's
    /// rounded bounds and clipped like shapes. Last in the cycle, so adding it renumbered no kind.
    public static let gradient = DrawKind(
        id: 9, name: "gradient", instance: GradientInstance.self,
        attributes: Attribute.vec4s(13) + (13..<16).map { Attribute(offset: $0 * 16, format: .uint4) },
        vertexShader: "gradient.vert", fragmentShader: "gradient.frag", blend: .premultipliedOver,
        linearPathCapable: false)

    /// `ShadowInstance` quads of layers' shadows: a rectangle, rounded rectangle or ellipse blurred
    /// by a Gaussian in closed form (erf), under the layer, clipped like gradients. Last in the cycle,
    /// so adding it renumbered no kind.
    public static let shadow = DrawKind(
        id: 10, name: "shadow", instance: ShadowInstance.self, attributes: Attribute.vec4s(13),
        vertexShader: "shadow.vert", fragmentShader: "shadow.frag", blend: .premultipliedOver,
        linearPathCapable: false)

    /// `ImageInstance` rectangles that apply a mask in an offscreen pass: the pass's pixels are
    /// multiplied by the alpha of the mask's own pass, sampled over the whole pass (`destinationIn`),
    /// so that what lies outside the mask's drawing is cleared. Last in the cycle, so adding it
    /// renumbered no kind.
    public static let maskIn = DrawKind(
        id: 11, name: "maskIn", instance: ImageInstance.self, attributes: Attribute.vec4s(3),
        vertexShader: "image.vert", fragmentShader: "image.frag", blend: .destinationIn,
        linearPathCapable: false, samplesTexture: true)

    /// `BlurInstance` rectangles covering a blur pass: one axis of a separable Gaussian blur of the
    /// batch's image, a pass of the same rectangle and scale (docs/rendering.md, "Blur"). They replace
    /// the pass's pixels. Last in the cycle, so adding it renumbered no kind.
    public static let blur = DrawKind(
        id: 12, name: "blur", instance: BlurInstance.self, attributes: Attribute.vec4s(4),
        vertexShader: "blur.vert", fragmentShader: "blur.frag", blend: .off, linearPathCapable: false,
        samplesTexture: true)

    /// `ImageInstance`s of particles added to what is under them (`CAEmitterLayer` with `renderMode`
    /// `additive`): the `image` kind's shaders with the additive blend. Last in the cycle, so adding it
    /// renumbered no kind.
    public static let additiveImage = DrawKind(
        id: 13, name: "additiveImage", instance: ImageInstance.self, attributes: Attribute.vec4s(3),
        vertexShader: "image.vert", fragmentShader: "image.frag", blend: .additive,
        linearPathCapable: true, samplesTexture: true)

    /// `ImageShapeInstance`s of additive particles that are turned, scaled off whole pixels or clipped:
    /// the `imageShape` kind's shaders with the additive blend.
    public static let additiveImageShape = DrawKind(
        id: 14, name: "additiveImageShape", instance: ImageShapeInstance.self, attributes: Attribute.vec4s(16),
        vertexShader: "image-shape.vert", fragmentShader: "image-shape.frag", blend: .additive,
        linearPathCapable: false, samplesTexture: true)

    /// An `ImageInstance` of a layer with a `compositingFilter` (`DisplayListBuilder+Compositing.swift`):
    /// its texture is a pass holding the backdrop in its left half and the layer's drawing in its right,
    /// `uv` spans the backdrop's half and `opacity` holds the layer's opacity and the blend-mode code
    /// (`LayerBlendMode`) in its first two lanes. The fragment shader writes the W3C separable blend,
    /// blended "over" the target (which holds the backdrop). Last in the cycle, so adding it renumbered
    /// no kind.
    public static let blendImage = DrawKind(
        id: 15, name: "blendImage", instance: ImageInstance.self, attributes: Attribute.vec4s(3),
        vertexShader: "blend.vert", fragmentShader: "blend.frag", blend: .premultipliedOver,
        linearPathCapable: false, samplesTexture: true)

    /// `ImageShapeInstance`s of a bi-planar YCbCr surface (NV12, P010): the `imageShape` kind's
    /// geometry, coverage and clips, with a fragment shader that samples the luma plane (binding 0,
    /// the batch's sampler) and the chroma plane (binding 1, always bilinear) and converts them to
    /// RGB with the matrix, range and bit depth in `params`' second lane (`SurfaceYCbCr.drawCode`).
    /// Last in the cycle, so adding it renumbered no kind.
    public static let video = DrawKind(
        id: 16, name: "video", instance: ImageShapeInstance.self, attributes: Attribute.vec4s(16),
        vertexShader: "image-shape.vert", fragmentShader: "video.frag", blend: .premultipliedOver,
        linearPathCapable: false, samplesTexture: true)

    /// `video` with the additive blend: a YCbCr surface's weighted part of a dissolve
    /// (`DisplayListBuilder+Dissolve.swift`).
    public static let additiveVideo = DrawKind(
        id: 17, name: "additiveVideo", instance: ImageShapeInstance.self, attributes: Attribute.vec4s(16),
        vertexShader: "image-shape.vert", fragmentShader: "video.frag", blend: .additive,
        linearPathCapable: false, samplesTexture: true)

    /// `CoverageFillInstance` rectangles whose edges may lie inside pixels: each pixel takes the
    /// colour times the part of it the rectangle covers, the number a still layer's fill piece there
    /// would carry, rounded to 8-bit steps as fills are. One instance draws what
    /// `DisplayListBuilder.spans` cuts into up to nine fills, whatever the fractions, so a layer that
    /// moves keeps one piece (`DisplayListBuilder.stablePieces`). Not on llvmpipe's linear path (the
    /// fragment shader picks the coverage), so still layers keep their fills. Last in the cycle, so
    /// adding it renumbered no kind.
    public static let coverageFill = DrawKind(
        id: 18, name: "coverageFill", instance: CoverageFillInstance.self, attributes: Attribute.vec4s(4),
        vertexShader: "coverage-fill.vert", fragmentShader: "coverage-fill.frag", blend: .premultipliedOver,
        linearPathCapable: false)

    /// Every kind, indexed by `id`.
    ///
    /// The order is also the batcher's cycle (the batching class of each kind): batch `b` holds kind
    /// `b % all.count`. Kinds whose primitives often follow one another in paint order sit next to
    /// each other, so that a primitive of the next kind rarely needs a batch of its own: opaque
    /// interiors, then translucent edges, then the corners between them, then the contents drawn over a
    /// background, then general shapes and the contents drawn like them, then the continuous-corner
    /// variants.
    public static let all: [DrawKind] = [
        opaqueFill, blendedFill, corner, plainImage, image, shape, imageShape, continuousCorner, continuousShape,
        gradient, shadow, maskIn, blur, additiveImage, additiveImageShape, blendImage, video, additiveVideo,
        coverageFill,
    ]
}

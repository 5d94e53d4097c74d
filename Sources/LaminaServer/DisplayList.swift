import LaminaCore

/// A flat, axis-aligned rectangle in device pixels with one premultiplied colour: the fast primitive.
///
/// On a CPU Vulkan device these keep llvmpipe's linear rasterizer engaged (see docs/architecture.md).
/// The memory layout is the vertex shader's per-instance input (`Shaders/fill.vert`): 32 bytes.
public struct FillInstance: Sendable, Equatable {
    /// minX, minY, maxX, maxY in device pixels.
    public var rect: SIMD4<Float>
    /// Premultiplied RGBA.
    public var color: SIMD4<Float>
    public init(rect: SIMD4<Float>, color: SIMD4<Float>) {
        self.rect = rect
        self.color = color
    }
}

/// A corner piece of an axis-aligned, uniformly scaled layer in device pixels: the background and,
/// for a leaf layer, the border ring over it, in one piece (`Shaders/corner.vert`, `corner.frag`).
/// Four smooth varyings and no matrices keep it cheap on llvmpipe's general path. 80 bytes.
public struct CornerInstance: Sendable, Equatable {
    /// The piece: minX, minY, maxX, maxY in device pixels.
    public var rect: SIMD4<Float>
    /// The shape's centre (x, y) and half size (width, height) in device pixels.
    public var shape: SIMD4<Float>
    /// Radius and border width in device pixels, the corner mask, one unused lane.
    public var params: SIMD4<Float>
    /// Premultiplied background colour (zero for none).
    public var fill: SIMD4<Float>
    /// Premultiplied border colour (zero for none).
    public var border: SIMD4<Float>
    public init(rect: SIMD4<Float>, shape: SIMD4<Float>, params: SIMD4<Float>, fill: SIMD4<Float>, border: SIMD4<Float>) {
        self.rect = rect
        self.shape = shape
        self.params = params
        self.fill = fill
        self.border = border
    }
}

/// A piece of a rounded rectangle or border ring under any transform, with analytic anti-aliasing and
/// up to one general clip: the general primitive (`Shaders/shape.vert`, `Shaders/shape.frag`).
///
/// The quad `piece` (layer-local coordinates) is mapped to device pixels by `transform` (row vectors,
/// perspective allowed); the fragment shader computes the coverage of the shape, of `deviceClip` and of
/// the clip rounded rectangle found by mapping the fragment's device position through `clipMatrix`.
/// Layout: 224 bytes, matching the shader's per-instance attributes.
public struct ShapeInstance: Sendable, Equatable {
    /// Row 1 to 4 of the layer-to-device matrix (Apple's m11...m44 order).
    public var transform: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    /// The quad to draw, in layer coordinates: minX, minY, maxX, maxY.
    public var piece: SIMD4<Float>
    /// The shape's rectangle in layer coordinates: minX, minY, maxX, maxY.
    public var shapeRect: SIMD4<Float>
    /// Corner radius, border width (0: filled shape), and two unused lanes.
    public var shapeParams: SIMD4<Float>
    /// Premultiplied RGBA.
    public var color: SIMD4<Float>
    /// Device-space clip rectangle: minX, minY, maxX, maxY.
    public var deviceClip: SIMD4<Float>
    /// Rows of the 3×3 homography from device pixels (x, y, 1) to the clip layer's coordinates (the w
    /// lane unused); all zero when there is no clip.
    public var clipRow0: SIMD4<Float>
    public var clipRow1: SIMD4<Float>
    public var clipRow2: SIMD4<Float>
    /// The clip's rectangle in its layer's coordinates: minX, minY, maxX, maxY.
    public var clipRect: SIMD4<Float>
    /// Clip corner radius, enabled flag (1 or 0), and two unused lanes.
    public var clipParams: SIMD4<Float>

    public static func == (a: ShapeInstance, b: ShapeInstance) -> Bool {
        a.transform.0 == b.transform.0 && a.transform.1 == b.transform.1 && a.transform.2 == b.transform.2
            && a.transform.3 == b.transform.3 && a.piece == b.piece && a.shapeRect == b.shapeRect
            && a.shapeParams == b.shapeParams && a.color == b.color && a.deviceClip == b.deviceClip
            && a.clipRow0 == b.clipRow0 && a.clipRow1 == b.clipRow1 && a.clipRow2 == b.clipRow2
            && a.clipRect == b.clipRect && a.clipParams == b.clipParams
    }
}

/// The pipeline a batch is drawn with.
public enum BatchKind: Sendable, Hashable {
    /// `FillInstance`s with blending off: every pixel is opaque.
    case opaqueFill
    /// `FillInstance`s blended with premultiplied "over".
    case blendedFill
    /// `ShapeInstance`s blended with premultiplied "over".
    case shape
    /// `CornerInstance`s blended with premultiplied "over".
    case corner
}

/// A run of instances drawn with one pipeline and one draw call.
public struct DrawBatch: Sendable, Equatable {
    public var kind: BatchKind
    /// Indices into `DisplayList.fills`, `shapes` or `corners` (by kind), in draw order.
    public var instances: [Int32]
    public init(kind: BatchKind, instances: [Int32]) {
        self.kind = kind
        self.instances = instances
    }
}

/// What one frame draws: instance arrays and the batches that order them. Pure data, renderer-agnostic.
public struct DisplayList: Sendable {
    /// Device size in pixels.
    public var width: Int
    public var height: Int
    /// Premultiplied colour the target is cleared to.
    public var clearColor: SIMD4<Float>
    public var fills: [FillInstance] = []
    public var shapes: [ShapeInstance] = []
    public var corners: [CornerInstance] = []
    public var batches: [DrawBatch] = []

    public init(width: Int, height: Int, clearColor: SIMD4<Float> = .zero) {
        self.width = width
        self.height = height
        self.clearColor = clearColor
    }

    /// The number of instances in all batches.
    public var instanceCount: Int { batches.reduce(0) { $0 + $1.instances.count } }
}

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
/// up to two general clips: the general primitive (`Shaders/shape.vert`, `Shaders/shape.frag`).
///
/// The quad `piece` (layer-local coordinates) is mapped to device pixels by the layer's matrix (rows
/// 1, 2 and 4 of Apple's m11...m44; the plane has z = 0, so row 3 is not needed). The fragment shader
/// computes the coverage of the shape, of `deviceClip`, and of each clip: a rounded rectangle in some
/// layer's plane, reached by mapping the fragment's device position through that clip's homography.
/// Layout: 16 `vec4`s, 256 bytes, matching the shader's 16 per-instance attributes (the minimum
/// every Vulkan device supports).
public struct ShapeInstance: Sendable, Equatable {
    /// Rows 1, 2 and 4 of the layer-to-device matrix.
    public var row1: SIMD4<Float>
    public var row2: SIMD4<Float>
    public var row4: SIMD4<Float>
    /// The quad to draw, in layer coordinates: minX, minY, maxX, maxY.
    public var piece: SIMD4<Float>
    /// The shape's rectangle in layer coordinates: minX, minY, maxX, maxY.
    public var shapeRect: SIMD4<Float>
    /// Corner radius, border width (0: filled shape), corner mask, number of general clips (0...2).
    public var shapeParams: SIMD4<Float>
    /// Premultiplied RGBA.
    public var color: SIMD4<Float>
    /// Device-space clip rectangle: minX, minY, maxX, maxY.
    public var deviceClip: SIMD4<Float>
    /// The first and second general clips.
    public var clipA: ShapeClip
    public var clipB: ShapeClip
}

/// A rounded-rectangle clip in some layer's plane, as the shape shader reads it: rows of the 3×3
/// homography from device pixels (x, y, 1) to the clip layer's coordinates in the x, y, z lanes, the
/// corner radius in `row0.w`, and the clip rectangle (minX, minY, maxX, maxY).
public struct ShapeClip: Sendable, Equatable {
    public var row0: SIMD4<Float>
    public var row1: SIMD4<Float>
    public var row2: SIMD4<Float>
    public var rect: SIMD4<Float>
    /// No clip: never read, since the instance's clip count excludes it.
    public static let none = ShapeClip(row0: .zero, row1: .zero, row2: .zero, rect: .zero)
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

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
    /// Row 1 of the layer-to-device matrix.
    public var row1: SIMD4<Float>
    /// Row 2 of the layer-to-device matrix.
    public var row2: SIMD4<Float>
    /// Row 4 of the layer-to-device matrix (the plane has z = 0, so row 3 is not needed).
    public var row4: SIMD4<Float>
    /// The quad to draw, in layer coordinates: minX, minY, maxX, maxY.
    public var piece: SIMD4<Float>
    /// The shape's rectangle in layer coordinates: minX, minY, maxX, maxY.
    public var shapeRect: SIMD4<Float>
    /// Corner radius, border width (0: filled shape), corner mask (plus 16 for continuous corners, plus
    /// 32 × the edges drawn hard, `DisplayListBuilder.hardEdges`), number of general clips (0...2).
    public var shapeParams: SIMD4<Float>
    /// Premultiplied RGBA.
    public var color: SIMD4<Float>
    /// Device-space clip rectangle: minX, minY, maxX, maxY.
    public var deviceClip: SIMD4<Float>
    /// The first general clip, read when the clip count is at least 1.
    public var clipA: ShapeClip
    /// The second general clip, read when the clip count is 2.
    public var clipB: ShapeClip

    /// An instance with every field given.
    public init(
        row1: SIMD4<Float>, row2: SIMD4<Float>, row4: SIMD4<Float>, piece: SIMD4<Float>, shapeRect: SIMD4<Float>,
        shapeParams: SIMD4<Float>, color: SIMD4<Float>, deviceClip: SIMD4<Float>, clipA: ShapeClip, clipB: ShapeClip
    ) {
        self.row1 = row1
        self.row2 = row2
        self.row4 = row4
        self.piece = piece
        self.shapeRect = shapeRect
        self.shapeParams = shapeParams
        self.color = color
        self.deviceClip = deviceClip
        self.clipA = clipA
        self.clipB = clipB
    }
}

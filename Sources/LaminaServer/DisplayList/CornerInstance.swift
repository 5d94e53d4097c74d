/// A corner piece of an axis-aligned, uniformly scaled layer in device pixels: the background and,
/// for a leaf layer, the border ring over it, in one piece (`Shaders/corner.vert`, `corner.frag`).
/// Four smooth varyings and no matrices keep it cheap on llvmpipe's general path. 80 bytes.
public struct CornerInstance: Sendable, Equatable {
    /// The piece: minX, minY, maxX, maxY in device pixels.
    public var rect: SIMD4<Float>
    /// The shape's centre (x, y) and half size (width, height) in device pixels.
    public var shape: SIMD4<Float>
    /// Radius and border width in device pixels, the corner mask (plus 16 for continuous corners), and
    /// the opacity the composited piece is multiplied by (1, or a leaf's group opacity:
    /// `DisplayListBuilder.GroupFade`).
    public var params: SIMD4<Float>
    /// Premultiplied background colour (zero for none).
    public var fill: SIMD4<Float>
    /// Premultiplied border colour (zero for none).
    public var border: SIMD4<Float>
    /// An instance with every field given.
    public init(
        rect: SIMD4<Float>, shape: SIMD4<Float>, params: SIMD4<Float>, fill: SIMD4<Float>, border: SIMD4<Float>
    ) {
        self.rect = rect
        self.shape = shape
        self.params = params
        self.fill = fill
        self.border = border
    }
}

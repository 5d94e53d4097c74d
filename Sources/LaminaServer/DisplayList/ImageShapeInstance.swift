/// A rectangle of a layer's contents under any transform and clip, textured by the batch's image: the
/// general textured primitive (`Shaders/image-shape.vert`, `Shaders/image-shape.frag`).
///
/// `rect` (layer coordinates) is mapped to the device by rows 1, 2 and 4 of the layer's matrix like a
/// `ShapeInstance`, so texture coordinates are perspective-correct. The quad drawn is `rect` grown by
/// `grow` on each side; a side grown by more than 0 is anti-aliased (coverage from the local
/// coordinate's screen-space derivative), a side grown by 0 is a hard edge shared with a neighbouring
/// piece (the inner edges of nine-part stretching). Texture coordinates are `local · uvTransform.xy +
/// uvTransform.zw`, with `local` clamped to `rect` so the grown margin repeats the edge texels. The
/// result is multiplied by the coverage of `deviceClip` and of up to two general clips, read as in
/// `shape.frag`. Layout: 16 `vec4`s, 256 bytes.
public struct ImageShapeInstance: Sendable, Equatable {
    /// Row 1 of the layer-to-device matrix.
    public var row1: SIMD4<Float>
    /// Row 2 of the layer-to-device matrix.
    public var row2: SIMD4<Float>
    /// Row 4 of the layer-to-device matrix.
    public var row4: SIMD4<Float>
    /// The contents rectangle drawn, in layer coordinates: minX, minY, maxX, maxY.
    public var rect: SIMD4<Float>
    /// How far the quad extends past `rect` on each side (minX, minY, maxX, maxY), in layer units; 0
    /// for a hard edge.
    public var grow: SIMD4<Float>
    /// Texture coordinates from layer coordinates: scale in x, y and offset in z, w.
    public var uvTransform: SIMD4<Float>
    /// Opacity, the tint's red and green, number of general clips (0...2), the tint's blue and alpha.
    /// The tint (a premultiplied colour multiplying each texel, for a text layer's glyph coverage) is
    /// stored as 255 minus each 8-bit component, two per lane (`low + 256 × high`), so 0 in both lanes
    /// is no tint (`DisplayListBuilder.imageShapeParams`).
    public var params: SIMD4<Float>
    /// Device-space clip rectangle: minX, minY, maxX, maxY.
    public var deviceClip: SIMD4<Float>
    /// The first general clip, read when the clip count is at least 1.
    public var clipA: ShapeClip
    /// The second general clip, read when the clip count is 2.
    public var clipB: ShapeClip

    /// An instance with every field given.
    public init(
        row1: SIMD4<Float>, row2: SIMD4<Float>, row4: SIMD4<Float>, rect: SIMD4<Float>, grow: SIMD4<Float>,
        uvTransform: SIMD4<Float>, params: SIMD4<Float>, deviceClip: SIMD4<Float>, clipA: ShapeClip,
        clipB: ShapeClip
    ) {
        self.row1 = row1
        self.row2 = row2
        self.row4 = row4
        self.rect = rect
        self.grow = grow
        self.uvTransform = uvTransform
        self.params = params
        self.deviceClip = deviceClip
        self.clipA = clipA
        self.clipB = clipB
    }
}

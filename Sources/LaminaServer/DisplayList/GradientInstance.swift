/// A quad of a `CAGradientLayer`'s gradient: up to eight colour stops over a range of the gradient's
/// parameter, shaped by the layer's rounded bounds and clipped (`Shaders/gradient.vert`,
/// `Shaders/gradient.frag`).
///
/// The quad `piece` (layer coordinates) is mapped to the device by rows 1, 2 and 4 of the layer's
/// matrix, like a `ShapeInstance`. The fragment shader finds the gradient's parameter `t` at the
/// fragment's layer position (axial: the projection onto start → end; radial: the distance from start
/// in units of the ellipse whose half axes reach end; conic: the angle from the direction of end,
/// growing from +x towards +y, over a full turn), draws only where `range.x ≤ t < range.y`, and there
/// interpolates the stops' unpremultiplied colours, then premultiplies. A gradient with more than eight
/// stops is drawn as several instances over consecutive ranges (the ends sharing a stop), so each
/// fragment is drawn by one of them. Colours are packed as 8-bit RGBA (`unpackUnorm4x8`, red in the
/// low byte) and locations as half-precision floats, two a word (`unpackHalf2x16`). Layout: 13
/// `vec4`s and 3 `uvec4`s, 256 bytes.
public struct GradientInstance: Sendable, Equatable {
    /// Row 1 of the layer-to-device matrix.
    public var row1: SIMD4<Float>
    /// Row 2 of the layer-to-device matrix.
    public var row2: SIMD4<Float>
    /// Row 4 of the layer-to-device matrix.
    public var row4: SIMD4<Float>
    /// The quad to draw, in layer coordinates: minX, minY, maxX, maxY (the bounds grown for
    /// anti-aliasing).
    public var piece: SIMD4<Float>
    /// The layer's bounds: minX, minY, maxX, maxY.
    public var rect: SIMD4<Float>
    /// Corner radius, corner mask (plus 16 for continuous corners, plus 32 × the hard edges of
    /// `DisplayListBuilder.hardEdges`), number of general clips (0 or 1),
    /// gradient type (0 axial, 1 radial, 2 conic).
    public var params: SIMD4<Float>
    /// The start point in layer coordinates, then what the type needs of the end point: axial, the
    /// axis (end − start) over its squared length; radial, the reciprocals of the half axes; conic, the
    /// angle of the axis (its start direction), then 0.
    public var points: SIMD4<Float>
    /// Device-space clip rectangle: minX, minY, maxX, maxY.
    public var deviceClip: SIMD4<Float>
    /// The general clip, read when the clip count is 1.
    public var clip: ShapeClip
    /// The range of `t` this instance draws (lower bound included, upper excluded), the opacity, and
    /// the number of stops (2...8).
    public var range: SIMD4<Float>
    /// The stops' locations, half-precision floats, two a word, the first in the low half.
    public var locations: SIMD4<UInt32>
    /// The first four stops' colours, unpremultiplied 8-bit RGBA, red in the low byte.
    public var colorsLow: SIMD4<UInt32>
    /// The last four stops' colours.
    public var colorsHigh: SIMD4<UInt32>

    /// An instance with every field given.
    public init(
        row1: SIMD4<Float>, row2: SIMD4<Float>, row4: SIMD4<Float>, piece: SIMD4<Float>, rect: SIMD4<Float>,
        params: SIMD4<Float>, points: SIMD4<Float>, deviceClip: SIMD4<Float>, clip: ShapeClip, range: SIMD4<Float>,
        locations: SIMD4<UInt32>, colorsLow: SIMD4<UInt32>, colorsHigh: SIMD4<UInt32>
    ) {
        self.row1 = row1
        self.row2 = row2
        self.row4 = row4
        self.piece = piece
        self.rect = rect
        self.params = params
        self.points = points
        self.deviceClip = deviceClip
        self.clip = clip
        self.range = range
        self.locations = locations
        self.colorsLow = colorsLow
        self.colorsHigh = colorsHigh
    }
}

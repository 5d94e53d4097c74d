/// A quad of a layer's shadow, blurred in closed form (`Shaders/shadow.vert`, `Shaders/shadow.frag`).
///
/// The shape is a box whose corners are quarter ellipses (`rx` by `ry`, each corner rounded or not by
/// the mask): a rectangle (radii 0), a rounded rectangle, or an ellipse (radii half the box). The
/// fragment shader convolves it with a Gaussian of standard deviation `sigma` in the layer's plane:
/// exactly (products of erf differences) for the box and the straight middle band, and for each
/// corner band as `strips` horizontal strips as wide as the shape's mean width over them. The quad `piece`
/// (layer coordinates) is the box grown by three standard deviations and mapped to the device by rows
/// 1, 2 and 4 of the layer's matrix, like a `ShapeInstance`; it is clipped like a gradient (the device
/// rectangle and one general clip). Layout: 13 `vec4`s, 208 bytes.
public struct ShadowInstance: Sendable, Equatable {
    /// Row 1 of the layer-to-device matrix.
    public var row1: SIMD4<Float>
    /// Row 2 of the layer-to-device matrix.
    public var row2: SIMD4<Float>
    /// Row 4 of the layer-to-device matrix.
    public var row4: SIMD4<Float>
    /// The quad to draw, in layer coordinates: minX, minY, maxX, maxY.
    public var piece: SIMD4<Float>
    /// The shadow's shape box in layer coordinates, the offset applied: minX, minY, maxX, maxY.
    public var rect: SIMD4<Float>
    /// The corners' x radius, their y radius, the Gaussian's standard deviation (layer units), and the
    /// rounded corners' mask (`CACornerMask` bits).
    public var params: SIMD4<Float>
    /// The shadow's colour, premultiplied, with the shadow's and the layer's opacity applied.
    public var color: SIMD4<Float>
    /// Device-space clip rectangle: minX, minY, maxX, maxY.
    public var deviceClip: SIMD4<Float>
    /// The general clip, read when the clip count is 1.
    public var clip: ShapeClip
    /// The number of general clips (0 or 1), the strips per corner band, then two zeros.
    public var flags: SIMD4<Float>

    /// An instance with every field given.
    public init(
        row1: SIMD4<Float>, row2: SIMD4<Float>, row4: SIMD4<Float>, piece: SIMD4<Float>, rect: SIMD4<Float>,
        params: SIMD4<Float>, color: SIMD4<Float>, deviceClip: SIMD4<Float>, clip: ShapeClip, flags: SIMD4<Float>
    ) {
        self.row1 = row1
        self.row2 = row2
        self.row4 = row4
        self.piece = piece
        self.rect = rect
        self.params = params
        self.color = color
        self.deviceClip = deviceClip
        self.clip = clip
        self.flags = flags
    }
}

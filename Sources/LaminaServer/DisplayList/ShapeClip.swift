/// A rounded-rectangle clip in some layer's plane, as the shape shader reads it: rows of the 3×3
/// homography from device pixels (x, y, 1) to the clip layer's coordinates in the x, y, z lanes, the
/// corner radius in `row0.w`, 1 in `row1.w` for continuous corners (else 0), and the clip rectangle
/// (minX, minY, maxX, maxY).
public struct ShapeClip: Sendable, Equatable {
    /// Row 0 of the homography in x, y, z; the corner radius in w.
    public var row0: SIMD4<Float>
    /// Row 1 of the homography in x, y, z; 1 in w for continuous corners.
    public var row1: SIMD4<Float>
    /// Row 2 of the homography in x, y, z.
    public var row2: SIMD4<Float>
    /// The clip rectangle in the clip layer's coordinates: minX, minY, maxX, maxY.
    public var rect: SIMD4<Float>
    /// A clip with every field given.
    public init(row0: SIMD4<Float>, row1: SIMD4<Float>, row2: SIMD4<Float>, rect: SIMD4<Float>) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
        self.rect = rect
    }

    /// No clip: never read, since the instance's clip count excludes it.
    public static let none = ShapeClip(row0: .zero, row1: .zero, row2: .zero, rect: .zero)
}

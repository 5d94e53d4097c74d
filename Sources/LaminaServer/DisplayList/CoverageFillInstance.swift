/// A flat, axis-aligned rectangle whose edges may lie inside pixels, drawn as one piece: the whole
/// pixels it touches, each pixel's colour scaled by the part of it the rectangle covers
/// (`Shaders/coverage-fill.vert`, `coverage-fill.frag`). 64 bytes.
///
/// A still layer's rectangle is cut into up to nine `FillInstance`s, a partly covered edge row or
/// column apart from the whole pixels, each with its colour times its coverage
/// (`DisplayListBuilder.spans`). This instance carries those same coverages, computed the same way
/// (in double precision, then single), so that the shader scales the colour by the very number a
/// piece would have carried and the two draw the same bytes; a moving layer keeps one piece wherever
/// it is (`DisplayListBuilder.stablePieces`).
public struct CoverageFillInstance: Sendable, Equatable {
    /// The pixels drawn: minX, minY, maxX, maxY, whole device pixels.
    public var pixels: SIMD4<Float>
    /// The coverage of the first and last column and row: left, top, right, bottom (1 where the edge
    /// lies on a pixel boundary; for a rectangle within one column, left and right are its width).
    public var edges: SIMD4<Float>
    /// The coverage of the four corner pixels: top left, top right, bottom left, bottom right (the
    /// products of their column's and row's, rounded once).
    public var corners: SIMD4<Float>
    /// Premultiplied RGBA on 8-bit steps (`FillInstance.onEightBitSteps`).
    public private(set) var color: SIMD4<Float>

    /// An instance drawing `pixels` with the coverages `edges` and `corners` and the premultiplied
    /// `color`, rounded to the nearest 8-bit step.
    public init(pixels: SIMD4<Float>, edges: SIMD4<Float>, corners: SIMD4<Float>, color: SIMD4<Float>) {
        self.pixels = pixels
        self.edges = edges
        self.corners = corners
        self.color = FillInstance.onEightBitSteps(color)
    }

    /// An instance that draws nothing.
    public static let empty = CoverageFillInstance(pixels: .zero, edges: .zero, corners: .zero, color: .zero)

    /// The pixel range and edge coverages of the interval `a..<b` along one axis, cut to the whole
    /// pixels `lo..<hi`: `spans(a, b)`'s coverages for the first and last pixel drawn. Nil when no
    /// pixel is drawn.
    static func axis(_ a: Double, _ b: Double, clip lo: Double, _ hi: Double)
        -> (first: Double, last: Double, firstCoverage: Double, lastCoverage: Double)?
    {
        guard b > a else { return nil }
        let fa = a.rounded(.down), cb = b.rounded(.up)
        let first = max(fa, lo), last = min(cb, hi) - 1
        guard last >= first else { return nil }
        let ca = a.rounded(.up), fb = b.rounded(.down)
        // As `DisplayListBuilder.spans` cuts the interval: one pixel, or a partly covered first
        // pixel, whole ones, a partly covered last one.
        func coverage(_ p: Double) -> Double {
            if cb - fa <= 1 { return b - a }
            if p < ca { return ca - a }
            if p >= fb { return b - fb }
            return 1
        }
        return (first, last, coverage(first), coverage(last))
    }
}

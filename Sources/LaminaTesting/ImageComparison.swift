import Foundation
import Lamina

/// A fuzzy image comparator for golden-image tests: two images match when no more than
/// `maxDifferingPixels` pixels differ by more than `channelTolerance` in any channel.
///
/// Anti-aliased edges legitimately move by a level or two between devices and drivers; shapes,
/// colours and positions must not.
public struct ImageComparison: Sendable {
    /// The largest per-channel difference that still counts as equal.
    public var channelTolerance: Int
    /// How many pixels may exceed the tolerance.
    public var maxDifferingPixels: Int

    /// A comparator that allows `channelTolerance` per channel and `maxDifferingPixels` pixels beyond it.
    public init(channelTolerance: Int = 4, maxDifferingPixels: Int = 0) {
        self.channelTolerance = channelTolerance
        self.maxDifferingPixels = maxDifferingPixels
    }

    /// The outcome of one comparison.
    public struct Result: Sendable, CustomStringConvertible {
        /// Whether the images match within the comparator's tolerances.
        public var matches: Bool
        /// Whether both images have the same width and height.
        public var sizesMatch: Bool
        /// The largest per-channel difference found.
        public var maxDifference: Int
        /// Pixels with some channel differing by more than the tolerance.
        public var differingPixels: Int
        /// The first differing pixel, if any.
        public var firstDifference: (x: Int, y: Int)?

        /// A summary: sizes, differing pixels and the largest channel difference.
        public var description: String {
            guard sizesMatch else { return "image sizes differ" }
            let first = firstDifference.map { " first at (\($0.x), \($0.y))" } ?? ""
            return "\(differingPixels) pixel(s) beyond tolerance, max channel difference \(maxDifference)\(first)"
        }
    }

    /// Compares `actual` with `expected`.
    public func compare(_ actual: CGImage, _ expected: CGImage) -> Result {
        guard actual.width == expected.width, actual.height == expected.height else {
            return Result(
                matches: false, sizesMatch: false, maxDifference: 255, differingPixels: actual.width * actual.height)
        }
        var maxDifference = 0, differing = 0
        var first: (Int, Int)?
        let a = actual.premultipliedRGBA, b = expected.premultipliedRGBA
        for p in 0..<(actual.width * actual.height) {
            var worst = 0
            for c in 0..<4 { worst = max(worst, abs(Int(a[p * 4 + c]) - Int(b[p * 4 + c]))) }
            maxDifference = max(maxDifference, worst)
            if worst > channelTolerance {
                differing += 1
                if first == nil { first = (p % actual.width, p / actual.width) }
            }
        }
        return Result(
            matches: differing <= maxDifferingPixels, sizesMatch: true, maxDifference: maxDifference,
            differingPixels: differing, firstDifference: first)
    }

    /// Compares `actual` with the golden PNG at `goldenPath`. With `LAMINA_UPDATE_GOLDEN=1` in the
    /// environment it writes `actual` there instead (to be reviewed before committing) and reports a match.
    public func compare(_ actual: CGImage, goldenPath: String) throws -> Result {
        if ProcessInfo.processInfo.environment["LAMINA_UPDATE_GOLDEN"] == "1" {
            try actual.writePNG(to: goldenPath)
            return Result(matches: true, sizesMatch: true, maxDifference: 0, differingPixels: 0, firstDifference: nil)
        }
        return compare(actual, try PNGCodec.read(goldenPath))
    }
}

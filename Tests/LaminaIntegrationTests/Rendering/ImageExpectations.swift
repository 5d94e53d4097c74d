import Lamina
import LaminaTesting
import Testing

// The pixel assertions every capture-based suite shares; each records an issue with a sentence from
// `PixelExpectation` naming the pixel, the colour found and the colour expected.

/// Records an issue unless pixel (`x`, `y`) has red, green and blue within `tolerance` of
/// `expected` (alpha is not checked).
func expectPixel(
    _ image: CGImage, _ x: Int, _ y: Int, _ expected: RGB, tolerance: Int = 2, _ note: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let expectation = PixelExpectation(red: expected.r, green: expected.g, blue: expected.b, tolerance: tolerance)
    if let failure = expectation.mismatch(in: image, x: x, y: y, note: note) {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
}

/// Records an issue unless pixel (`x`, `y`) has red, green, blue and alpha within `tolerance` of
/// `expected`.
func expectPixel(
    _ image: CGImage, _ x: Int, _ y: Int, _ expected: (Int, Int, Int, Int), tolerance: Int = 2,
    _ note: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    let expectation = PixelExpectation(
        red: expected.0, green: expected.1, blue: expected.2, alpha: expected.3,
        tolerance: tolerance)
    if let failure = expectation.mismatch(in: image, x: x, y: y, note: note) {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
}

/// Records an issue for the first of `points` whose red, green and blue are not within `tolerance`
/// of `expected` (one issue at most, so a wrong row reads as one failure).
func expectPixels(
    _ image: CGImage, _ points: [(x: Int, y: Int)], _ expected: RGB, tolerance: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let expectation = PixelExpectation(red: expected.r, green: expected.g, blue: expected.b, tolerance: tolerance)
    for (x, y) in points {
        if let failure = expectation.mismatch(in: image, x: x, y: y) {
            Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
            return
        }
    }
}

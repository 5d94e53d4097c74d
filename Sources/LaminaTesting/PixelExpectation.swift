import Lamina

/// A colour that one pixel of a capture should have, with a tolerance per 8-bit channel.
///
/// Tests assert the pixels that the geometry predicts with it. `mismatch` returns nil when every
/// checked channel is within `tolerance` of the expected one, and otherwise a sentence naming the
/// pixel, the colour found and the colour expected, ready to be recorded as a test's failure.
/// An expectation made from three channels checks red, green and blue and ignores alpha.
public struct PixelExpectation: Sendable, Equatable {
    /// The expected channels: red, green, blue and, when alpha is checked, alpha (0...255 each).
    public var channels: [Int]
    /// The largest difference per channel that still matches.
    public var tolerance: Int

    /// Expects red, green and blue within `tolerance`; alpha is not checked.
    public init(red: Int, green: Int, blue: Int, tolerance: Int) {
        channels = [red, green, blue]
        self.tolerance = tolerance
    }

    /// Expects red, green, blue and alpha within `tolerance`.
    public init(red: Int, green: Int, blue: Int, alpha: Int, tolerance: Int) {
        channels = [red, green, blue, alpha]
        self.tolerance = tolerance
    }

    /// Compares pixel (`x`, `y`) of `image` (top-left origin); `note` says what the pixel is.
    public func mismatch(in image: CGImage, x: Int, y: Int, note: String = "") -> String? {
        let p = image.pixel(x: x, y: y)
        return mismatch(actual: [Int(p.red), Int(p.green), Int(p.blue), Int(p.alpha)], x: x, y: y, note: note)
    }

    /// Compares `actual` (red, green, blue, alpha, from any pixel source) with the expected
    /// channels; `x`, `y` and `note` only label the failure.
    public func mismatch(actual: [Int], x: Int, y: Int, note: String = "") -> String? {
        let got = Array(actual.prefix(channels.count))
        let matches = got.count == channels.count && zip(got, channels).allSatisfy { abs($0 - $1) <= tolerance }
        guard !matches else { return nil }
        let label = note.isEmpty ? "" : " \(note)"
        return "pixel (\(x), \(y))\(label): got \(Self.format(got)), expected \(Self.format(channels)) ±\(tolerance)"
    }

    private static func format(_ channels: [Int]) -> String {
        "(" + channels.map(String.init).joined(separator: ", ") + ")"
    }
}

import Foundation

/// A colour as it travels on the wire and through the render tree: non-premultiplied sRGB components in
/// `0...1`, as `Double`s.
///
/// The client converts `CGColor` to this; the server premultiplies when it builds draw data.
public struct RGBAColor: Sendable, Hashable, Codable {
    /// Red, green, blue and alpha, each in `0...1` once validated.
    public var red, green, blue, alpha: Double

    /// Creates a colour from non-premultiplied components.
    public init(red: Double, green: Double, blue: Double, alpha: Double) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Fully transparent black, the colour of "no colour".
    public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0, alpha: 1)

    /// True when every component is finite and inside `0...1`.
    public var isValid: Bool {
        [red, green, blue, alpha].allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 }
    }

    /// The colour premultiplied by `alpha × opacity`, as the blender expects.
    public func premultiplied(opacity: Double = 1) -> SIMD4<Float> {
        let a = alpha * opacity
        return SIMD4(Float(red * a), Float(green * a), Float(blue * a), Float(a))
    }
}

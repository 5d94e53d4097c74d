import Foundation

/// Whether a gradient drawing extends past its start or end location.
///
/// Without either option the gradient paints only between its start and end (for a radial gradient,
/// the circles between the start and end circle). The raw values are Apple's.
public struct CGGradientDrawingOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: UInt32

    /// Makes options from their bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Paints the first colour before the start location (Apple's `kCGGradientDrawsBeforeStartLocation`, 1).
    public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1 << 0)
    /// Paints the last colour after the end location (Apple's `kCGGradientDrawsAfterEndLocation`, 2).
    public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 1 << 1)
}

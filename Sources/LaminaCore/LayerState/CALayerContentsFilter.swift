import Foundation

/// The filter that samples a layer's contents when they are drawn smaller or larger than their pixel
/// size (`CALayer.minificationFilter`, `CALayer.magnificationFilter`).
///
/// String-backed like Apple's `CALayerContentsFilter`, with the same raw values. Unknown names are
/// kept as given.
public struct CALayerContentsFilter: RawRepresentable, Hashable, Sendable {
    /// The filter's name, as Core Animation spells it.
    public let rawValue: String

    /// Wraps a filter name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a filter name without an argument label.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Bilinear interpolation of the nearest pixels (the default for both filters).
    public static let linear = CALayerContentsFilter("linear")
    /// The nearest pixel, unblended.
    public static let nearest = CALayerContentsFilter("nearest")
    /// Linear interpolation between two mipmap levels, each sampled bilinearly.
    public static let trilinear = CALayerContentsFilter("trilinear")
}

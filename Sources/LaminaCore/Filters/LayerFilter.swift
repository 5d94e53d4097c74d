import Foundation

/// One Core Image filter of a layer's `filters` or `backgroundFilters`, as the render server sees it:
/// the filter's kind, the name key paths use for it, and the one parameter the server draws.
///
/// The client keeps the `CIFilter` objects; a commit sends these copies (docs/protocol.md §7). The
/// server draws `CIGaussianBlur` (`isGaussianBlur`) and ignores every other kind.
public struct LayerFilter: Sendable, Hashable {
    /// The Core Image filter name the filter was created with (`"CIGaussianBlur"`).
    public var filterName: String
    /// The name key paths use for the filter (`filters.NAME.inputRadius`): the `CIFilter`'s `name`,
    /// which starts as `filterName`.
    public var name: String
    /// The blur's standard deviation in the layer's points (`inputRadius`); 0 for other filters.
    public var radius: Double

    /// The Core Image name of the Gaussian blur, the one filter the server draws.
    public static let gaussianBlurName = "CIGaussianBlur"
    /// The default `inputRadius` of `CIGaussianBlur` (Apple's Core Image Filter Reference): 10.
    public static let defaultBlurRadius: Double = 10
    /// The most filters a list may hold on the wire.
    public static let maxFilters = 16
    /// The most UTF-8 bytes a filter's `filterName` or `name` may have on the wire.
    public static let maxNameBytes = 128

    /// A filter of kind `filterName` named `name` (key paths) with blur radius `radius`.
    public init(filterName: String, name: String? = nil, radius: Double = 0) {
        self.filterName = filterName
        self.name = name ?? filterName
        self.radius = radius
    }

    /// Whether the server draws the filter: a Gaussian blur.
    public var isGaussianBlur: Bool { filterName == Self.gaussianBlurName }

    /// The standard deviation, in points, of one Gaussian blur equal to the blurs of `filters` applied
    /// one after another (variances add); 0 when none blurs. Radii that are not finite or below 0
    /// count as 0.
    public static func combinedBlurRadius(_ filters: [LayerFilter]) -> Double {
        var variance = 0.0
        for filter in filters where filter.isGaussianBlur && filter.radius.isFinite && filter.radius > 0 {
            variance += filter.radius * filter.radius
        }
        return variance.squareRoot()
    }

    /// Why `filters` cannot be set as property `key`, or nil when it is valid: at most `maxFilters`,
    /// names at most `maxNameBytes`, every radius finite and not negative.
    public static func invalidReason(_ filters: [LayerFilter], key: String) -> String? {
        if filters.count > maxFilters { return "\(key) has \(filters.count) filters, more than \(maxFilters)" }
        for filter in filters {
            if filter.filterName.utf8.count > maxNameBytes || filter.name.utf8.count > maxNameBytes {
                return "\(key) has a filter name longer than \(maxNameBytes) bytes"
            }
            if !filter.radius.isFinite { return "\(key) has a NaN or infinite inputRadius" }
            if filter.radius < 0 { return "\(key) has a negative inputRadius" }
        }
        return nil
    }
}

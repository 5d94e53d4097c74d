import Foundation

/// The direction of a `CATransition` (Apple's `CATransitionSubtype`).
public struct CATransitionSubtype: RawRepresentable, Hashable, Sendable {
    /// The name, as Core Animation spells it.
    public let rawValue: String
    /// Wraps a raw name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a raw name.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Motion from the right edge towards the left.
    public static let fromRight = CATransitionSubtype("fromRight")
    /// Motion from the left edge towards the right.
    public static let fromLeft = CATransitionSubtype("fromLeft")
    /// Motion from the top edge downwards.
    public static let fromTop = CATransitionSubtype("fromTop")
    /// Motion from the bottom edge upwards.
    public static let fromBottom = CATransitionSubtype("fromBottom")
}

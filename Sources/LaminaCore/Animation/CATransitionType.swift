import Foundation

/// The kind of a `CATransition` (Apple's `CATransitionType`).
public struct CATransitionType: RawRepresentable, Hashable, Sendable {
    /// The name, as Core Animation spells it.
    public let rawValue: String
    /// Wraps a raw name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a raw name.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// The new content fades in over the old.
    public static let fade = CATransitionType("fade")
    /// The new content slides in over the old.
    public static let moveIn = CATransitionType("moveIn")
    /// The new content pushes the old content out.
    public static let push = CATransitionType("push")
    /// The old content slides out, revealing the new.
    public static let reveal = CATransitionType("reveal")

    /// Every type Lamina draws.
    public static let known: [CATransitionType] = [.fade, .moveIn, .push, .reveal]
}

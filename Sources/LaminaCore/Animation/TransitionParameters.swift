import Foundation

/// The parameters of a `CATransition`.
public struct TransitionParameters: Sendable, Hashable {
    /// How the new content replaces the old (`type`).
    public var type: CATransitionType
    /// The side the motion comes from (`subtype`); nil moves as `fromLeft` does.
    public var subtype: CATransitionSubtype?
    /// The progress at which the transition starts (`startProgress`, 0...1).
    public var startProgress: Double
    /// The progress at which the transition ends (`endProgress`, 0...1).
    public var endProgress: Double

    /// Creates transition parameters.
    public init(
        type: CATransitionType = .fade, subtype: CATransitionSubtype? = nil, startProgress: Double = 0,
        endProgress: Double = 1
    ) {
        self.type = type
        self.subtype = subtype
        self.startProgress = startProgress
        self.endProgress = endProgress
    }
}

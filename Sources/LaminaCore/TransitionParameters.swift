import Foundation

/// The parameters of a `CATransition`.
public struct TransitionParameters: Sendable, Hashable {
    public var type: CATransitionType
    public var subtype: CATransitionSubtype?
    public var startProgress: Double
    public var endProgress: Double

    /// Creates transition parameters.
    public init(type: CATransitionType = .fade, subtype: CATransitionSubtype? = nil, startProgress: Double = 0,
                endProgress: Double = 1) {
        self.type = type
        self.subtype = subtype
        self.startProgress = startProgress
        self.endProgress = endProgress
    }
}

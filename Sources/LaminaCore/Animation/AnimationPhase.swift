import Foundation

/// Where an animation stands at a given time.
public enum AnimationPhase: Sendable, Hashable {
    /// Before its begin time.
    case pending
    /// Inside its active interval.
    case active
    /// Its active interval is over (it may still fill forwards).
    case finished
}

import Foundation
import LaminaCore

/// Something that happened to an animation on the server, reported to its client.
public struct AnimationEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: UInt8, Sendable, Hashable {
        /// The animation's begin time was reached.
        case started = 1
        /// The animation's active duration is over, and it was removed from its layer.
        case finishedAndRemoved = 2
        /// The animation's active duration is over; it stays attached (`isRemovedOnCompletion` false).
        case finished = 3
    }
    /// The animation's id as the client chose it.
    public var animationID: UInt64
    /// What happened to the animation.
    public var kind: Kind
    /// The media time of the frame at which it happened.
    public var time: Double

    /// Creates an event.
    public init(animationID: UInt64, kind: Kind, time: Double) {
        self.animationID = animationID
        self.kind = kind
        self.time = time
    }
}

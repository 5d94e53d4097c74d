import Foundation

/// Timing shared by layers and animations (Apple's `CAMediaTiming` protocol).
///
/// Local time is `(parent time − beginTime) × speed + timeOffset`; `docs/animation.md` explains the
/// model and `MediaTiming` in LaminaCore implements it.
public protocol CAMediaTiming: AnyObject {
    /// When the object starts, in its parent's time space.
    var beginTime: CFTimeInterval { get set }
    /// The length of one simple pass, in local seconds.
    var duration: CFTimeInterval { get set }
    /// The rate of local time against parent time.
    var speed: Float { get set }
    /// Added to local time after scaling.
    var timeOffset: CFTimeInterval { get set }
    /// Number of iterations; `.infinity` repeats forever.
    var repeatCount: Float { get set }
    /// Total time to repeat for; `.infinity` repeats forever.
    var repeatDuration: CFTimeInterval { get set }
    /// Whether each iteration plays forward then backward.
    var autoreverses: Bool { get set }
    /// What is shown outside the active interval.
    var fillMode: CAMediaTimingFillMode { get set }
}

extension CAMediaTiming {
    /// The timing as LaminaCore's value.
    var mediaTiming: MediaTiming {
        MediaTiming(
            beginTime: beginTime, timeOffset: timeOffset, duration: duration, speed: Double(speed),
            repeatCount: Double(repeatCount), repeatDuration: repeatDuration, autoreverses: autoreverses,
            fillMode: fillMode)
    }
}

extension NSNull: CAAction {
    /// Does nothing: `NSNull` as an action means "no action".
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

/// The action key of a layer being added to a layer tree (Apple's `kCAOnOrderIn`).
public let kCAOnOrderIn = "onOrderIn"
/// The action key of a layer being removed from a layer tree (Apple's `kCAOnOrderOut`).
public let kCAOnOrderOut = "onOrderOut"
/// The action key of a transition about to run on a layer (Apple's `kCATransition`).
public let kCATransition = "transition"

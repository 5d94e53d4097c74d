import Foundation

/// How a keyframe animation computes the values between its keyframes, mirroring Core
/// Animation's `CAAnimationCalculationMode`.
///
/// String-backed like Apple's, with the same raw values. An unknown name behaves like `linear`.
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name, as Core Animation spells it.
    public let rawValue: String

    /// Wraps a mode name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a mode name without an argument label.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Straight interpolation between keyframes at their key times (the default).
    public static let linear = CAAnimationCalculationMode("linear")
    /// No interpolation: each keyframe value holds until the next key time.
    public static let discrete = CAAnimationCalculationMode("discrete")
    /// Straight interpolation at constant speed; key times and timing functions are ignored.
    public static let paced = CAAnimationCalculationMode("paced")
    /// A smooth spline through the keyframes at their key times.
    public static let cubic = CAAnimationCalculationMode("cubic")
    /// The spline of `cubic` travelled at constant speed; key times and timing functions are
    /// ignored.
    public static let cubicPaced = CAAnimationCalculationMode("cubicPaced")
}

import Foundation

/// The name of one of Core Animation's predefined timing functions.
///
/// String-backed, as Apple's is, so the raw values match Core Animation's.
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    /// The name, as Core Animation spells it.
    public let rawValue: String

    /// Wraps a raw name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a raw name.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Even pacing: control points (0, 0) and (1, 1).
    public static let linear = CAMediaTimingFunctionName("linear")
    /// Slow start: control points (0.42, 0) and (1, 1).
    public static let easeIn = CAMediaTimingFunctionName("easeIn")
    /// Slow finish: control points (0, 0) and (0.58, 1).
    public static let easeOut = CAMediaTimingFunctionName("easeOut")
    /// Slow start and finish: control points (0.42, 0) and (0.58, 1).
    public static let easeInEaseOut = CAMediaTimingFunctionName("easeInEaseOut")
    /// The system default curve: control points (0.25, 0.1) and (0.25, 1).
    public static let `default` = CAMediaTimingFunctionName("default")
}

import Foundation

/// How much care a context takes when it scales images, with Core Graphics' raw values
/// (`CGContext.h`; note that `medium` comes after `high` there).
public enum CGInterpolationQuality: Int32, Sendable, Hashable {
    /// The context's default.
    case `default` = 0
    /// No interpolation: the nearest pixel.
    case none = 1
    /// Fast, low-quality interpolation.
    case low = 2
    /// Slower, high-quality interpolation.
    case high = 3
    /// Between low and high.
    case medium = 4
}

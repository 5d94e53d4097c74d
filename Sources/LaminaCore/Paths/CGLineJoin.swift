import Foundation

/// How the corners between stroked segments are drawn, with Core Graphics' raw values (`CGPath.h`).
public enum CGLineJoin: Int32, Sendable, Hashable {
    /// Sharp corners, cut to a bevel past the miter limit.
    case miter = 0
    /// Rounded corners.
    case round = 1
    /// Corners cut off square.
    case bevel = 2
}

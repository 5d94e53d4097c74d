import Foundation

/// How the ends of stroked open subpaths are drawn, with Core Graphics' raw values (`CGPath.h`).
public enum CGLineCap: Int32, Sendable, Hashable {
    /// The stroke stops at the end point.
    case butt = 0
    /// A half circle of the line's width around the end point.
    case round = 1
    /// A half square of the line's width beyond the end point.
    case square = 2
}

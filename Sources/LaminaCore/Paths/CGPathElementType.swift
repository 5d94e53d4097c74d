import Foundation

/// The kind of a `CGPathElement`, with Core Graphics' raw values (`CGPath.h`).
public enum CGPathElementType: Int32, Sendable, Hashable {
    /// Starts a new subpath at `points[0]`.
    case moveToPoint = 0
    /// A line to `points[0]`.
    case addLineToPoint = 1
    /// A quadratic curve to `points[1]` with the control point `points[0]`.
    case addQuadCurveToPoint = 2
    /// A cubic curve to `points[2]` with the control points `points[0]` and `points[1]`.
    case addCurveToPoint = 3
    /// Closes the subpath; no points.
    case closeSubpath = 4
}

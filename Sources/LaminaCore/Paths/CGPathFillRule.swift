import Foundation

/// The rule that decides which points a path encloses, mirroring Core Graphics' `CGPathFillRule`.
public enum CGPathFillRule: Int, Sendable, Hashable {
    /// Non-zero winding: inside when the path winds around the point a non-zero number of times.
    case winding = 0
    /// Even-odd: inside when a ray from the point crosses the path an odd number of times.
    case evenOdd = 1
}

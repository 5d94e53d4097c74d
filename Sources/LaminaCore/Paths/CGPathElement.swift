import Foundation

/// One element of a path as `CGPath.applyWithBlock(_:)` hands it out, as in Core Graphics: its kind
/// and a pointer to its points (controls first, end point last; none for a close). The pointer is
/// valid only during the call.
public struct CGPathElement {
    /// The element's kind.
    public var type: CGPathElementType
    /// The element's points (1 for moves and lines, 2 for quadratic curves, 3 for cubic ones).
    public var points: UnsafeMutablePointer<CGPoint>

    /// An element of `type` whose points are at `points`.
    public init(type: CGPathElementType, points: UnsafeMutablePointer<CGPoint>) {
        self.type = type
        self.points = points
    }
}

import Foundation

/// One element of a path: a move, a straight line, a quadratic or cubic Bézier curve, or a close.
///
/// Lamina's Swift form of Core Graphics' `CGPathElement` (whose `type` and `points` pointer do
/// not suit a pure value). Every point is in the path's own coordinate space.
public enum PathElement: Sendable, Hashable {
    /// Starts a new subpath at the point.
    case moveTo(CGPoint)
    /// A straight line from the current point to the point.
    case lineTo(CGPoint)
    /// A quadratic Bézier curve from the current point to the first point, bent by `control`.
    case quadCurveTo(CGPoint, control: CGPoint)
    /// A cubic Bézier curve from the current point to the first point, bent by two controls.
    case curveTo(CGPoint, control1: CGPoint, control2: CGPoint)
    /// A straight line back to the start of the current subpath, closing it.
    case closeSubpath

    /// The element's points in order, controls first and end point last; empty for a close.
    var points: [CGPoint] {
        switch self {
        case .moveTo(let p), .lineTo(let p): [p]
        case .quadCurveTo(let p, let c): [c, p]
        case .curveTo(let p, let c1, let c2): [c1, c2, p]
        case .closeSubpath: []
        }
    }

    /// The element with every point mapped by `t`.
    func applying(_ t: CGAffineTransform) -> PathElement {
        switch self {
        case .moveTo(let p): .moveTo(p.applying(t))
        case .lineTo(let p): .lineTo(p.applying(t))
        case .quadCurveTo(let p, let c): .quadCurveTo(p.applying(t), control: c.applying(t))
        case .curveTo(let p, let c1, let c2):
            .curveTo(p.applying(t), control1: c1.applying(t), control2: c2.applying(t))
        case .closeSubpath: .closeSubpath
        }
    }
}

import Foundation

/// The outline of a layer's background, border and `masksToBounds` clip for drawing with Core
/// Graphics: its bounds with the corners `maskedCorners` names rounded by `cornerRadius`.
///
/// As the render server draws them: the radius is limited to half the shorter side; circular
/// corners are quarter circles (cubic Béziers); continuous corners reach `radius × 1.528665` along
/// each edge (Apple's `cornerCurveExpansionFactor`) and follow the well-known three-cubic
/// approximation of Apple's continuous curve, which differs from the server's own curve by a
/// fraction of a pixel; a continuous radius too large for its reach to fit is drawn circular, as the
/// server does. A border's inner edge is the same shape inset by the border width, its radius reduced
/// by the width.
struct LayerShape {
    /// The radius asked for, before it is limited to the rectangle.
    var radius: CGFloat
    /// The corners that are rounded.
    var corners: CACornerMask
    /// Whether the corners follow the continuous curve.
    var continuous: Bool

    /// The shape of a layer's state.
    init(_ state: LayerState) {
        radius = state.cornerRadius.isFinite ? max(state.cornerRadius, 0) : 0
        corners = state.maskedCorners
        continuous = state.cornerCurve == .continuous
    }

    /// The outline of `rect`, its radius reduced by `inset` (the border's inner edge).
    func path(in rect: CGRect, inset: CGFloat = 0) -> CGMutablePath {
        let path = CGMutablePath()
        guard !rect.isEmpty else { return path }
        let limit = min(rect.width, rect.height) / 2
        let r = min(max(radius - inset, 0), limit)
        guard r > 0, !corners.isEmpty else {
            path.addRect(rect)
            return path
        }
        let reach: CGFloat = 1.528665
        let smooth = continuous && r * reach <= limit
        func rounding(_ corner: CACornerMask) -> CGFloat { corners.contains(corner) ? r : 0 }
        // Clockwise in a y-down reading: from the min-x end of the min-y edge.
        let a = CGPoint(x: rect.minX, y: rect.minY), b = CGPoint(x: rect.maxX, y: rect.minY)
        let c = CGPoint(x: rect.maxX, y: rect.maxY), d = CGPoint(x: rect.minX, y: rect.maxY)
        let rA = rounding(.layerMinXMinYCorner), rB = rounding(.layerMaxXMinYCorner)
        let rC = rounding(.layerMaxXMaxYCorner), rD = rounding(.layerMinXMaxYCorner)
        let ext = smooth ? reach : 1
        path.move(to: CGPoint(x: a.x + rA * ext, y: a.y))
        corner(path, at: b, radius: rB, in: CGVector(dx: 1, dy: 0), out: CGVector(dx: 0, dy: 1), smooth: smooth)
        corner(path, at: c, radius: rC, in: CGVector(dx: 0, dy: 1), out: CGVector(dx: -1, dy: 0), smooth: smooth)
        corner(path, at: d, radius: rD, in: CGVector(dx: -1, dy: 0), out: CGVector(dx: 0, dy: -1), smooth: smooth)
        corner(path, at: a, radius: rA, in: CGVector(dx: 0, dy: -1), out: CGVector(dx: 1, dy: 0), smooth: smooth)
        path.closeSubpath()
        return path
    }

    /// Adds the edge leading to corner `p` (travelling along `in`) and the corner itself, which leaves
    /// along `out`.
    private func corner(
        _ path: CGMutablePath, at p: CGPoint, radius r: CGFloat, in i: CGVector, out o: CGVector, smooth: Bool
    ) {
        // A point given as distances back along the incoming edge and on along the outgoing one.
        func at(_ back: CGFloat, _ on: CGFloat) -> CGPoint {
            CGPoint(x: p.x - i.dx * back * r + o.dx * on * r, y: p.y - i.dy * back * r + o.dy * on * r)
        }
        guard r > 0 else {
            path.addLine(to: p)
            return
        }
        if smooth {
            path.addLine(to: at(1.528665, 0))
            path.addCurve(to: at(0.63149399, 0.07491100), control1: at(1.08849296, 0), control2: at(0.86840694, 0))
            path.addCurve(
                to: at(0.07491100, 0.63149399), control1: at(0.37282392, 0.16905899),
                control2: at(0.16905899, 0.37282392))
            path.addCurve(to: at(0, 1.528665), control1: at(0, 0.86840694), control2: at(0, 1.08849296))
        } else {
            let k: CGFloat = 0.5522847498
            path.addLine(to: at(1, 0))
            path.addCurve(to: at(0, 1), control1: at(1 - k, 0), control2: at(0, 1 - k))
        }
    }
}

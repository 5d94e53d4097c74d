import Foundation

extension CGPath {
    /// The path a fraction `t` of the way from `a` to `b`, every point moved linearly, when both have
    /// the same elements (the same sequence of element types); nil otherwise.
    ///
    /// Apple: "Paths will interpolate as a linear blend of the 'on-line' points; 'off-line' points may
    /// be interpolated non-linearly … If the two paths have a different number of control points or
    /// segments the results are undefined" (`CAShapeLayer.h`). Lamina blends control points linearly
    /// too; for paths that differ, animations jump at the midpoint (`AnimationValue.interpolate`).
    public static func interpolate(_ a: CGPath, _ b: CGPath, _ t: Double) -> CGPath? {
        let x = a.pathElements, y = b.pathElements
        guard x.count == y.count else { return nil }
        if a === b { return a }
        func mix(_ p: CGPoint, _ q: CGPoint) -> CGPoint { CGPoint(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t) }
        var elements: [PathElement] = []
        elements.reserveCapacity(x.count)
        for (e, f) in zip(x, y) {
            switch (e, f) {
            case (.moveTo(let p), .moveTo(let q)): elements.append(.moveTo(mix(p, q)))
            case (.lineTo(let p), .lineTo(let q)): elements.append(.lineTo(mix(p, q)))
            case (.quadCurveTo(let p, let c), .quadCurveTo(let q, let d)):
                elements.append(.quadCurveTo(mix(p, q), control: mix(c, d)))
            case (.curveTo(let p, let c1, let c2), .curveTo(let q, let d1, let d2)):
                elements.append(.curveTo(mix(p, q), control1: mix(c1, d1), control2: mix(c2, d2)))
            case (.closeSubpath, .closeSubpath): elements.append(.closeSubpath)
            default: return nil
            }
        }
        return CGPath(pathElements: elements)
    }

    /// The Euclidean distance between two paths with the same elements, over all their points (paced
    /// keyframe animations space path keyframes by it); 0 when their elements differ.
    public static func distance(_ a: CGPath, _ b: CGPath) -> Double {
        guard a.pathElements.count == b.pathElements.count else { return 0 }
        var sum = 0.0
        for (e, f) in zip(a.pathElements, b.pathElements) {
            let p = e.points, q = f.points
            guard p.count == q.count else { return 0 }
            for (u, v) in zip(p, q) { sum += (u.x - v.x) * (u.x - v.x) + (u.y - v.y) * (u.y - v.y) }
        }
        return sum.squareRoot()
    }

    /// Whether every point of every element is finite.
    public var hasOnlyFinitePoints: Bool {
        pathElements.allSatisfy { $0.points.allSatisfy { $0.x.isFinite && $0.y.isFinite } }
    }

    /// The number of elements (moves, lines, curves and closes).
    public var elementCount: Int { pathElements.count }

    /// A path of `elements`, as they are (the server builds paths from the wire with it).
    public static func make(elements: [PathElement]) -> CGPath {
        CGPath(pathElements: elements)
    }
}

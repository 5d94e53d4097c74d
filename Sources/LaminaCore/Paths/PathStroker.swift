import Foundation

/// Builds the outline of a subpath's stroke as closed polygons that, filled with the winding
/// rule, cover exactly the stroke: what `CGPath.copy(strokingWithWidth:…)` returns.
///
/// Curves are flattened to within `tolerance` first, and round joins and caps are polygons within
/// the same tolerance. An open subpath gives one ring: the left offset forward, the end cap, the
/// right offset backward, the start cap. A closed subpath gives two rings, the left offset forward
/// and the right offset backward. At each corner the outer side gets the join; the inner side
/// passes through the corner point itself, so each ring is the sum of one rectangle per piece,
/// one wedge per join and the caps, all turning the same way, and their union fills with a
/// nonzero winding number.
struct PathStroker {
    /// Half the line width.
    let halfWidth: Double
    /// The cap of open subpaths' ends.
    let cap: CGLineCap
    /// The join at corners between elements; within a flattened curve, joins are round.
    let join: CGLineJoin
    /// The longest miter, as a multiple of the line width, before a miter join is bevelled.
    let miterLimit: Double
    /// How far flattened curves, joins and caps may stray from the true outline.
    let tolerance: Double

    /// The rings of `subpath`'s stroke as elements (moves, lines and closes).
    func outline(_ subpath: PathSubpath) -> [PathElement] {
        var points = [subpath.segments[0].start]
        var corners = [true]
        let scale = max(1, halfWidth)
        for segment in subpath.segments {
            let polyline = segment.flattened(tolerance: tolerance)
            for (index, point) in polyline.enumerated().dropFirst() {
                let corner = index == polyline.count - 1
                if length(point - points[points.count - 1]) <= 1e-12 * scale {
                    if corner { corners[corners.count - 1] = true }
                    continue
                }
                points.append(point)
                corners.append(corner)
            }
        }
        if subpath.closed, points.count > 1, length(points[points.count - 1] - points[0]) <= 1e-12 * scale {
            points.removeLast()
            corners.removeLast()
        }
        guard points.count > 1 else { return dot(at: points[0]) }
        let count = points.count
        let edges = subpath.closed ? count : count - 1
        let directions = (0..<edges).map { normalized(points[($0 + 1) % count] - points[$0]) }
        if subpath.closed {
            var left: [SIMD2<Double>] = []
            var right: [SIMD2<Double>] = []
            for vertex in 0..<count {
                let incoming = directions[(vertex + edges - 1) % edges], outgoing = directions[vertex]
                left += joinPoints(at: points[vertex], from: incoming, to: outgoing, side: 1, corner: corners[vertex])
                right += joinPoints(at: points[vertex], from: incoming, to: outgoing, side: -1, corner: corners[vertex])
            }
            return ring(left) + ring(right.reversed())
        }
        var left = [points[0] + halfWidth * normal(directions[0])]
        var right = [points[0] - halfWidth * normal(directions[0])]
        for vertex in 1..<(count - 1) {
            let incoming = directions[vertex - 1], outgoing = directions[vertex]
            left += joinPoints(at: points[vertex], from: incoming, to: outgoing, side: 1, corner: corners[vertex])
            right += joinPoints(at: points[vertex], from: incoming, to: outgoing, side: -1, corner: corners[vertex])
        }
        let last = directions[edges - 1]
        left.append(points[count - 1] + halfWidth * normal(last))
        right.append(points[count - 1] - halfWidth * normal(last))
        let endCap = capPoints(at: points[count - 1], direction: last)
        let startCap = capPoints(at: points[0], direction: -directions[0])
        return ring(left + endCap + right.reversed() + startCap)
    }

    /// The corner at `point` between `incoming` and `outgoing` (unit directions) on one side
    /// (`side` 1: left, −1: right): the end of the incoming offset, the join, and the start of the
    /// outgoing offset.
    private func joinPoints(
        at point: SIMD2<Double>, from incoming: SIMD2<Double>, to outgoing: SIMD2<Double>, side: Double, corner: Bool
    ) -> [SIMD2<Double>] {
        let a = point + side * halfWidth * normal(incoming)
        let b = point + side * halfWidth * normal(outgoing)
        let cross = incoming.x * outgoing.y - incoming.y * outgoing.x
        let dot = (incoming * outgoing).sum()
        let straight = abs(cross) <= 1e-12
        if straight && dot > 0 { return [a] }
        // Turning back on itself: the left side gets the join, the right passes the point.
        let outer = straight ? side > 0 : side * cross < 0
        guard outer else { return [a, point, b] }
        switch corner ? join : .round {
        case .bevel:
            return [a, b]
        case .miter:
            let cosHalf = ((1 + dot) / 2).squareRoot()
            guard cosHalf > 0, 1 / cosHalf <= miterLimit else { return [a, b] }
            let bisector = normalized(normal(incoming) + normal(outgoing)) * side
            return [a, point + bisector * (halfWidth / cosHalf), b]
        case .round:
            let sweep = straight ? -Double.pi : atan2(cross, dot)
            return [a] + arc(around: point, from: a - point, sweep: sweep) + [b]
        }
    }

    /// The points a cap adds between the left and right offsets at an end whose outward
    /// direction is `direction`.
    private func capPoints(at point: SIMD2<Double>, direction: SIMD2<Double>) -> [SIMD2<Double>] {
        let n = normal(direction) * halfWidth
        let reach = direction * halfWidth
        switch cap {
        case .butt: return []
        case .square: return [point + n + reach, point - n + reach]
        case .round: return arc(around: point, from: n, sweep: -Double.pi)
        }
    }

    /// The stroke of a subpath whose points all coincide: a disc for round caps, an axis-aligned
    /// square for square caps, nothing for butt caps.
    private func dot(at point: SIMD2<Double>) -> [PathElement] {
        switch cap {
        case .butt: return []
        case .square:
            let h = halfWidth
            return ring([
                point + SIMD2(-h, h), point + SIMD2(h, h), point + SIMD2(h, -h), point + SIMD2(-h, -h),
            ])
        case .round:
            let start = SIMD2<Double>(halfWidth, 0)
            return ring([point + start] + arc(around: point, from: start, sweep: -2 * Double.pi))
        }
    }

    /// The points strictly inside an arc of radius `halfWidth` around `center`, starting at offset
    /// `from` and turning by `sweep`, spaced so that chords stay within `tolerance`.
    private func arc(around center: SIMD2<Double>, from: SIMD2<Double>, sweep: Double) -> [SIMD2<Double>] {
        guard sweep.isFinite, from.x.isFinite, from.y.isFinite else { return [] }
        let ratio = min(1, tolerance / halfWidth)
        let step = max(2 * acos(1 - ratio), 1e-3)
        let pieces = Int(min(1024, max(1, (abs(sweep) / step).rounded(.up))))
        let start = atan2(from.y, from.x)
        return (1..<pieces).map { index in
            let angle = start + sweep * Double(index) / Double(pieces)
            return center + halfWidth * SIMD2(cos(angle), sin(angle))
        }
    }

    /// A closed subpath through `points`.
    private func ring(_ points: [SIMD2<Double>]) -> [PathElement] {
        guard let first = points.first else { return [] }
        return [.moveTo(cgPoint(first))] + points.dropFirst().map { .lineTo(cgPoint($0)) } + [.closeSubpath]
    }

    private func cgPoint(_ v: SIMD2<Double>) -> CGPoint { CGPoint(x: v.x, y: v.y) }
    private func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
    private func normalized(_ v: SIMD2<Double>) -> SIMD2<Double> { v / length(v) }
    /// The left normal: the direction turned a quarter towards increasing angles.
    private func normal(_ d: SIMD2<Double>) -> SIMD2<Double> { SIMD2(-d.y, d.x) }
}

import Foundation

extension PathSegment {
    /// The part of the segment between curve parameters `u0` and `u1` (0 ≤ u0 ≤ u1 ≤ 1), as a
    /// segment of the same degree (de Casteljau subdivision).
    func piece(from u0: Double, to u1: Double) -> PathSegment {
        let head = split(at: u1).head
        guard u1 > 0 else { return PathSegment(points: Array(repeating: start, count: points.count)) }
        return head.split(at: u0 / u1).tail
    }

    /// The segment cut at parameter `u` into the part before and the part after.
    func split(at u: Double) -> (head: PathSegment, tail: PathSegment) {
        var level = points
        var head = [level[0]]
        var tail = [level[level.count - 1]]
        while level.count > 1 {
            level = (0..<(level.count - 1)).map { level[$0] + (level[$0 + 1] - level[$0]) * u }
            head.append(level[0])
            tail.append(level[level.count - 1])
        }
        return (PathSegment(points: head), PathSegment(points: tail.reversed()))
    }

    /// The segment as the element that draws it from its start.
    var element: PathElement {
        func p(_ v: SIMD2<Double>) -> CGPoint { CGPoint(x: v.x, y: v.y) }
        switch points.count {
        case 3: return .quadCurveTo(p(points[2]), control: p(points[1]))
        case 4: return .curveTo(p(points[3]), control1: p(points[1]), control2: p(points[2]))
        default: return .lineTo(p(end))
        }
    }
}

/// A segment measured along its length: the curve parameter at each vertex of its flattening and
/// the distance travelled to it, so that a distance maps back to a parameter.
struct MeasuredSegment {
    /// The segment measured.
    let segment: PathSegment
    /// Curve parameters of the flattening's vertices, 0 first and 1 last.
    let parameters: [Double]
    /// Distance along the flattening to each vertex, 0 first.
    let distances: [Double]

    /// Measures `segment`, flattened within `tolerance`.
    init(_ segment: PathSegment, tolerance: Double) {
        self.segment = segment
        let steps = segment.points.count == 2 ? 1 : segment.steps(tolerance: tolerance)
        var parameters = [0.0]
        var distances = [0.0]
        var previous = segment.start
        for index in 1...steps {
            let u = Double(index) / Double(steps)
            let point = index == steps ? segment.end : segment.point(at: u)
            let d = point - previous
            parameters.append(u)
            distances.append(distances[distances.count - 1] + (d * d).sum().squareRoot())
            previous = point
        }
        self.parameters = parameters
        self.distances = distances
    }

    /// The segment's length.
    var length: Double { distances[distances.count - 1] }

    /// The curve parameter `distance` along the segment (interpolated between vertices).
    func parameter(at distance: Double) -> Double {
        if distance <= 0 { return 0 }
        if distance >= length { return 1 }
        var low = 0
        var high = distances.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if distances[middle] <= distance { low = middle } else { high = middle }
        }
        let span = distances[high] - distances[low]
        let fraction = span > 0 ? (distance - distances[low]) / span : 0
        return parameters[low] + (parameters[high] - parameters[low]) * fraction
    }
}

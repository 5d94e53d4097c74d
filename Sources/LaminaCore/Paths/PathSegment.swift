import Foundation

/// One drawn piece of a path as a Bézier curve of degree 1, 2 or 3 (2, 3 or 4 control points).
///
/// Shared by `CGPath.contains` and the keyframe timelines; all maths in `Double`.
struct PathSegment: Sendable, Hashable {
    /// The control points, start first and end last.
    var points: [SIMD2<Double>]

    /// A segment with the given control points.
    init(points: [SIMD2<Double>]) {
        self.points = points
    }

    /// The segment drawn by a line or curve element that starts at `start`.
    init(from start: SIMD2<Double>, element: PathElement) {
        points = [start] + element.points.map { SIMD2<Double>(Double($0.x), Double($0.y)) }
    }

    /// The first point.
    var start: SIMD2<Double> { points[0] }

    /// The last point.
    var end: SIMD2<Double> { points[points.count - 1] }

    /// The point at curve parameter `u` (de Casteljau; `u` outside 0...1 extrapolates).
    func point(at u: Double) -> SIMD2<Double> {
        var p = points
        while p.count > 1 {
            for i in 0..<(p.count - 1) { p[i] = p[i] + (p[i + 1] - p[i]) * u }
            p.removeLast()
        }
        return p[0]
    }

    /// The derivative with respect to `u`: degree times the curve of the control-point differences.
    func derivative(at u: Double) -> SIMD2<Double> {
        let degree = Double(points.count - 1)
        let differences = PathSegment(points: (1..<points.count).map { points[$0] - points[$0 - 1] })
        return degree * differences.point(at: u)
    }

    /// The direction of travel at `u`: the derivative, or where it vanishes the direction to the
    /// next distinct control point (first half) or from the previous one (second half); nil when
    /// all control points coincide.
    func direction(at u: Double) -> SIMD2<Double>? {
        let d = derivative(at: u)
        let scale = points.map { abs($0.x) + abs($0.y) }.max() ?? 0
        if (d * d).sum().squareRoot() > 1e-12 * max(scale, 1) { return d }
        if u <= 0.5 {
            if let next = points.dropFirst().first(where: { $0 != start }) { return next - start }
        } else if let previous = points.dropLast().last(where: { $0 != end }) {
            return end - previous
        }
        return points.count > 1 && start != end ? end - start : nil
    }

    /// The curve parameters in (0, 1) where x or y has a local extremum, with their points, plus
    /// both end points.
    var extremePoints: [SIMD2<Double>] {
        var parameters: [Double] = []
        for axis in 0..<2 {
            let c = points.map { $0[axis] }
            switch c.count {
            case 3:
                let denominator = c[0] - 2 * c[1] + c[2]
                if denominator != 0 { parameters.append((c[0] - c[1]) / denominator) }
            case 4:
                let a = -c[0] + 3 * c[1] - 3 * c[2] + c[3]
                let b = 2 * (c[0] - 2 * c[1] + c[2])
                let d = c[1] - c[0]
                if abs(a) < 1e-12 * (abs(b) + abs(d) + 1e-300) {
                    if b != 0 { parameters.append(-d / b) }
                } else {
                    let discriminant = b * b - 4 * a * d
                    if discriminant >= 0 {
                        let root = discriminant.squareRoot()
                        parameters.append((-b + root) / (2 * a))
                        parameters.append((-b - root) / (2 * a))
                    }
                }
            default:
                break
            }
        }
        return [start] + parameters.filter { $0 > 0 && $0 < 1 }.map { point(at: $0) } + [end]
    }

    /// The number of equal parameter steps that keeps the chords within `tolerance` of the curve.
    ///
    /// A chord of a curve with second derivative bounded by `M` strays at most `M·h²/8` for a
    /// parameter step `h`; `M ≤ n(n−1)·max |Δ²P|` for degree `n`. Between 1 and `maximumSteps`,
    /// also for control points so far apart that the bound overflows (client input may be any finite
    /// value, so nothing here may convert an unbounded `Double` to `Int`).
    func steps(tolerance: Double) -> Int {
        let degree = points.count - 1
        guard degree > 1 else { return 1 }
        var largest = 0.0
        for i in 0..<(points.count - 2) {
            let d = points[i] - 2 * points[i + 1] + points[i + 2]
            largest = max(largest, (d * d).sum().squareRoot())
        }
        let bound = Double(degree * (degree - 1)) * largest
        guard bound > 0 else { return 1 }
        let wanted = (bound / (8 * tolerance)).squareRoot().rounded(.up)
        guard wanted.isFinite else { return Self.maximumSteps }
        return Int(min(Double(Self.maximumSteps), max(1, wanted)))
    }

    /// The most chords one curve is cut into.
    static let maximumSteps = 4096

    /// The curve as a polyline within `tolerance`, both ends included.
    func flattened(tolerance: Double) -> [SIMD2<Double>] {
        if points.count == 2 { return points }
        let n = steps(tolerance: tolerance)
        return (0...n).map { $0 == n ? end : point(at: Double($0) / Double(n)) }
    }
}

import Foundation

/// The positions and headings of a `CAKeyframeAnimation` given by `path`, as a pure function of
/// the animation's fraction of progress.
///
/// Each path element after the first move (a line, a quadratic or cubic curve, or a close, which
/// is a line back to the subpath's start) is one segment; a later move is a jump that takes no
/// time. Rules, per `calculationMode`:
/// - linear, cubic (the path already is the curve) and unknown modes: segments are timed evenly,
///   or by `keyTimes` when it has one entry per segment boundary (segments + 1) and is valid;
///   within segment `i` the curve parameter advances linearly in time, eased by
///   `timingFunctions[i]` when there is one per segment. Worked example (E35): two cubic arches
///   from (74, 74); at fraction 0.25 the point is (197, 393.5);
/// - discrete: the segment end points (the start of each segment, then the last end) are the
///   keyframe values, timed as `KeyframeTimeline` times discrete values;
/// - paced and cubicPaced: constant speed along the arc length; key times and timing functions
///   are ignored. Curves are flattened to within 1e-3 of their true position, and the parameter
///   within a flattened piece is interpolated linearly, so the point is always on the curve.
///
/// Fractions outside 0...1 hold the start or end point. A path with no segments stays at its
/// first move point; an empty path has no point.
public struct PathTimeline: Sendable, Hashable {
    /// The path followed.
    public let path: CGPath
    /// How positions between the path's vertices are computed.
    public let calculationMode: CAAnimationCalculationMode
    /// The drawn segments in order.
    let segments: [PathSegment]
    /// The first move point, if any.
    let origin: SIMD2<Double>?
    /// Segment boundary times (segments + 1), or vertex times for discrete.
    let times: [Double]
    /// One timing function per segment, or nil.
    let segmentTimingFunctions: [CAMediaTimingFunction]?
    /// For paced modes: flattened samples `(segment, parameter, cumulative length)`.
    let arcSamples: [ArcSample]

    /// A point of the flattened path for constant-speed travel.
    struct ArcSample: Sendable, Hashable {
        /// The segment the sample lies on.
        var segment: Int
        /// The curve parameter within that segment.
        var parameter: Double
        /// Arc length from the start of the path.
        var length: Double
    }

    /// Builds the timeline; see the type's documentation for how each argument is used.
    public init(
        path: CGPath, keyTimes: [Double]?, timingFunctions: [CAMediaTimingFunction]?,
        calculationMode: CAAnimationCalculationMode
    ) {
        self.path = path
        self.calculationMode = calculationMode
        let segments = path.subpathSegments(closingOpenSubpaths: false).flatMap { $0 }
        self.segments = segments
        origin =
            path.pathElements.lazy.compactMap { element -> SIMD2<Double>? in
                if case .moveTo(let p) = element { return SIMD2<Double>(Double(p.x), Double(p.y)) }
                return nil
            }.first
        let m = segments.count

        var samples: [ArcSample] = []
        var times: [Double]
        switch calculationMode {
        case .discrete:
            let vertices = m + 1
            times =
                KeyframeTimeline.validKeyTimes(keyTimes, counts: [vertices, vertices + 1]).map {
                    Array($0.prefix(vertices))
                }
                ?? (0..<vertices).map { Double($0) / Double(vertices) }
        case .paced, .cubicPaced:
            var length = 0.0
            let steps = PathTimeline.sampleCounts(segments, tolerance: 1e-3)
            for (index, segment) in segments.enumerated() {
                let n = steps[index]
                var previous = segment.start
                samples.append(ArcSample(segment: index, parameter: 0, length: length))
                for k in 1...n {
                    let u = Double(k) / Double(n)
                    let p = k == n ? segment.end : segment.point(at: u)
                    let step = ((p - previous) * (p - previous)).sum().squareRoot()
                    length += step.isFinite ? step : 0
                    samples.append(ArcSample(segment: index, parameter: u, length: length))
                    previous = p
                }
            }
            if length > 0 {
                times = []
            } else {
                samples = []
                times = KeyframeTimeline.evenTimes(m + 1)
            }
        default:
            times = KeyframeTimeline.validKeyTimes(keyTimes, counts: [m + 1]) ?? KeyframeTimeline.evenTimes(m + 1)
        }
        self.times = times
        arcSamples = samples
        let eased = calculationMode != .discrete && calculationMode != .paced && calculationMode != .cubicPaced
        if eased, let timingFunctions, m > 0, timingFunctions.count == m {
            segmentTimingFunctions = timingFunctions
        } else {
            segmentTimingFunctions = nil
        }
    }

    /// The chords per segment that measure a paced path's arc length: each segment's own count for
    /// `tolerance`, scaled down evenly when their sum would pass `sampleBudget(segmentCount:)`, so the
    /// samples a path costs (time and memory) grow at most linearly with its number of segments,
    /// however far apart its control points lie.
    static func sampleCounts(_ segments: [PathSegment], tolerance: Double) -> [Int] {
        let wanted = segments.map { $0.steps(tolerance: tolerance) }
        let total = wanted.reduce(0, +)
        let budget = sampleBudget(segmentCount: segments.count)
        guard total > budget else { return wanted }
        let scale = Double(budget) / Double(total)
        return wanted.map { max(1, Int(Double($0) * scale)) }
    }

    /// The most chords a paced path of `segmentCount` segments is measured with, in all:
    /// 4,096 plus 16 per segment (each segment still gets at least one, so the count never passes
    /// 4,096 + 17 per segment).
    static func sampleBudget(segmentCount: Int) -> Int { 4096 + 16 * segmentCount }

    /// The position at `fraction` of the animation's progress; nil for an empty path.
    public func point(at fraction: Double) -> CGPoint? {
        guard let (segment, u) = locate(fraction) else {
            return origin.map { CGPoint(x: $0.x, y: $0.y) }
        }
        let p = segments[segment].point(at: u)
        return CGPoint(x: p.x, y: p.y)
    }

    /// The heading at `fraction`: `atan2(dy, dx)` of the direction of travel, in radians, in the
    /// layer's y-down space (so a path going down the screen gives +π/2).
    ///
    /// Where the derivative vanishes (a control point on an end point) the direction to the
    /// neighbouring control point is used; a segment of zero length borrows the heading of the
    /// nearest segment that has one. Nil when the path has no segments; 0 when none has a length.
    public func tangentAngle(at fraction: Double) -> Double? {
        guard let (segment, u) = locate(fraction) else { return nil }
        if let d = segments[segment].direction(at: u) { return atan2(d.y, d.x) }
        for offset in 1..<max(segments.count, 1) {
            if segment - offset >= 0, let d = segments[segment - offset].direction(at: 1) { return atan2(d.y, d.x) }
            if segment + offset < segments.count, let d = segments[segment + offset].direction(at: 0) {
                return atan2(d.y, d.x)
            }
        }
        return 0
    }

    /// The segment and curve parameter at `fraction`; nil when there are no segments.
    func locate(_ fraction: Double) -> (Int, Double)? {
        let m = segments.count
        guard m > 0 else { return nil }
        let f = fraction.isNaN ? 0 : min(max(fraction, 0), 1)

        if calculationMode == .discrete {
            let vertex = times.lastIndex(where: { $0 <= f }) ?? 0
            return vertex < m ? (vertex, 0) : (m - 1, 1)
        }

        if !arcSamples.isEmpty {
            let total = arcSamples[arcSamples.count - 1].length
            let target = f * total
            var lo = 0
            var hi = arcSamples.count - 1
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if arcSamples[mid].length <= target { lo = mid } else { hi = mid }
            }
            let a = arcSamples[lo]
            let b = arcSamples[hi]
            guard a.segment == b.segment else { return (b.segment, 0) }
            let span = b.length - a.length
            let within = span > 0 ? (target - a.length) / span : 0
            return (a.segment, a.parameter + (b.parameter - a.parameter) * within)
        }

        if f < times[0] { return (0, 0) }
        if f >= times[m] { return (m - 1, 1) }
        let segment = min(times.lastIndex(where: { $0 <= f })!, m - 1)
        var u = (f - times[segment]) / (times[segment + 1] - times[segment])
        if let timing = segmentTimingFunctions?[segment] { u = timing.evaluate(u) }
        return (segment, u)
    }
}

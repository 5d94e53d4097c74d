import Foundation

/// How a keyframe animation computes the values between its keyframes, mirroring Core
/// Animation's `CAAnimationCalculationMode`.
///
/// String-backed like Apple's, with the same raw values. An unknown name behaves like `linear`.
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name, as Core Animation spells it.
    public let rawValue: String

    /// Wraps a mode name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a mode name without an argument label.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Straight interpolation between keyframes at their key times (the default).
    public static let linear = CAAnimationCalculationMode("linear")
    /// No interpolation: each keyframe value holds until the next key time.
    public static let discrete = CAAnimationCalculationMode("discrete")
    /// Straight interpolation at constant speed; key times and timing functions are ignored.
    public static let paced = CAAnimationCalculationMode("paced")
    /// A smooth spline through the keyframes at their key times.
    public static let cubic = CAAnimationCalculationMode("cubic")
    /// The spline of `cubic` travelled at constant speed; key times and timing functions are
    /// ignored.
    public static let cubicPaced = CAAnimationCalculationMode("cubicPaced")
}

/// Whether a layer moving along a keyframe path turns to follow it, mirroring Core Animation's
/// `CAAnimationRotationMode`.
///
/// String-backed like Apple's, with the same raw values. With either mode the layer's rotation
/// about z is the path's tangent angle (`PathTimeline.tangentAngle(at:)`); `rotateAutoReverse`
/// adds π. Without a mode (nil) the layer does not turn.
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name, as Core Animation spells it.
    public let rawValue: String

    /// Wraps a mode name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a mode name without an argument label.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Turn to the direction of travel.
    public static let rotateAuto = CAAnimationRotationMode("auto")
    /// Turn to the opposite of the direction of travel.
    public static let rotateAutoReverse = CAAnimationRotationMode("autoReverse")
}

/// The values of a `CAKeyframeAnimation` given by `values` as a pure function of the animation's
/// fraction of progress.
///
/// The caller applies the animation's timing (`MediaTiming`, the animation-level timing
/// function) first and passes the resulting fraction. All tables are computed once, in `init`.
///
/// Rules, per `calculationMode`:
/// - key times: used by linear, cubic and discrete when valid, i.e. `values.count` entries (or
///   `values.count + 1` for discrete, as Apple documents), finite, within 0...1 and
///   non-decreasing; otherwise evenly spaced: `i/(n−1)` for linear and cubic, `i/n` for discrete;
/// - linear: segment `i` runs from `keyTimes[i]` to `keyTimes[i+1]`; its local fraction is eased
///   by `timingFunctions[i]` when there are exactly `n−1` timing functions, then interpolated by
///   `AnimationValue.interpolate`;
/// - discrete: value `i` holds from `keyTimes[i]` until the next key time; the last value holds
///   to the end (and at fraction 1);
/// - cubic: a Kochanek–Bartels (TCB) spline through the values, component-wise, with per-keyframe
///   tension, continuity and bias (missing entries count as 0, which gives Catmull-Rom), end
///   tangents from duplicated end points, and tangents scaled for unequal key-time spacing so the
///   speed is continuous across keyframes; timing as in linear. Transforms, Booleans and mixed
///   kinds fall back to linear interpolation; colours are clamped to 0...1;
/// - paced: key times proportional to the cumulative `AnimationValue.distance`, linear
///   interpolation, no timing functions, so the speed is constant;
/// - cubicPaced: the cubic spline (uniform, no time scaling) travelled at constant speed: each
///   segment's arc length and its arc-length-to-parameter table come from 64 equal parameter
///   steps (a chord approximation accurate to well under 0.1 % for ordinary keyframes); key times
///   are proportional to cumulative arc length. Falls back to paced where cubic does;
/// - paced modes with a total distance of 0 (or not finite) space the keyframes evenly.
///
/// Before the first key time (inside 0...1) the first value holds and after the last key time the
/// last value; fractions below 0 or above 1 extrapolate the first or last segment (without its
/// timing function) when that segment starts at 0 or ends at 1, so overshooting curves overshoot.
public struct KeyframeTimeline: Sendable, Hashable {
    /// The keyframe values.
    public let values: [AnimationValue]
    /// How values between keyframes are computed.
    public let calculationMode: CAAnimationCalculationMode
    /// The key times in effect: one per value, after validation, defaults and pacing.
    public let keyTimes: [Double]
    /// One timing function per segment, or nil when segments are not eased.
    let segmentTimingFunctions: [CAMediaTimingFunction]?
    /// Component vectors of the values, when a spline is used.
    let splinePoints: [[Double]]?
    /// Per keyframe, the tangent leaving it (start of the next segment).
    let outgoingTangents: [[Double]]
    /// Per keyframe, the tangent arriving at it (end of the previous segment).
    let incomingTangents: [[Double]]
    /// Per segment, cumulative chord lengths at 64 equal parameter steps (cubicPaced only).
    let arcLengthTables: [[Double]]

    /// The number of parameter steps per segment that measure a cubicPaced segment's length.
    static let arcSamples = 64

    /// Builds the timeline; see the type's documentation for how each argument is used.
    public init(
        values: [AnimationValue], keyTimes: [Double]?, timingFunctions: [CAMediaTimingFunction]?,
        calculationMode: CAAnimationCalculationMode, tensionValues: [Double]?, continuityValues: [Double]?,
        biasValues: [Double]?
    ) {
        self.values = values
        self.calculationMode = calculationMode
        let n = values.count
        let mode = calculationMode

        var points: [[Double]]? = nil
        if mode == .cubic || mode == .cubicPaced, n >= 2, let first = values.first {
            let kind = first.kind
            let splinable: Set<AnimationValue.Kind> = [.number, .point, .size, .rect, .color]
            if splinable.contains(kind), values.allSatisfy({ $0.kind == kind }),
               !(kind == .color && values.allSatisfy({ $0 == .color(nil) })) {
                points = values.map(\.components)
            }
        }

        var times: [Double]
        var arcTables: [[Double]] = []
        switch mode {
        case .discrete:
            times = Self.validKeyTimes(keyTimes, counts: [n, n + 1]).map { Array($0.prefix(n)) }
                ?? (0..<n).map { Double($0) / Double(n) }
        case .paced:
            times = Self.pacedTimes((0..<max(n - 1, 0)).map { AnimationValue.distance(values[$0], values[$0 + 1]) })
                ?? Self.evenTimes(n)
        case .cubicPaced where points == nil:
            times = Self.pacedTimes((0..<max(n - 1, 0)).map { AnimationValue.distance(values[$0], values[$0 + 1]) })
                ?? Self.evenTimes(n)
        case .cubicPaced:
            times = Self.evenTimes(n)
        default:
            times = Self.validKeyTimes(keyTimes, counts: [n]) ?? Self.evenTimes(n)
        }

        var outgoing: [[Double]] = []
        var incoming: [[Double]] = []
        if let points {
            (outgoing, incoming) = Self.tangents(
                points, keyTimes: mode == .cubic ? times : nil,
                tension: tensionValues ?? [], continuity: continuityValues ?? [], bias: biasValues ?? [])
            if mode == .cubicPaced {
                arcTables = (0..<(n - 1)).map {
                    Self.arcLengthTable(points[$0], points[$0 + 1], outgoing[$0], incoming[$0 + 1])
                }
                times = Self.pacedTimes(arcTables.map { $0.last ?? 0 }) ?? Self.evenTimes(n)
            }
        }
        self.keyTimes = times
        splinePoints = points
        outgoingTangents = outgoing
        incomingTangents = incoming
        arcLengthTables = arcTables

        let eased = mode == .linear || mode == .cubic || !Self.knownModes.contains(mode)
        if eased, let timingFunctions, n >= 2, timingFunctions.count == n - 1 {
            segmentTimingFunctions = timingFunctions
        } else {
            segmentTimingFunctions = nil
        }
    }

    /// The value at `fraction` of the animation's progress, or nil when there are no values.
    ///
    /// At a keyframe's key time the result is exactly that keyframe's value (except where equal
    /// key times make a jump, where the later keyframe wins).
    public func value(at fraction: Double) -> AnimationValue? {
        let n = values.count
        guard n > 0 else { return nil }
        guard n > 1 else { return values[0] }
        let f = fraction.isNaN ? 0 : fraction

        if calculationMode == .discrete {
            guard let i = keyTimes.lastIndex(where: { $0 <= f }) else { return values[0] }
            return values[i]
        }

        let first = keyTimes[0]
        let last = keyTimes[n - 1]
        let segment: Int
        var u: Double
        if f < first {
            guard f < 0, first == 0, keyTimes[1] > first else { return values[0] }
            segment = 0
            u = (f - first) / (keyTimes[1] - first)
        } else if f >= last {
            guard f > 1, last == 1, keyTimes[n - 2] < last else { return values[n - 1] }
            segment = n - 2
            u = (f - keyTimes[n - 2]) / (last - keyTimes[n - 2])
        } else {
            segment = keyTimes.lastIndex(where: { $0 <= f })!
            u = (f - keyTimes[segment]) / (keyTimes[segment + 1] - keyTimes[segment])
            if let timing = segmentTimingFunctions?[segment] {
                u = timing.evaluate(u)
            }
        }
        return interpolate(segment: segment, u)
    }

    // MARK: - Segments

    /// The value at local parameter `u` of segment `i` (from keyframe `i` to `i + 1`).
    func interpolate(segment i: Int, _ u: Double) -> AnimationValue {
        guard let points = splinePoints else {
            return AnimationValue.interpolate(values[i], values[i + 1], u)
        }
        if u == 0 { return values[i] }
        if u == 1 { return values[i + 1] }
        var s = u
        if calculationMode == .cubicPaced, u > 0, u < 1 {
            s = Self.parameter(forArcFraction: u, table: arcLengthTables[i])
        }
        var c = Self.hermite(points[i], points[i + 1], outgoingTangents[i], incomingTangents[i + 1], s)
        let kind = values[0].kind
        if kind == .color { c = c.map { min(max($0, 0), 1) } }
        return AnimationValue.make(kind, c) ?? AnimationValue.interpolate(values[i], values[i + 1], u)
    }

    /// The cubic Hermite curve from `p0` to `p1` with tangents `m0` and `m1`, at `s`.
    static func hermite(_ p0: [Double], _ p1: [Double], _ m0: [Double], _ m1: [Double], _ s: Double) -> [Double] {
        let s2 = s * s
        let s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1
        let h10 = s3 - 2 * s2 + s
        let h01 = -2 * s3 + 3 * s2
        let h11 = s3 - s2
        return (0..<p0.count).map { h00 * p0[$0] + h10 * m0[$0] + h01 * p1[$0] + h11 * m1[$0] }
    }

    /// Kochanek–Bartels tangents for every keyframe: `(outgoing, incoming)`.
    ///
    /// With `a = p[i] − p[i−1]` and `b = p[i+1] − p[i]` (0 beyond the ends) and the keyframe's
    /// tension `T`, continuity `C`, bias `B`:
    /// outgoing = `(1−T)(1+B)(1+C)/2 · a + (1−T)(1−B)(1−C)/2 · b`,
    /// incoming = `(1−T)(1+B)(1−C)/2 · a + (1−T)(1−B)(1+C)/2 · b`.
    /// With `keyTimes`, interior tangents are scaled by `2Δ₊/(Δ₋+Δ₊)` (outgoing) and
    /// `2Δ₋/(Δ₋+Δ₊)` (incoming), `Δ₋` and `Δ₊` being the durations of the segments before and
    /// after, so the value's speed in time is continuous across the keyframe.
    static func tangents(
        _ p: [[Double]], keyTimes: [Double]?, tension: [Double], continuity: [Double], bias: [Double]
    ) -> ([[Double]], [[Double]]) {
        let n = p.count
        func parameter(_ array: [Double], _ i: Int) -> Double {
            i < array.count && array[i].isFinite ? array[i] : 0
        }
        var outgoing: [[Double]] = []
        var incoming: [[Double]] = []
        for i in 0..<n {
            let zero = [Double](repeating: 0, count: p[i].count)
            let a = i > 0 ? zip(p[i], p[i - 1]).map(-) : zero
            let b = i < n - 1 ? zip(p[i + 1], p[i]).map(-) : zero
            let t = parameter(tension, i)
            let c = parameter(continuity, i)
            let bi = parameter(bias, i)
            var outA = (1 - t) * (1 + bi) * (1 + c) / 2
            var outB = (1 - t) * (1 - bi) * (1 - c) / 2
            var inA = (1 - t) * (1 + bi) * (1 - c) / 2
            var inB = (1 - t) * (1 - bi) * (1 + c) / 2
            if let keyTimes, i > 0, i < n - 1 {
                let before = keyTimes[i] - keyTimes[i - 1]
                let after = keyTimes[i + 1] - keyTimes[i]
                if before > 0, after > 0 {
                    let outScale = 2 * after / (before + after)
                    let inScale = 2 * before / (before + after)
                    outA *= outScale
                    outB *= outScale
                    inA *= inScale
                    inB *= inScale
                }
            }
            outgoing.append(zip(a, b).map { outA * $0 + outB * $1 })
            incoming.append(zip(a, b).map { inA * $0 + inB * $1 })
        }
        return (outgoing, incoming)
    }

    /// Cumulative chord lengths of a Hermite segment at `arcSamples` equal parameter steps; the
    /// first entry is 0 and the last the segment's approximate arc length.
    static func arcLengthTable(_ p0: [Double], _ p1: [Double], _ m0: [Double], _ m1: [Double]) -> [Double] {
        var table = [0.0]
        var previous = p0
        for k in 1...arcSamples {
            let point = hermite(p0, p1, m0, m1, Double(k) / Double(arcSamples))
            let step = zip(point, previous).reduce(0.0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
            table.append(table[table.count - 1] + (step.isFinite ? step : 0))
            previous = point
        }
        return table
    }

    /// The curve parameter at which a fraction `u` of a segment's arc length has been travelled,
    /// by linear interpolation in its table; `u` itself when the segment has no length.
    static func parameter(forArcFraction u: Double, table: [Double]) -> Double {
        guard let total = table.last, total > 0 else { return u }
        let target = u * total
        var lo = 0
        var hi = table.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if table[mid] <= target { lo = mid } else { hi = mid }
        }
        let span = table[hi] - table[lo]
        let within = span > 0 ? (target - table[lo]) / span : 0
        return (Double(lo) + within) / Double(table.count - 1)
    }

    // MARK: - Key times

    /// The modes this type implements; others behave like linear.
    static let knownModes: Set<CAAnimationCalculationMode> = [.linear, .discrete, .paced, .cubic, .cubicPaced]

    /// `keyTimes` when its count is one of `counts` and it is finite, within 0...1 and
    /// non-decreasing; nil otherwise.
    static func validKeyTimes(_ keyTimes: [Double]?, counts: [Int]) -> [Double]? {
        guard let keyTimes, counts.contains(keyTimes.count), !keyTimes.isEmpty else { return nil }
        guard keyTimes.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) else { return nil }
        guard zip(keyTimes, keyTimes.dropFirst()).allSatisfy({ $0 <= $1 }) else { return nil }
        return keyTimes
    }

    /// `n` evenly spaced key times `i/(n−1)` (just `[0]` for one value).
    static func evenTimes(_ n: Int) -> [Double] {
        guard n > 1 else { return n == 1 ? [0] : [] }
        return (0..<n).map { $0 == n - 1 ? 1 : Double($0) / Double(n - 1) }
    }

    /// Key times proportional to the cumulative `lengths` of the segments; nil when the total is
    /// 0 or not finite (non-finite single lengths count as 0).
    static func pacedTimes(_ lengths: [Double]) -> [Double]? {
        let clean = lengths.map { $0.isFinite && $0 > 0 ? $0 : 0 }
        let total = clean.reduce(0, +)
        guard total > 0, total.isFinite else { return nil }
        var times = [0.0]
        var sum = 0.0
        for (i, length) in clean.enumerated() {
            sum += length
            times.append(i == clean.count - 1 ? 1 : sum / total)
        }
        return times
    }
}

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
        origin = path.pathElements.lazy.compactMap { element -> SIMD2<Double>? in
            if case .moveTo(let p) = element { return SIMD2<Double>(Double(p.x), Double(p.y)) }
            return nil
        }.first
        let m = segments.count

        var samples: [ArcSample] = []
        var times: [Double]
        switch calculationMode {
        case .discrete:
            let vertices = m + 1
            times = KeyframeTimeline.validKeyTimes(keyTimes, counts: [vertices, vertices + 1]).map { Array($0.prefix(vertices)) }
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

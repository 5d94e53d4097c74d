import Foundation

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
                !(kind == .color && values.allSatisfy({ $0 == .color(nil) }))
            {
                points = values.map(\.components)
            }
        }

        var times: [Double]
        var arcTables: [[Double]] = []
        switch mode {
        case .discrete:
            times =
                Self.validKeyTimes(keyTimes, counts: [n, n + 1]).map { Array($0.prefix(n)) }
                ?? (0..<n).map { Double($0) / Double(n) }
        case .paced:
            times =
                Self.pacedTimes((0..<max(n - 1, 0)).map { AnimationValue.distance(values[$0], values[$0 + 1]) })
                ?? Self.evenTimes(n)
        case .cubicPaced where points == nil:
            times =
                Self.pacedTimes((0..<max(n - 1, 0)).map { AnimationValue.distance(values[$0], values[$0 + 1]) })
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

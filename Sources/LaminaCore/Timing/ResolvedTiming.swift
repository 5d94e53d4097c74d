import Foundation

/// A `MediaTiming` with what its progress needs worked out once: the iteration and active
/// durations, the fraction a forward fill holds, and the fill mode as two flags (the fill mode is a
/// string, compared on every evaluation otherwise).
///
/// `progress(atParent:)` is `MediaTiming.localTime(fromParent:)` followed by
/// `MediaTiming.progress(atLocal:)`, with their arithmetic in their order, so the fraction is the
/// same bit for bit (`EvaluationPlanTests`).
struct ResolvedTiming: Sendable {
    /// The timing's own `beginTime`, `timeOffset`, `speed` and `duration`.
    var beginTime, timeOffset, speed, duration: Double
    /// `MediaTiming`'s iteration and active durations, and the fraction a forward fill holds.
    var iterationDuration, activeDuration, endFraction: Double
    /// Whether each iteration plays back after forward, and whether the fill mode holds the start
    /// before the active duration and the end after it.
    var autoreverses, fillsBackwards, fillsForwards: Bool

    /// Works out `timing`'s durations and fill flags.
    init(_ timing: MediaTiming) {
        beginTime = timing.beginTime
        timeOffset = timing.timeOffset
        speed = timing.speed
        duration = timing.duration
        iterationDuration = timing.iterationDuration
        activeDuration = timing.activeDuration
        endFraction = timing.endFraction
        autoreverses = timing.autoreverses
        fillsBackwards = timing.fillMode.fillsBackwards
        fillsForwards = timing.fillMode.fillsForwards
    }

    /// The fraction (0...1) of the simple duration reached at `t`, a time of the parent's time space,
    /// or nil when the object has no effect then.
    @inline(__always)
    func progress(atParent t: Double) -> Double? {
        let local = (t - beginTime) * speed + timeOffset
        if local < 0 {
            guard fillsBackwards else { return nil }
            return duration > 0 ? 0 : 1
        }
        if local >= activeDuration {
            guard fillsForwards else { return nil }
            return endFraction
        }
        guard duration > 0 else { return 1 }
        let k = (local / iterationDuration).rounded(.down)
        var offset = local - k * iterationDuration
        if autoreverses && offset > duration {
            offset = 2 * duration - offset
        }
        return min(max(offset / duration, 0), 1)
    }
}

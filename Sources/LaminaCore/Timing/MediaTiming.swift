import Foundation

/// The timing properties of Core Animation's `CAMediaTiming` protocol as a plain value, and the
/// pure time model built on them.
///
/// Everything here is a function of its arguments: there is no clock and no shared state, so the
/// client (for presentation layers) and the server (for frames) compute identical results from
/// the same inputs.
///
/// Two time spaces are involved for each object:
/// - the *parent* time space: the local time of the enclosing layer (or of an enclosing animation
///   group), or global media time at the root;
/// - the *local* time space: parent time mapped by `localTime(fromParent:)`. A layer's local time
///   is the parent time of its sublayers and of its animations; an animation's local time, counted
///   from 0 at its start, is what `progress(atLocal:)` takes.
public struct MediaTiming: Sendable, Hashable {
    /// When the object starts, in its parent's time space. Default 0.
    ///
    /// On a layer it shifts the time base of the whole subtree (the resume recipe uses this).
    public var beginTime: Double
    /// Added to local time after scaling by `speed`. Default 0.
    ///
    /// With `speed` 0 it becomes the frozen local time (pausing and scrubbing).
    public var timeOffset: Double
    /// Length of one simple (forward) pass, in local seconds. Default 0.
    ///
    /// Callers apply Core Animation's 0.25 s default for animations before using this model;
    /// here 0 means "no progress" (see `progress(atLocal:)`).
    public var duration: Double
    /// Rate of local time relative to parent time. Default 1; 0 freezes local time at
    /// `timeOffset`. Speeds multiply down a hierarchy.
    public var speed: Double
    /// Number of iterations; fractional values allowed, `.infinity` repeats forever. Default 0,
    /// which (like any value ≤ 0) means a single iteration. With `autoreverses` one iteration is a
    /// forward pass followed by a backward pass.
    public var repeatCount: Double
    /// Total active time in local seconds; `.infinity` repeats forever. Default 0 (unused). When
    /// positive it takes precedence over `repeatCount` (Apple leaves setting both undefined).
    public var repeatDuration: Double
    /// When true every iteration plays forward and then backward. Default false.
    public var autoreverses: Bool
    /// What the object shows outside its active interval. Default `.removed`.
    public var fillMode: CAMediaTimingFillMode

    /// Creates timing with Core Animation's defaults unless given: every number 0 except `speed`
    /// 1, no autoreverse, fill mode `.removed`.
    public init(
        beginTime: Double = 0,
        timeOffset: Double = 0,
        duration: Double = 0,
        speed: Double = 1,
        repeatCount: Double = 0,
        repeatDuration: Double = 0,
        autoreverses: Bool = false,
        fillMode: CAMediaTimingFillMode = .removed
    ) {
        self.beginTime = beginTime
        self.timeOffset = timeOffset
        self.duration = duration
        self.speed = speed
        self.repeatCount = repeatCount
        self.repeatDuration = repeatDuration
        self.autoreverses = autoreverses
        self.fillMode = fillMode
    }

    // MARK: - Mapping between parent and local time

    /// Maps a time `t` in the parent's time space to this object's local time:
    /// `(t - beginTime) * speed + timeOffset`.
    ///
    /// A layer applies this to give its subtree (sublayers and animations) their parent time; an
    /// animation applies it to its layer's local time to get the time it feeds to
    /// `progress(atLocal:)`.
    public func localTime(fromParent t: Double) -> Double {
        (t - beginTime) * speed + timeOffset
    }

    /// The inverse of `localTime(fromParent:)`: `(t - timeOffset) / speed + beginTime`.
    ///
    /// With `speed` 0 every parent time maps to the same local time, so there is no inverse; this
    /// then returns `beginTime`, the parent time at which the frozen clock's time base sits.
    public func parentTime(fromLocal t: Double) -> Double {
        if speed == 0 { return beginTime }
        return (t - timeOffset) / speed + beginTime
    }

    // MARK: - Durations

    /// The length of one iteration in local seconds: `duration`, doubled when `autoreverses`.
    public var iterationDuration: Double {
        duration * (autoreverses ? 2 : 1)
    }

    /// The length of the active interval in local seconds, which starts at local time 0.
    ///
    /// - `repeatDuration` when it is positive (it wins over `repeatCount`);
    /// - otherwise `repeatCount * iterationDuration` when `repeatCount` is positive;
    /// - otherwise `iterationDuration` (one iteration).
    ///
    /// An infinite `repeatCount` or `repeatDuration` gives `.infinity`, except that an infinite
    /// `repeatCount` of zero-length iterations gives 0 (nothing to repeat), never NaN.
    public var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        let iteration = iterationDuration
        if repeatCount > 0 {
            if iteration <= 0 { return 0 }
            return repeatCount * iteration
        }
        return iteration
    }

    // MARK: - Progress

    /// The fraction (0...1) of the simple duration reached at local time `t`, or nil when the
    /// object has no effect at `t`.
    ///
    /// `t` is this object's local time, counted from its own start at 0, i.e. a parent time already
    /// passed through `localTime(fromParent:)`. The active interval is `0 ..< activeDuration`.
    ///
    /// - Before 0: nil, unless the fill mode fills backwards; then the start fraction, 0.
    /// - Inside: iteration `k = floor(t / iterationDuration)`, offset `t - k * iterationDuration`;
    ///   with `autoreverses` an offset past `duration` runs backwards (`2 * duration - offset`);
    ///   the fraction is offset / duration. At an inner iteration boundary the next iteration has
    ///   begun, so without `autoreverses` the fraction there is 0, not 1.
    /// - At or after `activeDuration`: nil, unless the fill mode fills forwards; then the fraction
    ///   at the very end of the active interval (see `endFraction`).
    /// - `duration` ≤ 0: there is no progress to measure, so whenever the object is in effect
    ///   (by the rules above; its active interval is then empty unless `repeatDuration` is set)
    ///   the result is 1. Callers substitute the 0.25 s default duration before calling.
    ///
    /// Negative speeds are not modelled here beyond `localTime(fromParent:)`.
    @inline(__always)
    public func progress(atLocal t: Double) -> Double? {
        let active = activeDuration
        if t < 0 {
            guard fillMode.fillsBackwards else { return nil }
            return duration > 0 ? 0 : 1
        }
        if t >= active {
            guard fillMode.fillsForwards else { return nil }
            return endFraction
        }
        guard duration > 0 else { return 1 }
        let iteration = iterationDuration
        let k = (t / iteration).rounded(.down)
        var offset = t - k * iteration
        if autoreverses && offset > duration {
            offset = 2 * duration - offset
        }
        return Self.clampUnit(offset / duration)
    }

    /// The fraction shown once the active interval is over (what `forwards` fill holds).
    ///
    /// This is the limit of the fraction as local time approaches `activeDuration` from below:
    /// - a whole number of iterations ends on the last iteration's end: 1 without `autoreverses`,
    ///   0 with it (back at the start);
    /// - a fractional number ends part-way through an iteration, e.g. `repeatCount` 2.5 (duration 1,
    ///   no autoreverse) ends at 0.5 and `repeatDuration` 1.5 at 0.5; with `autoreverses`, where an
    ///   iteration is a forward and a backward pass, `repeatCount` 1.5 ends at the end of a forward
    ///   pass (1), 0.75 ends half-way back (0.5) and 1.25 half-way forward (0.5);
    /// - an infinite active duration never ends; 1 is returned for completeness;
    /// - `duration` ≤ 0 gives 1 (no progress).
    ///
    /// Within a relative tolerance of 1e-9 an iteration count is treated as whole, so that
    /// rounding in `repeatCount * iterationDuration` does not turn "the end" into "just after a
    /// new start".
    public var endFraction: Double {
        guard duration > 0 else { return 1 }
        let active = activeDuration
        guard active.isFinite else { return 1 }
        let iteration = iterationDuration
        let count = active / iteration
        let whole = count.rounded()
        let phase: Double
        if whole >= 1 && abs(count - whole) <= 1e-9 * max(1, count) {
            phase = iteration
        } else {
            phase = (count - count.rounded(.down)) * iteration
        }
        var offset = phase
        if autoreverses && offset > duration {
            offset = 2 * duration - offset
        }
        return Self.clampUnit(offset / duration)
    }

    private static func clampUnit(_ x: Double) -> Double {
        min(max(x, 0), 1)
    }

    // MARK: - Hierarchical time

    /// Maps a time through a chain of timings, outermost first: starting from `t` in the time
    /// space of the chain's parent (global time when the chain starts at the root), each element's
    /// `localTime(fromParent:)` is applied in turn. The result is the local time of the last
    /// element. An empty chain returns `t` unchanged.
    public static func convert(_ t: Double, through chain: [MediaTiming]) -> Double {
        chain.reduce(t) { time, timing in timing.localTime(fromParent: time) }
    }

    /// The inverse of `convert(_:through:)`: maps a local time of the chain's last element back to
    /// the time space of the chain's parent, applying `parentTime(fromLocal:)` innermost first.
    /// A speed of 0 along the way makes the result that element's `beginTime` mapped further up.
    public static func parentTime(_ t: Double, fromLocalOf chain: [MediaTiming]) -> Double {
        chain.reversed().reduce(t) { time, timing in timing.parentTime(fromLocal: time) }
    }

    /// Maps `t`, a local time of the object at the end of `source`, into the local time of the
    /// object at the end of `destination`, like `CALayer.convertTime(_:from:)` and
    /// `convertTime(_:to:)`.
    ///
    /// Each chain lists an object's timings from the root's outermost ancestor down to the object
    /// itself; an empty chain stands for global time (Apple's `nil` layer). The conversion goes up
    /// from `source` and down to `destination`. The longest common leading run of equal timings is
    /// skipped first: its mapping would be applied and then undone, so skipping it changes nothing
    /// when it is invertible, and when a shared ancestor has speed 0 (a paused subtree) it keeps
    /// times inside that subtree convertible instead of collapsing them.
    public static func convertTime(
        _ t: Double, from source: [MediaTiming], to destination: [MediaTiming]
    ) -> Double {
        var shared = 0
        while shared < source.count, shared < destination.count,
            source[shared] == destination[shared]
        {
            shared += 1
        }
        let up = parentTime(t, fromLocalOf: Array(source[shared...]))
        return convert(up, through: Array(destination[shared...]))
    }
}

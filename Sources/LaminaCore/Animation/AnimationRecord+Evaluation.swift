import Foundation

extension AnimationRecord {
    /// Where the animation stands at `t`, a time of its layer's local time space.
    public func phase(atParent t: Double) -> AnimationPhase {
        let local = timing.localTime(fromParent: t)
        if local < 0 { return .pending }
        if local >= timing.activeDuration { return .finished }
        return .active
    }

    /// The fraction (after the timing function) and the animation's local time at layer time `t`,
    /// or nil when the animation has no effect then.
    @inline(__always)
    func progress(atParent t: Double) -> (fraction: Double, local: Double)? {
        let local = timing.localTime(fromParent: t)
        guard let linear = timing.progress(atLocal: local) else { return nil }
        let fraction = timingFunction?.function.evaluate(linear) ?? linear
        return (fraction, local)
    }

    /// The index of the iteration at the animation's local time `local` (the last one once the
    /// active duration is over). Only cumulative animations need it, so it is worked out for them
    /// alone.
    func iteration(atLocal local: Double) -> Double {
        var iteration = 0.0
        let length = timing.iterationDuration
        if length > 0 {
            let active = timing.activeDuration
            let clamped = min(max(local, 0), active)
            iteration = (clamped / length).rounded(.down)
            if clamped >= active && active.isFinite {
                iteration = max(0, (active / length).rounded(.up) - 1)
            }
        }
        return iteration
    }

    /// Applies the animation's effect at `t` (its layer's local time) to `state`, which holds the
    /// model values with every earlier animation of the layer already applied (the "current"
    /// value that nil `fromValue`/`toValue` and additive animations build on). A transition in
    /// progress is appended to `transitions` instead (the renderer draws it).
    ///
    /// `state` is the state of the layer reached from the animation's layer through the sublayers
    /// named `sublayerPath` (empty: the animation's own layer); only the property animations whose
    /// target names that path take effect, and transitions only on the animation's own layer.
    public func apply(
        to state: inout LayerState, parentTime t: Double, id: UInt64 = 0,
        transitions: inout [TransitionProgress], sublayerPath: [String] = []
    ) {
        guard let (fraction, local) = progress(atParent: t) else { return }
        switch content {
        case .basic(let target, let values):
            guard target.sublayerPath == sublayerPath else { return }
            let iteration = target.isCumulative ? self.iteration(atLocal: local) : 0
            target.apply(values: values, fraction: fraction, iteration: iteration, to: &state)
        case .spring(let target, let values, let spring):
            guard target.sublayerPath == sublayerPath else { return }
            let seconds = fraction * timing.duration
            let iteration = target.isCumulative ? self.iteration(atLocal: local) : 0
            target.apply(values: values, fraction: spring.fraction(at: seconds), iteration: iteration, to: &state)
        case .keyframe(let target, let keyframes):
            guard target.sublayerPath == sublayerPath else { return }
            let iteration = target.isCumulative ? self.iteration(atLocal: local) : 0
            keyframes.apply(target, fraction: fraction, iteration: iteration, to: &state)
        case .group(let children):
            let childTime = fraction * timing.duration
            for child in children {
                child.apply(
                    to: &state, parentTime: childTime, id: id, transitions: &transitions, sublayerPath: sublayerPath)
            }
        case .transition(let p):
            guard sublayerPath.isEmpty else { return }
            let progress = p.startProgress + (p.endProgress - p.startProgress) * fraction
            transitions.append(TransitionProgress(id: id, parameters: p, progress: min(max(progress, 0), 1)))
        }
    }

    /// Whether the animation drives a named sublayer (at any depth) whose path of names starts
    /// with `prefix`; with an empty prefix, whether it drives any named sublayer at all.
    public func drivesSublayers(startingWith prefix: [String]) -> Bool {
        switch content {
        case .basic(let target, _), .spring(let target, _, _), .keyframe(let target, _):
            !target.sublayerPath.isEmpty && target.sublayerPath.starts(with: prefix)
        case .group(let children): children.contains { $0.drivesSublayers(startingWith: prefix) }
        case .transition: false
        }
    }

    /// Applies the animation's effect at `t` to `state`, ignoring transitions.
    public func apply(to state: inout LayerState, parentTime t: Double) {
        var ignored: [TransitionProgress] = []
        apply(to: &state, parentTime: t, transitions: &ignored)
    }
}

import Foundation

/// Where an animation stands at a given time.
public enum AnimationPhase: Sendable, Hashable {
    /// Before its begin time.
    case pending
    /// Inside its active interval.
    case active
    /// Its active interval is over (it may still fill forwards).
    case finished
}

/// A `CATransition` in progress on a layer, for the renderer.
public struct TransitionProgress: Sendable, Hashable {
    /// The attached animation's id: the renderer finds the before-snapshot under it.
    public var id: UInt64
    public var parameters: TransitionParameters
    /// 0 shows the old content only, 1 the new content only.
    public var progress: Double
    public init(id: UInt64, parameters: TransitionParameters, progress: Double) {
        self.id = id
        self.parameters = parameters
        self.progress = progress
    }
}

extension AnimationRecord {
    /// Where the animation stands at `t`, a time of its layer's local time space.
    public func phase(atParent t: Double) -> AnimationPhase {
        let local = timing.localTime(fromParent: t)
        if local < 0 { return .pending }
        if local >= timing.activeDuration { return .finished }
        return .active
    }

    /// The fraction (after the timing function) and the iteration index at layer time `t`, or nil
    /// when the animation has no effect then.
    func progress(atParent t: Double) -> (fraction: Double, iteration: Double)? {
        let local = timing.localTime(fromParent: t)
        guard let linear = timing.progress(atLocal: local) else { return nil }
        let fraction = timingFunction?.function.evaluate(linear) ?? linear
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
        return (fraction, iteration)
    }

    /// Applies the animation's effect at `t` (its layer's local time) to `state`, which holds the
    /// model values with every earlier animation of the layer already applied (the "current"
    /// value that nil `fromValue`/`toValue` and additive animations build on). A transition in
    /// progress is appended to `transitions` instead (the renderer draws it).
    public func apply(to state: inout LayerState, parentTime t: Double, id: UInt64 = 0,
                      transitions: inout [TransitionProgress]) {
        guard let (fraction, iteration) = progress(atParent: t) else { return }
        switch content {
        case .basic(let target, let values):
            target.apply(values: values, fraction: fraction, iteration: iteration, to: &state)
        case .spring(let target, let values, let spring):
            let seconds = fraction * timing.duration
            target.apply(values: values, fraction: spring.fraction(at: seconds), iteration: iteration, to: &state)
        case .keyframe(let target, let keyframes):
            keyframes.apply(target, fraction: fraction, iteration: iteration, to: &state)
        case .group(let children):
            let childTime = fraction * timing.duration
            for child in children {
                child.apply(to: &state, parentTime: childTime, id: id, transitions: &transitions)
            }
        case .transition(let p):
            let progress = p.startProgress + (p.endProgress - p.startProgress) * fraction
            transitions.append(TransitionProgress(id: id, parameters: p, progress: min(max(progress, 0), 1)))
        }
    }

    /// Applies the animation's effect at `t` to `state`, ignoring transitions.
    public func apply(to state: inout LayerState, parentTime t: Double) {
        var ignored: [TransitionProgress] = []
        apply(to: &state, parentTime: t, transitions: &ignored)
    }
}

extension PropertyTarget {
    /// The underlying value the animation builds on.
    func current(in state: LayerState) -> AnimationValue {
        if let valueFunction { return valueFunction.neutral }
        return keyPath.value(in: state)
    }

    /// Writes an animated value (before additive/cumulative composition) into `state`.
    func write(_ raw: AnimationValue, start: AnimationValue, end: AnimationValue, iteration: Double,
               to state: inout LayerState) {
        var value = raw
        if isCumulative && iteration > 0 {
            value = AnimationValue.add(value, AnimationValue.scale(AnimationValue.subtract(end, start), by: iteration))
        }
        if let valueFunction {
            guard let matrix = valueFunction.transform(value) else { return }
            value = .transform(matrix)
        }
        if isAdditive {
            value = AnimationValue.add(keyPath.value(in: state), value)
        }
        keyPath.set(value, in: &state)
    }

    func apply(values: BasicValues, fraction: Double, iteration: Double, to state: inout LayerState) {
        let (start, end) = values.resolved(current: current(in: state))
        let value = AnimationValue.interpolate(start, end, fraction)
        write(value, start: start, end: end, iteration: iteration, to: &state)
    }
}

extension Keyframes {
    func apply(_ target: PropertyTarget, fraction: Double, iteration: Double, to state: inout LayerState) {
        if let pathTimeline {
            guard let point = pathTimeline.point(at: fraction) else { return }
            let start = pathTimeline.point(at: 0) ?? point
            let end = pathTimeline.point(at: 1) ?? point
            target.write(.point(point), start: .point(start), end: .point(end), iteration: iteration, to: &state)
            if let rotationMode, var angle = pathTimeline.tangentAngle(at: fraction) {
                if rotationMode == .rotateAutoReverse { angle += .pi }
                state.transform = CATransform3DRotate(state.transform, angle, 0, 0, 1)
            }
            return
        }
        guard let valueTimeline, let value = valueTimeline.value(at: fraction),
            let first = values.first, let last = values.last
        else { return }
        target.write(value, start: first, end: last, iteration: iteration, to: &state)
    }
}

/// Evaluates a layer's animations: the presentation values of one layer at one time.
public enum LayerAnimator {
    /// The presentation state of a layer whose model is `model`, with `animations` applied in order
    /// at `layerTime` (the layer's local time, i.e. after its own `beginTime`/`speed`/`timeOffset`).
    public static func presentation(of model: LayerState, animations: [AttachedAnimation], layerTime: Double,
                                    transitions: inout [TransitionProgress]) -> LayerState {
        var state = model
        for animation in animations {
            animation.record.apply(to: &state, parentTime: layerTime, id: animation.id, transitions: &transitions)
        }
        return state
    }
}

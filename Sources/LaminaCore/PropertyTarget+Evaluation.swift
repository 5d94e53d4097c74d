import Foundation

extension PropertyTarget {
    /// The underlying value the animation builds on.
    func current(in state: LayerState) -> AnimationValue {
        if let valueFunction { return valueFunction.neutral }
        return keyPath.value(in: state)
    }

    /// Writes an animated value (before additive/cumulative composition) into `state`; a custom
    /// key's value goes nowhere (the client evaluates custom keys with `customKey` cleared).
    func write(
        _ raw: AnimationValue, start: AnimationValue, end: AnimationValue, iteration: Double,
        to state: inout LayerState
    ) {
        guard customKey == nil else { return }
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
        // The current value is read only when a nil from or to value needs it (most animations set both).
        let (start, end): (AnimationValue, AnimationValue)
        if let from = values.from, let to = values.to {
            (start, end) = (from, to)
        } else {
            (start, end) = values.resolved(current: current(in: state))
        }
        let value = AnimationValue.interpolate(start, end, fraction)
        write(value, start: start, end: end, iteration: iteration, to: &state)
    }
}

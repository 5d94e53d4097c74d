import Foundation

extension PropertyTarget {
    /// The underlying value the animation builds on.
    func current(in state: LayerState) -> AnimationValue {
        if let valueFunction { return valueFunction.neutral }
        if let cell { return cell.value(in: state.emitter.cells) ?? .number(0) }
        return Self.value(at: keyPath, in: state)
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
        if let cell {
            guard state.layerClass == .emitter, let underlying = cell.value(in: state.emitter.cells) else { return }
            if isAdditive { value = AnimationValue.add(underlying, value) }
            cell.set(value, in: &state.emitter.cells)
            return
        }
        if isAdditive {
            value = AnimationValue.add(Self.value(at: keyPath, in: state), value)
        }
        Self.set(value, at: keyPath, in: &state)
    }

    func apply(values: BasicValues, fraction: Double, iteration: Double, to state: inout LayerState) {
        // The current value is read only when a nil from or to value needs it (most animations set both).
        let (start, end): (AnimationValue, AnimationValue)
        if let from = values.from, let to = values.to {
            (start, end) = (from, to)
        } else {
            (start, end) = values.resolved(current: current(in: state))
        }
        if case .image(let from) = start, case .image(let to) = end {
            writeImage(from: from, to: to, progress: fraction, to: &state)
            return
        }
        let value = AnimationValue.interpolate(start, end, fraction)
        write(value, start: start, end: end, iteration: iteration, to: &state)
    }

    /// Writes a point of an animation between two images into `state` (decisions.md A2): at or before
    /// `progress` 0 the layer shows `from`, at or after 1 `to`, in between `to` with a cross-fade from
    /// `from` that has got to `progress`. Additive, cumulative and value functions have no meaning for
    /// images and are ignored.
    func writeImage(from: UInt64, to: UInt64, progress: Double, to state: inout LayerState) {
        guard keyPath.component == nil, keyPath.property == .contents else { return }
        if !(progress > 0) {
            state.contents = from
            state.contentsCrossFade = nil
        } else if progress >= 1 || from == to {
            state.contents = to
            state.contentsCrossFade = nil
        } else {
            state.contents = to
            state.contentsCrossFade = ContentsCrossFade(from: from, progress: progress)
        }
    }
}

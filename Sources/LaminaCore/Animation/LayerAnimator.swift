import Foundation

/// Evaluates a layer's animations: the presentation values of one layer at one time.
public enum LayerAnimator {
    /// The presentation state of a layer whose model is `model`, with `animations` applied in order
    /// at `layerTime` (the layer's local time, i.e. after its own `beginTime`/`speed`/`timeOffset`).
    public static func presentation(
        of model: LayerState, animations: [AttachedAnimation], layerTime: Double,
        transitions: inout [TransitionProgress]
    ) -> LayerState {
        var state = model
        apply(animations, to: &state, layerTime: layerTime, transitions: &transitions)
        return state
    }

    /// Applies `animations` in order at `layerTime` to `state`, in place: what `presentation` does
    /// to its copy of the model.
    ///
    /// The animations are read where the array holds them (a `for` loop would copy each one out,
    /// retaining its key, its content and its timing function once per evaluation).
    public static func apply(
        _ animations: [AttachedAnimation], to state: inout LayerState, layerTime: Double,
        transitions: inout [TransitionProgress]
    ) {
        animations.withUnsafeBufferPointer { attached in
            for index in attached.indices {
                // The common basic animations are worked out first and written after (`DirectWrite`):
                // number, point, rect and colour ones from their plan, made when they were attached
                // (no record is read), whole transforms from the record (not copied); the rest take
                // the general path.
                if attached[index].plan.apply(atParent: layerTime, to: &state) { continue }
                let direct = attached[index].record.directWrite(atParent: layerTime)
                switch direct {
                case .noEffect: continue
                case .general:
                    attached[index].record.apply(
                        to: &state, parentTime: layerTime, id: attached[index].id, transitions: &transitions)
                case .write: direct.apply(to: &state)
                }
            }
        }
    }
}

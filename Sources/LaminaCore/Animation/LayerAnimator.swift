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
                // Number, point, rect and colour animations are worked out from their plan, made when
                // they were attached (no record is read); the rest from their record.
                if attached[index].plan.apply(atParent: layerTime, to: &state) { continue }
                applyRecord(attached, index, to: &state, layerTime: layerTime, transitions: &transitions)
            }
        }
    }

    /// Applies animation `index` of `attached` from its record: a basic animation of a whole
    /// transform is worked out first and written after (`DirectWrite`), so the record is not copied;
    /// the rest take the general path.
    ///
    /// Kept out of line: inlined beside the plan's arithmetic, the loop grew past the size at which
    /// the optimiser still inlined `directWrite`, and the record was then copied around its call.
    @inline(never)
    static func applyRecord(
        _ attached: UnsafeBufferPointer<AttachedAnimation>, _ index: Int, to state: inout LayerState,
        layerTime: Double, transitions: inout [TransitionProgress]
    ) {
        let direct = attached[index].record.directWrite(atParent: layerTime)
        switch direct {
        case .noEffect: return
        case .general:
            attached[index].record.apply(
                to: &state, parentTime: layerTime, id: attached[index].id, transitions: &transitions)
        case .write: direct.apply(to: &state)
        }
    }
}

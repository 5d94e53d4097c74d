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
        for animation in animations {
            animation.record.apply(to: &state, parentTime: layerTime, id: animation.id, transitions: &transitions)
        }
        return state
    }
}

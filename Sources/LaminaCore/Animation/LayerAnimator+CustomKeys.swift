import Foundation

extension LayerAnimator {
    /// The presentation value of custom key `key` (a property of a layer subclass that the render
    /// server does not know) whose model value is `model`, with `animations` applied in order at
    /// `layerTime`: the same evaluation as for layer properties, run on the key's stand-in path
    /// (`LayerKeyPath.customStandIn(for:)`). Returns `model` when no animation drives the key.
    public static func customValue(
        forKey key: String, model: AnimationValue, animations: [AttachedAnimation], layerTime: Double
    ) -> AnimationValue {
        guard let standIn = LayerKeyPath.customStandIn(for: model.kind) else { return model }
        var state = LayerState()
        guard standIn.set(model, in: &state) else { return model }
        var transitions: [TransitionProgress] = []
        for animation in animations where animation.record.customKeys.contains(key) {
            animation.record.isolating(customKey: key).apply(
                to: &state, parentTime: layerTime, id: animation.id, transitions: &transitions)
        }
        return standIn.value(in: state)
    }
}

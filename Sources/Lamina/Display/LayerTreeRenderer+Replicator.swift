import Foundation

extension LayerTreeRenderer {
    /// The copies `render(in:)` draws of a layer's sublayers: one, unchanged, for any layer but a
    /// `CAReplicatorLayer`; for a replicator, copy *k* (from 0) of its `instanceCount` (at most
    /// `ReplicatorLayerState.maxInstanceCount`) with `instanceTransform` applied *k* times about the
    /// anchor point and the alpha of `instanceColor` plus *k* times `instanceAlphaOffset`, as the
    /// render server draws them. The red, green and blue of the copy's colour are not applied here (a
    /// Core Graphics context cannot multiply what it draws by a colour): docs/apple-differences.md.
    static func copies(of layer: CALayer) -> [(transform: CATransform3D, alpha: CGFloat)] {
        guard let replicator = layer as? CAReplicatorLayer else { return [(CATransform3DIdentity, 1)] }
        let state = replicator.modelState
        let anchor = state.anchorInBounds
        let step = CATransform3DConcat(
            CATransform3DConcat(
                CATransform3DMakeTranslation(-anchor.x, -anchor.y, 0), state.replicator.instanceTransform),
            CATransform3DMakeTranslation(anchor.x, anchor.y, 0))
        var result: [(transform: CATransform3D, alpha: CGFloat)] = []
        var instance = CATransform3DIdentity
        for k in 0..<state.replicator.drawnInstanceCount {
            if k > 0 { instance = CATransform3DConcat(instance, step) }
            let alpha = CGFloat(state.replicator.color(ofInstance: k).alpha)
            if alpha > 0 { result.append((instance, alpha)) }
        }
        return result
    }
}

import LaminaCore
import LaminaProtocol

extension RenderTree {
    /// Throws `unknownImage` unless `id` is 0 (no image) or one of `liveImages`.
    func checkImage(_ id: UInt64) throws(TransactionError) {
        guard id == 0 || liveImages.contains(id) else { throw .unknownImage(id) }
    }

    /// Throws `unknownImage` for the first image the animation names that is not live.
    func checkImages(of record: AnimationRecord) throws(TransactionError) {
        for id in record.imageIDs { try checkImage(id) }
    }

    /// Every image the tree still draws or may draw: the `contents` of its layers and emitter cells, the images its
    /// animations name, and those of the layers and animations kept in transition snapshots.
    public func referencedImages() -> Set<UInt64> {
        var ids = Set<UInt64>()
        func visit(_ layer: RenderLayer) {
            if layer.state.contents != 0 { ids.insert(layer.state.contents) }
            if layer.state.layerClass == .emitter {
                ids.formUnion(EmitterCellState.images(of: layer.state.emitter.cells))
            }
            for animation in layer.animations { ids.formUnion(animation.record.imageIDs) }
        }
        for layer in layers.values { visit(layer) }
        for snapshot in snapshots.values {
            for layer in snapshot.layers.values { visit(layer) }
        }
        return ids
    }
}

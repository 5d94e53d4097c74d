import LaminaCore
import LaminaProtocol

extension RenderTree {
    /// Replaces the emitter cells of layer `id` (operation `setEmitterCells`): refused with
    /// `unknownLayer`, `wrongLayerClass` for a layer that is not an emitter layer, `invalidValue` for a
    /// tree past `EmitterCellState`'s bounds, and `unknownImage` for a contents image that is not live.
    mutating func setEmitterCells(_ cells: [EmitterCellState], of id: LayerID) throws(TransactionError) {
        guard let layerClass = layers[id]?.state.layerClass else { throw .unknownLayer(id) }
        guard layerClass == .emitter else {
            throw .wrongLayerClass(id, key: "emitterCells", owner: .emitter, actual: layerClass)
        }
        if let reason = EmitterCellState.invalidReason(cells) { throw .invalidValue("layer \(id): \(reason)") }
        for image in EmitterCellState.images(of: cells) { try checkImage(image) }
        layers[id]!.state.emitter.cells = cells
        if layers[id]!.isAnimated { animatedLayers.insert(id) } else { animatedLayers.remove(id) }
        if layers[id]!.isEmitting { emitterLayers.insert(id) } else { emitterLayers.remove(id) }
        noteChange(id, [.appearance, .contents, .animations])
    }
}

extension RenderLayer {
    /// Whether the layer is an emitter layer with cells: its particles change with time, so it counts
    /// as animated (`RenderTree.animatedLayers`) and every frame that shows it is drawn again.
    public var isEmitting: Bool { state.layerClass == .emitter && !state.emitter.cells.isEmpty }

    /// Whether the layer changes with time by itself: it has animations or emits particles.
    var isAnimated: Bool { !animations.isEmpty || isEmitting }
}

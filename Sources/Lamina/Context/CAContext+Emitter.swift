import Foundation
import LaminaCore
import LaminaProtocol

extension CAContext {
    /// Appends `setEmitterCells` for emitter layer `layer` when its cells differ from `previous` (what
    /// was sent; nil for a new layer), and counts the cells' contents images as used by the sent tree
    /// (uploaded before the commit, released after the last use goes).
    func emitterCellOperations(_ layer: CALayer, previous: LayerState?, into ops: inout [LayerOperation]) {
        guard layer.modelState.layerClass == .emitter else { return }
        let cells = layer.modelState.emitter.cells
        let old = previous?.emitter.cells ?? []
        guard cells != old else { return }
        ops.append(.setEmitterCells(layer.layerID, cells))
        for id in EmitterCellState.images(of: cells) { useImage(id, by: 1) }
        for id in EmitterCellState.images(of: old) { useImage(id, by: -1) }
    }

    /// Counts the images of a layer's sent cells as no longer used (the layer left the tree).
    func releaseEmitterCellImages(of state: LayerState) {
        guard state.layerClass == .emitter else { return }
        for id in EmitterCellState.images(of: state.emitter.cells) { useImage(id, by: -1) }
    }
}

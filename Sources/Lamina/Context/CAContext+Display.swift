import Foundation

extension CAContext {
    /// The display pass of a commit, after layout and before encoding: every layer of this
    /// context's tree that needs display gets `displayIfNeeded()`, so its new contents travel in the
    /// same commit. Layers marked while drawing are displayed too, for a few rounds; marks made
    /// after that wait for the next commit. Caller holds the transaction lock.
    func displayLayers() {
        guard let root = layer else { return }
        for _ in 0..<4 {
            let due = LayerDisplayQueue.take(treeOf: root)
            if due.isEmpty { return }
            for layer in due { layer.displayIfNeeded() }
        }
    }
}

import Foundation

/// The layers waiting for display, and the layers redrawn at every frame while an animation of a
/// key that needs display runs on them. Guarded by the transaction lock.
enum LayerDisplayQueue {
    struct WeakLayer {
        weak var layer: CALayer?
    }

    final class State: @unchecked Sendable {
        /// Layers marked by `setNeedsDisplay`, in marking order.
        var pending: [WeakLayer] = []
        /// Layers with an animation of a key their class's `needsDisplay(forKey:)` names.
        var animated: [WeakLayer] = []
    }
    static let state = State()

    /// Queues `layer` for the next display pass. Caller holds the transaction lock.
    static func enqueue(_ layer: CALayer) {
        guard !layer.displayState.isQueued else { return }
        layer.displayState.isQueued = true
        state.pending.append(WeakLayer(layer: layer))
    }

    /// Removes and returns the queued layers of the subtree of `root` (itself included), in marking
    /// order; layers elsewhere (or in no tree yet) stay queued. Caller holds the transaction lock.
    static func take(treeOf root: CALayer) -> [CALayer] {
        var taken: [CALayer] = []
        var kept: [WeakLayer] = []
        for entry in state.pending {
            guard let layer = entry.layer else { continue }
            if layer.isInSubtree(of: root) {
                layer.displayState.isQueued = false
                taken.append(layer)
            } else {
                kept.append(entry)
            }
        }
        state.pending = kept
        return taken
    }

    /// Starts redrawing `layer` at every frame; frame events stay on while such a layer exists.
    /// Caller holds the transaction lock.
    static func addAnimated(_ layer: CALayer) {
        guard !layer.displayState.isAnimatedForDisplay else { return }
        layer.displayState.isAnimatedForDisplay = true
        state.animated.append(WeakLayer(layer: layer))
        DisplayLinkCenter.update()
    }

    /// Whether a layer is redrawn at every frame. Caller holds the transaction lock.
    static var hasAnimatedLayers: Bool { !state.animated.isEmpty }

    /// At a frame, on the main thread: marks every animated layer for display and drops those whose
    /// animations have all ended (they are marked once more, to draw their model values), then
    /// commits so the drawings reach the server.
    static func frame() {
        let anyMarked: Bool = CATransaction.state.lock.withLock {
            var kept: [WeakLayer] = []
            var marked = false
            for entry in state.animated {
                guard let layer = entry.layer else { continue }
                layer.setNeedsDisplay()
                marked = true
                if layer.hasRunningDisplayAnimation {
                    kept.append(entry)
                } else {
                    layer.displayState.isAnimatedForDisplay = false
                    layer.displayState.redrawsWithoutActions = true
                }
            }
            state.animated = kept
            return marked
        }
        guard anyMarked else { return }
        CATransaction.flush()
        DisplayLinkCenter.update()
    }
}

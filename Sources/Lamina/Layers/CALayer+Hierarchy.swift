import Foundation

/// The work behind the hierarchy API (`sublayers`, `insertSublayer`, `removeFromSuperlayer`, ...),
/// whose overridable entry points are declared in CALayer.swift.
extension CALayer {
    /// The model sublayers (the commit walk).
    var modelSublayers: [CALayer] { storedSublayers }

    /// Replaces every sublayer with `incoming`, refusing the whole assignment, and changing nothing,
    /// when any of them would enter its own subtree.
    func replaceAllSublayers(with incoming: [CALayer]) {
        if let bad = incoming.first(where: { isInSubtree(of: $0) }) {
            LaminaDiagnostics.report(
                .refusedHierarchy, "refusing to add layer \(bad.layerID) to its own subtree (layer \(layerID))")
            return
        }
        for layer in storedSublayers { layer.storedSuperlayer = nil }
        storedSublayers = []
        for layer in incoming { insertSublayer(layer, at: UInt32(storedSublayers.count)) }
        keyRecord.noteSet("sublayers")
        changed()
        setNeedsLayout()
    }

    /// Inserts `layer` at `idx` (clamped to the end), taking it from its superlayer first; refused,
    /// with a diagnostic, when `layer` is this layer or one of its ancestors.
    func insertSublayerNow(_ layer: CALayer, at idx: Int) {
        guard !isInSubtree(of: layer) else {
            LaminaDiagnostics.report(
                .refusedHierarchy, "refusing to add layer \(layer.layerID) to its own subtree (layer \(layerID))")
            return
        }
        if layer.storedSuperlayer === self, let old = storedSublayers.firstIndex(of: layer) {
            storedSublayers.remove(at: old)
        } else {
            layer.removeFromSuperlayer()
        }
        let index = min(idx, storedSublayers.count)
        storedSublayers.insert(layer, at: index)
        layer.storedSuperlayer = self
        keyRecord.noteSet("sublayers")
        changed()
        sublayerDidJoin(layer)
        layer.runActionIfAllowed(forKey: kCAOnOrderIn)
    }

    /// Inserts `layer` at `index` counted before it leaves its old place among these sublayers.
    func insertAdjusting(_ layer: CALayer, _ index: Int) {
        var target = index
        if layer.storedSuperlayer === self, let old = storedSublayers.firstIndex(of: layer), old < index { target -= 1 }
        insertSublayer(layer, at: UInt32(max(target, 0)))
    }

    /// Leaves the superlayer (running the `onOrderOut` action first) and marks it for layout.
    func detachFromSuperlayer() {
        guard let parent = storedSuperlayer else { return }
        runActionIfAllowed(forKey: kCAOnOrderOut)
        parent.storedSublayers.removeAll { $0 === self }
        storedSuperlayer = nil
        parent.changed()
        changed()
        parent.setNeedsLayout()
    }

    /// Puts `newLayer` where the sublayer `oldLayer` is, refused when `newLayer` is an ancestor.
    func replace(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard oldLayer !== newLayer, let index = storedSublayers.firstIndex(of: oldLayer) else { return }
        guard !isInSubtree(of: newLayer) else {
            LaminaDiagnostics.report(
                .refusedHierarchy, "refusing to add layer \(newLayer.layerID) to its own subtree (layer \(layerID))")
            return
        }
        oldLayer.removeFromSuperlayer()
        insertSublayer(newLayer, at: UInt32(index))
    }

    /// True when `self` is `layer` or one of its descendants.
    func isInSubtree(of layer: CALayer) -> Bool {
        var current: CALayer? = self
        while let c = current {
            if c === layer { return true }
            current = c.storedSuperlayer
        }
        return false
    }

    /// The sublayers without the optional; for a presentation layer, their presentation layers.
    var sublayerList: [CALayer] {
        guard let source = presentationSource else { return storedSublayers }
        if let cached = cachedPresentationSublayers { return cached }
        let list = source.storedSublayers.compactMap { $0.presentation(at: presentationTime) }
        cachedPresentationSublayers = list
        return list
    }
}

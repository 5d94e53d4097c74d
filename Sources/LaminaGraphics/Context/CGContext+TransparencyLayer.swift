import CCairo
import Foundation

extension CGContext {
    /// Starts a transparency layer: later drawing goes onto a fully transparent backdrop, and
    /// `endTransparencyLayer()` composites the result as one image.
    ///
    /// As Apple documents, inside the layer global alpha is 1 and the blend mode normal; the alpha,
    /// blend mode and clip in effect here apply when the layer is composited. `auxiliaryInfo` is
    /// accepted for Apple compatibility and ignored.
    public func beginTransparencyLayer(auxiliaryInfo: CFDictionary?) {
        saveGState()
        transparencyLayerDepths.append(savedStates.count)
        cairo_push_group(cairo)
        state.alpha = 1
        state.blendMode = .normal
        state.mask = nil
    }

    /// Starts a transparency layer bounded by `rect` (user space): drawing outside it is discarded.
    ///
    /// Otherwise as `beginTransparencyLayer(auxiliaryInfo:)`; the current path is kept.
    public func beginTransparencyLayer(in rect: CGRect, auxiliaryInfo: CFDictionary?) {
        beginTransparencyLayer(auxiliaryInfo: auxiliaryInfo)
        preservingPath {
            addRect(rect)
            cairo_clip(cairo)
        }
    }

    /// Ends the innermost transparency layer, compositing what was drawn in it with the alpha,
    /// blend mode and clip in effect when it began; without an open layer, does nothing.
    public func endTransparencyLayer() {
        guard let depth = transparencyLayerDepths.popLast() else { return }
        // Drop states saved inside the layer and not restored, so Cairo is back at the group's level.
        while savedStates.count > depth {
            savedStates.removeLast()
            cairo_restore(cairo)
        }
        guard let group = cairo_pop_group(cairo) else { return }
        defer { cairo_pattern_destroy(group) }
        restoreGState()
        paint(covering: nil) {
            cairo_set_source(cairo, group)
            cairo_paint_with_alpha(cairo, Double(state.alpha))
        }
    }
}

import Foundation

/// A layer's display bookkeeping: whether it waits for `display()`, which part, and the image its
/// own drawing made last. Guarded by the transaction lock, like the layer's other state.
struct LayerDisplayState {
    /// Set by `setNeedsDisplay()`/`setNeedsDisplay(_:)`, cleared when the layer is displayed.
    var needsDisplay = false
    /// The part to redraw, in the layer's coordinates; nil with `needsDisplay` means all of it.
    var dirtyRect: CGRect?
    /// Counts the marks, so `displayIfNeeded()` can tell a mark made while `display()` ran.
    var marks: UInt64 = 0
    /// True while the layer is in `LayerDisplayQueue.pending`.
    var isQueued = false
    /// The last image the default `display()` drew (the backing store), kept for partial redraws.
    var backingStore: CGImage?
    /// Set by the delegate's default `display(_:)`: the delegate does not display the layer itself.
    var delegateDisplayFellBack = false
    /// Set by the default `draw(in:)` with no delegate and by the delegate's default
    /// `draw(_:in:)`: nobody drew into the context.
    var drawFellBack = false
    /// True while the layer is in `LayerDisplayQueue.animated`.
    var isAnimatedForDisplay = false
    /// Set for the last redraw after such animations ended: like the per-frame redraws, it replaces
    /// the contents without running the `contents` action.
    var redrawsWithoutActions = false
}

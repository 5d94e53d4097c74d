import Foundation

/// A layer's layout bookkeeping: its own mark, the mark that some descendant has one, whether its
/// `layoutSublayers()` is running, whether the delegate's default `layoutSublayers(of:)` ran (so the
/// delegate does not lay out), and the layer's `autoresizingMask`.
struct LayerLayoutState {
    var needsLayout = false
    var sublayerNeedsLayout = false
    var isLayingOut = false
    var delegateFellThrough = false
    var autoresizingMask: CAAutoresizingMask = []
}

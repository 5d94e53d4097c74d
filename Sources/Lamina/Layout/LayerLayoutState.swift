import Foundation

/// A layer's layout bookkeeping: its own mark, the mark that some descendant has one, whether its
/// `layoutSublayers()` is running, the bounds size of its last layout, and whether the delegate's
/// default `layoutSublayers(of:)` ran (so the delegate does not lay out).
struct LayerLayoutState {
    var needsLayout = false
    var sublayerNeedsLayout = false
    var isLayingOut = false
    var sizeAtLastLayout: CGSize?
    var delegateFellThrough = false
}

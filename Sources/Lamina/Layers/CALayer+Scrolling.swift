import Foundation

/// Scrolling from any layer through its nearest `CAScrollLayer` ancestor, as Core Animation's
/// `CALayer (CALayerScrolling)` category does. A layer with no scroll layer above it scrolls nothing.
extension CALayer {
    /// The nearest ancestor that is a `CAScrollLayer` (not the layer itself).
    var enclosingScrollLayer: CAScrollLayer? {
        var layer = superlayer
        while let current = layer {
            if let scroll = current as? CAScrollLayer { return scroll }
            layer = current.superlayer
        }
        return nil
    }

    /// Scrolls the nearest `CAScrollLayer` ancestor so that `p`, in this layer's coordinates, is at
    /// the origin of the scroll layer's bounds.
    public func scroll(_ p: CGPoint) {
        guard let scroller = enclosingScrollLayer else { return }
        scroller.scroll(to: convert(p, to: scroller))
    }

    /// Scrolls the nearest `CAScrollLayer` ancestor as little as makes `r`, in this layer's
    /// coordinates, visible.
    public func scrollRectToVisible(_ r: CGRect) {
        guard let scroller = enclosingScrollLayer else { return }
        scroller.scroll(to: convert(r, to: scroller))
    }

    /// The part of the layer's bounds that its nearest `CAScrollLayer` ancestor shows, in the layer's
    /// own coordinates: the bounds cut by the scroll layer's bounds (Core Animation: "the visible
    /// region of the receiver, in its own coordinate space"). The whole bounds with no scroll layer
    /// above; `.zero` when none of it shows.
    public var visibleRect: CGRect {
        guard let scroller = enclosingScrollLayer else { return bounds }
        let visible = bounds.intersection(scroller.convert(scroller.bounds, to: self))
        return visible.isNull ? .zero : visible
    }
}

import Foundation

/// An object that lays out the sublayers of the layers whose `layoutManager` it is (Apple's informal
/// `CALayoutManager` protocol); every method is optional.
///
/// Core Animation calls it on the thread that commits or calls `layoutIfNeeded()`, with the layer tree
/// in a consistent state; an implementation may change the sublayers' geometry.
public protocol CALayoutManager: AnyObject {
    /// The preferred size of `layer` in its own coordinate space. `preferredFrameSize()` asks for it.
    func preferredSize(of layer: CALayer) -> CGSize

    /// Drops what the manager cached about `layer`: called when `layer` is marked for layout
    /// (`setNeedsLayout()`), because its preferred size may have changed.
    func invalidateLayout(of layer: CALayer)

    /// Sets the frames of `layer`'s sublayers. Called by the default `layoutSublayers()` when the
    /// layer's delegate does not lay the sublayers out itself.
    func layoutSublayers(of layer: CALayer)
}

extension CALayoutManager {
    /// The size of `layer`'s bounds (the default for managers that do not implement it, as Apple
    /// documents for the informal protocol).
    public func preferredSize(of layer: CALayer) -> CGSize { layer.bounds.size }

    /// Does nothing (the default for managers that do not implement it).
    public func invalidateLayout(of layer: CALayer) {}

    /// Does nothing (the default for managers that do not implement it).
    public func layoutSublayers(of layer: CALayer) {}
}

import Foundation

/// What a layer's delegate may provide (Apple's `CALayerDelegate`); every method is optional.
public protocol CALayerDelegate: AnyObject {
    /// The action for `event` on `layer`: an action, `NSNull()` to stop the search with no action,
    /// or nil to let the search continue.
    func action(for layer: CALayer, forKey event: String) -> (any CAAction)?

    /// Displays `layer` by setting its `contents` (Apple's `displayLayer:`), when the layer's
    /// default `display()` runs. A delegate that implements it is not asked to draw: when it also
    /// implements `draw(_:in:)`, only this one is called.
    func display(_ layer: CALayer)

    /// Draws `layer`'s contents into `ctx` (Apple's `drawLayer:inContext:`): the layer's default
    /// `draw(in:)` calls it with a context over a new backing store, in the layer's coordinates.
    func draw(_ layer: CALayer, in ctx: CGContext)

    /// Called just before the layer draws into a new backing store (after the delegate was found not
    /// to implement `display(_:)`), so the delegate can set the layer's `contentsFormat`.
    func layerWillDraw(_ layer: CALayer)

    /// Lays out the sublayers of `layer`, whose bounds changed or which was marked for layout. Called by
    /// the default `layoutSublayers()` after autoresizing; when the delegate implements it, the layer's
    /// layout manager is not asked.
    func layoutSublayers(of layer: CALayer)
}

import Foundation

/// What a layer's delegate may provide (Apple's `CALayerDelegate`); every method is optional.
public protocol CALayerDelegate: AnyObject {
    /// The action for `event` on `layer`: an action, `NSNull()` to stop the search with no action,
    /// or nil to let the search continue.
    func action(for layer: CALayer, forKey event: String) -> (any CAAction)?

    /// Lays out the sublayers of `layer`, whose bounds changed or which was marked for layout. Called by
    /// the default `layoutSublayers()` after autoresizing; when the delegate implements it, the layer's
    /// layout manager is not asked.
    func layoutSublayers(of layer: CALayer)
}

import Foundation

/// What a layer's delegate may provide (Apple's `CALayerDelegate`); every method is optional.
public protocol CALayerDelegate: AnyObject {
    /// The action for `event` on `layer`: an action, `NSNull()` to stop the search with no action,
    /// or nil to let the search continue.
    func action(for layer: CALayer, forKey event: String) -> (any CAAction)?
}

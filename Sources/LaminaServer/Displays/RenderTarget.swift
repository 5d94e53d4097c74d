import LaminaCore

/// An image a renderer draws into, made by that renderer (its own image, or one it imported).
public protocol RenderTarget: AnyObject {
    /// Width in pixels.
    var width: Int { get }
    /// Height in pixels.
    var height: Int { get }
}

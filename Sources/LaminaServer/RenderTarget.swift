import LaminaCore

/// An image a renderer draws into, owned by the renderer that made it.
public protocol RenderTarget: AnyObject {
    var width: Int { get }
    var height: Int { get }
}

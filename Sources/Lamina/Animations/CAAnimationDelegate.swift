import Foundation

/// Methods an animation's delegate may implement (Apple's `CAAnimationDelegate`); both default to
/// doing nothing. They are called on the main thread, from the main run loop.
public protocol CAAnimationDelegate: AnyObject {
    /// The animation's begin time was reached on the render server.
    func animationDidStart(_ anim: CAAnimation)
    /// The animation ended: `flag` is true when it ran to the end of its active duration, false when
    /// it was removed early (by key, by `removeAllAnimations()`, by a replacement under its key, or
    /// because its layer left the tree).
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

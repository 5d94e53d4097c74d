import LaminaCore
import LaminaProtocol

/// The layers of a subtree as they were just before a transaction that added a `CATransition` to
/// its root: what the transition draws as the "before" image.
public struct TransitionSnapshot: Sendable {
    public var root: LayerID
    public var layers: [LayerID: RenderLayer]
}

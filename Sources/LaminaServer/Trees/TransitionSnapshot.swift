import LaminaCore
import LaminaProtocol

/// The layers of a subtree as they were just before a transaction that added a `CATransition` to
/// its root: what the transition draws as the "before" image.
public struct TransitionSnapshot: Sendable {
    /// The layer the transition was added to.
    public var root: LayerID
    /// Copies of that layer and its descendants, by id.
    public var layers: LayerTable
}

import Foundation

/// A `CATransition` in progress on a layer, for the renderer.
public struct TransitionProgress: Sendable, Hashable {
    /// The attached animation's id: the renderer finds the before-snapshot under it.
    public var id: UInt64
    /// The transition's type, direction and progress range.
    public var parameters: TransitionParameters
    /// 0 shows the old content only, 1 the new content only.
    public var progress: Double
    /// Creates the state of transition `id` at `progress`.
    public init(id: UInt64, parameters: TransitionParameters, progress: Double) {
        self.id = id
        self.parameters = parameters
        self.progress = progress
    }
}

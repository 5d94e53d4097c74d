import Foundation

/// The two images of a transition at one progress, and which is drawn on top.
public struct TransitionImages: Sendable, Hashable {
    /// How the before-snapshot is drawn.
    public var before: TransitionImage
    /// How the live subtree (the after image) is drawn.
    public var after: TransitionImage
    /// True when the old image is drawn over the new one (`reveal`, where the old content slides
    /// away to uncover the new); otherwise the new image is drawn last.
    public var beforeOnTop: Bool
}

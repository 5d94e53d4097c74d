import Foundation

/// The two images of a transition at one progress, and which is drawn on top.
public struct TransitionImages: Sendable, Hashable {
    public var before: TransitionImage
    public var after: TransitionImage
    /// True when the old image is drawn over the new one (`reveal`, where the old content slides
    /// away to uncover the new); otherwise the new image is drawn last.
    public var beforeOnTop: Bool
}

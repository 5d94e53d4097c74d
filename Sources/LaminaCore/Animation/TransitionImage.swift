import Foundation

/// How one of a transition's two images (the layer before the change, or after it) is drawn at
/// some progress: moved within the layer's own plane and faded.
public struct TransitionImage: Sendable, Hashable {
    /// The displacement in the layer's bounds coordinates (y grows downward).
    public var offset: CGPoint
    /// A multiplier on the image's opacity.
    public var opacity: Double

    /// The image in place and fully opaque.
    public static let identity = TransitionImage(offset: .zero, opacity: 1)

    /// Creates an image moved by `offset` with its opacity multiplied by `opacity`.
    public init(offset: CGPoint, opacity: Double) {
        self.offset = offset
        self.opacity = opacity
    }

    /// This image drawn inside `outer`: offsets add, opacities multiply.
    public func within(_ outer: TransitionImage) -> TransitionImage {
        TransitionImage(
            offset: CGPoint(x: offset.x + outer.offset.x, y: offset.y + outer.offset.y),
            opacity: opacity * outer.opacity)
    }
}

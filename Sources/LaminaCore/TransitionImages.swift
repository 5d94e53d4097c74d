import Foundation

/// How one of a transition's two images (the layer before the change, or after it) is drawn at
/// some progress: moved within the layer's own plane and faded.
public struct TransitionImage: Sendable, Hashable {
    /// The displacement in the layer's bounds coordinates (y grows downward).
    public var offset: CGPoint
    /// A multiplier on the image's opacity.
    public var opacity: Double

    public static let identity = TransitionImage(offset: .zero, opacity: 1)

    public init(offset: CGPoint, opacity: Double) {
        self.offset = offset
        self.opacity = opacity
    }

    /// This image drawn inside `outer`: offsets add, opacities multiply.
    public func within(_ outer: TransitionImage) -> TransitionImage {
        TransitionImage(offset: CGPoint(x: offset.x + outer.offset.x, y: offset.y + outer.offset.y),
                        opacity: opacity * outer.opacity)
    }
}

/// The two images of a transition at one progress, and which is drawn on top.
public struct TransitionImages: Sendable, Hashable {
    public var before: TransitionImage
    public var after: TransitionImage
    /// True when the old image is drawn over the new one (`reveal`, where the old content slides
    /// away to uncover the new); otherwise the new image is drawn last.
    public var beforeOnTop: Bool
}

extension TransitionProgress {
    /// The images at this progress for a layer whose bounds are `size`.
    ///
    /// - `fade`: the old image fades out (opacity 1 − p) while the new one fades in (p); the
    ///   subtype is ignored.
    /// - `push`: the new image slides in from the subtype's side while the old one slides out the
    ///   other way, both by the full width (or height), and the old one fades as it goes (§4.7:
    ///   "slides off to the left and fades until hidden").
    /// - `moveIn`: the new image slides in over the old one, which stays put.
    /// - `reveal`: the old image slides out, uncovering the new one, which stays put.
    ///
    /// The subtype names the side the motion comes from: `fromRight` moves content leftward.
    /// `fromTop` moves it down the screen (y grows downward). With no subtype, motion is `fromLeft`.
    public func images(size: CGSize) -> TransitionImages {
        let p = progress
        let (dx, dy) = Self.direction(parameters.subtype)
        let travel = CGPoint(x: dx * size.width, y: dy * size.height)
        // Where content that starts on screen has got to, and where content that ends on screen is.
        let outgoing = CGPoint(x: travel.x * p, y: travel.y * p)
        let incoming = CGPoint(x: -travel.x * (1 - p), y: -travel.y * (1 - p))
        switch parameters.type {
        case .push:
            return TransitionImages(before: TransitionImage(offset: outgoing, opacity: 1 - p),
                                    after: TransitionImage(offset: incoming, opacity: 1), beforeOnTop: false)
        case .moveIn:
            return TransitionImages(before: .identity, after: TransitionImage(offset: incoming, opacity: 1),
                                    beforeOnTop: false)
        case .reveal:
            return TransitionImages(before: TransitionImage(offset: outgoing, opacity: 1), after: .identity,
                                    beforeOnTop: true)
        default:
            return TransitionImages(before: TransitionImage(offset: .zero, opacity: 1 - p),
                                    after: TransitionImage(offset: .zero, opacity: p), beforeOnTop: false)
        }
    }

    /// The unit direction content moves in for a subtype.
    static func direction(_ subtype: CATransitionSubtype?) -> (CGFloat, CGFloat) {
        switch subtype {
        case .fromRight?: (-1, 0)
        case .fromTop?: (0, 1)
        case .fromBottom?: (0, -1)
        default: (1, 0)
        }
    }
}

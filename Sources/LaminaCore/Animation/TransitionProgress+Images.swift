import Foundation

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
            return TransitionImages(
                before: TransitionImage(offset: outgoing, opacity: 1 - p),
                after: TransitionImage(offset: incoming, opacity: 1), beforeOnTop: false)
        case .moveIn:
            return TransitionImages(
                before: .identity, after: TransitionImage(offset: incoming, opacity: 1),
                beforeOnTop: false)
        case .reveal:
            return TransitionImages(
                before: TransitionImage(offset: outgoing, opacity: 1), after: .identity,
                beforeOnTop: true)
        default:
            return TransitionImages(
                before: TransitionImage(offset: .zero, opacity: 1 - p),
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

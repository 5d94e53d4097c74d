import Foundation
import LaminaCore
import Testing

/// Where a transition's two images are, by hand: a 100×50 layer; the subtype names the side the
/// motion comes from (y grows downward); push fades the outgoing image.
@Suite struct TransitionImageTests {
    static let size = CGSize(width: 100, height: 50)

    static func images(_ type: CATransitionType, _ subtype: CATransitionSubtype?, _ p: Double) -> TransitionImages {
        TransitionProgress(id: 1, parameters: TransitionParameters(type: type, subtype: subtype), progress: p)
            .images(size: size)
    }

    @Test(
        arguments: [
            // type, subtype, progress, before (dx, dy, opacity), after (dx, dy, opacity), before on top
            (CATransitionType.push, CATransitionSubtype.fromRight, 0.25, (-25.0, 0.0, 0.75), (75.0, 0.0, 1.0), false),
            (.push, .fromLeft, 0.5, (50, 0, 0.5), (-50, 0, 1), false),
            (.push, .fromTop, 0.5, (0, 25, 0.5), (0, -25, 1), false),
            (.push, .fromBottom, 0.2, (0, -10, 0.8), (0, 40, 1), false),
            (.moveIn, .fromRight, 0.25, (0, 0, 1), (75, 0, 1), false),
            (.moveIn, .fromBottom, 0.5, (0, 0, 1), (0, 25, 1), false),
            (.reveal, .fromLeft, 0.25, (25, 0, 1), (0, 0, 1), true),
            (.reveal, .fromTop, 1, (0, 50, 1), (0, 0, 1), true),
            (.fade, .fromLeft, 0.25, (0, 0, 0.75), (0, 0, 0.25), false),
            (.fade, nil, 1, (0, 0, 0), (0, 0, 1), false),
        ]
            as [(
                CATransitionType, CATransitionSubtype?, Double, (Double, Double, Double), (Double, Double, Double), Bool
            )])
    func table(
        type: CATransitionType, subtype: CATransitionSubtype?, progress: Double,
        before: (Double, Double, Double), after: (Double, Double, Double), beforeOnTop: Bool
    ) {
        let images = Self.images(type, subtype, progress)
        #expect(images.before == TransitionImage(offset: CGPoint(x: before.0, y: before.1), opacity: before.2))
        #expect(images.after == TransitionImage(offset: CGPoint(x: after.0, y: after.1), opacity: after.2))
        #expect(images.beforeOnTop == beforeOnTop)
    }

    /// No subtype moves like fromLeft; at progress 0 the new image is a full width away.
    @Test func defaultsAndEnds() {
        #expect(Self.images(.push, nil, 0.3) == Self.images(.push, .fromLeft, 0.3))
        let start = Self.images(.push, .fromRight, 0)
        #expect(start.before == .identity)
        #expect(start.after.offset == CGPoint(x: 100, y: 0))
        let inner = TransitionImage(offset: CGPoint(x: 10, y: 0), opacity: 0.5)
        #expect(
            inner.within(TransitionImage(offset: CGPoint(x: 0, y: 5), opacity: 0.5))
                == TransitionImage(offset: CGPoint(x: 10, y: 5), opacity: 0.25))
    }
}

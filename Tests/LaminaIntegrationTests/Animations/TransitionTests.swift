import Foundation
import Lamina
import LaminaTesting
import Testing

/// `CATransition` end to end: the server draws the subtree as it was before the transaction that
/// added the transition (its snapshot) and as it is now, moved and faded by the transition's
/// progress. Frames are captured at chosen media times; the expected pixels follow from the
/// geometry: images move by the layer's width (or height) times the progress.
@Suite(.serialized) final class TransitionTests: AnimationSuite {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 200, height: 100)
    }

    deinit {
        server.stop()
    }

    /// Every test's changing layer: 80×60 at (60, 20).
    static let frame = CGRect(x: 60, y: 20, width: 80, height: 60)

    static func box(_ color: CGColor, frame: CGRect = TransitionTests.frame, hidden: Bool = false) -> CALayer {
        let layer = CALayer()
        layer.frame = frame
        layer.backgroundColor = color
        layer.isHidden = hidden
        return layer
    }

    static func transition(
        _ type: CATransitionType, _ subtype: CATransitionSubtype? = nil, begin: Double,
        duration: Double = 1
    ) -> CATransition {
        let transition = CATransition()
        transition.type = type
        transition.subtype = subtype
        transition.duration = duration
        transition.beginTime = begin
        return transition
    }

    /// Asserts the colour of every pixel of row `y` from `x0` up to `x1` (exclusive), within 1.
    func expectRow(
        _ image: CGImage, y: Int, _ x0: Int, _ x1: Int, _ expected: RGB,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectPixels(image, (x0..<x1).map { ($0, y) }, expected, tolerance: 1, sourceLocation: sourceLocation)
    }

    /// Asserts the colour of every pixel of column `x` from `y0` up to `y1` (exclusive), within 1.
    func expectColumn(
        _ image: CGImage, x: Int, _ y0: Int, _ y1: Int, _ expected: RGB,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectPixels(image, (y0..<y1).map { (x, $0) }, expected, tolerance: 1, sourceLocation: sourceLocation)
    }

    /// Adds a 1 s transition beginning at `begin` under key "t", changes the layer's colour in the
    /// same transaction, and captures the frame half-way through.
    func halfWay(
        _ context: CAContext, _ layer: CALayer, _ type: CATransitionType, _ subtype: CATransitionSubtype,
        begin: Double, to color: CGColor
    ) throws -> CGImage {
        layer.add(Self.transition(type, subtype, begin: begin), forKey: "t")
        layer.backgroundColor = color
        try context.synchronize()
        return try context.capture(at: begin + 0.5)
    }

    static let whiteRGB: RGB = (255, 255, 255)
    static let redRGB: RGB = (255, 0, 0)
    static let blueRGB: RGB = (0, 0, 255)
    /// Red at opacity `a` over white.
    static func fadedRed(_ a: Double) -> RGB {
        let g = Int((255 * (1 - a)).rounded())
        return (255, g, g)
    }

    /// E47 (with decision A6): one push transition from the right, 1 s, added under "transition" to
    /// two stacked views; then the first is hidden and the second shown. The first slides out to
    /// the left, fading; the second slides in from the right.
    @Test func pushBetweenTwoViewsE47() throws {
        let context = try server.connect()
        let view1 = Self.box(Self.red)
        let view2 = Self.box(Self.blue, hidden: true)
        _ = try makeScene(context, [view1, view2])
        let t0 = CACurrentMediaTime() + 10
        let push = Self.transition(.push, .fromRight, begin: t0)
        view1.add(push, forKey: "transition")
        view2.add(push, forKey: "transition")
        view1.isHidden = true
        view2.isHidden = false
        try context.synchronize()

        // Before the begin time (no backwards fill) and after the end: the new state only.
        for time in [t0 - 0.5, t0 + 1.5] {
            let image = try context.capture(at: time)
            expectRow(image, y: 50, 0, 60, Self.whiteRGB)
            expectRow(image, y: 50, 60, 140, Self.blueRGB)
            expectRow(image, y: 50, 140, 200, Self.whiteRGB)
        }
        // A quarter in: view1 is 20 px left (40..120) at opacity 0.75; view2 is 60 px right of
        // its place (120..200), drawn over view1.
        let quarter = try context.capture(at: t0 + 0.25)
        expectRow(quarter, y: 50, 0, 40, Self.whiteRGB)
        expectRow(quarter, y: 50, 40, 120, Self.fadedRed(0.75))
        expectRow(quarter, y: 50, 120, 200, Self.blueRGB)
        expectColumn(quarter, x: 80, 0, 20, Self.whiteRGB)
        expectColumn(quarter, x: 80, 20, 80, Self.fadedRed(0.75))
        expectColumn(quarter, x: 80, 80, 100, Self.whiteRGB)
        // Half-way: view1 at 20..100, half faded; view2 at 100..180.
        let half = try context.capture(at: t0 + 0.5)
        expectRow(half, y: 50, 0, 20, Self.whiteRGB)
        expectRow(half, y: 50, 20, 100, Self.fadedRed(0.5))
        expectRow(half, y: 50, 100, 180, Self.blueRGB)
        expectRow(half, y: 50, 180, 200, Self.whiteRGB)
        // The model says what the transaction set, at once.
        #expect(view1.isHidden && !view2.isHidden)
        finish()
    }

    /// E50: a push from the left in the `actions` dictionary for `backgroundColor`: each colour change
    /// slides the new colour in from the left over the default 0.25 s.
    @Test func actionsDictionaryPushE50() throws {
        let context = try server.connect()
        let layer = Self.box(Self.red)
        let push = CATransition()
        push.type = .push
        push.subtype = .fromLeft
        layer.actions = ["backgroundColor": push]
        _ = try makeScene(context, [layer])
        layer.backgroundColor = Self.blue
        let attached = try #require(layer.animation(forKey: "backgroundColor") as? CATransition)
        #expect(attached.type == .push && attached.subtype == .fromLeft)
        try context.synchronize()
        let start = try #require(layer.animation(forKey: "backgroundColor")).beginTime
        #expect(start > 0)

        // Linear (no timing function) over 0.25 s: progress 0.5 at start + 0.125. The old red moves
        // 40 px right (100..180) and is half faded; the new blue comes from 40 px left (20..100).
        let half = try context.capture(at: start + 0.125)
        expectRow(half, y: 50, 0, 20, Self.whiteRGB)
        expectRow(half, y: 50, 20, 100, Self.blueRGB)
        expectRow(half, y: 50, 100, 180, Self.fadedRed(0.5))
        expectRow(half, y: 50, 180, 200, Self.whiteRGB)
        let done = try context.capture(at: start + 0.3)
        expectRow(done, y: 50, 60, 140, Self.blueRGB)
        expectRow(done, y: 50, 140, 200, Self.whiteRGB)
        finish()
    }

    /// E51: a fade (subtype fromLeft, which a fade ignores) added with a nil key, then the layer's
    /// colour changed: nothing moves; the old image dissolves into the new. Apple's fade is a
    /// cross-dissolve of the two renderings (CATransition `fade`: "the layer's content fades as it
    /// becomes visible or hidden"; decisions.md A2's (1 − p)·old + p·new): at progress p the pixel is
    /// red · (1 − p) + blue · p, and no white shows through (fading each image on its own would
    /// give blue at p over red at 1 − p over white).
    @Test func fadeOnChangeE51() throws {
        let context = try server.connect()
        let layer = Self.box(Self.red)
        _ = try makeScene(context, [layer])
        let t0 = CACurrentMediaTime() + 10
        layer.add(Self.transition(.fade, .fromLeft, begin: t0), forKey: nil)
        #expect(layer.animationKeys() == nil)
        CATransaction.setDisableActions(true)
        layer.backgroundColor = Self.blue
        try context.synchronize()
        for p in [0.25, 0.5, 0.75] {
            let image = try context.capture(at: t0 + p)
            let r = Int((255 * (1 - p)).rounded())
            let g = 0
            let b = Int((255 * p).rounded())
            expectRow(image, y: 50, 0, 60, Self.whiteRGB)
            expectRow(image, y: 50, 60, 140, (r, g, b))
            expectRow(image, y: 50, 140, 200, Self.whiteRGB)
        }
        finish()
    }

    /// E53: a fade on a container that stays in the tree, while its children are replaced: the old
    /// child fades out where it was and the new one fades in where it is.
    @Test func wholeSubtreeCrossFadeE53() throws {
        let context = try server.connect()
        let container = CALayer()
        container.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        let old = Self.box(Self.red, frame: CGRect(x: 20, y: 20, width: 60, height: 60))
        container.addSublayer(old)
        _ = try makeScene(context, [container])
        let t0 = CACurrentMediaTime() + 10
        container.add(Self.transition(.fade, begin: t0), forKey: kCATransition)
        old.removeFromSuperlayer()
        container.addSublayer(Self.box(Self.blue, frame: CGRect(x: 120, y: 20, width: 60, height: 60)))
        try context.synchronize()

        let image = try context.capture(at: t0 + 0.25)
        expectRow(image, y: 50, 0, 20, Self.whiteRGB)
        expectRow(image, y: 50, 20, 80, Self.fadedRed(0.75))
        expectRow(image, y: 50, 80, 120, Self.whiteRGB)
        expectRow(image, y: 50, 120, 180, (191, 191, 255))
        let after = try context.capture(at: t0 + 1.5)
        expectRow(after, y: 50, 20, 80, Self.whiteRGB)
        expectRow(after, y: 50, 120, 180, Self.blueRGB)
        finish()
    }

    /// Move-in slides the new image over the old, which stays; reveal slides the old image away
    /// over the new, which stays. Half-way, from the right and from the top.
    @Test func moveInAndRevealDirections() throws {
        let context = try server.connect()
        let layer = Self.box(Self.red)
        _ = try makeScene(context, [layer])

        // Each case: a transition to a new colour, then the colour along row 50 (or column 100)
        // at progress 0.5.
        let t0 = CACurrentMediaTime() + 10
        var image = try halfWay(context, layer, .moveIn, .fromRight, begin: t0, to: Self.blue)
        // Old red stays at 60..140; new blue comes in 40 px from the right (100..180), on top.
        expectRow(image, y: 50, 60, 100, Self.redRGB)
        expectRow(image, y: 50, 100, 180, Self.blueRGB)
        expectRow(image, y: 50, 180, 200, Self.whiteRGB)

        image = try halfWay(context, layer, .reveal, .fromRight, begin: t0 + 10, to: Self.red)
        // Old blue slides 40 px left (20..100), on top; new red stays at 60..140.
        expectRow(image, y: 50, 0, 20, Self.whiteRGB)
        expectRow(image, y: 50, 20, 100, Self.blueRGB)
        expectRow(image, y: 50, 100, 140, Self.redRGB)
        expectRow(image, y: 50, 140, 200, Self.whiteRGB)

        image = try halfWay(context, layer, .moveIn, .fromTop, begin: t0 + 20, to: Self.blue)
        // The layer is 60 tall: new blue comes down from 30 px above (y −10..50) over old red.
        expectColumn(image, x: 100, 0, 50, Self.blueRGB)
        expectColumn(image, x: 100, 50, 80, Self.redRGB)
        expectColumn(image, x: 100, 80, 100, Self.whiteRGB)

        image = try halfWay(context, layer, .push, .fromBottom, begin: t0 + 30, to: Self.red)
        // Old blue goes up 30 px (y −10..50), half faded; new red comes up from below (50..110).
        let fadedBlue: RGB = (128, 128, 255)
        expectColumn(image, x: 100, 0, 50, fadedBlue)
        expectColumn(image, x: 100, 50, 100, Self.redRGB)
        finish()
    }

    /// `startProgress`/`endProgress` play part of the effect: 0.5...1 over 1 s is at 0.75 after 0.5 s.
    @Test func partialProgress() throws {
        let context = try server.connect()
        let layer = Self.box(Self.red)
        _ = try makeScene(context, [layer])
        let t0 = CACurrentMediaTime() + 10
        let push = Self.transition(.push, .fromRight, begin: t0)
        push.startProgress = 0.5
        layer.add(push, forKey: "t")
        layer.backgroundColor = Self.blue
        try context.synchronize()
        // At progress 0.5 (the start): old red at 20..100 half faded, new blue at 100..180.
        let start = try context.capture(at: t0)
        expectRow(start, y: 50, 20, 100, Self.fadedRed(0.5))
        expectRow(start, y: 50, 100, 180, Self.blueRGB)
        // At progress 0.75: old red at 0..80 (a quarter opaque), new blue at 80..160.
        let later = try context.capture(at: t0 + 0.5)
        expectRow(later, y: 50, 0, 80, Self.fadedRed(0.25))
        expectRow(later, y: 50, 80, 160, Self.blueRGB)
        expectRow(later, y: 50, 160, 200, Self.whiteRGB)
        finish()
    }
}

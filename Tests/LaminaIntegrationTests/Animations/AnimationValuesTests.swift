import Foundation
import Lamina
import LaminaTesting
import Testing

/// Animations without values and with zero durations through the real laminad (issue 10, point 5).
@Suite(.serialized) final class AnimationValuesTests: AnimationSuite {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 200, height: 100)
    }

    deinit {
        server.stop()
    }

    /// Apple (CAAnimation.h, `CABasicAnimation`: "All properties are nil. Interpolates between the
    /// previous value of keyPath in the target layer's presentation layer and the current value"):
    /// set opacity to 0 with actions off, then add a 1 s linear animation with no values: half-way
    /// the red box is half transparent over white (green 128), not already invisible.
    @Test func setModelThenAddAnimationWithNoValuesAnimates() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        let t0 = CACurrentMediaTime() + 10
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        box.opacity = 0
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.duration = 1
        fade.beginTime = t0
        fade.timingFunction = CAMediaTimingFunction(name: .linear)
        box.add(fade, forKey: "fade")
        CATransaction.commit()
        try context.synchronize()
        // opacity 1 → 0: at t0 + 0.25 it is 0.75, so green = 255 × 0.25 ≈ 64; at t0 + 0.5, 128.
        #expect(abs(green(try context.capture(at: t0 + 0.25), 40, 50) - 64) <= 1)
        #expect(abs(green(try context.capture(at: t0 + 0.5), 40, 50) - 128) <= 1)
        // After the end the model value 0 shows: white.
        #expect(green(try context.capture(at: t0 + 1.5), 40, 50) == 255)
        let presented = try #require(box.presentation(at: t0 + 0.25))
        #expect(abs(presented.opacity - 0.75) < 1e-6)
        finish()
    }

    /// Apple (CATransaction.h: animationDuration "defaults to 0.25s"; an explicit animation whose
    /// duration is 0 uses it): a linear fade 1 → 0 with duration 0 added inside a transaction whose
    /// animationDuration is 2 is half-way at t0 + 1.
    @Test func zeroDurationTakesTheTransactionDuration() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        let t0 = CACurrentMediaTime() + 10
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0
        fade.beginTime = t0
        fade.timingFunction = CAMediaTimingFunction(name: .linear)
        box.add(fade, forKey: "fade")
        CATransaction.commit()
        try context.synchronize()
        // At t0 + 1 of 2 s opacity is 0.5: green 128 (with 0.25 s it would have ended: red, 0).
        #expect(abs(green(try context.capture(at: t0 + 1), 40, 50) - 128) <= 1)
        // After 2 s the animation is over and the model opacity 1 shows: red (green 0).
        #expect(green(try context.capture(at: t0 + 2.5), 40, 50) == 0)
        finish()
    }
}

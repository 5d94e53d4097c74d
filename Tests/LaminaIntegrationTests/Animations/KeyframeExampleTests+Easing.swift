import Foundation
import Lamina
import LaminaTesting
import Testing

/// KeyframeExampleTests E42, E43: per-segment and custom Bézier easing, and boxed transforms.
extension KeyframeExampleTests {
    // MARK: - E42: colour keyframes with per-segment easing

    /// E42: `backgroundColor` values [blue, red, green, blue] over 2 s with timingFunctions
    /// [easeIn ×3]. Key times are even (0, 1/3, 2/3, 1); in segment i at local fraction f the
    /// colour is the lerp at easeIn(f), easeIn being the curve (0.42, 0, 1, 1):
    /// - 0.5 s: fraction 0.25, segment 0, f = 0.75, e = easeIn(0.75) ≈ 0.62186: (e, 0, 1 − e);
    /// - 1.0 s: fraction 0.5, segment 1, f = 0.5, e ≈ 0.31536: (1 − e, e, 0);
    /// - 1.75 s: fraction 0.875, segment 2, f = 0.625, e ≈ 0.45947: (0, 1 − e, e).
    @Test func colourKeyframesEaseInE42() throws {
        let context = try server.connect()
        let layer = Self.box(CGRect(x: 140, y: 100, width: 40, height: 40), Self.blue)
        try makeScene(context, [layer])
        let t0 = CACurrentMediaTime() + 10
        let animation = CAKeyframeAnimation(keyPath: "backgroundColor")
        animation.values = [Self.blue, Self.red, Self.green, Self.blue]
        animation.duration = 2.0
        let easeIn = CAMediaTimingFunction(name: .easeIn)
        animation.timingFunctions = [easeIn, easeIn, easeIn]
        animation.beginTime = t0
        layer.add(animation, forKey: "backgroundColor")
        try context.synchronize()

        // The public curve agrees with an independent bisection, and with the rounded values above.
        for f in [0.75, 0.5, 0.625] {
            #expect(abs(easeIn.evaluate(f) - Self.ease(0.42, 0, 1, 1, f)) < 1e-6)
        }
        #expect(abs(Self.ease(0.42, 0, 1, 1, 0.75) - 0.62186) < 1e-5)
        #expect(abs(Self.ease(0.42, 0, 1, 1, 0.5) - 0.31536) < 1e-5)
        #expect(abs(Self.ease(0.42, 0, 1, 1, 0.625) - 0.45947) < 1e-5)

        let e0 = Self.ease(0.42, 0, 1, 1, 0.75)
        let e1 = Self.ease(0.42, 0, 1, 1, 0.5)
        let e2 = Self.ease(0.42, 0, 1, 1, 0.625)
        let cases: [(Double, [Double])] = [
            (0, [0, 0, 1, 1]), (0.5, [e0, 0, 1 - e0, 1]), (2.0 / 3, [1, 0, 0, 1]), (1.0, [1 - e1, e1, 0, 1]),
            (4.0 / 3, [0, 1, 0, 1]), (1.75, [0, 1 - e2, e2, 1]),
        ]
        for (time, expected) in cases {
            expectColor(layer.presentation(at: t0 + time)?.backgroundColor, expected)
            let image = try context.capture(at: t0 + time)
            let rgb = expected.prefix(3).map { Int((255 * $0).rounded()) }
            expectPixel(image, 160, 120, (rgb[0], rgb[1], rgb[2]), tolerance: 1)
        }
        // Not eased linearly: at 0.5 s a linear segment would give (0.75, 0, 0.25) = 191 red.
        #expect(abs(Int(try context.capture(at: t0 + 0.5).pixel(x: 160, y: 120).red) - 191) > 20)
        finish()
    }

    // MARK: - E43: custom Bézier easing on a transform

    /// E43: `transform` from the presentation layer's current transform (identity) to a z rotation
    /// by π/2, duration 0.5, timing function (1, 0, 0.75, 1), with a delegate; then the model
    /// transform is set to the same rotation. At time fraction x the angle is π/2 · c(x), c being
    /// the custom curve: c(0.25) ≈ 0.024777, c(0.5) ≈ 0.125754, c(0.75) ≈ 0.425048 (a strong
    /// ease-in). The 100×6 red bar centred at (160,120) shows the angle.
    @Test func customBezierEasingE43() throws {
        let context = try server.connect()
        let hand = Self.box(CGRect(x: 110, y: 117, width: 100, height: 6), Self.red)
        try makeScene(context, [hand])
        let angle = Double.pi / 2
        let rotation = CATransform3DMakeRotation(angle, 0, 0, 1)
        let recorder = Recorder()
        let t0 = CACurrentMediaTime() + 10

        func makeAnimation(begin: Double, tag: String) throws -> CABasicAnimation {
            let anim = CABasicAnimation(keyPath: "transform")
            // Boxed in NSValue, as the example does.
            anim.fromValue = NSValue(caTransform3D: try #require(hand.presentation()).transform)
            anim.toValue = NSValue(caTransform3D: rotation)
            anim.duration = 0.5
            anim.timingFunction = CAMediaTimingFunction(controlPoints: 1, 0, 0.75, 1)
            anim.delegate = recorder
            anim.setValue(tag, forKey: "tag")
            anim.beginTime = begin
            return anim
        }
        hand.add(try makeAnimation(begin: t0, tag: "future"), forKey: "transform")
        hand.transform = rotation
        try context.synchronize()
        // The explicit animation wins over the implicit one the model change would add.
        #expect(hand.animationKeys() == ["transform"])
        #expect(hand.animation(forKey: "transform")?.duration == 0.5)
        #expect(Self.zAngle(hand.transform) == Self.zAngle(rotation))

        let curve = CAMediaTimingFunction(controlPoints: 1, 0, 0.75, 1)
        let rounded: [Double: Double] = [0.25: 0.024777, 0.5: 0.125754, 0.75: 0.425048]
        for x in [0.25, 0.5, 0.75] {
            let c = Self.ease(1, 0, 0.75, 1, x)
            #expect(abs(c - rounded[x]!) < 1e-6)
            #expect(abs(curve.evaluate(x) - c) < 1e-6)
            let t = try #require(hand.presentation(at: t0 + 0.5 * x)).transform
            #expect(abs(Self.zAngle(t) - angle * c) < 1e-6, "at x = \(x): \(Self.zAngle(t)), expected \(angle * c)")
            #expect(abs(Double(t.m11) - cos(angle * c)) < 1e-6 && abs(Double(t.m33) - 1) < 1e-9)
        }
        // Before the begin (no backwards fill) and after the end: the model rotation.
        #expect(abs(Self.zAngle(try #require(hand.presentation(at: t0 - 1)).transform) - angle) < 1e-9)
        #expect(abs(Self.zAngle(try #require(hand.presentation(at: t0 + 1)).transform) - angle) < 1e-9)

        // Pixels at x = 0.75 (0.375 s): the bar is turned by π/2 · 0.425048 ≈ 0.6677 (38.3°); 30 pt
        // out along x (18.6 pt off its axis) is white. At 1 s: upright (the model).
        let turned = angle * Self.ease(1, 0, 0.75, 1, 0.75)
        expectBar(
            try context.capture(at: t0 + 0.375), centre: CGPoint(x: 160, y: 120), angle: turned, wrong: 0,
            reach: [-30, 30])
        expectBar(
            try context.capture(at: t0 + 1), centre: CGPoint(x: 160, y: 120), angle: angle, wrong: 0,
            reach: [-30, 30])
        // At x = 0.25 the bar has barely moved (2.2°): 30 pt out along x it is still red.
        expectBar(
            try context.capture(at: t0 + 0.125), centre: CGPoint(x: 160, y: 120), angle: 0, wrong: angle,
            reach: [-30, 30])

        // The delegate: replacing the pending animation stops it unfinished; one added already
        // over (begun 1 s ago) starts and finishes at the server's next frame.
        hand.add(try makeAnimation(begin: CACurrentMediaTime() - 1, tag: "past"), forKey: "transform")
        try context.synchronize()
        waitFor { recorder.snapshot.contains("stop past true") }
        #expect(recorder.snapshot == ["stop future false", "start past", "stop past true"])
        #expect(hand.animationKeys() == nil)
        // The model rotation stays on screen: the bar is upright.
        expectBar(try context.capture(), centre: CGPoint(x: 160, y: 120), angle: angle, wrong: 0, reach: [-30, 30])
        finish()
    }

    /// `NSValue(caTransform3D:)` boxes a transform (Foundation on Linux cannot box a struct type
    /// encoding, so Lamina's box uses an array of 16 doubles): it round-trips and animates like the
    /// bare value.
    @Test func nsValueTransformBox() throws {
        let rotation = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let box = NSValue(caTransform3D: rotation)
        #expect(abs(Double(box.caTransform3DValue.m12) - 1) < 1e-12)
        let context = try server.connect()
        let hand = Self.box(CGRect(x: 110, y: 117, width: 100, height: 6), Self.red)
        try makeScene(context, [hand])
        let t0 = CACurrentMediaTime() + 10
        let anim = CABasicAnimation(keyPath: "transform")
        anim.fromValue = NSValue(caTransform3D: CATransform3DIdentity)
        anim.toValue = box
        anim.duration = 1
        anim.beginTime = t0
        hand.add(anim, forKey: "transform")
        try context.synchronize()
        #expect(hand.animationKeys() == ["transform"])
        let t = try #require(hand.presentation(at: t0 + 0.5)).transform
        #expect(abs(Self.zAngle(t) - .pi / 4) < 1e-7)
        finish()
    }
}

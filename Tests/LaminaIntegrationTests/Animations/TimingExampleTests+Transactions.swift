import Foundation
import Lamina
import LaminaTesting
import Testing

/// TimingExampleTests, spec §9.7: transactions and actions.
extension TimingExampleTests {
    // MARK: 9.7 Transactions and actions

    /// E64: an explicit transaction changing zPosition (0 → 200) and opacity (1 → 0): both animate
    /// together, 0.25 s with the default curve. A blue sibling at zPosition 100 overlaps the box's
    /// right half, so the pixels show when the box's z passes 100.
    @Test func explicitTransactionE64() throws {
        let context = try server.connect()
        let (root, box) = try makeScene(context)
        let sibling = CALayer()
        sibling.frame = CGRect(x: 40, y: 30, width: 40, height: 40)
        sibling.backgroundColor = Self.blue
        sibling.zPosition = 100
        root.addSublayer(sibling)
        try context.synchronize()
        // Before: the box is behind the blue sibling where they overlap (x 40…60).
        #expect(blue(try context.capture(), 50, 50) == 255)
        CATransaction.begin()
        box.zPosition = 200
        box.opacity = 0
        CATransaction.commit()
        try context.synchronize()
        let z = try #require(box.animation(forKey: "zPosition") as? CABasicAnimation)
        let o = try #require(box.animation(forKey: "opacity") as? CABasicAnimation)
        #expect(z.duration == 0.25 && o.duration == 0.25)
        #expect(z.beginTime > 0 && z.beginTime == o.beginTime, "both start at the commit")
        let begin = z.beginTime
        for fraction in [0.2, 0.4] {
            let e = Self.defaultCurve.evaluate(fraction)
            let presented = try #require(box.presentation(at: begin + 0.25 * fraction))
            #expect(abs(presented.zPosition - 200 * e) < 1e-6)
            #expect(abs(Double(presented.opacity) - (1 - e)) < 1e-6)
            let image = try context.capture(at: begin + 0.25 * fraction)
            let alpha = 1 - e
            // Where the box is alone it is tinted over white: green = 255·(1 − alpha).
            #expect(abs(Double(green(image, 30, 50)) - 255 * e) <= 1.5)
            // In the overlap: default(0.2) ≈ 0.30 → z ≈ 60, behind (pure blue); default(0.4) ≈ 0.64
            // → z ≈ 128, in front with alpha ≈ 0.36: red 255·alpha over blue.
            if fraction == 0.2 {
                #expect(200 * e < 100)
                #expect(red(image, 50, 50) == 0 && blue(image, 50, 50) == 255)
            } else {
                #expect(200 * e > 100)
                #expect(abs(Double(red(image, 50, 50)) - 255 * alpha) <= 1.5)
                #expect(abs(Double(blue(image, 50, 50)) - 255 * (1 - alpha)) <= 1.5)
            }
        }
        // After 0.25 s: the model values (invisible box, blue sibling intact).
        let end = try #require(box.presentation(at: begin + 0.3))
        #expect(end.zPosition == 200 && end.opacity == 0)
        finish()
    }

    /// E65: `setValue(10.0, forKey: kCATransactionAnimationDuration)` makes the transaction's
    /// implicit animations last 10 s.
    @Test func transactionDurationE65() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        CATransaction.begin()
        CATransaction.setValue(10.0, forKey: kCATransactionAnimationDuration)
        #expect(CATransaction.animationDuration() == 10)
        box.opacity = 0
        box.position = CGPoint(x: 60, y: 50)
        CATransaction.commit()
        try context.synchronize()
        let fade = try #require(box.animation(forKey: "opacity"))
        let move = try #require(box.animation(forKey: "position"))
        #expect(fade.duration == 10 && move.duration == 10)
        let begin = fade.beginTime
        #expect(move.beginTime == begin)
        // At 5 s: default(0.5) ≈ 0.802 of the way: opacity ≈ 0.198, x ≈ 56.0.
        let e = Self.defaultCurve.evaluate(0.5)
        let half = try #require(box.presentation(at: begin + 5))
        #expect(abs(Double(half.opacity) - (1 - e)) < 1e-6)
        #expect(abs(half.position.x - (40 + 20 * e)) < 1e-6)
        // The pixel at x 50 is inside the box all along: green = 255·e over white.
        #expect(abs(Double(green(try context.capture(at: begin + 5), 50, 50)) - 255 * e) <= 1.5)
        // Still running at 8 s and 9.5 s (a 0.25 s animation would have ended long before):
        // default(0.8) ≈ 0.976 → green ≈ 248.8; default(0.95) ≈ 0.9986.
        let late = try #require(box.presentation(at: begin + 9.5))
        #expect(late.opacity > 0 && late.position.x < 60)
        let e8 = Self.defaultCurve.evaluate(0.8)
        #expect(abs(Double(green(try context.capture(at: begin + 8), 50, 50)) - 255 * e8) <= 1.5)
        // Over after 10 s.
        let over = try #require(box.presentation(at: begin + 10.5))
        #expect(over.opacity == 0 && over.position.x == 60)
        finish()
    }

    /// E67: transaction duration 1 s and timing function easeOut: the implicit move follows
    /// easeOut: x(t) = 40 + 100·easeOut(t).
    @Test func transactionEaseOutE67() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        let easeOut = CAMediaTimingFunction(name: .easeOut)
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(easeOut)
        box.position = CGPoint(x: 140, y: 50)
        CATransaction.commit()
        try context.synchronize()
        let move = try #require(box.animation(forKey: "position"))
        #expect(move.duration == 1)
        let begin = move.beginTime
        for t in [0.1, 0.3, 0.6, 0.9] {
            // E.g. easeOut(0.3) ≈ 0.45 (ahead of linear 0.3 by 15 px): the curve is not linear.
            let e = easeOut.evaluate(t)
            let x = 40 + 100 * e
            let presented = try #require(box.presentation(at: begin + t))
            #expect(abs(presented.position.x - x) < 1e-6, "x at \(t) s")
            #expect(presented.position.y == 50)
            let edge = try #require(leftEdge(try context.capture(at: begin + t)))
            #expect(abs(Double(edge) - (x - 20)) <= 1, "left edge at \(t) s: \(edge), expected \(x - 20)")
        }
        #expect(easeOut.evaluate(0.3) - 0.3 > 0.1)
        #expect(leftEdge(try context.capture(at: begin + 1.2)) == 120)
        finish()
    }

    /// E68: a 4 s move; the presentation layer's hit test hits where the box is drawn now, the model
    /// layer's hit test hits the destination.
    @Test func presentationHitTestE68() throws {
        let context = try server.connect()
        let (root, box) = try makeScene(context)
        CATransaction.begin()
        CATransaction.setAnimationDuration(4)
        box.position = CGPoint(x: 140, y: 50)
        CATransaction.commit()
        try context.synchronize()
        // Right after the commit the box has hardly moved (the point 58 stays inside it until x > 78,
        // i.e. 0.38 of the way, ≈ 0.8 s with the default curve); the model box spans 120…160.
        let now = try #require(root.presentation())
        #expect(now.hitTest(CGPoint(x: 58, y: 50))?.model() === box)
        #expect(root.hitTest(CGPoint(x: 58, y: 50)) === root)
        #expect(root.hitTest(CGPoint(x: 150, y: 50)) === box)

        let begin = try #require(box.animation(forKey: "position")).beginTime
        // At 2 s: x = 40 + 100·default(0.5) ≈ 120.2 → the box spans ≈ 100.2…140.2.
        let x = 40 + 100 * Self.defaultCurve.evaluate(0.5)
        let presented = try #require(root.presentation(at: begin + 2))
        #expect(abs(try #require(presented.sublayers?.first).position.x - x) < 1e-6)
        #expect(presented.hitTest(CGPoint(x: 105, y: 50))?.model() === box)
        #expect(presented.hitTest(CGPoint(x: 150, y: 50))?.model() === root)
        #expect(root.hitTest(CGPoint(x: 105, y: 50)) === root)
        #expect(root.hitTest(CGPoint(x: 150, y: 50)) === box)
        // The pixels agree with the presentation layer.
        let image = try context.capture(at: begin + 2)
        #expect(green(image, 105, 50) == 0)
        #expect(green(image, 150, 50) == 255)
        finish()
    }

    /// E71: a delegate returns `NSNull()` for "backgroundColor" when not animating (no animation,
    /// the change is immediate) and a `CABasicAnimation` when animating (that animation is used).
    @Test func delegateProbeE71() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        final class Probe: CALayerDelegate {
            var animating = false
            var asked: [String] = []
            func action(for layer: CALayer, forKey event: String) -> (any CAAction)? {
                asked.append(event)
                guard event == "backgroundColor" else { return nil }
                guard animating else { return NSNull() }
                let animation = CABasicAnimation(keyPath: "backgroundColor")
                animation.duration = 2
                animation.timingFunction = CAMediaTimingFunction(name: .linear)
                return animation
            }
        }
        let probe = Probe()
        box.delegate = probe

        // Off: NSNull stops the search: no animation, blue at once.
        box.backgroundColor = Self.blue
        #expect(probe.asked == ["backgroundColor"])
        #expect(box.animationKeys() == nil)
        let immediate = try context.capture()
        #expect(red(immediate, 40, 50) == 0 && blue(immediate, 40, 50) == 255)

        // On: the delegate's 2 s linear animation runs, from blue to red.
        probe.animating = true
        box.backgroundColor = Self.red
        #expect(probe.asked == ["backgroundColor", "backgroundColor"])
        let animation = try #require(box.animation(forKey: "backgroundColor") as? CABasicAnimation)
        #expect(animation.duration == 2)
        try context.synchronize()
        let begin = try #require(box.animation(forKey: "backgroundColor")).beginTime
        // Half-way: component-wise (0.5, 0, 0.5).
        let half = try #require(box.presentation(at: begin + 1))
        let components = try #require(half.backgroundColor?.components)
        #expect(abs(components[0] - 0.5) < 1e-6 && abs(components[2] - 0.5) < 1e-6 && components[1] == 0)
        let image = try context.capture(at: begin + 1)
        #expect(abs(red(image, 40, 50) - 128) <= 1 && abs(blue(image, 40, 50) - 128) <= 1)
        #expect(green(image, 40, 50) == 0)
        // After 2 s: the model, red.
        #expect(red(try context.capture(at: begin + 2.5), 40, 50) == 255)

        // Other keys: the delegate returns nil, so the search goes on to the implicit animation.
        box.opacity = 0.5
        #expect(probe.asked.last == "opacity")
        #expect(box.animation(forKey: "opacity")?.duration == 0.25)
        finish()
    }

    /// A property animation with no key path, used as an action, animates the action's key (as on
    /// Apple platforms): an `actions` entry of a bare 2 s `CABasicAnimation` for "position".
    @Test func keyPathlessActionAnimatesItsKey() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        let slow = CABasicAnimation()
        slow.duration = 2
        slow.timingFunction = CAMediaTimingFunction(name: .linear)
        box.actions = ["position": slow]
        box.position = CGPoint(x: 140, y: 50)
        let attached = try #require(box.animation(forKey: "position") as? CABasicAnimation)
        #expect(attached.keyPath == "position" && attached.duration == 2)
        #expect(slow.keyPath == nil)
        try context.synchronize()
        let begin = try #require(box.animation(forKey: "position")).beginTime
        // From x 40 to 140, linear over 2 s: x 90 after 1 s, so the left edge is at 70.
        let half = try #require(box.presentation(at: begin + 1))
        #expect(abs(half.position.x - 90) < 1e-9)
        #expect(leftEdge(try context.capture(at: begin + 1)) == 70)
        finish()
    }
}

import Foundation
import Lamina
import LaminaTesting
import Testing

/// TimingExampleTests, spec §9.4: basic animations, explicit and implicit, and removal.
extension TimingExampleTests {
    // MARK: 9.4 Basic animations

    /// E34: a 3 s explicit fade from 1 to 0. With the model set to 0 it stays invisible after the
    /// end; without the model update it pops back to opaque.
    @Test(arguments: [true, false]) func explicitFade3sE34(updateModel: Bool) throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        let t0 = CACurrentMediaTime() + 10
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 3
        fade.beginTime = t0
        box.add(fade, forKey: "opacity")
        if updateModel { box.opacity = 0 }
        try context.synchronize()
        #expect(box.animation(forKey: "opacity")?.duration == 3)
        // Linear (no timing function): opacity = 1 − t/3. Over white, green = 255·(1 − opacity).
        for (t, opacity) in [(0.75, 0.75), (1.5, 0.5), (2.25, 0.25), (2.9, 0.1 / 3)] {
            let presented = try #require(box.presentation(at: t0 + t))
            #expect(abs(Double(presented.opacity) - opacity) < 1e-6, "opacity at \(t) s")
            let expected = 255 * (1 - opacity)
            let g = green(try context.capture(at: t0 + t), 40, 50)
            #expect(abs(Double(g) - expected) <= 1.5, "green at \(t) s: \(g), expected \(expected)")
        }
        // After 3 s the model value shows: 0 (white) or, without the update, 1 (red).
        let after = try #require(box.presentation(at: t0 + 3.5))
        #expect(after.opacity == (updateModel ? 0 : 1))
        #expect(green(try context.capture(at: t0 + 3.5), 40, 50) == (updateModel ? 255 : 0))
        finish()
    }

    /// E45: an implicit opacity change in a 1 s transaction and an explicit 3 s position animation
    /// keyed "AnimateFrame", added together: both start at the same commit and end at 1 s and 3 s.
    @Test func implicitAndExplicitTogetherE45() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        let newPosition = CGPoint(x: 160, y: 50)
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        box.opacity = 0
        let move = CABasicAnimation(keyPath: "position")
        move.fromValue = box.position  // (40, 50): the current position
        move.toValue = newPosition
        move.duration = 3
        box.add(move, forKey: "AnimateFrame")
        box.position = newPosition
        CATransaction.commit()
        try context.synchronize()
        #expect(
            Set(box.animationKeys() ?? []) == ["opacity", "AnimateFrame"],
            "the explicit animation wins over an implicit position animation")
        let fade = try #require(box.animation(forKey: "opacity"))
        let frame = try #require(box.animation(forKey: "AnimateFrame"))
        #expect(fade.duration == 1)
        #expect(frame.duration == 3)
        #expect(fade.beginTime > 0)
        #expect(fade.beginTime == frame.beginTime, "both start together")
        let begin = fade.beginTime

        // At 0.25 s: opacity 1 − default(0.25) ≈ 0.59; x = 40 + 120·0.25/3 = 50 (linear).
        let e = Self.defaultCurve.evaluate(0.25)
        let early = try #require(box.presentation(at: begin + 0.25))
        #expect(abs(Double(early.opacity) - (1 - e)) < 1e-6)
        #expect(abs(early.position.x - 50) < 1e-6)
        let image = try context.capture(at: begin + 0.25)
        // The box spans x 30…70, tinted: green = 255·e over white.
        #expect(abs(Double(green(image, 50, 50)) - 255 * e) <= 1.5)
        #expect(leftEdge(image, threshold: 250) == 30)
        #expect(rightEdge(image, threshold: 250) == 69)
        // At 1.5 s the fade is over (model 0) and the move half done: x = 100.
        let middle = try #require(box.presentation(at: begin + 1.5))
        #expect(middle.opacity == 0)
        #expect(abs(middle.position.x - 100) < 1e-6)
        #expect(green(try context.capture(at: begin + 1.5), 100, 50) == 255)
        // Just before 3 s the move still runs; after it the model (160, 50) shows.
        #expect(abs(try #require(box.presentation(at: begin + 2.97)).position.x - 158.8) < 1e-6)
        #expect(try #require(box.presentation(at: begin + 3.1)).position == newPosition)
        finish()
    }

    /// E46 as Lamina can do it: fade a layer out and remove it when the fade ends, with the fade
    /// added in a transaction whose completion block removes the layer.
    @Test func fadeThenRemoveE46() throws {
        let context = try server.connect()
        let (root, box) = try makeScene(context)
        let begin = CACurrentMediaTime() + 0.3
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 0.3
        fade.beginTime = begin
        fade.fillMode = .backwards
        final class Flag: @unchecked Sendable { var removed = false }
        let flag = Flag()
        CATransaction.begin()
        CATransaction.setCompletionBlock {
            box.removeFromSuperlayer()
            flag.removed = true
        }
        box.add(fade, forKey: "fade")
        box.opacity = 0
        CATransaction.commit()
        try context.synchronize()
        #expect(box.animationKeys() == ["fade"], "no implicit opacity animation beside the explicit one")
        // Before the fade (backwards fill): opaque red. Half-way: opacity 0.5. Captures are taken
        // before the animation ends, so the server still has it.
        #expect(green(try context.capture(at: begin - 0.1), 40, 50) == 0)
        #expect(abs(green(try context.capture(at: begin + 0.15), 40, 50) - 128) <= 1)
        #expect(box.superlayer === root)
        waitFor { flag.removed }
        #expect(flag.removed, "the completion block ran after the fade")
        #expect(CACurrentMediaTime() >= begin + 0.3 - 0.02)
        try context.synchronize()
        #expect(box.superlayer == nil)
        #expect(root.sublayers == nil)
        #expect(green(try context.capture(), 40, 50) == 255)
        finish()
    }

    /// E46, the other reading: removal runs the `kCAOnOrderOut` action, but an animation that
    /// action adds cannot show, because the removed layer leaves the rendered tree at once (as on
    /// Apple platforms). That animation ends unfinished with the layer, so the transaction's
    /// completion block still runs.
    @Test func orderOutActionOnRemovalE46() throws {
        let context = try server.connect()
        let (root, box) = try makeScene(context)
        final class FadeAction: CAAction {
            var events: [String] = []
            func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
                events.append(event)
                let fade = CABasicAnimation(keyPath: "opacity")
                fade.fromValue = 1.0
                fade.toValue = 0.0
                fade.duration = 10
                (anObject as? CALayer)?.add(fade, forKey: "fadeOut")
            }
        }
        let action = FadeAction()
        box.actions = [kCAOnOrderOut: action]
        final class Done: @unchecked Sendable {
            let lock = NSLock()
            var ran = false
        }
        let done = Done()
        CATransaction.begin()
        CATransaction.setCompletionBlock { done.lock.withLock { done.ran = true } }
        box.removeFromSuperlayer()
        CATransaction.commit()
        #expect(action.events == [kCAOnOrderOut])
        try context.synchronize()
        #expect(root.sublayers == nil)
        // The 10 s fade would leave the box mostly red for seconds; it is gone right away.
        #expect(green(try context.capture(), 40, 50) == 255)
        waitFor { done.lock.withLock { done.ran } }
        #expect(done.lock.withLock { done.ran })
        #expect(box.animationKeys() == nil)
        finish()
    }
}

import Foundation
import Lamina
import LaminaTesting
import Testing

/// The worked examples of spec §9 on key paths, timing, transactions, actions and KVC, end to end:
/// a client builds the scene, the real laminad renders it at capture times passed in (no sleeps
/// where a time can be passed), and both the client's presentation values and the pixels show what
/// the timing model and the geometry predict.
///
/// Scenes: a white 200×100 root; either a red 40×40 box at (20, 30) (centre (40, 50)), or a red
/// 80×60 "door" hinged at the root's centre (anchorPoint (0, 0.5), position (100, 50)) under a root
/// `sublayerTransform` with m34 = −1/500. Geometry is y-down with the origin at the top left.
@Suite(.serialized) final class TimingExampleTests: AnimationSuite {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 200, height: 100)
    }

    deinit {
        server.stop()
    }

    // MARK: Helpers

    /// The swinging-door scene of E59/E61: the root (the container) has m34 = −1/500; the door is
    /// 80×60, hinged on its left edge at the root's centre (100, 50), so it spans x 100…180 flat.
    func makeDoorScene(_ context: CAContext) throws -> (root: CALayer, door: CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = Self.white
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        root.sublayerTransform = perspective
        let door = CALayer()
        door.anchorPoint = CGPoint(x: 0, y: 0.5)
        door.bounds = CGRect(x: 0, y: 0, width: 80, height: 60)
        door.position = CGPoint(x: 100, y: 50)
        door.backgroundColor = Self.red
        root.addSublayer(door)
        context.layer = root
        try context.synchronize()
        return (root, door)
    }

    /// The door's projected width on row 50 for a rotation θ about y, derived by hand: a door point
    /// u pt from the hinge goes to (u·cosθ, 0, −u·sinθ) (Apple's row-vector rotation matrix, m13 =
    /// −sinθ), and the container's m34 = −1/500 divides x by w = 1 − z/500 = 1 + u·sinθ/500. For
    /// θ = −π/4: 56.57 / 0.8869 = 63.78 px (wider than the 56.57 of a parallel projection).
    static func doorWidth(_ angle: Double) -> Double {
        80 * cos(angle) / (1 + 80 * sin(angle) / 500)
    }

    /// How many pixels of `row` are more red than white (the door's width, counted by coverage).
    func redWidth(_ image: CGImage, row: Int = 50) -> Int {
        (0..<image.width).filter { green(image, $0, row) < 128 }.count
    }

    func number(_ value: Any?) -> Double? {
        switch value {
        case let v as CGFloat: Double(v)
        case let v as Double: v
        case let v as Float: Double(v)
        case let v as Int: Double(v)
        default: nil
        }
    }

    static let defaultCurve = CAMediaTimingFunction(name: .default)

    // MARK: 9.3 Key paths

    /// E31: `position.x` and `bounds.size.width` are read and written through key paths; the
    /// writes go through the property setters (so `position`/`bounds` actions run) and move pixels.
    @Test func structureKeyPathsE31() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        // Frame (20, 30, 40, 40): position (40, 50), bounds size 40×40.
        #expect(number(box.value(forKeyPath: "position.x")) == 40)
        #expect(number(box.value(forKeyPath: "position.y")) == 50)
        #expect(number(box.value(forKeyPath: "bounds.size.width")) == 40)
        #expect(number(box.value(forKeyPath: "bounds.size.height")) == 40)

        // Write both at once without animation: centre x 100, width 60 → spans x 70…130.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        box.setValue(100, forKeyPath: "position.x")
        box.setValue(60.0, forKeyPath: "bounds.size.width")
        CATransaction.commit()
        #expect(box.position == CGPoint(x: 100, y: 50))
        #expect(box.bounds == CGRect(x: 0, y: 0, width: 60, height: 40))
        #expect(box.frame == CGRect(x: 70, y: 30, width: 60, height: 40))
        #expect(number(box.value(forKeyPath: "position.x")) == 100)
        #expect(number(box.value(forKeyPath: "bounds.size.width")) == 60)
        #expect(box.animationKeys() == nil)
        let moved = try context.capture()
        #expect(leftEdge(moved) == 70)
        #expect(rightEdge(moved) == 129)
        #expect(green(moved, 69, 50) == 255 && green(moved, 130, 50) == 255)

        // With actions on, writing `position.x` runs the `position` action (the whole property):
        // an implicit 0.25 s animation from (100, 50) to (150, 50) with the default curve.
        box.setValue(CGFloat(150), forKeyPath: "position.x")
        #expect(box.position.x == 150)
        #expect(box.animationKeys() == ["position"])
        try context.synchronize()
        let begin = try #require(box.animation(forKey: "position")).beginTime
        #expect(begin > 0)
        // Half-way in time: x = 100 + 50·default(0.5) ≈ 100 + 50·0.8024 ≈ 140.1; left edge x − 30.
        let x = 100 + 50 * Self.defaultCurve.evaluate(0.5)
        let half = try #require(box.presentation(at: begin + 0.125))
        #expect(abs(number(half.value(forKeyPath: "position.x"))! - x) < 1e-6)
        #expect(number(half.value(forKeyPath: "bounds.size.width")) == 60)
        let mid = try #require(leftEdge(try context.capture(at: begin + 0.125)))
        #expect(abs(Double(mid) - (x - 30)) <= 1, "left edge \(mid), expected \(x - 30)")
        // After the animation: x 150 → spans 120…180.
        #expect(leftEdge(try context.capture(at: begin + 0.5)) == 120)
        finish()
    }

    /// E30: `setValue(10, forKeyPath: "transform.translation.x")` moves the layer 10 px right.
    @Test func translationKeyPathE30() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        #expect(leftEdge(try context.capture()) == 20)
        box.setValue(10, forKeyPath: "transform.translation.x")
        #expect(box.transform.m41 == 10)
        #expect(number(box.value(forKeyPath: "transform.translation.x")) == 10)
        #expect(number(box.value(forKeyPath: "transform.translation.y")) == 0)
        #expect(box.position == CGPoint(x: 40, y: 50), "the position is untouched")
        // The change runs the `transform` action: an implicit 0.25 s animation.
        #expect(box.animationKeys() == ["transform"])
        try context.synchronize()
        let begin = try #require(box.animation(forKey: "transform")).beginTime
        // Half-way: translation 10·default(0.5) ≈ 8.02 → left edge ≈ 28.
        let tx = 10 * Self.defaultCurve.evaluate(0.5)
        let half = try #require(box.presentation(at: begin + 0.125))
        #expect(abs(half.transform.m41 - tx) < 1e-6)
        #expect(abs(Double(try #require(leftEdge(try context.capture(at: begin + 0.125)))) - (20 + tx)) <= 1)
        // Afterwards the box's left edge is at 30, its right edge at 69.
        let after = try context.capture(at: begin + 1)
        #expect(leftEdge(after) == 30)
        #expect(rightEdge(after) == 69)
        finish()
    }

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

    // MARK: 9.6 Timing

    /// E55: with default timing all the way up, a layer's local time is media (host) time.
    @Test func layerLocalTimeE55() throws {
        let context = try server.connect()
        let (root, box) = try makeScene(context)
        let leaf = CALayer()
        leaf.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
        box.addSublayer(leaf)
        try context.synchronize()
        let before = CACurrentMediaTime()
        let local = leaf.convertTime(CACurrentMediaTime(), from: nil)
        let after = CACurrentMediaTime()
        #expect(local >= before && local <= after)
        for t in [0.0, 12.5, before + 1000] {
            #expect(leaf.convertTime(t, from: nil) == t)
            #expect(leaf.convertTime(t, to: nil) == t)
            #expect(leaf.convertTime(t, from: root) == t)
        }
        // Not trivially the identity: an ancestor's timeOffset shifts it.
        root.timeOffset = 3
        #expect(leaf.convertTime(7, from: nil) == 10)
        #expect(leaf.convertTime(10, to: nil) == 7)
        root.timeOffset = 0
        try context.synchronize()
        // An animation whose begin time is the layer's local time of t0 starts at media time t0.
        let t0 = CACurrentMediaTime() + 5
        let move = Self.move(begin: box.convertTime(t0, from: nil))
        #expect(move.beginTime == t0)
        box.add(move, forKey: "move")
        try context.synchronize()
        // Half-way: centre x 125 → left edge 105.
        #expect(leftEdge(try context.capture(at: t0 + 0.5)) == 105)
        #expect(leftEdge(try context.capture(at: t0 - 0.5)) == 20)
        finish()
    }

    /// E57: B's beginTime = A's begin + A's duration: B starts exactly when A ends. A moves the
    /// centre x 40 → 100 and B 100 → 160 (1 s each, linear), so the motion is continuous at the joint.
    @Test func chainingE57() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        let t0 = CACurrentMediaTime() + 10
        let a = Self.move(from: 40, to: 100, begin: t0)
        let b = Self.move(from: 100, to: 160, begin: a.beginTime + a.duration)
        box.add(a, forKey: "A")
        box.add(b, forKey: "B")
        try context.synchronize()
        #expect(box.animation(forKey: "B")?.beginTime == t0 + 1)
        func x(_ t: Double) throws -> Double { try #require(box.presentation(at: t0 + t)).position.x }
        // A runs alone (B has no backwards fill, so it does not hide A before its start).
        #expect(abs(try x(0.5) - 70) < 1e-6)
        // Around the joint: 1 ms either side is 0.06 pt either side of 100 (x = 40 + 60t).
        #expect(abs(try x(0.999) - 99.94) < 1e-6)
        #expect(abs(try x(1.001) - 100.06) < 1e-6)
        #expect(abs(try x(1.5) - 130) < 1e-6)
        #expect(abs(try x(1.999) - 159.94) < 1e-6)
        // After B the model (40) shows again.
        #expect(try x(2.5) == 40)
        // Pixels: left edge = x − 20.
        #expect(leftEdge(try context.capture(at: t0 + 0.5)) == 50)
        #expect(leftEdge(try context.capture(at: t0 + 0.99)) == 79)  // x 99.4 → 79.4
        #expect(leftEdge(try context.capture(at: t0 + 1.01)) == 81)  // x 100.6 → 80.6
        #expect(leftEdge(try context.capture(at: t0 + 1.5)) == 110)
        #expect(leftEdge(try context.capture(at: t0 + 2.5)) == 20)
        finish()
    }

    /// E59: the swinging door: `transform.rotation.y` to −π/2, 2 s, autoreverses, repeatDuration
    /// infinity: a 4 s cycle (open in 2 s, close in 2 s, linear), forever; the door's drawn width
    /// shrinks as it turns (with perspective).
    @Test func swingingDoorE59() throws {
        let context = try server.connect()
        let (_, door) = try makeDoorScene(context)
        let t0 = CACurrentMediaTime() + 10
        let swing = CABasicAnimation(keyPath: "transform.rotation.y")
        swing.toValue = -Double.pi / 2
        swing.duration = 2
        swing.autoreverses = true
        swing.repeatDuration = .infinity
        swing.beginTime = t0
        door.add(swing, forKey: "swing")
        try context.synchronize()
        // Phase p = (t mod 4); angle = −(π/2)·p/2 for p ≤ 2, −(π/2)·(4 − p)/2 after.
        let cases: [(t: Double, angle: Double)] = [
            (-1, 0),  // before the begin: the model
            (0.5, -Double.pi / 8),
            (1, -Double.pi / 4),
            (2, -Double.pi / 2),  // fully open: edge-on
            (3, -Double.pi / 4),  // closing
            (4.5, -Double.pi / 8),  // second cycle
            (101, -Double.pi / 4),  // 101 mod 4 = 1
            (102.5, -3 * Double.pi / 8),  // 102.5 mod 4 = 2.5: closing, 3/4 open
        ]
        for (t, angle) in cases {
            let presented = try #require(door.presentation(at: t0 + t))
            let got = try #require(number(presented.value(forKeyPath: "transform.rotation.y")))
            #expect(abs(got - angle) < 1e-6, "angle at \(t) s: \(got), expected \(angle)")
            // The presented matrix is the rotation about y (m11 = cos, m13 = −sin).
            #expect(
                abs(presented.transform.m11 - cos(angle)) < 1e-9 && abs(presented.transform.m13 + sin(angle)) < 1e-9)
            let width = Self.doorWidth(angle)
            let measured = redWidth(try context.capture(at: t0 + t))
            #expect(abs(Double(measured) - width) <= 1, "width at \(t) s: \(measured) px, expected \(width)")
        }
        // Hand-derived values of the formula: 80 flat, 78.73 at π/8, 63.78 at π/4, 35.92 at 3π/8, 0 edge-on.
        #expect(abs(Self.doorWidth(-Double.pi / 4) - 63.78) < 0.01)
        #expect(abs(Self.doorWidth(-3 * Double.pi / 8) - 35.92) < 0.01)
        // The hinge stays put at x = 100.
        #expect(leftEdge(try context.capture(at: t0 + 1)) == 100)
        finish()
    }

    /// E61: manual scrubbing: the door layer's speed is 0 and its timeOffset picks the frame; with
    /// the default (linear) timing the angle is −(π/2)·timeOffset, whatever the wall-clock time.
    @Test func manualScrubbingE61() throws {
        let context = try server.connect()
        let (_, door) = try makeDoorScene(context)
        door.speed = 0
        let swing = CABasicAnimation(keyPath: "transform.rotation.y")
        swing.toValue = -Double.pi / 2
        swing.duration = 1
        door.add(swing, forKey: "swing")
        try context.synchronize()
        // The begin time is stamped in the door's local time, frozen at timeOffset 0.
        #expect(door.animation(forKey: "swing")?.beginTime == 0)
        for offset in [0.0, 0.25, 0.5, 0.999] {
            door.timeOffset = offset
            try context.synchronize()
            let angle = -(Double.pi / 2) * offset
            let now = CACurrentMediaTime()
            for t in [now, now + 7] {
                let presented = try #require(door.presentation(at: t))
                let got = try #require(number(presented.value(forKeyPath: "transform.rotation.y")))
                #expect(abs(got - angle) < 1e-6, "offset \(offset): angle \(got), expected \(angle)")
                let measured = redWidth(try context.capture(at: t))
                let width = Self.doorWidth(angle)
                #expect(abs(Double(measured) - width) <= 1, "offset \(offset): \(measured) px, expected \(width)")
            }
        }
        finish()
    }

    /// E62: a timer-driven step: each tick sets timeOffset = min(timeOffset + (now − last),
    /// duration). The ticks are simulated with chosen `now` values (no sleeps); forwards fill
    /// keeps the door open once the offset reaches the duration.
    @Test func timerDrivenStepE62() throws {
        let context = try server.connect()
        let (_, door) = try makeDoorScene(context)
        door.speed = 0
        let swing = CABasicAnimation(keyPath: "transform.rotation.y")
        swing.toValue = -Double.pi / 2
        swing.duration = 1
        swing.fillMode = .forwards
        swing.isRemovedOnCompletion = false
        door.add(swing, forKey: "swing")
        try context.synchronize()
        let start = CACurrentMediaTime()
        var last = start
        // Tick times and the offsets they give, by hand: 0.1, 0.1 + 0.4 = 0.5, 0.5 + 0.25 = 0.75,
        // then 0.75 + 0.5 clamped to 1.
        let ticks: [(now: Double, offset: Double)] = [(0.1, 0.1), (0.5, 0.5), (0.75, 0.75), (1.25, 1)]
        for (tick, expectedOffset) in ticks {
            let now = start + tick
            door.timeOffset = min(door.timeOffset + (now - last), swing.duration)
            last = now
            #expect(abs(door.timeOffset - expectedOffset) < 1e-9)
            try context.synchronize()
            let angle = -(Double.pi / 2) * expectedOffset
            let presented = try #require(door.presentation(at: now))
            let got = try #require(number(presented.value(forKeyPath: "transform.rotation.y")))
            #expect(abs(got - angle) < 1e-6, "tick \(tick): angle \(got), expected \(angle)")
            let measured = redWidth(try context.capture(at: now))
            #expect(
                abs(Double(measured) - Self.doorWidth(angle)) <= 1,
                "tick \(tick): \(measured) px, expected \(Self.doorWidth(angle))")
        }
        finish()
    }

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

    // MARK: 9.8 KVC

    /// E73: any key can be stored and read back with KVC; it changes nothing on screen.
    @Test func arbitraryKeyE73() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        #expect(box.value(forKey: "someKey") == nil)
        box.setValue(50, forKey: "someKey")
        #expect(box.value(forKey: "someKey") as? Int == 50)
        box.setValue("fifty", forKey: "otherKey")
        #expect(box.value(forKey: "otherKey") as? String == "fifty")
        #expect(box.value(forKey: "someKey") as? Int == 50)
        #expect(box.animationKeys() == nil)
        try context.synchronize()
        let image = try context.capture()
        #expect(leftEdge(image) == 20 && rightEdge(image) == 59)
        finish()
    }

    /// E74: a subclass's `defaultValue(forKey:)` returns true for "masksToBounds": new instances
    /// clip without the flag being set (a plain layer beside it does not).
    @Test func defaultValueOverrideE74() throws {
        final class ClippingLayer: CALayer {
            override class func defaultValue(forKey key: String) -> Any? {
                switch key {
                case "masksToBounds": true
                case "someKey": 7
                default: super.defaultValue(forKey: key)
                }
            }
        }
        let context = try server.connect()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = Self.white
        let clipping = ClippingLayer()
        #expect(clipping.masksToBounds == true)
        #expect(clipping.value(forKey: "masksToBounds") as? Bool == true)
        #expect(clipping.value(forKey: "someKey") as? Int == 7, "unset keys read the class default")
        #expect(CALayer().masksToBounds == false)
        let plain = CALayer()
        // Two 40×40 blue layers, each with a red 60×60 child at (20, 20) that overflows them.
        for (layer, x) in [(clipping as CALayer, 20.0), (plain, 110.0)] {
            layer.frame = CGRect(x: x, y: 30, width: 40, height: 40)
            layer.backgroundColor = Self.blue
            let child = CALayer()
            child.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
            child.backgroundColor = Self.red
            layer.addSublayer(child)
            root.addSublayer(layer)
        }
        context.layer = root
        try context.synchronize()
        let image = try context.capture()
        // Inside both parents the child shows (local (30, 30)); the parent shows at local (10, 10).
        #expect(red(image, 50, 60) == 255 && blue(image, 50, 60) == 0)
        #expect(red(image, 140, 60) == 255 && blue(image, 140, 60) == 0)
        #expect(blue(image, 30, 40) == 255 && blue(image, 120, 40) == 255)
        // Outside the parent (local (50, 20)): white where clipped, red for the plain layer.
        #expect(green(image, 70, 50) == 255 && red(image, 70, 50) == 255)
        #expect(red(image, 160, 50) == 255 && green(image, 160, 50) == 0)
        // The presentation layer of the subclass keeps the class and the value.
        let presented = try #require(clipping.presentation(at: CACurrentMediaTime()))
        #expect(presented is ClippingLayer)
        #expect(presented.masksToBounds == true)
        finish()
    }
}

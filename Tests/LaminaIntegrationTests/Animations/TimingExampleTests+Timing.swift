import Foundation
import Lamina
import LaminaTesting
import Testing

/// TimingExampleTests, spec §9.6: layer time, chaining, the swinging door, scrubbing and stepping.
extension TimingExampleTests {
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
}

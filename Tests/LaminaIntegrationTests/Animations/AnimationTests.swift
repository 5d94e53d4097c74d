import Foundation
import Lamina
import LaminaTesting
import Testing

/// Animations end to end: a client adds animations, the real laminad evaluates them at capture
/// times passed in (no sleeps), and the pixels show the values the timing model predicts.
@Suite(.serialized) final class AnimationTests: AnimationSuite {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 200, height: 100)
    }

    deinit {
        server.stop()
    }

    /// A white 200×100 root with a red 40×40 box at (20, 30), committed.

    /// E33: a 1 s explicit fade from 1 to 0, then the model set to 0: half-way the red box is half
    /// transparent over white; after the end it stays invisible.
    @Test func explicitFadeE33() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        let t0 = CACurrentMediaTime() + 10
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 1
        fade.beginTime = t0
        box.add(fade, forKey: "opacity")
        box.opacity = 0
        try context.synchronize()

        // Before the begin time (no backwards fill) the model value, 0, shows: white.
        #expect(green(try context.capture(at: t0 - 0.5), 40, 50) == 255)
        // At t0 + 0.25 opacity is 0.75: green = 255 × 0.25.
        #expect(abs(green(try context.capture(at: t0 + 0.25), 40, 50) - 64) <= 1)
        #expect(abs(green(try context.capture(at: t0 + 0.5), 40, 50) - 128) <= 1)
        // After the end, the model value 0: white.
        #expect(green(try context.capture(at: t0 + 1.5), 40, 50) == 255)
        // The client's presentation layer computes the same value.
        let presented = try #require(box.presentation(at: t0 + 0.25))
        #expect(abs(presented.opacity - 0.75) < 1e-6)
        finish()
    }

    /// E32: an implicit fade on a committed standalone layer: the model reads 0 at once, the screen
    /// fades over 0.25 s with the default timing function from the commit.
    @Test func implicitFadeE32() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        box.opacity = 0
        #expect(box.opacity == 0)
        let keys = box.animationKeys()
        #expect(keys == ["opacity"])
        let animation = try #require(box.animation(forKey: "opacity") as? CABasicAnimation)
        #expect(animation.duration == 0.25)
        CATransaction.flush()
        let presented = try #require(box.presentation())
        // Right after the commit the layer is still (nearly) opaque.
        #expect(presented.opacity > 0.5)
        try context.synchronize()
        let start = try #require(box.animation(forKey: "opacity")).beginTime
        #expect(start > 0)
        // At start + 0.25 × 0.5 the default curve (0.25, 0.1, 0.25, 1) has progressed to 0.802...
        let eased = CAMediaTimingFunction(name: .default).evaluate(0.5)
        let image = try context.capture(at: start + 0.125)
        let expected = Int((255 * eased).rounded())
        #expect(abs(green(image, 40, 50) - expected) <= 1, "got \(green(image, 40, 50)), expected \(expected)")
        finish()
    }

    /// E56: a delayed start with and without backwards fill; position animated from x 100 to 150
    /// with the model at 40 (the box's centre).
    @Test(arguments: [false, true]) func delayedStartE56(backwards: Bool) throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        let t0 = CACurrentMediaTime() + 5
        let move = Self.move(begin: t0)
        if backwards { move.fillMode = .backwards }
        box.add(move, forKey: "move")
        try context.synchronize()
        // During the delay: the start value (left edge 80) with backwards fill, else the model (20).
        #expect(leftEdge(try context.capture(at: t0 - 1)) == (backwards ? 80 : 20))
        #expect(leftEdge(try context.capture(at: t0 + 0.5)) == 105)
        #expect(leftEdge(try context.capture(at: t0 + 2)) == 20)
        finish()
    }

    /// E58: autoreverse with repeatCount 1 ends at the start value, 1.5 at the end value (seen with
    /// forwards fill after the end).
    @Test(arguments: [(1.0, 80), (1.5, 130)]) func autoreverseE58(repeatCount: Double, edge: Int) throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        let t0 = CACurrentMediaTime() + 5
        let move = Self.move(begin: t0)
        move.autoreverses = true
        move.repeatCount = Float(repeatCount)
        move.fillMode = .forwards
        move.isRemovedOnCompletion = false
        box.add(move, forKey: "move")
        try context.synchronize()
        // Half-way back in the first iteration: x = 125.
        #expect(leftEdge(try context.capture(at: t0 + 1.5)) == 105)
        #expect(leftEdge(try context.capture(at: t0 + 10)) == edge)
        finish()
    }

    /// E54: speeds multiply down the tree: parent 2 and child 2 play a 1 s animation in 0.25 s.
    @Test func speedMultipliesE54() throws {
        let context = try server.connect()
        let (root, box) = try makeScene(context)
        let t0 = CACurrentMediaTime() + 5
        root.speed = 2
        box.speed = 2
        // The child's local time runs 4× media time: begin at the child's local time of t0.
        let move = Self.move(begin: box.convertTime(t0, from: nil))
        box.add(move, forKey: "move")
        try context.synchronize()
        #expect(leftEdge(try context.capture(at: t0 + 0.125)) == 105)
        #expect(leftEdge(try context.capture(at: t0 + 0.3)) == 20)
        finish()
    }

    /// E60: the pause and resume recipe freezes the box, then continues from the same frame.
    @Test func pauseAndResumeE60() throws {
        let context = try server.connect()
        let (root, box) = try makeScene(context)
        let t0 = CACurrentMediaTime() + 5
        let move = Self.move(begin: t0)
        box.add(move, forKey: "move")
        try context.synchronize()
        // Pause at t0 + 0.5 (the recipe with CACurrentMediaTime() replaced by the chosen time).
        let pausedTime = root.convertTime(t0 + 0.5, from: nil)
        root.speed = 0
        root.timeOffset = pausedTime
        try context.synchronize()
        #expect(leftEdge(try context.capture(at: t0 + 0.5)) == 105)
        #expect(leftEdge(try context.capture(at: t0 + 3)) == 105)
        // Resume at t0 + 3.
        let paused = root.timeOffset
        root.speed = 1
        root.timeOffset = 0
        root.beginTime = 0
        let sincePause = root.convertTime(t0 + 3, from: nil) - paused
        root.beginTime = sincePause
        try context.synchronize()
        #expect(leftEdge(try context.capture(at: t0 + 3)) == 105)
        #expect(leftEdge(try context.capture(at: t0 + 3.25)) == 118 - 0)  // x = 137.5 → edge 117.5
        #expect(leftEdge(try context.capture(at: t0 + 3.6)) == 20)  // over after 2.5 s of pause
        finish()
    }

    /// E72: removing a running animation snaps the layer to its model value.
    @Test func removeSnapsToModelE72() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        let t0 = CACurrentMediaTime() - 0.5
        let move = Self.move(begin: t0, duration: 100)
        box.add(move, forKey: "move")
        try context.synchronize()
        #expect(leftEdge(try context.capture(at: t0 + 50)) == 105)
        box.removeAnimation(forKey: "move")
        #expect(box.animationKeys() == nil)
        try context.synchronize()
        #expect(leftEdge(try context.capture(at: t0 + 50)) == 20)
        finish()
    }

    /// E66: nested transactions: position over 2 s (outer), opacity over 5 s (inner); nothing is
    /// sent before the outer commit.
    @Test func nestedTransactionsE66() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        box.position = CGPoint(x: 140, y: 50)
        CATransaction.begin()
        CATransaction.setAnimationDuration(5)
        box.opacity = 0
        CATransaction.commit()
        #expect(box.animation(forKey: "position")?.duration == 2)
        #expect(box.animation(forKey: "opacity")?.duration == 5)
        #expect(box.animation(forKey: "opacity")?.beginTime == 0, "not committed before the outer commit")
        CATransaction.commit()
        let begin = try #require(box.animation(forKey: "opacity")).beginTime
        #expect(begin > 0)
        #expect(box.animation(forKey: "position")?.beginTime == begin, "both start at the same commit")
        let late = try #require(box.presentation(at: begin + 3))
        #expect(late.position == CGPoint(x: 140, y: 50))
        #expect(late.opacity > 0 && late.opacity < 1)
        finish()
    }

    /// E69: with actions disabled a change is immediate and no animation is added.
    @Test func disabledActionsE69() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        box.opacity = 0
        CATransaction.commit()
        #expect(box.animationKeys() == nil)
        #expect(green(try context.capture(), 40, 50) == 255)
        finish()
    }

    /// A client whose main thread is blocked for a second: the server's frames in between are
    /// interpolated on its own clock (captured by a second client).
    @Test func busyClientDoesNotStutter() throws {
        let context = try server.connect(name: "busy")
        let (_, box) = try makeScene(context)
        let observer = try server.connect(name: "observer")
        let t0 = CACurrentMediaTime() + 0.1
        let move = Self.move(from: 40, to: 160, begin: t0)
        box.add(move, forKey: "move")
        try context.synchronize()
        let done = DispatchSemaphore(value: 0)
        final class Samples: @unchecked Sendable { var edges: [(Double, Int?)] = [] }
        let samples = Samples()
        Thread.detachNewThread {
            // The observer captures the shared display every 100 ms while the client is blocked.
            for _ in 0..<8 {
                Thread.sleep(forTimeInterval: 0.1)
                let now = CACurrentMediaTime()
                if let image = try? observer.capture(at: now) {
                    samples.edges.append((now, (0..<image.width).first { Int(image.pixel(x: $0, y: 50).green) < 128 }))
                }
            }
            done.signal()
        }
        Thread.sleep(forTimeInterval: 1)  // The client's thread is busy: it sends nothing.
        done.wait()
        #expect(samples.edges.count == 8)
        for (time, edge) in samples.edges where time > t0 + 0.02 && time < t0 + 0.98 {
            let x = 40 + 120 * (time - t0)
            #expect(
                abs(Double(edge ?? -100) - (x - 20)) <= 1.5,
                "at \(time - t0) s the edge is \(edge ?? -1), expected \(x - 20)")
        }
        finish()
    }

    /// The `scale` and `translate` value functions take three numbers (an array, as on Apple
    /// platforms): the 40×40 box centred at (40, 50), scaled from (1, 1, 1) to (2, 0.5, 1) over
    /// 1 s, is 60×30 half-way (x 10…70, y 35…65); translated by (40, −10, 0) it is 20 right and 5 up.
    @Test func vectorValueFunctions() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        let t0 = CACurrentMediaTime() + 10
        let scale = CABasicAnimation(keyPath: "transform")
        scale.valueFunction = CAValueFunction(name: .scale)
        scale.fromValue = [1.0, 1.0, 1.0]
        scale.toValue = [2.0, 0.5, 1.0]
        scale.duration = 1
        scale.beginTime = t0
        box.add(scale, forKey: "scale")
        try context.synchronize()
        let presented = try #require(box.presentation(at: t0 + 0.5)).transform
        #expect(abs(presented.m11 - 1.5) < 1e-9 && abs(presented.m22 - 0.75) < 1e-9 && presented.m33 == 1)
        let half = try context.capture(at: t0 + 0.5)
        #expect(leftEdge(half) == 10)
        #expect((0..<half.width).last { green(half, $0, 50) < 128 } == 69)
        #expect((0..<half.height).first { green(half, 40, $0) < 128 } == 35)
        #expect((0..<half.height).last { green(half, 40, $0) < 128 } == 64)

        let move = CABasicAnimation(keyPath: "transform")
        move.valueFunction = CAValueFunction(name: .translate)
        move.toValue = [CGFloat(80), CGFloat(-20), CGFloat(0)]
        move.duration = 1
        move.beginTime = t0 + 5
        box.add(move, forKey: "scale")
        try context.synchronize()
        let moved = try context.capture(at: t0 + 5.5)
        #expect(leftEdge(moved) == 60)
        #expect((0..<moved.height).first { green(moved, 80, $0) < 128 } == 20)
        // One number where three are needed is an error in the client: nothing is added.
        let wrong = CABasicAnimation(keyPath: "transform")
        wrong.valueFunction = CAValueFunction(name: .scale)
        wrong.toValue = 2.0
        box.add(wrong, forKey: "wrong")
        #expect(box.animation(forKey: "wrong") == nil)
        finish()
    }
}

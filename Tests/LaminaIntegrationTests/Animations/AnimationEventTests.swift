import Foundation
import Lamina
import LaminaTesting
import Testing

/// Events that come back from the server: delegate callbacks, transaction completion blocks and
/// display-link ticks, all delivered on the main-thread callback queue.
@Suite(.serialized) final class AnimationEventTests: AnimationSuite {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 64, height: 48)
    }

    deinit {
        server.stop()
    }

    /// Records callbacks in the order they arrive.
    final class Recorder: CAAnimationDelegate, @unchecked Sendable {
        let lock = NSLock()
        var events: [String] = []
        func record(_ e: String) { lock.withLock { events.append(e) } }
        var snapshot: [String] { lock.withLock { events } }
        func animationDidStart(_ anim: CAAnimation) { record("start \(anim.value(forKey: "tag") ?? "?")") }
        func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
            record("stop \(anim.value(forKey: "tag") ?? "?") \(flag)")
        }
    }

    func makeLayer(_ context: CAContext) throws -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        context.layer = root
        try context.synchronize()
        return root
    }

    /// E44 and E70: a delegate hears start then stop(finished: true), reads a value stored on the
    /// animation, and the transaction's completion block runs once after the animation ended; the
    /// server removed the finished animation, and the client's layer follows.
    @Test func delegateAndCompletionE44E70() throws {
        let context = try server.connect()
        let layer = try makeLayer(context)
        let recorder = Recorder()
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.toValue = 0.5
        fade.duration = 0.1
        fade.delegate = recorder
        fade.setValue("fade", forKey: "tag")
        CATransaction.begin()
        CATransaction.setCompletionBlock { recorder.record("completion") }
        layer.add(fade, forKey: "fade")
        CATransaction.commit()
        waitFor { recorder.snapshot.contains("completion") }
        #expect(recorder.snapshot == ["start fade", "stop fade true", "completion"])
        #expect(layer.animationKeys() == nil)
        server.stop()
    }

    /// E70 corner case: a transaction that adds no animation runs its completion block right after
    /// the commit; removing an animation early reports finished: false before the block runs.
    @Test func earlyRemovalAndEmptyTransaction() throws {
        let context = try server.connect()
        let layer = try makeLayer(context)
        let recorder = Recorder()
        CATransaction.begin()
        CATransaction.setCompletionBlock { recorder.record("empty completion") }
        CATransaction.commit()
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.byValue = Double.pi * 2
        spin.duration = 100
        spin.delegate = recorder
        spin.setValue("spin", forKey: "tag")
        CATransaction.begin()
        CATransaction.setCompletionBlock { recorder.record("spin completion") }
        layer.add(spin, forKey: "spin")
        CATransaction.commit()
        waitFor { recorder.snapshot.contains("start spin") }
        layer.removeAnimation(forKey: "spin")
        waitFor { recorder.snapshot.contains("spin completion") }
        #expect(recorder.snapshot == ["empty completion", "start spin", "stop spin false", "spin completion"])
        server.stop()
    }

    /// An animation that starts later: the server idles until the start (it predicts it rather than
    /// rendering every frame, see AnimationSchedulingTests), then wakes, so start and stop still
    /// arrive, after the begin time.
    @Test func delayedStartWakesTheServer() throws {
        let context = try server.connect()
        let layer = try makeLayer(context)
        let recorder = Recorder()
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.toValue = 0.5
        fade.duration = 0.05
        fade.beginTime = CACurrentMediaTime() + 0.3
        fade.delegate = recorder
        fade.setValue("late", forKey: "tag")
        var started = 0.0
        layer.add(fade, forKey: "fade")
        CATransaction.flush()
        waitFor {
            if started == 0 && recorder.snapshot.contains("start late") { started = CACurrentMediaTime() }
            return recorder.snapshot.contains("stop late true")
        }
        #expect(recorder.snapshot == ["start late", "stop late true"])
        #expect(started >= fade.beginTime)
        server.stop()
    }

    /// E63: a display link ticks with the server's frames: timestamps on the 60 Hz grid,
    /// `targetTimestamp` one interval later; with 30 frames per second (or `frameInterval` 2) it
    /// skips every other frame, with `frameInterval` 3 two of every three (20 Hz).
    @Test(arguments: [(0, 1), (30, 1), (0, 2), (0, 3)])
    func displayLinkTicksWithFrames(fps: Int, frameInterval: Int) throws {
        let context = try server.connect()
        _ = try makeLayer(context)
        final class Ticks: @unchecked Sendable {
            let lock = NSLock()
            var list: [(Double, Double, Double)] = []
        }
        let ticks = Ticks()
        let link = CADisplayLink { link in
            ticks.lock.withLock { ticks.list.append((link.timestamp, link.targetTimestamp, link.duration)) }
        }
        if fps > 0 { link.preferredFramesPerSecond = fps } else { link.frameInterval = frameInterval }
        link.add(to: .main, forMode: .common)
        waitFor { ticks.lock.withLock { ticks.list.count >= 6 } }
        link.invalidate()
        let list = ticks.lock.withLock { ticks.list }
        // Fewer ticks leave no steps to take the median of: stop here rather than trap.
        try #require(list.count >= 6, "\(list.count) ticks within 5 s")
        let interval = 1.0 / 60
        let expectedStep = fps > 0 ? interval * 60 / Double(fps) : interval * Double(frameInterval)
        var steps: [Double] = []
        for (a, b) in zip(list, list.dropFirst()) {
            #expect(abs(b.2 - interval) < 1e-9, "duration")
            #expect(abs(b.1 - b.0 - interval) < 1e-9, "targetTimestamp − timestamp")
            // Ticks land on frames and never come sooner than wanted; a loaded machine may miss a
            // frame, so a step may be longer, by whole frames.
            let frames = (b.0 - a.0) / interval
            #expect(abs(frames - frames.rounded()) < 0.01, "step \(b.0 - a.0) is not whole frames")
            #expect(b.0 - a.0 > expectedStep - interval / 2, "step \(b.0 - a.0) is shorter than \(expectedStep)")
            steps.append(b.0 - a.0)
        }
        // Most steps are exactly the wanted period.
        let median = steps.sorted()[steps.count / 2]
        #expect(abs(median - expectedStep) < 1e-6, "median step \(median), expected \(expectedStep)")
        server.stop()
    }
}

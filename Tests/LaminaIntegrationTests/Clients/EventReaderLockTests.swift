import Foundation
import Lamina
import LaminaTesting
import Testing

/// The connection's reader thread never waits on the application's locks: an app that holds
/// `CATransaction.lock()` while it makes a request gets its reply even when animation events
/// arrive first, and the events are still delivered.
@Suite(.serialized) final class EventReaderLockTests: AnimationSuite {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 64, height: 48)
    }

    deinit {
        server.stop()
    }

    /// A short animation runs while the test thread holds the transaction lock, so its start and stop
    /// events arrive while the lock is held. Pings and a capture made under the lock return at once
    /// (before the fix the reader blocked on the lock at the first event and every reply waited out
    /// the 30 s timeout). A request returns after the events that came before its reply have been
    /// applied, so the finished animation leaves the layer while the lock is still held; the
    /// delegate and the completion block run once each afterwards, in order.
    @Test func repliesArriveWhileTheAppHoldsTheTransactionLock() throws {
        let context = try server.connect()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.backgroundColor = Self.red
        context.layer = root
        try context.synchronize()
        let recorder = AnimationEventTests.Recorder()
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.toValue = 0
        fade.duration = 0.2
        fade.delegate = recorder
        fade.setValue("fade", forKey: "tag")
        CATransaction.begin()
        CATransaction.setCompletionBlock { recorder.record("completion") }
        root.add(fade, forKey: "fade")
        CATransaction.commit()

        CATransaction.lock()
        var slowest = 0.0
        var pings = 0
        let deadline = CACurrentMediaTime() + 5
        // Ping until the server's "finished" event has been applied (it removes the animation).
        while root.animationKeys() != nil && CACurrentMediaTime() < deadline {
            let start = CACurrentMediaTime()
            let reply = try context.ping()
            slowest = max(slowest, CACurrentMediaTime() - start)
            pings += 1
            #expect(reply.serverVersion == context.serverVersion)
            usleep(10_000)
        }
        let keysUnderLock = root.animationKeys()
        let captureStart = CACurrentMediaTime()
        let image = try context.capture()
        let captureTime = CACurrentMediaTime() - captureStart
        CATransaction.unlock()

        #expect(pings >= 1)
        #expect(slowest < 5, "slowest ping under the lock took \(slowest) s")
        #expect(captureTime < 5, "capture under the lock took \(captureTime) s")
        #expect(keysUnderLock == nil)
        // The animation is over and removed: the layer shows its model opacity, 1, so pure red.
        #expect(image.width == 64 && image.height == 48)
        expectPixels(image, [(x: 32, y: 24), (x: 1, y: 1), (x: 62, y: 46)], (255, 0, 0), tolerance: 0)
        waitFor { recorder.snapshot.contains("completion") }
        CAContext.dispatchPendingCallbacks()
        #expect(recorder.snapshot == ["start fade", "stop fade true", "completion"])
        finish()
    }
}

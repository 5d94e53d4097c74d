import Foundation
import Lamina
import LaminaTesting
import Testing

/// Each thread's transactions are its own: what a thread changes inside its open explicit
/// transaction is sent by that transaction's outermost commit, never half-way by another thread's
/// flush or commit. Apple's CATransaction reference: "Every modification to a layer tree must be part
/// of a transaction", and "Implicit transactions are created automatically when the layer tree is
/// modified by a thread without an active transaction": a transaction belongs to its thread.
@Suite final class ThreadTransactionTests: AnimationSuite {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 200, height: 100)
    }

    deinit {
        server.stop()
    }

    /// A change made in thread B's open transaction stays off the screen across the main thread's
    /// flush and synchronize, then shows once B commits; an implicit fade and an explicit move that B
    /// starts in the same transaction begin at the same time although a flush fell between them
    /// (the regression behind a flaky E45: the flush had sent the fade alone, a commit earlier).
    @Test func anotherThreadsOpenTransactionIsSentByItsCommitOnly() throws {
        let context = try server.connect()
        let (_, scene) = try makeScene(context)
        nonisolated(unsafe) let box = scene  // handed to the worker thread, used by one thread at a time
        let opened = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let committed = DispatchSemaphore(value: 0)
        let worker = Thread {
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            box.backgroundColor = Self.blue  // implicit: a colour animation of 1 s
            box.opacity = 0.5  // implicit: a fade of 1 s
            opened.signal()
            resume.wait()
            let move = CABasicAnimation(keyPath: "position")
            move.fromValue = CGPoint(x: 40, y: 50)
            move.toValue = CGPoint(x: 160, y: 50)
            move.duration = 3
            box.add(move, forKey: "move")
            CATransaction.commit()
            committed.signal()
        }
        worker.start()
        opened.wait()
        // The main thread flushes and round-trips while B's transaction is open.
        CATransaction.flush()
        try context.synchronize()
        let before = try context.capture()
        #expect(rgb(before, 40, 50) == (255, 0, 0), "the server still has the red, opaque box")
        #expect(box.animation(forKey: "opacity")?.beginTime ?? 0 == 0, "the fade was not committed")
        resume.signal()
        committed.wait()
        try context.synchronize()
        let fade = try #require(box.animation(forKey: "opacity"))
        let move = try #require(box.animation(forKey: "move"))
        #expect(fade.beginTime > 0)
        #expect(fade.beginTime == move.beginTime, "both start at B's commit")
        // After the 1 s colour and fade, at 2 s: blue at half opacity over white, moved to x = 120.
        let after = try context.capture(at: fade.beginTime + 2)
        #expect(rgb(after, 40, 50) == (255, 255, 255), "the box has moved away")
        let (r, g, b) = rgb(after, 120, 50)
        #expect(abs(r - 127) <= 2 && abs(g - 127) <= 2 && b == 255)
    }
}

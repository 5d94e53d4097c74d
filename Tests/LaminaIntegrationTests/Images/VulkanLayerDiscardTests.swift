import Foundation
@testable import Lamina
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

/// `presentsWithTransaction` presents of fresh pool buffers against an in-process server whose frames
/// come only when the test moves its `ManualClock`: which commits a frame sees is chosen, not raced
/// (docs/surfaces.md, "Discarded"). The server's loop turns on a thread of its own while the library's
/// calls wait for it; the recording renderer imports the surfaces, so layers sample them.
@Suite struct VulkanLayerDiscardTests {
    typealias Log = VulkanLayerTests.Log

    /// `FrameClockTests.Harness` with one 40×30 display at 60 Hz, its clock off the refresh grid, and
    /// its loop turned on a thread of its own until `stop()`.
    final class RunningServer: @unchecked Sendable {
        let harness: FrameClockTests.Harness
        private let lock = NSLock()
        private var stopped = false
        private var times: [Double] = []
        private let finished = DispatchSemaphore(value: 0)

        init() throws {
            harness = try FrameClockTests.Harness(
                modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)], start: 100.004,
                importing: RecordingRenderer())
            harness.server.onFramePresented = { [unowned self] _, time in lock.withLock { times.append(time) } }
            Thread { [self] in
                while !lock.withLock({ stopped }) { harness.server.pollOnce(timeout: 0.002) }
                finished.signal()
            }.start()
        }

        /// The media times of the presented frames, in order.
        var frames: [Double] { lock.withLock { times } }

        /// Stops the loop's thread and waits for it.
        func stop() {
            lock.withLock { stopped = true }
            finished.wait()
        }

        /// Moves the clock just past the next tick of the 60 Hz grid, where the frame that is due
        /// is presented, and returns that frame's time once it is (nil after 5 s without one).
        func presentNextFrame() -> Double? {
            let before = frames.count
            let interval = 1.0 / 60
            let tick = ((harness.clock.now() / interval).rounded(.down) + 1) * interval
            harness.clock.set(tick + 0.001)
            let deadline = Date().addingTimeInterval(5)
            while frames.count == before, Date() < deadline { usleep(1000) }
            return frames.count > before ? frames[before] : nil
        }
    }

    /// A 16×16 `CAVulkanLayer` presenting with transactions, shown by a context of `server`; the
    /// first frame has drawn it (empty).
    static func scene(on server: RunningServer) throws -> (CAContext, CAVulkanLayer) {
        let context = try CAContext(socketPath: server.harness.socketPath, clientName: "discard")
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        let layer = CAVulkanLayer()
        layer.frame = CGRect(x: 8, y: 8, width: 16, height: 16)
        layer.presentsWithTransaction = true
        root.addSublayer(layer)
        context.layer = root
        try context.synchronize()
        #expect(server.presentNextFrame() != nil)
        return (context, layer)
    }

    /// Presents `drawable` in a transaction of its own and sends it.
    static func presentInTransaction(_ drawable: CAVulkanDrawable) {
        CATransaction.begin()
        drawable.present()
        CATransaction.commit()
        CATransaction.flush()
    }

    /// Whether `context` keeps surface `id` registered with the server.
    static func isRegistered(_ id: UInt64, in context: CAContext) -> Bool {
        CATransaction.lock()
        defer { CATransaction.unlock() }
        return context.uploadedImages.contains(id)
    }

    /// Two drawables of fresh pool buffers, each presented in a commit of its own, both applied before
    /// the next frame: the frame shows the second, and the server discards the first (it was named,
    /// replaced, and never shown). Before, the second commit took the first buffer's only use (its
    /// `contents`), so the library released its registration; the server forgot its feedback and
    /// sent no `surfaceDiscarded`, and the frame's `commitPresented` counted the first as shown at the
    /// second's time.
    @Test func aFreshBufferReplacedBeforeAnyFrameIsDiscarded() throws {
        let server = try RunningServer()
        defer { server.stop() }
        let (context, layer) = try Self.scene(on: server)
        let log = Log()
        let a = try #require(layer.nextDrawable())
        let b = try #require(layer.nextDrawable())
        #expect(a.surface.contentsID != b.surface.contentsID)
        SurfaceTests.fill(a.surface, (255, 0, 255))
        SurfaceTests.fill(b.surface, (0, 0, 255))
        a.addPresentedHandler { log.add($0) }
        b.addPresentedHandler { log.add($0) }
        Self.presentInTransaction(a)
        Self.presentInTransaction(b)
        try context.synchronize()
        // The pool keeps both buffers registered: neither commit released one.
        #expect(Self.isRegistered(a.surface.contentsID, in: context))
        #expect(Self.isRegistered(b.surface.contentsID, in: context))
        let time = try #require(server.presentNextFrame())
        let shown = log.wait(for: 2)
        // The second at the frame that showed it; the first never presented: Apple's presentedTime 0,
        // its handler still called (developer.apple.com/documentation/metal/mtldrawable/presentedtime).
        #expect(shown.count == 2, "\(shown)")
        #expect(b.presentedTime == time, "\(shown), frame at \(time)")
        #expect(a.presentedTime == 0, "\(shown), frame at \(time)")
        #expect(shown.contains { $0.id == a.drawableID && $0.time == 0 }, "\(shown)")
        withExtendedLifetime(context) {}
    }

    /// Presents a drawable filled with `color` in a transaction of its own, waits for the frame that
    /// shows it, and returns its buffer's id (the drawable itself is not kept, so its buffer comes
    /// back to the pool once the server releases it).
    static func show(
        _ layer: CAVulkanLayer, _ color: (UInt8, UInt8, UInt8), in context: CAContext, on server: RunningServer
    ) throws -> UInt64 {
        let drawable = try #require(layer.nextDrawable())
        SurfaceTests.fill(drawable.surface, color)
        presentInTransaction(drawable)
        try context.synchronize()
        #expect(server.presentNextFrame() != nil)
        return drawable.contentsID
    }

    /// A present in a thread's open transaction marks its buffer changed at `present()`; the main
    /// thread's commit and a frame while that transaction is open send nothing of it, so the frame
    /// neither discards it (the buffer is registered and shows nothing yet) nor counts it as shown.
    /// Once the thread commits, the next frame shows it. Before, the main thread's commit sent
    /// `surfaceChanged` for the buffer alone: the frame found its new revision named by nothing and
    /// discarded it (presentedTime 0) before its own transaction had even committed.
    @Test func aPresentInAnotherThreadsOpenTransactionWaitsForItsCommit() throws {
        let server = try RunningServer()
        defer { server.stop() }
        let (context, layer) = try Self.scene(on: server)
        layer.maximumDrawableCount = 2
        // Two buffers shown in turn: the first is registered, off screen, and comes back to the pool.
        let first = try Self.show(layer, (255, 0, 0), in: context, on: server)
        _ = try Self.show(layer, (0, 255, 0), in: context, on: server)
        let a = try #require(layer.nextDrawable())
        #expect(a.contentsID == first, "the pool of two reuses the first buffer")
        SurfaceTests.fill(a.surface, (255, 0, 255))
        let log = Log()
        a.addPresentedHandler { log.add($0) }
        let opened = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let committed = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let drawable = a
        Thread {
            CATransaction.begin()
            drawable.present()
            opened.signal()
            resume.wait()
            CATransaction.commit()
            CATransaction.flush()
            committed.signal()
        }.start()
        opened.wait()
        // The main thread commits a change of its own while the present's transaction is open, and a
        // frame draws it.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.superlayer?.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        CATransaction.commit()
        CATransaction.flush()
        try context.synchronize()
        #expect(server.presentNextFrame() != nil)
        try context.synchronize()
        #expect(log.all.isEmpty, "nothing is said of a drawable whose transaction is open: \(log.all)")
        resume.signal()
        committed.wait()
        try context.synchronize()
        let time = try #require(server.presentNextFrame())
        let shown = log.wait(for: 1)
        #expect(shown.count == 1 && a.presentedTime == time, "\(shown), frame at \(time)")
        withExtendedLifetime(context) {}
    }

    /// The same two presents with a frame between their commits: each is presented at the frame
    /// that first showed it, the first before the second, and the first buffer stays registered
    /// once replaced (the pool keeps it for reuse).
    @Test func aFreshBufferShownBeforeItIsReplacedIsPresentedAtItsFrame() throws {
        let server = try RunningServer()
        defer { server.stop() }
        let (context, layer) = try Self.scene(on: server)
        let log = Log()
        let a = try #require(layer.nextDrawable())
        let b = try #require(layer.nextDrawable())
        SurfaceTests.fill(a.surface, (255, 0, 255))
        SurfaceTests.fill(b.surface, (0, 0, 255))
        a.addPresentedHandler { log.add($0) }
        b.addPresentedHandler { log.add($0) }
        Self.presentInTransaction(a)
        try context.synchronize()
        let first = try #require(server.presentNextFrame())
        #expect(log.wait(for: 1).count == 1)
        Self.presentInTransaction(b)
        try context.synchronize()
        #expect(Self.isRegistered(a.surface.contentsID, in: context))
        let second = try #require(server.presentNextFrame())
        let shown = log.wait(for: 2)
        #expect(shown.map(\.id) == [a.drawableID, b.drawableID], "\(shown)")
        #expect(a.presentedTime == first && b.presentedTime == second && first < second, "\(shown)")
        withExtendedLifetime(context) {}
    }
}

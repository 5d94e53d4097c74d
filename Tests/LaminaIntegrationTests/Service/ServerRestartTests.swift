import Foundation
@testable import Lamina
import LaminaProtocol
import LaminaTesting
import Testing

/// A crash loses nothing: a context whose laminad is killed (SIGKILL, no cleanup) reconnects by
/// itself to the laminad started next on the same socket path and resends its committed state, so
/// the screen comes back as it was, mid-animation, and events still fire once. A server `error`
/// refuses the client for good: no reconnect.
@Suite(.serialized) final class ServerRestartTests {
    /// A fresh, short temporary folder for the shared socket.
    let folder: SocketFolder
    var socketPath: String { folder.socketPath }
    static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)

    init() throws {
        folder = try SocketFolder("lamina-restart")
    }

    /// Counts delegate callbacks and completion blocks, from any thread.
    final class Recorder: CAAnimationDelegate, @unchecked Sendable {
        let lock = NSLock()
        var starts = 0
        var stops: [Bool] = []
        var completions = 0
        func animationDidStart(_ anim: CAAnimation) { lock.withLock { starts += 1 } }
        func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { lock.withLock { stops.append(flag) } }
        func completed() { lock.withLock { completions += 1 } }
        var counts: (starts: Int, stops: [Bool], completions: Int) { lock.withLock { (starts, stops, completions) } }
    }

    /// Signals each reconnect of a context and waits for them with a deadline.
    final class ReconnectWaiter: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)

        init(_ context: CAContext) {
            context.onReconnect = { [semaphore] _ in semaphore.signal() }
        }

        /// True when a reconnect happened within `timeout` seconds.
        func wait(timeout: Double = 30) -> Bool {
            semaphore.wait(timeout: .now() + timeout) == .success
        }
    }

    /// Runs main-thread callbacks on this thread until `done` holds or `timeout` seconds pass
    /// (events need the server's clock to run).
    static func waitFor(timeout: Double, _ done: () -> Bool) {
        let deadline = CACurrentMediaTime() + timeout
        while !done() && CACurrentMediaTime() < deadline {
            CAContext.dispatchPendingCallbacks()
            usleep(2000)
        }
    }

    /// Stops `server` and expects a clean exit with no Vulkan validation messages.
    static func finish(_ server: TestServer, sourceLocation: SourceLocation = #_sourceLocation) {
        let report = server.stop()
        #expect(
            report.validationMessages.isEmpty, "validation: \(report.validationMessages)",
            sourceLocation: sourceLocation)
        #expect(report.exitStatus == 0, "laminad exit status \(report.exitStatus)", sourceLocation: sourceLocation)
    }

    /// A white 200×100 root with a red 40×40 box at (20, 30) and a 40×40 layer at (150, 30) showing
    /// a solid blue 4×4 image, committed.
    static func makeScene(_ context: CAContext) throws -> (root: CALayer, box: CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = white
        let box = CALayer()
        box.frame = CGRect(x: 20, y: 30, width: 40, height: 40)
        box.backgroundColor = red
        let picture = CALayer()
        picture.frame = CGRect(x: 150, y: 30, width: 40, height: 40)
        let blue: [UInt8] = [0, 0, 255, 255]
        picture.contents = try #require(
            CGImage(width: 4, height: 4, premultipliedRGBA: Array([[UInt8]](repeating: blue, count: 16).joined())))
        root.addSublayer(box)
        root.addSublayer(picture)
        context.layer = root
        try context.synchronize()
        return (root, box)
    }

    /// Expects the red box to span columns `left` to `left + 39` of row 50, white on either side,
    /// and the image layer blue.
    static func expectScene(
        _ image: CGImage, boxLeft left: Int, _ note: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectPixel(image, left - 1, 50, (255, 255, 255), note, sourceLocation: sourceLocation)
        expectPixel(image, left, 50, (255, 0, 0), note, sourceLocation: sourceLocation)
        expectPixel(image, left + 39, 50, (255, 0, 0), note, sourceLocation: sourceLocation)
        expectPixel(image, left + 40, 50, (255, 255, 255), note, sourceLocation: sourceLocation)
        expectPixel(image, 170, 50, (0, 0, 255), "\(note): the image contents", sourceLocation: sourceLocation)
    }

    /// laminad is killed under a running 10 s linear `position.x` animation (centre 40 → 140) and
    /// another is started on the same path while the main thread is blocked: the context reconnects
    /// by itself, the capture at begin + 2 s has the same pixels as before the crash (box centre 60,
    /// columns 40–79), the one at begin + 4 s has the box where the animation puts it (centre 80,
    /// columns 60–99), the image is drawn again, `animationDidStart` and `animationDidStop` run once,
    /// and the transaction's completion block once, after the end.
    @Test func killedServerUnderRunningAnimationComesBackAsItWas() throws {
        let first = try TestServer(width: 200, height: 100, socketPath: socketPath)
        let context = try CAContext(socketPath: socketPath, clientName: "restart")
        let reconnected = ReconnectWaiter(context)
        let (_, box) = try Self.makeScene(context)
        let recorder = Recorder()
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 40
        move.toValue = 140
        move.duration = 10
        move.timingFunction = CAMediaTimingFunction(name: .linear)
        let begin = CACurrentMediaTime()
        move.beginTime = begin
        move.delegate = recorder
        CATransaction.begin()
        CATransaction.setCompletionBlock { recorder.completed() }
        box.add(move, forKey: "move")
        CATransaction.commit()
        Self.waitFor(timeout: 10) { recorder.counts.starts == 1 }
        let before = try context.capture(at: begin + 2)
        Self.expectScene(before, boxLeft: 40, "before the crash at begin + 2 s")

        // Block the main thread (when something services the main queue) until the end of the test.
        let mainBlocked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            mainBlocked.signal()
            release.wait()
        }
        defer { release.signal() }

        first.kill()
        #expect(context.reconnectCount == 0)
        let second = try TestServer(width: 200, height: 100, socketPath: socketPath)
        defer { Self.finish(second) }
        try #require(reconnected.wait(), "the context did not reconnect within 30 s")
        #expect(context.reconnectCount == 1)

        let after = try context.capture(at: begin + 2)
        let comparison = ImageComparison(channelTolerance: 0).compare(after, before)
        #expect(comparison.matches, "begin + 2 s after the restart: \(comparison)")
        Self.expectScene(after, boxLeft: 40, "after the restart at begin + 2 s")
        let later = try context.capture(at: begin + 4)
        Self.expectScene(later, boxLeft: 60, "after the restart at begin + 4 s")

        Self.waitFor(timeout: begin + 20 - CACurrentMediaTime()) { recorder.counts.completions >= 1 }
        // Every event the new server sent before this round trip has been applied.
        try context.synchronize()
        CAContext.dispatchPendingCallbacks()
        let counts = recorder.counts
        #expect(counts.starts == 1)
        #expect(counts.stops == [true])
        #expect(counts.completions == 1)
        #expect(box.animationKeys() == nil)
        let ended = try context.capture()
        Self.expectScene(ended, boxLeft: 20, "after the end: the model position")
    }

    /// Events fire once around a restart: an animation that ended before the crash and stays
    /// (`removedOnCompletion` false, `fillMode` forwards: centre 40 → 120 in 0.1 s) is resent, still
    /// holds the box at its end (columns 100–139) and is not reported again; one committed just
    /// before the crash and ending (0.3 s) while laminad is down is reported by the new server, its
    /// delegate and completion block run once.
    @Test func animationsEndedBeforeAndDuringTheOutageAreReportedOnce() throws {
        let first = try TestServer(width: 200, height: 100, socketPath: socketPath)
        let context = try CAContext(socketPath: socketPath, clientName: "restart")
        let reconnected = ReconnectWaiter(context)
        let (root, box) = try Self.makeScene(context)
        let held = Recorder()
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 40
        move.toValue = 120
        move.duration = 0.1
        move.fillMode = .forwards
        move.isRemovedOnCompletion = false
        move.delegate = held
        box.add(move, forKey: "move")
        CATransaction.flush()
        Self.waitFor(timeout: 10) { held.counts.stops.count == 1 }
        let brief = Recorder()
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 1
        fade.duration = 0.3
        fade.delegate = brief
        CATransaction.begin()
        CATransaction.setCompletionBlock { brief.completed() }
        root.add(fade, forKey: "fade")
        CATransaction.commit()
        first.kill()
        let second = try TestServer(width: 200, height: 100, socketPath: socketPath)
        defer { Self.finish(second) }
        try #require(reconnected.wait(), "the context did not reconnect within 30 s")
        Self.waitFor(timeout: 10) { brief.counts.completions >= 1 }
        try context.synchronize()
        CAContext.dispatchPendingCallbacks()
        let briefCounts = brief.counts
        #expect(briefCounts.stops == [true])
        #expect(briefCounts.completions == 1)
        #expect(briefCounts.starts == 1)
        let heldCounts = held.counts
        #expect(heldCounts.starts == 1)
        #expect(heldCounts.stops == [true])
        #expect(box.animationKeys() == ["move"])
        Self.expectScene(try context.capture(), boxLeft: 100, "the filled animation after the restart")
    }

    /// The frame times a display link saw, from any thread.
    final class TickRecorder: @unchecked Sendable {
        let lock = NSLock()
        var times: [Double] = []
        func record(_ time: Double) { lock.withLock { times.append(time) } }
        var last: Double { lock.withLock { times.last ?? -.infinity } }
    }

    /// A running display link ticks again after the restart: the context turns the new server's
    /// frame events on when it resends its state (a tick with a frame time after the reconnect).
    @Test func displayLinkTicksAgainAfterTheRestart() throws {
        let first = try TestServer(width: 200, height: 100, socketPath: socketPath)
        let context = try CAContext(socketPath: socketPath, clientName: "restart")
        let reconnected = ReconnectWaiter(context)
        _ = try Self.makeScene(context)
        let ticks = TickRecorder()
        let link = CADisplayLink { link in ticks.record(link.timestamp) }
        link.add(to: .main, forMode: .common)
        defer { link.invalidate() }
        Self.waitFor(timeout: 10) { ticks.last > -.infinity }
        first.kill()
        let second = try TestServer(width: 200, height: 100, socketPath: socketPath)
        defer { Self.finish(second) }
        try #require(reconnected.wait(), "the context did not reconnect within 30 s")
        let resent = CACurrentMediaTime()
        Self.waitFor(timeout: 10) { ticks.last > resent }
        #expect(ticks.last > resent, "no frame after the reconnect at \(resent)")
    }

    /// The objects of the notifications seen, from any thread.
    final class NotificationRecorder: @unchecked Sendable {
        let lock = NSLock()
        var seen: [AnyObject?] = []
        func record(_ object: AnyObject?) { lock.withLock { seen.append(object) } }
        var objects: [AnyObject?] { lock.withLock { seen } }
    }

    /// A commit made while laminad is down is not lost: it goes into the state resent on reconnect.
    /// The box turned green during the outage is green on the new server, and
    /// `CAContext.didReconnectNotification` is posted once, with the context as its object.
    @Test func commitDuringTheOutageIsResent() throws {
        let first = try TestServer(width: 200, height: 100, socketPath: socketPath)
        let context = try CAContext(socketPath: socketPath, clientName: "restart")
        let reconnected = ReconnectWaiter(context)
        let notified = NotificationRecorder()
        let observer = NotificationCenter.default.addObserver(
            forName: CAContext.didReconnectNotification, object: nil, queue: nil
        ) { notified.record($0.object as AnyObject?) }
        defer { NotificationCenter.default.removeObserver(observer) }
        let (_, box) = try Self.makeScene(context)
        first.kill()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        box.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        CATransaction.commit()
        let second = try TestServer(width: 200, height: 100, socketPath: socketPath)
        defer { Self.finish(second) }
        try #require(reconnected.wait(), "the context did not reconnect within 30 s")
        let image = try context.capture()
        expectPixel(image, 40, 50, (0, 255, 0), "the box's colour committed during the outage")
        // The notification runs with the main-thread callbacks, after the state is back.
        Self.waitFor(timeout: 5) { notified.objects.count == 1 }
        #expect(notified.objects.count == 1)
        #expect(notified.objects.first.flatMap { $0 } === context)
        expectPixel(image, 170, 50, (0, 0, 255), "the image contents")
        expectPixel(image, 100, 50, (255, 255, 255), "the root")
    }

    /// Levels survive a restart (docs/protocol.md §12: trees stack by level, then by age, older below):
    /// a context at level 1 showing green reconnects to the restarted server, then a new context at
    /// level 0 shows red. Were the level not resent, the newer red tree would cover the green one.
    /// The reconnected context has the new server's context id.
    @Test func levelIsResentAfterTheRestart() throws {
        let first = try TestServer(width: 200, height: 100, socketPath: socketPath)
        func full(_ context: CAContext, _ color: CGColor) throws -> CALayer {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
            root.backgroundColor = color
            context.layer = root
            try context.synchronize()
            return root
        }
        let upper = try CAContext(socketPath: socketPath, clientName: "upper")
        let waiter = ReconnectWaiter(upper)
        let green = try full(upper, CGColor(red: 0, green: 1, blue: 0, alpha: 1))
        upper.level = 1
        try upper.synchronize()
        first.kill()
        let second = try TestServer(width: 200, height: 100, socketPath: socketPath)
        defer { Self.finish(second) }
        try #require(waiter.wait(), "the context did not reconnect within 30 s")
        let lower = try CAContext(socketPath: socketPath, clientName: "lower")
        let red = try full(lower, Self.red)
        expectPixel(try lower.capture(), 100, 50, (0, 255, 0), "level 1 over the newer level 0 after the restart")
        #expect(upper.contextId != lower.contextId)
        withExtendedLifetime([green, red]) {}
    }

    /// An exported context survives a restart: a host shows another context's tree through a
    /// `CALayerHost` (green 60×40 at (100, 30) with a red 20×20 box at its (10, 10), in a white
    /// root); laminad is killed and started again on the same path. Both contexts reconnect by
    /// themselves, the exported one asking for its context id and export token back, and the host's
    /// capture has the same pixels as before the crash, with no app code run: the host layer still
    /// names the old id and token. The id and token are unchanged, and `exportToken()` returns the
    /// same token.
    @Test func exportedContextIsHostedAgainAfterTheRestart() throws {
        let first = try TestServer(width: 200, height: 100, socketPath: socketPath)
        let exported = try CAContext(socketPath: socketPath, clientName: "exported")
        let host = try CAContext(socketPath: socketPath, clientName: "host")
        let exportedBack = ReconnectWaiter(exported)
        let hostBack = ReconnectWaiter(host)
        let content = CALayer()
        content.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
        content.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        let box = CALayer()
        box.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        box.backgroundColor = Self.red
        content.addSublayer(box)
        exported.layer = content
        let token = try exported.exportToken()
        let exportedID = exported.contextId
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = Self.white
        let layerHost = CALayerHost()
        layerHost.frame = CGRect(x: 100, y: 30, width: 60, height: 40)
        layerHost.contextId = exportedID
        layerHost.token = token
        root.addSublayer(layerHost)
        host.layer = root
        try exported.synchronize()
        try host.synchronize()
        let before = try host.capture()
        expectPixel(before, 105, 35, (0, 255, 0), "before the crash: the hosted green")
        expectPixel(before, 115, 45, (255, 0, 0), "before the crash: the hosted red box")
        expectPixel(before, 95, 35, (255, 255, 255), "before the crash: the host's root")

        first.kill()
        let second = try TestServer(width: 200, height: 100, socketPath: socketPath)
        defer { Self.finish(second) }
        try #require(exportedBack.wait(), "the exported context did not reconnect within 30 s")
        try #require(hostBack.wait(), "the host did not reconnect within 30 s")
        #expect(exported.contextId == exportedID)
        // Both resent trees are applied before the capture.
        try exported.synchronize()
        try host.synchronize()
        let after = try host.capture()
        let comparison = ImageComparison(channelTolerance: 0).compare(after, before)
        #expect(comparison.matches, "the host after the restart: \(comparison)")
        expectPixel(after, 105, 35, (0, 255, 0), "after the restart: the hosted green")
        expectPixel(after, 115, 45, (255, 0, 0), "after the restart: the hosted red box")
        expectPixel(after, 165, 35, (255, 255, 255), "after the restart: the host's root")
        #expect(exported.serverWarnings.isEmpty, "\(exported.serverWarnings)")
        #expect(try exported.exportToken() == token)
        withExtendedLifetime([content, root]) {}
    }

    /// A server `error` refuses the client: the connection closes with the server's reason and
    /// stays closed (a reconnecting context would fail with the reconnect reason instead, then
    /// succeed), although the server still runs.
    @Test func serverErrorDisconnectsWithoutReconnecting() throws {
        let server = try TestServer(width: 200, height: 100, socketPath: socketPath)
        defer { Self.finish(server) }
        let context = try CAContext(socketPath: socketPath, clientName: "refused")
        _ = try Self.makeScene(context)
        try context.connection.send(.commit(serial: 99, operations: [.set(12345, .opacity(0.5))]))
        let expected = "the server closed the connection after error unknownLayer: commit 99: unknown layer id 12345"
        for attempt in 0..<2 {
            do {
                _ = try context.ping()
                Issue.record("ping \(attempt) succeeded after the server's error")
            } catch CAContextError.disconnected(let reason) {
                #expect(reason.hasPrefix(expected), "ping \(attempt): \(reason)")
            }
        }
        #expect(context.reconnectCount == 0)
        #expect(server.isRunning)
        _ = try server.connect(name: "other").ping()
    }
}

import Foundation
import Glibc
import Lamina
import LaminaProtocol
import LaminaTesting

/// The time from a SIGKILL of `laminad` to the restored screen: a client shows a scene (coloured
/// layers, an image as contents, a running animation) on a laminad on a private socket; laminad is
/// killed with SIGKILL and a new one is started on the same path at once, as systemd's `Restart=`
/// would (without its `RestartSec` delay, which this excludes); the client's context reconnects by
/// itself and resends its state.
enum RestartBench {
    /// One run's figures, in seconds from the SIGKILL.
    struct Outcome {
        /// Until the killed laminad has exited (every thread), when the new one is started.
        var exited: Double
        /// Until the new laminad answers a `hello` with its `welcome` on the socket.
        var accepting: Double
        /// Until the context's `onReconnect` runs: it has reconnected and resent its state.
        var reconnected: Double
        /// Until a capture at the media time of the one taken before the crash returns the same
        /// pixels.
        var restored: Double
        /// The captures taken after the reconnect until one was equal (1 when the first was).
        var captures: Int
        /// How long the first capture after the reconnect took, seconds.
        var firstCapture: Double
    }

    /// The display's size.
    static let width = 1280
    static let height = 720

    /// Why a run could not finish.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The time of the first `reconnect` callback, from any thread.
    final class ReconnectClock: @unchecked Sendable {
        private let lock = NSLock()
        private var time: Double?
        let signal = DispatchSemaphore(value: 0)

        func record() {
            lock.withLock { if time == nil { time = CACurrentMediaTime() } }
            signal.signal()
        }

        var first: Double? { lock.withLock { time } }
    }

    /// The new server, started on another thread while this one watches the socket.
    final class ServerBox: @unchecked Sendable {
        private let lock = NSLock()
        private var server: TestServer?
        private var failure: (any Error)?

        func set(_ result: Result<TestServer, any Error>) {
            lock.withLock {
                switch result {
                case .success(let server): self.server = server
                case .failure(let error): failure = error
                }
            }
        }

        var value: (TestServer?, (any Error)?) { lock.withLock { (server, failure) } }
    }

    /// `count` runs of `measure()`.
    static func measure(runs count: Int) throws -> [Outcome] {
        try (0..<count).map { _ in try measure() }
    }

    /// The scene: a white root, 24 coloured 120×80 layers in a 6×4 grid, a 256×256 gradient image on a
    /// layer of its size, and a 60×60 box whose `position.x` slides 100 → 1180 over 10 s, repeating.
    /// Returns the root.
    static func scene() -> CALayer {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: Double(width), height: Double(height))
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        for i in 0..<24 {
            let layer = CALayer()
            layer.frame = CGRect(x: 40 + Double(i % 6) * 140, y: 40 + Double(i / 6) * 100, width: 120, height: 80)
            layer.backgroundColor = CGColor(
                red: Double(i % 3) / 2, green: Double(i % 4) / 3, blue: Double(i % 5) / 4, alpha: 1)
            layer.cornerRadius = 8
            root.addSublayer(layer)
        }
        var bytes = [UInt8](repeating: 255, count: 256 * 256 * 4)
        for y in 0..<256 {
            for x in 0..<256 {
                bytes[(y * 256 + x) * 4] = UInt8(x)
                bytes[(y * 256 + x) * 4 + 1] = UInt8(y)
                bytes[(y * 256 + x) * 4 + 2] = UInt8((x + y) / 2)
            }
        }
        let picture = CALayer()
        picture.frame = CGRect(x: 920, y: 40, width: 256, height: 256)
        picture.contents = CGImage(width: 256, height: 256, premultipliedRGBA: bytes)
        root.addSublayer(picture)
        let box = CALayer()
        box.frame = CGRect(x: 70, y: 560, width: 60, height: 60)
        box.backgroundColor = CGColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 1)
        root.addSublayer(box)
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = 100
        slide.toValue = 1180
        slide.duration = 10
        slide.repeatCount = .infinity
        slide.timingFunction = CAMediaTimingFunction(name: .linear)
        box.add(slide, forKey: "slide")
        return root
    }

    /// One run: a laminad and the scene, a capture at a fixed media time, the SIGKILL and a new
    /// laminad on the same path, then the three times.
    static func measure() throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lamina-restart-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let socketPath = directory.appendingPathComponent("socket").path
        let first = try TestServer(width: width, height: height, validation: false, socketPath: socketPath)
        let context = try CAContext(socketPath: socketPath, clientName: "restart-bench")
        let clock = ReconnectClock()
        context.onReconnect = { _ in clock.record() }
        let root = scene()
        context.layer = root
        try context.synchronize()
        // A media time in the animation's first cycle, after the scene is up.
        let time = CACurrentMediaTime() + 1
        let before = try context.capture(at: time)

        // SIGKILL, then the new server as soon as the process has exited (when its parent gets
        // SIGCHLD, as a service manager does); `Process.waitUntilExit` checks only every 50 ms, so
        // it reaps it afterwards.
        let pid = first.processIdentifier
        let killed = CACurrentMediaTime()
        Glibc.kill(pid, SIGKILL)
        waitForExit(pid)
        let exited = CACurrentMediaTime() - killed
        let box = ServerBox()
        let starter = Thread {
            box.set(
                Result { try TestServer(width: width, height: height, validation: false, socketPath: socketPath) })
        }
        starter.start()
        first.kill()
        defer {
            while case (nil, nil) = box.value { usleep(1000) }
            box.value.0?.stop()
        }
        let accepting = try waitUntilAccepting(socketPath, box: box) - killed
        guard clock.signal.wait(timeout: .now() + 30) == .success, let reconnected = clock.first else {
            throw Failure(description: "the context did not reconnect within 30 s")
        }
        var restored = Double.nan
        var captures = 0
        var firstCapture = Double.nan
        let deadline = CACurrentMediaTime() + 10
        while restored.isNaN {
            let start = CACurrentMediaTime()
            let after = try? context.capture(at: time)
            captures += 1
            if captures == 1 { firstCapture = CACurrentMediaTime() - start }
            if let after,
                ImageComparison(channelTolerance: 0).compare(after, before).matches
            {
                restored = CACurrentMediaTime() - killed
            } else if CACurrentMediaTime() > deadline {
                throw Failure(description: "no capture equal to the one before the crash within 10 s")
            }
        }
        let again = CACurrentMediaTime()
        _ = try context.capture(at: time)
        let secondCapture = CACurrentMediaTime() - again
        withExtendedLifetime(root) {}
        let outcome = Outcome(
            exited: exited, accepting: accepting, reconnected: reconnected - killed, restored: restored,
            captures: captures,
            firstCapture: firstCapture)
        FileHandle.standardError.write(
            Data(
                String(
                    format:
                        "restart run: exited %.1f ms, accepting %.1f ms, reconnected %.1f ms, restored %.1f ms (%d captures, the first %.1f ms, one more %.1f ms)\n",
                    exited * 1000, outcome.accepting * 1000, outcome.reconnected * 1000, outcome.restored * 1000,
                    captures,
                    firstCapture * 1000, secondCapture * 1000
                ).utf8))
        return outcome
    }

    /// Waits until child process `pid` has exited, every thread of it (the moment its parent gets
    /// SIGCHLD), without reaping it: `Process` reaps it later.
    static func waitForExit(_ pid: Int32) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
    }

    /// Connects to `path` every millisecond and returns the media time a `hello` first gets its
    /// `welcome`; throws when the new server failed to start.
    static func waitUntilAccepting(_ path: String, box: ServerBox) throws -> Double {
        let deadline = CACurrentMediaTime() + 30
        while CACurrentMediaTime() < deadline {
            if let error = box.value.1 { throw error }
            if let socket = try? SeqPacketSocket.connect(path: path) {
                defer { socket.close() }
                let hello = ClientMessage.hello(version: WireLimits.protocolVersion, clientName: "restart-probe")
                if (try? socket.send(MessageCodec.encode(hello))) != nil,
                    let packet = try? socket.receive(maxBytes: WireLimits.maxMessageBytes), !packet.isEndOfStream,
                    case .welcome = try? MessageCodec.decodeServer(packet.bytes)
                {
                    return CACurrentMediaTime()
                }
            }
            usleep(1000)
        }
        throw Failure(description: "the new laminad did not accept a connection within 30 s")
    }
}

import Foundation
import Glibc
import Lamina
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

/// laminad as a systemd service (docs/deploy.md): the unit files pass `systemd-analyze verify`, socket
/// activation hands laminad its listening socket, the notify protocol carries `READY=1`, `STATUS=`,
/// `WATCHDOG=1` and `STOPPING=1` (sd_notify(3), sd_watchdog_enabled(3)), and the watchdog is fed from
/// the loop itself, so a loop that hangs stops feeding it.
@Suite(.serialized) struct ServiceTests {
    /// The repository's root, from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `executable` with `arguments` and returns its exit status and everything it printed.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A temporary folder, removed by the caller.
    static func temporaryFolder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lamina-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func unitFilesVerify() throws {
        let folder = try Self.temporaryFolder("units")
        defer { try? FileManager.default.removeItem(at: folder) }
        let laminad = try TestServer.laminadURL().path
        for name in ["laminad.service", "laminad.socket"] {
            // The unit names /usr/local/bin/laminad; verify checks that ExecStart is executable, so
            // the copy names the binary just built.
            let text = try String(
                contentsOf: Self.repository.appendingPathComponent("systemd/\(name)"), encoding: .utf8)
            try text.replacingOccurrences(of: "/usr/local/bin/laminad", with: laminad)
                .write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let result = try Self.run(
            "/usr/bin/systemd-analyze",
            [
                "verify", folder.appendingPathComponent("laminad.socket").path,
                folder.appendingPathComponent("laminad.service").path,
            ])
        // verify exits 0 even for settings it ignores, printing a warning: any output is a defect.
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(result.output)")
    }

    @Test func unitsAskForTheServiceProtocol() throws {
        let service = try String(
            contentsOf: Self.repository.appendingPathComponent("systemd/laminad.service"), encoding: .utf8)
        let socket = try String(
            contentsOf: Self.repository.appendingPathComponent("systemd/laminad.socket"), encoding: .utf8)
        for line in ["Type=notify", "Restart=on-failure", "MemoryDenyWriteExecute=no", "DeviceAllow=char-drm rw"] {
            #expect(service.split(separator: "\n").contains(Substring(line)), "laminad.service lacks \(line)")
        }
        #expect(service.contains("WatchdogSec="))
        for line in ["ListenSequentialPacket=/run/lamina/socket", "SocketMode=0660", "SocketGroup=lamina"] {
            #expect(socket.split(separator: "\n").contains(Substring(line)), "laminad.socket lacks \(line)")
        }
    }

    @Test func socketActivationServesThePassedSocket() throws {
        let folder = try Self.temporaryFolder("activation")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("socket").path
        let log = folder.appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        var environment = ProcessInfo.processInfo.environment
        environment["VK_ICD_FILENAMES"] =
            environment["VK_ICD_FILENAMES"] ?? "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
        process.environment = environment
        process.arguments = [
            "--seqpacket", "-l", path, "-E", "VK_ICD_FILENAMES", try TestServer.laminadURL().path,
            "--socket", path, "--output", "offscreen:64x48@60", "--validation",
        ]
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        // systemd-socket-activate binds before it waits for the first connection, which starts laminad.
        let deadline = Date(timeIntervalSinceNow: 10)
        while !FileManager.default.fileExists(atPath: path), Date() < deadline { usleep(10_000) }
        let context = try CAContext(socketPath: path, clientName: "activation")
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.layer = root
        CATransaction.flush()
        let image = try context.capture()
        let pixel = image.pixel(x: 32, y: 24)
        #expect(pixel.red == 255 && pixel.green == 0 && pixel.blue == 0 && pixel.alpha == 255)
        process.terminate()
        process.waitUntilExit()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(text.contains("socket activation: serving the socket the service manager passed"), "\(text)")
        #expect(process.terminationStatus == 0, "\(text)")
        // The socket belongs to the service manager: laminad leaves its file in place.
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func notifiesReadinessWatchdogAndStopping() throws {
        let folder = try Self.temporaryFolder("notify")
        defer { try? FileManager.default.removeItem(at: folder) }
        let notify = try NotifySocket(path: folder.appendingPathComponent("notify").path)
        // WATCHDOG_USEC=200000: laminad feeds the watchdog every 0.1 s.
        let server = try TestServer(
            width: 64, height: 48,
            environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"])
        var messages: [String] = []
        let deadline = Date(timeIntervalSinceNow: 10)
        while messages.filter({ $0 == "WATCHDOG=1" }).count < 3, Date() < deadline {
            if let message = notify.next(timeout: 1) { messages.append(message) }
        }
        let ready = messages.firstIndex { $0.hasPrefix("READY=1\n") }
        #expect(ready != nil, "\(messages)")
        #expect(messages.first { $0.hasPrefix("READY=1\n") }?.contains("STATUS=Serving 1 display(s): 64x48@60") == true)
        #expect(messages.filter { $0 == "WATCHDOG=1" }.count >= 3, "\(messages)")
        let report = server.stop()
        #expect(report.exitStatus == 0)
        var stopping = false
        while let message = notify.next(timeout: 0.5) {
            if message.hasPrefix("STOPPING=1") { stopping = true }
        }
        #expect(stopping, "no STOPPING=1 after SIGTERM")
    }

    @Test func aHungLoopStopsTheHeartbeat() throws {
        let folder = try Self.temporaryFolder("heartbeat")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try HangingOutput(mode: DisplayMode(width: 16, height: 16, refreshRate: 60))
        var configuration = Server.Configuration(
            socketPath: folder.appendingPathComponent("socket").path, serverVersion: "test")
        configuration.heartbeatInterval = 0.01
        let server = try Server(configuration: configuration, outputs: [output])
        let beats = Counter()
        server.onHeartbeat = { beats.increment() }
        let loop = Thread { server.run() }
        loop.start()
        defer {
            output.release()
            server.stop()
            while loop.isExecuting { usleep(1_000) }
        }
        #expect(beats.wait(until: 3, timeout: 5), "the loop never beat")
        // The loop calls the output's handleEvents when its descriptor is readable; that call hangs.
        #expect(output.hang(), "the loop did not reach the hanging call")
        let atHang = beats.value
        usleep(200_000)  // twenty heartbeat intervals with the loop stuck
        #expect(beats.value == atHang, "heartbeats came from a loop that was not turning")
        output.release()
        #expect(beats.wait(until: atHang + 3, timeout: 5), "the heartbeat did not come back")
    }
}

/// A datagram socket bound at `path`, standing in for the service manager's notify socket.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError(call: "socket", errno: errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, byte) in path.utf8.enumerated() where i < buffer.count - 1 { buffer[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            close(fd)
            throw SystemError(call: "bind", errno: errno)
        }
    }

    /// The next datagram as text, or nil when none comes within `timeout` seconds.
    func next(timeout: Double) -> String? {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        guard Glibc.poll(&fds, 1, Int32(timeout * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    deinit {
        close(fd)
        unlink(path)
    }
}

/// A counter shared between the loop's thread and the test.
final class Counter: @unchecked Sendable {
    private let lock = NSCondition()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func increment() {
        lock.withLock {
            count += 1
            lock.broadcast()
        }
    }

    /// Waits until the count reaches `target`; false after `timeout` seconds.
    func wait(until target: Int, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return lock.withLock {
            while count < target {
                if !lock.wait(until: deadline) { return count >= target }
            }
            return true
        }
    }
}

/// An output whose event source the test makes readable; its `handleEvents`, called on the loop's
/// thread, then blocks until `release()`, as a hung render loop would.
final class HangingOutput: Output, @unchecked Sendable {
    let mode: DisplayMode
    private let renderer = RecordingRenderer()
    private let target: any RenderTarget
    private let pipe: (read: Int32, write: Int32)
    private let gate = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)

    init(mode: DisplayMode) throws {
        self.mode = mode
        target = try renderer.makeTarget(width: mode.width, height: mode.height)
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { throw SystemError(call: "pipe", errno: errno) }
        pipe = (fds[0], fds[1])
    }

    var eventFileDescriptor: Int32? { pipe.read }

    /// Makes the event source readable and returns once the loop has called `handleEvents`, where it
    /// hangs; false if it did not within five seconds.
    func hang() -> Bool {
        var byte: UInt8 = 1
        _ = write(pipe.write, &byte, 1)
        return entered.wait(timeout: .now() + 5) == .success
    }

    /// Lets a hung `handleEvents` return.
    func release() { gate.signal() }

    func handleEvents() -> [FrameEvent] {
        var byte: UInt8 = 0
        _ = read(pipe.read, &byte, 1)
        entered.signal()
        gate.wait()
        return []
    }

    func present(_ list: DisplayList) throws { try renderer.render(list, into: target) }

    func capture(_ list: DisplayList) throws -> Bitmap {
        try renderer.render(list, into: target)
        return try renderer.readPixels(target)
    }

    deinit {
        close(pipe.read)
        close(pipe.write)
    }
}

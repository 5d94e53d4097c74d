import Foundation
import Glibc
import Lamina
import LaminaProtocol
import Testing

/// The laminad and laminactl executables as a user meets them: socket folders and paths, stale and
/// live sockets, signals, the command line, laminactl's commands, and rendering only on change.
///
/// Each test spawns its own laminad with `Process` on a socket in a fresh temporary folder.
@Suite(.serialized) final class ServerLifecycleTests {
    /// A fresh, short temporary folder (socket paths must fit in 107 bytes); removed in `deinit`.
    let directory: URL
    /// Processes started by a test; any still running at the end are killed.
    var spawned: [Spawned] = []

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lamina-life-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        for process in spawned where process.process.isRunning {
            kill(process.process.processIdentifier, SIGKILL)
            process.process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - Helpers

    struct HelperError: Error, CustomStringConvertible {
        let description: String
    }

    /// A spawned executable whose standard output and standard error go to files in the test folder.
    final class Spawned {
        let process = Process()
        let stdoutURL: URL
        let stderrURL: URL
        let name: String

        init(_ executable: URL, _ arguments: [String], environment: [String: String], in directory: URL) throws {
            let tag = "\(executable.lastPathComponent)-\(UUID().uuidString.prefix(6))"
            name = tag
            stdoutURL = directory.appendingPathComponent("\(tag).out")
            stderrURL = directory.appendingPathComponent("\(tag).err")
            _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
            process.executableURL = executable
            process.arguments = arguments
            process.environment = environment
            process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
            process.standardError = try FileHandle(forWritingTo: stderrURL)
            try process.run()
        }

        var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }
        var pid: Int32 { process.processIdentifier }

        /// Waits at most `timeout` seconds for the process to exit; true when it did.
        func waitForExit(timeout: Double) -> Bool {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while process.isRunning {
                if Date() >= deadline { return false }
                usleep(10_000)
            }
            process.waitUntilExit()
            return true
        }

        /// "exit N" or "signal N", for messages.
        var outcome: String {
            process.isRunning
                ? "still running"
                : "\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)"
        }

        var exitedCleanly: Bool {
            !process.isRunning && process.terminationReason == .exit && process.terminationStatus == 0
        }
    }

    /// The build folder holding laminad and laminactl (next to the test executable, like `TestServer`).
    static func executable(_ name: String) throws -> URL {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(
            URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent())
        for folder in candidates {
            let url = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw HelperError(description: "\(name) not found next to the test executable (\(candidates.map(\.path)))")
    }

    /// This process's environment with lavapipe selected and no socket variables, plus `changes`
    /// (a nil value removes the variable).
    static func environment(_ changes: [String: String?] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        if environment["VK_ICD_FILENAMES"] == nil,
            FileManager.default.fileExists(atPath: "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json")
        {
            environment["VK_ICD_FILENAMES"] = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
        }
        environment["LAMINA_SOCKET"] = nil
        environment["XDG_RUNTIME_DIR"] = nil
        for (key, value) in changes { environment[key] = value }
        return environment
    }

    /// Starts laminad with `arguments` (and `--output offscreen:64x48@60` unless given).
    func startLaminad(_ arguments: [String], environment: [String: String] = ServerLifecycleTests.environment())
        throws -> Spawned
    {
        var arguments = arguments
        if !arguments.contains("--output") { arguments += ["--output", "offscreen:64x48@60"] }
        let spawned = try Spawned(try Self.executable("laminad"), arguments, environment: environment, in: directory)
        self.spawned.append(spawned)
        return spawned
    }

    /// Waits (at most `timeout` seconds) until a `CAContext` completes the handshake on `path`: by then
    /// laminad is inside its serving loop, with its signal handlers installed. Returns that context.
    func waitUntilServing(_ server: Spawned, path: String, timeout: Double = 30) throws -> CAContext {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            if let context = try? CAContext(socketPath: path, clientName: "lifecycle-test") { return context }
            guard server.process.isRunning else {
                throw HelperError(
                    description: "laminad exited (\(server.outcome)) before serving on \(path):\n\(server.stderr)")
            }
            guard Date() < deadline else {
                throw HelperError(
                    description: "laminad did not serve on \(path) within \(timeout) s:\n\(server.stderr)")
            }
            usleep(20_000)
        }
    }

    /// Runs a short-lived command to completion (at most `timeout` seconds; killed after that).
    func runToCompletion(
        _ name: String, _ arguments: [String], environment: [String: String] = ServerLifecycleTests.environment(),
        timeout: Double = 30
    ) throws -> Spawned {
        let spawned = try Spawned(try Self.executable(name), arguments, environment: environment, in: directory)
        self.spawned.append(spawned)
        if !spawned.waitForExit(timeout: timeout) {
            kill(spawned.pid, SIGKILL)
            spawned.process.waitUntilExit()
            throw HelperError(
                description: "\(name) \(arguments) did not finish within \(timeout) s:\n\(spawned.stderr)")
        }
        return spawned
    }

    /// Sends `signal` and waits for exit; records an issue when it does not exit in time.
    func stop(
        _ server: Spawned, signal: Int32 = SIGTERM, timeout: Double = 20,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard server.process.isRunning else { return }
        kill(server.pid, signal)
        if !server.waitForExit(timeout: timeout) {
            Issue.record("laminad did not exit within \(timeout) s of signal \(signal)", sourceLocation: sourceLocation)
            kill(server.pid, SIGKILL)
            server.process.waitUntilExit()
        }
    }

    func socketPath(_ relative: String = "socket") -> String {
        directory.appendingPathComponent(relative).path
    }

    static func isSocketFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
    }

    // MARK: - Tests

    @Test func createsMissingSocketFolderWithMode0700() throws {
        let path = socketPath("sub/inner/socket")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("sub").path))
        let server = try startLaminad(["--socket", path])
        let context = try waitUntilServing(server, path: path)
        for folder in ["sub", "sub/inner"] {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: directory.appendingPathComponent(folder).path)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
            #expect(mode == 0o700, "mode of \(folder): \(mode.map { String($0, radix: 8) } ?? "nil")")
            #expect(attributes[.type] as? FileAttributeType == .typeDirectory)
        }
        #expect(Self.isSocketFile(path))
        #expect(try context.ping().serverVersion == context.serverVersion)
        stop(server)
        #expect(server.exitedCleanly, "\(server.outcome)\n\(server.stderr)")
    }

    @Test func replacesStaleSocketLeftByKilledServer() throws {
        let path = socketPath()
        let first = try startLaminad(["--socket", path])
        _ = try waitUntilServing(first, path: path)
        kill(first.pid, SIGKILL)
        #expect(first.waitForExit(timeout: 10))
        #expect(first.process.terminationReason == .uncaughtSignal)
        // SIGKILL allows no cleanup: the socket file is left behind, and nobody answers on it.
        #expect(Self.isSocketFile(path), "a killed laminad should leave its socket file")
        #expect(throws: SocketPathError.connect(path: path, errno: ECONNREFUSED)) {
            try SeqPacketSocket.connect(path: path)
        }

        let second = try startLaminad(["--socket", path])
        let context = try waitUntilServing(second, path: path)
        let root = CALayer()
        root.name = "after-stale"
        context.layer = root
        try context.synchronize()
        #expect(try context.describeTree().contains("after-stale"))
        stop(second)
        #expect(second.exitedCleanly, "\(second.outcome)\n\(second.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func secondServerOnLivePathFailsAndFirstKeepsServing() throws {
        let path = socketPath()
        let first = try startLaminad(["--socket", path])
        let context = try waitUntilServing(first, path: path)

        let start = Date()
        let second = try runToCompletion("laminad", ["--socket", path, "--output", "offscreen:64x48@60"], timeout: 20)
        let elapsed = Date().timeIntervalSince(start)
        #expect(second.process.terminationReason == .exit)
        #expect(second.process.terminationStatus != 0, "second laminad: \(second.outcome)")
        #expect(elapsed < 15, "second laminad took \(elapsed) s to give up")
        let message = second.stderr
        #expect(message.contains(path), "stderr should name the path:\n\(message)")
        #expect(message.contains("in use"), "stderr should say the path is in use:\n\(message)")

        // The loser must not have removed or taken over the winner's socket.
        #expect(Self.isSocketFile(path))
        #expect(first.process.isRunning)
        let (version, _) = try context.ping()
        #expect(version == context.serverVersion)
        let fresh = try CAContext(socketPath: path, clientName: "after-loser")
        #expect(try fresh.ping().serverVersion == version)
        stop(first)
        #expect(first.exitedCleanly, "\(first.outcome)\n\(first.stderr)")
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func signalStopsCleanlyAndRemovesSocket(signal: Int32) throws {
        let path = socketPath()
        let server = try startLaminad(["--socket", path, "--validation"])
        let context = try waitUntilServing(server, path: path)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        context.layer = root
        try context.synchronize()
        #expect(Self.isSocketFile(path))

        stop(server, signal: signal)  // with a client still connected
        #expect(server.process.terminationReason == .exit, "signal \(signal): \(server.outcome)\n\(server.stderr)")
        #expect(server.process.terminationStatus == 0, "signal \(signal): \(server.outcome)\n\(server.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path), "socket file left after signal \(signal)")
        #expect(server.stderr.contains("validation messages: 0"), "log:\n\(server.stderr)")
    }

    /// A supervisor (or script) that waits only until the socket accepts a connection, then sends
    /// SIGTERM, must see laminad stop: the signal must not be lost or take the default action.
    @Test func signalRightAfterSocketAppearsIsNotLost() throws {
        for attempt in 1...5 {
            let path = socketPath("early-\(attempt)/socket")
            let server = try startLaminad(["--socket", path])
            let deadline = Date(timeIntervalSinceNow: 30)
            // A tight loop of plain connect calls, checked against the deadline now and then, so the
            // signal follows the moment the socket starts accepting by microseconds.
            var tries = 0
            while !Self.connectsOnce(path) {
                tries += 1
                if tries % 256 == 0 {
                    guard server.process.isRunning, Date() < deadline else {
                        throw HelperError(
                            description: "laminad never accepted on \(path) (\(server.outcome)):\n\(server.stderr)")
                    }
                }
            }
            kill(server.pid, SIGTERM)
            if !server.waitForExit(timeout: 5) {
                Issue.record("attempt \(attempt): laminad ignored a SIGTERM sent once its socket accepted connections")
                stop(server)
                continue
            }
            #expect(server.exitedCleanly, "attempt \(attempt): \(server.outcome)\n\(server.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path), "attempt \(attempt): socket file left behind")
        }
    }

    /// One connect attempt with the C functions `socket`, `connect` and `close`; true when it connected.
    static func connectsOnce(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    @Test func helpDocumentsEveryFlagAndBadOutputIsRejected() throws {
        let help = try runToCompletion("laminad", ["--help"])
        #expect(help.exitedCleanly, "laminad --help: \(help.outcome)\n\(help.stderr)")
        let text = help.stdout + help.stderr
        for flag in [
            "--socket", "--socket-group", "--output", "--validation", "--vulkan-device", "--log-level",
            "$LAMINA_SOCKET", "$XDG_RUNTIME_DIR/lamina/socket", "offscreen:",
        ] {
            #expect(text.contains(flag), "laminad --help does not mention \(flag):\n\(text)")
        }

        // Both a value without a kind and one with an unknown kind must say which kind this build supports.
        for spec in ["bogus", "bogus:64x48@60"] {
            let bogus = try runToCompletion("laminad", ["--socket", socketPath(), "--output", spec])
            #expect(bogus.process.terminationReason == .exit)
            #expect(bogus.process.terminationStatus != 0, "laminad --output \(spec): \(bogus.outcome)")
            #expect(bogus.stderr.contains("offscreen"), "laminad --output \(spec) stderr:\n\(bogus.stderr)")
            #expect(
                !FileManager.default.fileExists(atPath: socketPath()), "a refused --output must not create the socket")
        }
    }

    @Test func socketPathComesFromLaminaSocketThenXDGRuntimeDir() throws {
        let explicit = socketPath("env/explicit.sock")
        let runtime = directory.appendingPathComponent("xdg").path
        let fromRuntime = runtime + "/lamina/socket"

        // $LAMINA_SOCKET wins over $XDG_RUNTIME_DIR.
        let first = try startLaminad(
            [], environment: Self.environment(["LAMINA_SOCKET": explicit, "XDG_RUNTIME_DIR": runtime]))
        _ = try waitUntilServing(first, path: explicit)
        #expect(Self.isSocketFile(explicit))
        #expect(!FileManager.default.fileExists(atPath: fromRuntime))
        stop(first)
        #expect(first.exitedCleanly, "\(first.outcome)\n\(first.stderr)")
        #expect(!FileManager.default.fileExists(atPath: explicit))

        // Unset (and, separately, empty) $LAMINA_SOCKET: $XDG_RUNTIME_DIR/lamina/socket.
        for lamina in [nil, ""] as [String?] {
            let second = try startLaminad(
                [], environment: Self.environment(["LAMINA_SOCKET": lamina, "XDG_RUNTIME_DIR": runtime]))
            let context = try waitUntilServing(second, path: fromRuntime)
            #expect(Self.isSocketFile(fromRuntime))
            #expect(!FileManager.default.fileExists(atPath: explicit))
            #expect(context.socketPath == fromRuntime)
            stop(second)
            #expect(second.exitedCleanly, "\(second.outcome)\n\(second.stderr)")
            #expect(!FileManager.default.fileExists(atPath: fromRuntime))
        }
    }

    @Test func laminactlPingTreeAndCapture() throws {
        let path = socketPath()
        let server = try startLaminad(["--socket", path, "--output", "offscreen:96x64@60"])
        let context = try waitUntilServing(server, path: path)
        let root = CALayer()
        root.name = "lifecycle-probe"
        root.frame = CGRect(x: 0, y: 0, width: 96, height: 64)
        root.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)
        context.layer = root
        try context.synchronize()

        let ping = try runToCompletion("laminactl", ["ping", "--socket", path])
        #expect(ping.exitedCleanly, "laminactl ping: \(ping.outcome)\n\(ping.stderr)")
        #expect(ping.stdout.contains(context.serverVersion), "ping output:\n\(ping.stdout)")
        #expect(ping.stdout.contains("round trip"), "ping output:\n\(ping.stdout)")

        // Issue 9, defect 7: laminactl's connection sees only its own (empty) tree; this used to expect
        // the other client's layer, which was the defect. That client sees its own.
        let tree = try runToCompletion("laminactl", ["tree", "--socket", path])
        #expect(tree.exitedCleanly, "laminactl tree: \(tree.outcome)\n\(tree.stderr)")
        #expect(tree.stdout.contains("laminactl"), "tree output:\n\(tree.stdout)")
        #expect(!tree.stdout.contains("lifecycle-probe"), "another client's tree leaked:\n\(tree.stdout)")
        #expect(try context.describeTree().contains("\"lifecycle-probe\""))

        for at in [nil, CACurrentMediaTime() + 1] as [Double?] {
            let file = directory.appendingPathComponent("capture-\(at == nil ? "now" : "later").png").path
            let capture = try runToCompletion(
                "laminactl",
                ["capture", "--socket", path, "-o", file]
                    + (at.map { ["--at", String($0)] } ?? []))
            #expect(
                capture.exitedCleanly,
                "laminactl capture --at \(String(describing: at)): \(capture.outcome)\n\(capture.stderr)")
            let image = try PNGCodec.read(file)
            #expect(image.width == 96 && image.height == 64, "captured \(image.width)x\(image.height)")
            let p = image.pixel(x: 48, y: 32)
            let got = [Int(p.red), Int(p.green), Int(p.blue), Int(p.alpha)]
            let want = [51, 102, 153, 255]
            #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 2 }, "pixel \(got), expected \(want) ±2")
        }
        stop(server)
        #expect(server.exitedCleanly, "\(server.outcome)\n\(server.stderr)")
    }

    @Test func contextWithoutServerNamesThePath() throws {
        let path = socketPath("nobody/socket")
        do {
            let context = try CAContext(socketPath: path, clientName: "orphan")
            Issue.record("connected to \(context.socketPath) with no server there")
        } catch {
            #expect("\(error)".contains(path), "error: \(error)")
        }
        // A leftover regular file at the path is no server either.
        let file = socketPath("plain-file")
        _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        #expect {
            _ = try CAContext(socketPath: file, clientName: "orphan")
        } throws: { error in
            "\(error)".contains(file)
        }
    }

    /// A raw protocol client: sends hello and reads the welcome.
    static func rawClient(_ path: String) throws -> SeqPacketSocket {
        let socket = try SeqPacketSocket.connect(path: path)
        try socket.send(
            MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: "raw")))
        try socket.setReceiveTimeout(seconds: 10)
        guard case .welcome? = try nextMessage(socket) else {
            throw HelperError(description: "no welcome")
        }
        return socket
    }

    /// The next server message, or nil when none arrives before the socket's receive timeout.
    static func nextMessage(_ socket: SeqPacketSocket) throws -> ServerMessage? {
        guard let packet = try socket.receive(maxBytes: WireLimits.maxMessageBytes, maxFDs: 4) else { return nil }
        if packet.isEndOfStream { throw HelperError(description: "the server closed the connection") }
        return try MessageCodec.decodeServer(packet.bytes)
    }

    /// Reads messages until a commitPresented arrives (at most `timeout` seconds); returns it and the
    /// serials of the commitApplied events seen before it.
    static func untilPresented(_ socket: SeqPacketSocket, timeout: Double = 10) throws -> (
        serial: UInt64, applied: [UInt64]
    ) {
        try socket.setReceiveTimeout(seconds: timeout)
        var applied: [UInt64] = []
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            switch try nextMessage(socket) {
            case .commitApplied(let serial)?: applied.append(serial)
            case .commitPresented(let serial, _)?: return (serial, applied)
            case .error(let code, let message)?: throw HelperError(description: "server error \(code): \(message)")
            case nil: throw HelperError(description: "no commitPresented within \(timeout) s (applied: \(applied))")
            default: continue
            }
        }
        throw HelperError(description: "no commitPresented within \(timeout) s (applied: \(applied))")
    }

    /// Voluntary context switches of `pid`'s main thread (laminad's frame loop), from /proc.
    static func mainThreadWakeups(_ pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/status", encoding: .utf8) else {
            return nil
        }
        for line in text.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches:") {
            return Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    @Test func rendersOnlyOnChangeAndCoalescesCommits() throws {
        let path = socketPath()
        // 20 Hz: frames land 50 ms apart, so two back-to-back commits always fall before the same frame.
        let server = try startLaminad(["--socket", path, "--output", "offscreen:64x48@20"])
        _ = try waitUntilServing(server, path: path)
        let socket = try Self.rawClient(path)

        let bounds = LayerOperation.set(1, .bounds(CGRect(x: 0, y: 0, width: 64, height: 48)))
        let position = LayerOperation.set(1, .position(CGPoint(x: 32, y: 24)))
        let color = LayerOperation.set(1, .backgroundColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)))
        try socket.send(
            MessageCodec.encode(
                ClientMessage.commit(
                    serial: 1, operations: [.createLayer(1), bounds, position, color, .setRoot(display: 0, layer: 1)])))
        let first = try Self.untilPresented(socket)
        #expect(first.serial == 1)
        #expect(first.applied == [1])

        // Idle: nothing changes, so nothing is presented, and the frame loop stays asleep in poll.
        let wakeupsBefore = Self.mainThreadWakeups(server.pid)
        try socket.setReceiveTimeout(seconds: 0.3)
        let idle = try Self.nextMessage(socket)
        #expect(idle == nil, "unexpected message while idle: \(String(describing: idle))")
        let wakeupsAfter = Self.mainThreadWakeups(server.pid)
        if let wakeupsBefore, let wakeupsAfter {
            // A 20 Hz frame loop would wake about 6 times in 300 ms.
            #expect(
                wakeupsAfter - wakeupsBefore <= 1,
                "laminad's main thread woke \(wakeupsAfter - wakeupsBefore) times while idle")
        } else {
            Issue.record("cannot read /proc/\(server.pid)/task/\(server.pid)/status")
        }

        // Two commits back to back: both applied, one commitPresented naming the later.
        try socket.send(MessageCodec.encode(ClientMessage.commit(serial: 2, operations: [.set(1, .opacity(0.5))])))
        try socket.send(MessageCodec.encode(ClientMessage.commit(serial: 3, operations: [.set(1, .opacity(0.25))])))
        let coalesced = try Self.untilPresented(socket)
        // The counter does watch the frame loop: receiving the commits and presenting woke it.
        if let wakeupsAfter, let busy = Self.mainThreadWakeups(server.pid) {
            #expect(busy > wakeupsAfter, "the main thread's wake-up count did not move while serving commits")
        }
        #expect(coalesced.serial == 3)
        #expect(coalesced.applied == [2, 3])
        try socket.setReceiveTimeout(seconds: 0.3)
        let after = try Self.nextMessage(socket)
        #expect(after == nil, "a second event after the coalesced one: \(String(describing: after))")

        socket.close()
        stop(server)
        #expect(server.exitedCleanly, "\(server.outcome)\n\(server.stderr)")
    }
}

import Foundation
import Glibc
import Lamina
import LaminaProtocol
import Testing

/// Issue 9, defects 4, 6 and 7 with a real laminad: the socket path's owner, the socket's mode and
/// folder, what a client may see of others, and the descriptor limit.
extension ServerLifecycleTests {
    /// The user and group `nobody` / `nogroup`, for a client of another user.
    static let nobody: UInt32 = 65534

    /// Runs `arguments` under `/usr/bin/setpriv` as user and group `nobody`, to completion.
    func runAsNobody(_ executable: String, _ arguments: [String]) throws -> Spawned {
        let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
        let spawned = try Spawned(
            setpriv,
            [
                "--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups",
                try Self.executable(executable).path,
            ]
                + arguments, environment: Self.environment(), in: directory)
        spawned.process.waitUntilExit()
        return spawned
    }

    /// A full-display opaque red layer on `context` (64×48, laminad's default size in these tests).
    static func showRed(on context: CAContext, name: String) throws {
        let root = CALayer()
        root.name = name
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.layer = root
        try context.synchronize()
    }

    // MARK: - Defect 6: who owns the socket path

    @Test func socketRemovedWhileServingStaysOwnedByTheRunningServer() throws {
        let path = socketPath()
        let first = try startLaminad(["--socket", path])
        let context = try waitUntilServing(first, path: path)
        // The socket file vanishes (a careless cleanup) while the first server runs.
        #expect(unlink(path) == 0)
        let second = try runToCompletion("laminad", ["--socket", path, "--output", "offscreen:64x48@60"], timeout: 20)
        #expect(second.process.terminationReason == .exit)
        #expect(second.process.terminationStatus == 2, "second laminad: \(second.outcome)\n\(second.stderr)")
        #expect(second.stderr.contains(path) && second.stderr.contains("in use"), "stderr:\n\(second.stderr)")
        #expect(!Self.isSocketFile(path), "the refused server must not have bound the path")
        // The first server still serves the clients it has.
        #expect(try context.ping().serverVersion == context.serverVersion)
        stop(first)
        #expect(first.exitedCleanly, "\(first.outcome)\n\(first.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path + ".lock"))
    }

    @Test func stoppingNeverUnlinksASocketItDidNotCreate() throws {
        let path = socketPath()
        let first = try startLaminad(["--socket", path])
        _ = try waitUntilServing(first, path: path)
        // Another file (another inode) takes the path while the server runs.
        #expect(unlink(path) == 0)
        #expect(FileManager.default.createFile(atPath: path, contents: Data("another owner".utf8)))
        var before = stat()
        #expect(lstat(path, &before) == 0)
        stop(first)
        #expect(first.exitedCleanly, "\(first.outcome)\n\(first.stderr)")
        var after = stat()
        #expect(lstat(path, &after) == 0, "stopping removed a file that was not its socket")
        #expect(after.st_ino == before.st_ino && after.st_dev == before.st_dev)
    }

    // MARK: - Defect 7: socket mode, folder, and what clients see

    @Test func socketIs0600AndOtherUsersCannotConnect() throws {
        let path = socketPath()
        let server = try startLaminad(["--socket", path])
        _ = try waitUntilServing(server, path: path)
        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o600, "socket mode \(String(info.st_mode & 0o7777, radix: 8))")
        let ping = try runAsNobody("laminactl", ["ping", "--socket", path])
        #expect(ping.process.terminationStatus != 0, "nobody connected to a 0600 socket:\n\(ping.stdout)")
        #expect(ping.stderr.contains("Permission denied"), "\(ping.stderr)")
        stop(server)
        #expect(server.exitedCleanly, "\(server.outcome)\n\(server.stderr)")
    }

    @Test func folderEveryoneMayWriteIsRefused() throws {
        let folder = directory.appendingPathComponent("open").path
        #expect(mkdir(folder, 0o700) == 0 && chmod(folder, 0o777) == 0)
        let path = folder + "/socket"
        let server = try runToCompletion("laminad", ["--socket", path, "--output", "offscreen:64x48@60"])
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 2, "\(server.outcome)\n\(server.stderr)")
        #expect(server.stderr.contains(folder), "stderr should name the folder:\n\(server.stderr)")
        #expect(server.stderr.contains("writable by other users"), "\(server.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func describeTreeShowsOnlyTheAskersTree() throws {
        let path = socketPath()
        let server = try startLaminad(["--socket", path])
        let alpha = try waitUntilServing(server, path: path)
        let beta = try CAContext(socketPath: path, clientName: "beta")
        try Self.showRed(on: alpha, name: "alpha-root")
        try Self.showRed(on: beta, name: "beta-root")
        let alphaTree = try alpha.describeTree()
        let betaTree = try beta.describeTree()
        #expect(alphaTree.contains("\"alpha-root\"") && !alphaTree.contains("beta"), "alpha sees:\n\(alphaTree)")
        #expect(betaTree.contains("\"beta-root\"") && !betaTree.contains("alpha"), "beta sees:\n\(betaTree)")
        stop(server)
        #expect(server.exitedCleanly, "\(server.outcome)\n\(server.stderr)")
    }

    @Test func clientOfAnotherUserCapturesOnlyItsOwnContent() throws {
        let path = socketPath()
        let server = try startLaminad(["--socket", path, "--socket-group", "nogroup"])
        let owner = try waitUntilServing(server, path: path)
        try Self.showRed(on: owner, name: "owner-root")
        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o660 && info.st_gid == Self.nobody, "mode or group of the socket")
        let out = directory.appendingPathComponent("out").path
        #expect(mkdir(out, 0o700) == 0 && chmod(out, 0o777) == 0)

        // laminactl as nobody (a member of the socket's group) has no layers: it sees the clear colour.
        let stranger = out + "/stranger.png"
        let capture = try runAsNobody("laminactl", ["capture", "--socket", path, "-o", stranger])
        #expect(capture.exitedCleanly, "\(capture.outcome)\n\(capture.stderr)")
        let theirs = try PNGCodec.read(stranger).pixel(x: 32, y: 24)
        #expect(theirs == (0, 0, 0, 255), "another user's capture showed the owner's layer: \(theirs)")

        // The server's own user captures the whole display.
        let own = out + "/own.png"
        let ownCapture = try runToCompletion("laminactl", ["capture", "--socket", path, "-o", own])
        #expect(ownCapture.exitedCleanly, "\(ownCapture.outcome)\n\(ownCapture.stderr)")
        #expect(try PNGCodec.read(own).pixel(x: 32, y: 24) == (255, 0, 0, 255))
        stop(server)
        #expect(server.exitedCleanly, "\(server.outcome)\n\(server.stderr)")
    }

    // MARK: - Defect 4: the descriptor limit

    /// The process's user plus system CPU time in clock ticks (`/proc/PID/stat` fields 14 and 15).
    static func cpuTicks(_ pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name: state is field 3, so utime (14) is the 12th of these.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// A raw client that has sent `hello`; `greeted` says whether the welcome came within `timeout`.
    static func rawHello(_ path: String, timeout: Double) throws -> (socket: SeqPacketSocket, greeted: Bool) {
        let socket = try SeqPacketSocket.connect(path: path)
        try socket.setReceiveTimeout(seconds: timeout)
        try socket.send(
            MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: "fd-probe")))
        guard let packet = try socket.receive(maxBytes: WireLimits.maxMessageBytes), !packet.isEndOfStream,
            case .welcome = try MessageCodec.decodeServer(packet.bytes)
        else { return (socket, false) }
        return (socket, true)
    }

    @Test func outOfDescriptorsNeitherSpinsNorFloodsTheLog() throws {
        let path = socketPath()
        let server = try startLaminad(["--socket", path])
        let served = try waitUntilServing(server, path: path)
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/fd").count
        let limit = try Spawned(
            URL(fileURLWithPath: "/usr/bin/prlimit"), ["--pid", "\(server.pid)", "--nofile=\(open + 2):\(open + 2)"],
            environment: Self.environment(), in: directory)
        limit.process.waitUntilExit()
        #expect(limit.process.terminationStatus == 0, "prlimit: \(limit.stderr)")

        // Connect clients until one is left waiting: the server is out of descriptors.
        var clients: [SeqPacketSocket] = []
        var waiting: SeqPacketSocket?
        for _ in 0..<12 {
            let (socket, greeted) = try Self.rawHello(path, timeout: 2)
            if greeted {
                clients.append(socket)
            } else {
                waiting = socket
                break
            }
        }
        let pending = try #require(waiting, "the descriptor limit was never reached")
        let leaving = try #require(clients.last, "at least one client fits under the limit")

        // Over one second the server, idle apart from the pending connection, must not spin.
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        let startTicks = try #require(Self.cpuTicks(server.pid))
        let start = Date()
        usleep(1_000_000)
        let used = Double(try #require(Self.cpuTicks(server.pid)) - startTicks) / ticksPerSecond
        let fraction = used / Date().timeIntervalSince(start)
        #expect(fraction < 0.1, "laminad used \(Int(fraction * 100)) % CPU while out of descriptors")
        let reports = server.stderr.split(separator: "\n").filter { $0.contains("accept") }
        #expect(reports.count == 1, "expected one log line about accepting, got \(reports.count)")

        // Clients already connected are served; when one leaves, the waiting one is accepted.
        #expect(try served.ping().serverVersion == served.serverVersion)
        leaving.close()
        try pending.setReceiveTimeout(seconds: 10)
        let welcome = try #require(try pending.receive(maxBytes: WireLimits.maxMessageBytes))
        guard case .welcome = try MessageCodec.decodeServer(welcome.bytes) else {
            Issue.record("the waiting client got no welcome after a descriptor was freed")
            return
        }
        stop(server)
        #expect(server.exitedCleanly, "\(server.outcome)\n\(server.stderr)")
    }
}

import Foundation
import Glibc
import Lamina

/// A `laminad` process on a private temporary socket, for tests: start it, connect contexts to it,
/// capture frames at chosen media times, and stop it to learn whether Vulkan validation was clean.
///
/// The binary is `$LAMINAD_PATH` if set, else `laminad` next to the running executable (the build
/// folder, for `swift test`). Validation (`--validation`) is on unless turned off.
public final class TestServer {
    /// What stopping the server revealed.
    public struct Report: Sendable {
        /// The process's exit status (0 when clean; 3 when validation reported messages).
        public var exitStatus: Int32
        /// Every `vulkan validation:` line the server logged.
        public var validationMessages: [String]
        /// Everything the server wrote to standard error.
        public var log: String
    }

    /// Why the server could not be started.
    public struct StartError: Error, CustomStringConvertible {
        /// What went wrong, with the server's log where there is one.
        public let description: String
    }

    /// The socket the server listens on.
    public let socketPath: String
    /// The temporary folder holding the socket and the log.
    public let directory: URL
    let process: Process
    let logURL: URL
    private var stopped = false
    /// Whether `directory` was made for this server (and is removed with it).
    private let ownsDirectory: Bool

    /// Starts `laminad` with an offscreen output of `width`×`height` at `refreshRate` and waits until it
    /// accepts connections (at most `timeout` seconds). `environment` is added to this process's.
    ///
    /// `socketPath` nil (the default) puts the socket in a fresh temporary folder, removed with the
    /// server. A given path is used as is, its folder left in place, so that a second server can
    /// start on the path of one that was killed (`kill()`), as a restarted laminad does.
    public init(
        width: Int = 320, height: Int = 240, refreshRate: Double = 60, validation: Bool = true,
        extraArguments: [String] = [], environment extra: [String: String] = [:], timeout: Double = 20,
        socketPath fixedPath: String? = nil
    ) throws {
        if let fixedPath {
            socketPath = fixedPath
            directory = URL(fileURLWithPath: fixedPath).deletingLastPathComponent()
            ownsDirectory = false
        } else {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "lamina-test-\(UUID().uuidString.prefix(8))")
            socketPath = directory.appendingPathComponent("socket").path
            ownsDirectory = true
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        logURL = directory.appendingPathComponent(
            ownsDirectory ? "laminad.log" : "laminad-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process = Process()
        process.executableURL = try Self.laminadURL()
        process.arguments =
            [
                "--socket", socketPath, "--output", "offscreen:\(width)x\(height)@\(Int(refreshRate))",
                "--log-level", "info",
            ] + (validation ? ["--validation"] : []) + extraArguments
        var environment = ProcessInfo.processInfo.environment
        if environment["VK_ICD_FILENAMES"] == nil,
            FileManager.default.fileExists(atPath: "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json")
        {
            environment["VK_ICD_FILENAMES"] = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
        }
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let log = try FileHandle(forWritingTo: logURL)
        process.standardError = log
        process.standardOutput = log
        try process.run()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            if let probe = try? CAContext(socketPath: socketPath, clientName: "lamina-test-probe") {
                _ = probe
                break
            }
            guard process.isRunning, Date() < deadline else {
                process.terminate()
                process.waitUntilExit()
                let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
                throw StartError(description: "laminad did not start within \(timeout) s:\n\(text)")
            }
            usleep(20_000)
        }
    }

    /// The `laminad` binary tests start: `$LAMINAD_PATH` if set, else `laminad` next to the running
    /// executable.
    public static func laminadURL() throws -> URL {
        if let explicit = ProcessInfo.processInfo.environment["LAMINAD_PATH"] { return URL(fileURLWithPath: explicit) }
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        let argument0 = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        candidates.append(argument0.deletingLastPathComponent())
        for directory in candidates {
            let url = directory.appendingPathComponent("laminad")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw StartError(
            description: "laminad not found next to the test executable; build it (swift build) or set LAMINAD_PATH")
    }

    /// Connects a new context to this server.
    public func connect(name: String = "test") throws -> CAContext {
        try CAContext(socketPath: socketPath, clientName: name)
    }

    /// The server's process id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }

    /// Stops the server with SIGTERM, waits for it, and reports its exit status and validation messages.
    @discardableResult
    public func stop() -> Report {
        if !stopped {
            stopped = true
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        let messages = text.split(separator: "\n").filter { $0.contains("vulkan validation:") }.map(String.init)
        return Report(exitStatus: process.terminationStatus, validationMessages: messages, log: text)
    }

    /// Kills the server with SIGKILL (no cleanup: its socket file stays behind, as after a crash) and
    /// waits for it to exit.
    public func kill() {
        guard !stopped else { return }
        stopped = true
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        if !stopped, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        if ownsDirectory {
            try? FileManager.default.removeItem(at: directory)
        } else {
            try? FileManager.default.removeItem(at: logURL)
        }
    }
}

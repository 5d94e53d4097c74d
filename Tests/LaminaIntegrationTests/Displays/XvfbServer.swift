import Foundation
import Glibc

/// An `Xvfb` process (an X server without a screen) on a display number it picks itself, for the
/// window output's tests. Started with `-displayfd 1`, so Xvfb writes its display number to its
/// standard output once it accepts connections: no display number is guessed and nothing is polled.
final class XvfbServer {
    /// Why Xvfb could not be started.
    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    /// Where `Xvfb` is, if installed (`Tools/setup` installs it).
    static let path: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (folders + ["/usr/bin"]).map { $0 + "/Xvfb" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether `Xvfb` is installed.
    static var isInstalled: Bool { path != nil }

    /// The display name for `$DISPLAY`, such as `:7`.
    let display: String
    let process = Process()

    /// Starts Xvfb with one 1024×768 screen of depth 24 and returns once it accepts connections.
    init() throws {
        guard let path = Self.path else { throw StartError(description: "Xvfb is not installed") }
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"]
        let ready = Pipe()
        process.standardOutput = ready
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Xvfb writes "N\n" when it is ready; end of file means it exited first.
        var text = ""
        while !text.hasSuffix("\n") {
            let byte = ready.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { break }
            text += String(decoding: byte, as: UTF8.self)
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw StartError(description: "Xvfb did not report a display number (it wrote '\(text)')")
        }
        display = ":\(number)"
    }

    deinit {
        // Processes started from the test's threads inherit their blocked signals, SIGTERM among them,
        // so Xvfb would not stop on it: SIGKILL, then remove the lock and socket it leaves behind.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let number = display.dropFirst()
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
    }
}

import Foundation

/// A fresh, short temporary folder for a test's laminad socket (and other files beside it), removed
/// when the value goes: the restart and device-loss suites start several servers on one socket path.
final class SocketFolder {
    /// The folder.
    let url: URL
    /// The socket's path in it.
    var socketPath: String { url.appendingPathComponent("socket").path }

    /// Makes a folder named `prefix` and a random suffix in the temporary folder.
    init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

import CLaminaShims
import Foundation
import LaminaSystem

/// Errors about a socket's filesystem path, raised by `SeqPacketSocket.listen(path:)`
/// and `SeqPacketSocket.connect(path:)`.
public enum SocketPathError: Error, CustomStringConvertible, Equatable, Sendable {
    /// Another server owns this path: it holds the lock `path.lock`, or (a server that takes no
    /// lock) answered a probing `connect`.
    case inUse(String)
    /// The path does not fit in `sockaddr_un.sun_path` (107 bytes plus the terminating NUL).
    case tooLong(String)
    /// The C function `connect` failed on this path with `errno`.
    case connect(path: String, errno: Int32)
    /// Creating the socket file or its folder failed (the C functions `mkdir`, `socket`, `bind`, `unlink`,
    /// `chmod`, `chown`).
    case create(path: String, errno: Int32)
    /// The socket's folder may be written by other users (mode & 0o002) and is not a sticky folder
    /// owned by this user, so anyone could replace the socket: the server refuses it.
    case unsafeFolder(folder: String, mode: UInt32)

    /// A sentence naming the path and, for system failures, the `strerror` reason.
    public var description: String {
        switch self {
        case .inUse(let path):
            return "socket path \(path) is in use: another server owns it (and holds \(path).lock)"
        case .tooLong(let path):
            return
                "socket path \(path) is too long (\(path.utf8.count) bytes; at most \(SeqPacketSocket.maxPathLength))"
        case .connect(let path, let errno):
            return "cannot connect to \(path): \(SystemError.message(for: errno)) (errno \(errno))"
        case .create(let path, let errno):
            return "cannot create socket at \(path): \(SystemError.message(for: errno)) (errno \(errno))"
        case .unsafeFolder(let folder, let mode):
            return
                "socket folder \(folder) (mode \(String(mode, radix: 8))) is writable by other users; "
                + "use a folder only its owner can write, or a sticky one owned by this user"
        }
    }
}

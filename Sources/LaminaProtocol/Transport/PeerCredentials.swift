// Who is at the other end of a Unix socket.

/// The process, user and group of a socket's peer as the kernel recorded them when it connected
/// (`SO_PEERCRED`); a client cannot choose them.
public struct PeerCredentials: Equatable, Sendable {
    /// The peer's process id.
    public var pid: Int32
    /// The peer's effective user id.
    public var uid: UInt32
    /// The peer's effective group id.
    public var gid: UInt32

    /// Credentials from their three values (tests inject them this way).
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Whether this peer may see what every client shows (a whole-display capture): true for root
    /// and for the user the server runs as, false for any other user.
    public func seesEveryClient(serverUID: UInt32) -> Bool {
        uid == 0 || uid == serverUID
    }
}

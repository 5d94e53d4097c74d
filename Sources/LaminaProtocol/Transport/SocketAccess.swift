// Who may connect to a listening socket, as its file's mode says.

/// Who may connect to the socket file `SeqPacketSocket.listen(path:access:)` creates: the server
/// sets the file's mode itself, whatever the process's umask.
public enum SocketAccess: Equatable, Sendable {
    /// Mode 0600: only the server's own user (and root) may connect.
    case owner
    /// Mode 0660 and the file's group set to `gid`: the server's user and that group's members.
    case group(gid: UInt32)

    /// The permission bits of the socket file.
    public var mode: UInt32 {
        switch self {
        case .owner: 0o600
        case .group: 0o660
        }
    }
}

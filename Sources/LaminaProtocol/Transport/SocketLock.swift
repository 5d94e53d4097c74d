// Ownership of a socket path: the lock file beside it, held for the server's life.
#if canImport(Glibc)
    import Glibc
#endif
import LaminaSystem

/// The lock file `PATH.lock` beside a server's socket `PATH`, held with an exclusive `flock` for as
/// long as this object lives: whoever holds it owns the socket path.
///
/// A second server that cannot take the lock refuses to start, even when the socket file itself has
/// been removed meanwhile. A lock is released by the kernel when its holder exits, however it exits,
/// so a lock file left by a killed server does not block the next one. The corresponding C functions
/// are `open`, `flock`, `fstat`, `stat`, `unlink` and `close`.
public final class SocketLock {
    /// The path of the lock file (the socket's path followed by `.lock`).
    public let path: String
    private let owned: OwnedFD
    private let identity: FileIdentity

    /// Creates (mode 0600) or opens `socketPath + ".lock"` and takes an exclusive lock on it without
    /// waiting.
    ///
    /// Throws `SocketPathError.inUse(socketPath)` when another process holds the lock, and
    /// `.create(path:errno:)` when the lock file cannot be opened. A lock file removed and made anew
    /// by another server between our `open` and `flock` is detected (its inode changed) and opened
    /// again, so two servers never both believe they hold the lock.
    public init(socketPath: String) throws {
        let lockPath = socketPath + ".lock"
        while true {
            let fd: Int32
            do {
                fd = try syscall("open") { open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
            } catch {
                throw SocketPathError.create(path: lockPath, errno: error.errno)
            }
            let candidate = OwnedFD(fd)
            do {
                try syscall("flock") { flock(fd, LOCK_EX | LOCK_NB) }
            } catch  where error.errno == EWOULDBLOCK {
                throw SocketPathError.inUse(socketPath)
            } catch {
                throw SocketPathError.create(path: lockPath, errno: error.errno)
            }
            guard let held = FileIdentity(descriptor: fd) else {
                throw SocketPathError.create(path: lockPath, errno: EIO)
            }
            // The file we locked must still be the one at the path, or a departing server unlinked it.
            if FileIdentity(path: lockPath) == held {
                path = lockPath
                owned = candidate
                identity = held
                return
            }
        }
    }

    deinit {
        release()
    }

    /// Removes the lock file if it is still ours (same device and inode), then releases the lock by
    /// closing its descriptor. Idempotent.
    public func release() {
        guard owned.isValid else { return }
        if FileIdentity(path: path) == identity {
            _ = try? syscall("unlink") { unlink(path) }
        }
        owned.close()
    }
}

// Ownership of file descriptors: one owner closes each descriptor exactly once.
import Glibc
import Foundation

/// Owns one file descriptor and closes it in `deinit` unless it was given up with
/// `take()` or already closed with `close()`.
///
/// The corresponding C function for closing is `close`. All members are thread-safe:
/// the descriptor is held under a lock so `take()` and `close()` happen at most once.
public final class OwnedFD: @unchecked Sendable {
    private let lock = NSLock()
    private var fd: Int32

    /// Takes ownership of `fd`; it will be closed with the C function `close` when this
    /// object is released. Pass -1 for an empty owner.
    public init(_ fd: Int32) {
        self.fd = fd
    }

    /// The owned descriptor, or -1 once taken or closed. Ownership stays with this object.
    public var rawValue: Int32 {
        lock.withLock { fd }
    }

    /// Whether a descriptor is still owned (not taken and not closed).
    public var isValid: Bool { rawValue >= 0 }

    /// Gives up ownership and returns the descriptor (-1 if already taken or closed);
    /// the caller must now close it with the C function `close`.
    public func take() -> Int32 {
        lock.withLock {
            let value = fd
            fd = -1
            return value
        }
    }

    /// Closes the descriptor now. Idempotent. The corresponding C function is `close`.
    ///
    /// `EINTR` is not retried: on Linux `close` releases the descriptor before it can be
    /// interrupted, so a second call could close a descriptor another thread has just been given.
    /// `EINTR` and `EIO` are ignored for the same reason (the descriptor is gone either way);
    /// `EBADF` traps, since it means the descriptor was closed behind its owner's back.
    public func close() {
        let fd = take()
        if fd >= 0 { _ = try? interruptibleSyscall("close") { closeFD(fd) } }
    }

    /// Duplicates the descriptor into a new owner with close-on-exec set.
    /// The corresponding C function is `fcntl(fd, F_DUPFD_CLOEXEC, 0)`.
    public func duplicate() throws(SystemError) -> OwnedFD {
        let fd = rawValue
        let copy = try syscall("fcntl(F_DUPFD_CLOEXEC)") { fcntl(fd, F_DUPFD_CLOEXEC, 0) }
        return OwnedFD(copy)
    }

    deinit {
        close()
    }
}

/// Calls the C function `close`, so that `close` inside a type with a `close()` method still
/// reaches the C library.
@inline(__always)
private func closeFD(_ fd: Int32) -> Int32 {
    Glibc.close(fd)
}

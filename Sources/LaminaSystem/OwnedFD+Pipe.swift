// Pipes whose two ends are owned.
import Glibc
import CLaminaShims

extension OwnedFD {
    /// Creates a pipe with close-on-exec set on both ends, and `O_NONBLOCK` too when `nonBlocking`.
    /// Both ends are owned and closed when released.
    ///
    /// Throws `SystemError(call: "pipe2", …)` (`EMFILE`, `ENFILE`). The corresponding C function is
    /// `pipe2(fds, O_CLOEXEC | O_NONBLOCK)`, which sets the flags atomically, so no child process
    /// started meanwhile inherits an end.
    public static func pipe(nonBlocking: Bool) throws(SystemError) -> (read: OwnedFD, write: OwnedFD) {
        var fds: [Int32] = [-1, -1]
        let flags = O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
        try syscall("pipe2") { clamina_pipe2(&fds, flags) }
        return (OwnedFD(fds[0]), OwnedFD(fds[1]))
    }
}

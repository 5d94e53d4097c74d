// The one wrapper every system call of Lamina passes through.
import Glibc

/// Runs a system call that returns -1 and sets `errno` on failure, and returns its result.
///
/// - `EINTR` (a signal arrived while the call waited) calls `body` again, so no caller ever sees it.
/// - `EBADF` and `EFAULT` stop the process with a message naming `call`: Lamina only passes
///   descriptors it owns and buffers it allocated, so either can only be Lamina's own bug, and
///   going on could act on a descriptor number that now belongs to someone else.
/// - Any other failure throws `SystemError(call: call, errno: errno)`, `EAGAIN` included (use
///   `nonBlockingSyscall(_:_:)` where would-block is a normal outcome).
///
/// `call` names the C function (with the command for multiplexed ones, e.g. `"fcntl(F_SETFL)"`).
/// `body` must make exactly one C call and return its result unchanged.
@inlinable
@discardableResult
public func syscall<T: FixedWidthInteger & SignedInteger>(
    _ call: String, _ body: () -> T
) throws(SystemError) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = systemErrno()
        if code == EINTR { continue }
        throw checkedSystemError(call, code)
    }
}

/// Like `syscall(_:_:)`, but would-block is a result: returns nil when the call fails with
/// `EAGAIN` or `EWOULDBLOCK` (a non-blocking descriptor with nothing to do, or a socket's receive
/// timeout passing), and the call's result otherwise. Retries `EINTR`, traps on `EBADF` and
/// `EFAULT`, and throws `SystemError` for every other failure.
@inlinable
public func nonBlockingSyscall<T: FixedWidthInteger & SignedInteger>(
    _ call: String, _ body: () -> T
) throws(SystemError) -> T? {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = systemErrno()
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK { return nil }
        throw checkedSystemError(call, code)
    }
}

/// Like `syscall(_:_:)`, but `EINTR` is thrown as `SystemError` instead of calling `body` again.
///
/// For the calls where a retry would be wrong: `close` (on Linux the descriptor is released even
/// when `close` reports `EINTR`; a second `close` could close a descriptor another thread has just
/// been given) and `connect` (the connection goes on in the background; a second `connect` fails
/// with `EALREADY`, so the caller waits for it with `poll` instead). Traps on `EBADF` and `EFAULT`.
@inlinable
@discardableResult
public func interruptibleSyscall<T: FixedWidthInteger & SignedInteger>(
    _ call: String, _ body: () -> T
) throws(SystemError) -> T {
    let result = body()
    if result != -1 { return result }
    throw checkedSystemError(call, systemErrno())
}

/// The error for `call` failing with `code`; stops the process on `EBADF` and `EFAULT`, which
/// only a bug in Lamina can cause. `fatalError` rather than `preconditionFailure`, so that the
/// call's name is printed in optimised builds too.
@usableFromInline
func checkedSystemError(_ call: String, _ code: Int32) -> SystemError {
    let error = SystemError(call: call, errno: code)
    if code == EBADF || code == EFAULT {
        fatalError("\(error): a bad descriptor or address is a bug in Lamina")
    }
    return error
}

/// The current value of the C `errno` variable, for the inlinable wrappers.
@usableFromInline
func systemErrno() -> Int32 {
    currentErrno()
}

// Waiting for descriptors to become ready.
import Glibc

/// Waits until an entry of `fds` is ready or `timeout` milliseconds pass (-1 waits without limit,
/// 0 only looks), and returns how many entries have a non-zero `revents`.
///
/// `EINTR` is not retried: a signal makes this return 0 with every `revents` cleared, as if the
/// timeout had passed. Callers wait in a loop anyway and recompute the timeout from their clock on
/// each turn, so a retry here would only stretch their deadline by the time already waited.
/// `EFAULT` traps (a bug in Lamina); other failures (`EINVAL`: more entries than the descriptor
/// limit, `ENOMEM`) throw `SystemError(call: "poll", …)`. A descriptor that is not open is not an
/// error of the call: its entry reports `POLLNVAL`.
///
/// The corresponding C function is `poll`.
public func poll(_ fds: inout [pollfd], timeout: Int32) throws(SystemError) -> Int {
    let result = fds.withUnsafeMutableBufferPointer { entries in
        Glibc.poll(entries.baseAddress, nfds_t(entries.count), timeout)
    }
    if result >= 0 { return Int(result) }
    let code = currentErrno()
    if code == EINTR {
        for index in fds.indices { fds[index].revents = 0 }
        return 0
    }
    throw checkedSystemError("poll", code)
}

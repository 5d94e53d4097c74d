import ArgumentParser
import CSystemd
import Glibc
import LaminaProtocol

/// laminad's side of the service manager's protocol, through libsystemd: readiness, status, watchdog
/// and stopping notifications (`sd_notify`) and the listening socket of socket activation
/// (`sd_listen_fds`). Outside systemd (no `NOTIFY_SOCKET`, no `LISTEN_FDS`) every call does nothing.
struct ServiceManager {
    /// The watchdog timeout the service manager set (`WatchdogSec=`, passed as `WATCHDOG_USEC`), in
    /// seconds; nil without a watchdog. laminad feeds it at half this interval.
    let watchdogTimeout: Double?

    /// Reads the watchdog settings of the environment. The corresponding C function is
    /// `sd_watchdog_enabled`.
    init() {
        var microseconds: UInt64 = 0
        watchdogTimeout = sd_watchdog_enabled(0, &microseconds) > 0 ? Double(microseconds) / 1_000_000 : nil
    }

    /// Sends `state` (lines such as `READY=1`, `STATUS=…`, `WATCHDOG=1`, `STOPPING=1`) to the service
    /// manager, if one listens. The corresponding C function is `sd_notify`.
    func notify(_ state: String) {
        _ = sd_notify(0, state)
    }

    /// The listening socket the service manager passed (socket activation), or nil when it passed none.
    ///
    /// Takes exactly one descriptor, which must be a listening `AF_UNIX` `SOCK_SEQPACKET` socket
    /// (`ListenSequentialPacket=` in the socket unit); anything else is an error naming what came. Unsets
    /// `LISTEN_FDS` and `LISTEN_PID`, so children do not inherit them. The corresponding C functions are
    /// `sd_listen_fds` and `sd_is_socket_unix`.
    static func activatedListener() throws -> SeqPacketSocket? {
        let count = sd_listen_fds(1)
        if count < 0 { throw ValidationError("socket activation: sd_listen_fds failed (errno \(-count))") }
        if count == 0 { return nil }
        guard count == 1 else {
            throw ValidationError("socket activation: \(count) sockets passed; laminad listens on one")
        }
        let fd = CSYSTEMD_LISTEN_FDS_START
        guard sd_is_socket_unix(fd, Int32(SOCK_SEQPACKET.rawValue), 1, nil, 0) > 0 else {
            throw ValidationError(
                "socket activation: descriptor \(fd) is not a listening AF_UNIX SOCK_SEQPACKET socket "
                    + "(the socket unit needs ListenSequentialPacket=)")
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return SeqPacketSocket(adopting: fd)
    }
}

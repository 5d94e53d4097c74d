import CSeat
import Foundation
import Glibc
import Logging

/// The seat from a seat daemon (seatd or logind, through libseat): it opens the DRM devices for the
/// KMS output, which is then DRM master without being root, and takes the seat away on a session
/// switch.
///
/// `open` returns nil when no seat daemon seems to run (`daemonBackend`) or libseat cannot open the
/// seat; laminad then opens the devices directly as root. While the seat is disabled (`isActive`
/// false) the outputs commit nothing (frames are drawn into their buffers) and show their last frame
/// again with a mode set once it comes back.
public final class KMSSeat: @unchecked Sendable {
    /// The seat's name, such as `seat0`.
    public let name: String
    let seat: OpaquePointer
    let state: State
    let listener: UnsafeMutablePointer<libseat_seat_listener>
    let logger: Logger

    /// What the seat's callbacks change, shared with them through libseat's user data.
    final class State: @unchecked Sendable {
        let lock = NSLock()
        var active = false
        /// Enables and disables so far.
        var changes = 0
    }

    private init(
        seat: OpaquePointer, state: State, listener: UnsafeMutablePointer<libseat_seat_listener>, logger: Logger
    ) {
        self.seat = seat
        self.state = state
        self.listener = listener
        self.logger = logger
        name = libseat_seat_name(seat).map { String(cString: $0) } ?? "seat"
    }

    deinit {
        libseat_close_seat(seat)
        listener.deallocate()
        Unmanaged.passUnretained(state).release()
    }

    /// Whether the seat is this process's now (its devices usable).
    public var isActive: Bool { state.lock.withLock { state.active } }

    /// libseat's fd: readable when the seat daemon has events (`dispatch` reads them).
    public var fileDescriptor: Int32 { libseat_get_fd(seat) }

    /// The libseat backend of the seat daemon that seems to run: `LIBSEAT_BACKEND` when set, else
    /// `seatd` when its socket exists, else `logind` when logind has seats; nil when none runs.
    /// libseat's in-process `builtin` backend is never chosen unless `LIBSEAT_BACKEND` names it.
    public static var daemonBackend: String? {
        if let chosen = ProcessInfo.processInfo.environment["LIBSEAT_BACKEND"] { return chosen }
        if access("/run/seatd.sock", F_OK) == 0 { return "seatd" }
        let seats = (try? FileManager.default.contentsOfDirectory(atPath: "/run/systemd/seats")) ?? []
        return seats.isEmpty ? nil : "logind"
    }

    /// The seat, once the daemon has enabled it (waiting up to 2 s), or nil when no daemon runs or
    /// libseat cannot open the seat (logged).
    public static func open(logger: Logger) -> KMSSeat? {
        guard let backend = daemonBackend else { return nil }
        // Only that backend: libseat would otherwise go on to others (as root, its in-process seat).
        setenv("LIBSEAT_BACKEND", backend, 1)
        libseat_set_log_level(LIBSEAT_LOG_LEVEL_ERROR)
        let state = State()
        let listener = UnsafeMutablePointer<libseat_seat_listener>.allocate(capacity: 1)
        listener.initialize(
            to: libseat_seat_listener(
                enable_seat: { _, data in
                    guard let data else { return }
                    let state = Unmanaged<State>.fromOpaque(data).takeUnretainedValue()
                    state.lock.withLock {
                        state.active = true
                        state.changes += 1
                    }
                },
                disable_seat: { seat, data in
                    guard let data else { return }
                    let state = Unmanaged<State>.fromOpaque(data).takeUnretainedValue()
                    state.lock.withLock {
                        state.active = false
                        state.changes += 1
                    }
                    // Acknowledged at once: the outputs stop committing when they see the change.
                    _ = libseat_disable_seat(seat)
                }))
        let data = Unmanaged.passRetained(state).toOpaque()
        guard let seat = libseat_open_seat(listener, data) else {
            logger.warning(
                "libseat could not open the seat; opening DRM devices directly", metadata: ["errno": "\(errno)"])
            Unmanaged<State>.fromOpaque(data).release()
            listener.deallocate()
            return nil
        }
        let result = KMSSeat(seat: seat, state: state, listener: listener, logger: logger)
        let deadline = Date().addingTimeInterval(2)
        while !result.isActive && Date() < deadline {
            if libseat_dispatch(seat, 100) < 0 { break }
        }
        guard result.isActive else {
            logger.warning("the seat daemon did not enable the seat; opening DRM devices directly")
            return nil
        }
        logger.info("seat opened through libseat", metadata: ["seat": "\(result.name)"])
        return result
    }

    /// Opens the device at `path` through the seat daemon; returns its fd (non-blocking) and the
    /// seat's id for it.
    func openDevice(_ path: String) throws(KMSError) -> (fd: Int32, id: Int32) {
        var fd: Int32 = -1
        let id = libseat_open_device(seat, path, &fd)
        guard id >= 0, fd >= 0 else { throw KMSError(call: "libseat_open_device", errno: errno, detail: path) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return (fd, id)
    }

    /// Gives the device `id` back to the seat daemon.
    func closeDevice(_ id: Int32) {
        if libseat_close_device(seat, id) != 0 {
            logger.error("KMS device close failed", metadata: ["call": "libseat_close_device", "errno": "\(errno)"])
        }
    }

    /// Reads the seat daemon's events (never blocks), running the enable and disable callbacks.
    func dispatch() {
        if libseat_dispatch(seat, 0) < 0 && errno != EAGAIN {
            logger.error("libseat event read failed", metadata: ["call": "libseat_dispatch", "errno": "\(errno)"])
        }
    }

    /// How many times the seat was enabled or disabled so far, and whether it is active: each output
    /// compares the count with the one it last followed.
    var status: (generation: Int, active: Bool) { state.lock.withLock { (state.changes, state.active) } }
}

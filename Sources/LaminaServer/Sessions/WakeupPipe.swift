import Glibc
import LaminaSystem

/// A non-blocking pipe that lets any thread wake the server's poll loop.
///
/// Both ends are non-blocking, so would-block is a normal outcome here: a full pipe already holds
/// a pending wake-up, and an empty one has been drained.
final class WakeupPipe: @unchecked Sendable {
    private let reader: OwnedFD
    private let writer: OwnedFD

    /// The end the poll loop watches for `POLLIN`.
    var readEnd: Int32 { reader.rawValue }

    /// Creates the pipe; stops the process when no descriptor is left for it, as the server
    /// could not be stopped without one. The corresponding C function is `pipe2`.
    init() {
        do {
            (reader, writer) = try OwnedFD.pipe(nonBlocking: true)
        } catch {
            fatalError("cannot create the server's wake-up pipe: \(error)")
        }
    }

    /// Wakes the loop; safe from any thread and from signal handlers' dispatch sources.
    /// The corresponding C function is `write`; a full pipe (would-block) is a wake-up already pending.
    func wake() {
        var byte: UInt8 = 1
        let fd = writer.rawValue
        _ = try? nonBlockingSyscall("write") { write(fd, &byte, 1) }
    }

    /// Empties the pipe. The corresponding C function is `read`, called until it would block.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        let fd = reader.rawValue
        // Only would-block (nil) or the end of the pipe (0, impossible while `writer` lives) ends it;
        // a pipe we own has no other failure to report.
        while let count = try? nonBlockingSyscall("read", { read(fd, &buffer, buffer.count) }), count > 0 {}
    }
}

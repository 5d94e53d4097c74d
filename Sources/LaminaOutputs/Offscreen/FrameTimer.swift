import CLaminaShims
import Glibc
import LaminaServer

/// A frame clock for outputs whose hardware does not say when a refresh comes: a timer fd on
/// `CLOCK_MONOTONIC` (the media clock), armed for the refresh the server asks for.
///
/// `arm(at:)` sets it; when it expires its descriptor becomes readable and `take()` returns the
/// refresh's `FrameEvent`. Used on the server loop's thread only. The descriptor is closed in `deinit`.
public final class FrameTimer {
    /// The timer's descriptor (`timerfd_create`, non-blocking).
    public let fileDescriptor: Int32
    /// The refresh the timer is armed for, reported when it expires.
    var armedTime: Double?

    /// Creates a disarmed timer; throws `OffscreenOutputError` naming `timerfd_create` if that fails.
    public init() throws {
        fileDescriptor = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fileDescriptor >= 0 else { throw OffscreenOutputError(call: "timerfd_create", errno: errno) }
    }

    deinit {
        close(fileDescriptor)
    }

    /// Arms the timer to expire at media time `time` (at once when it has passed), replacing an
    /// earlier request.
    public func arm(at time: Double) {
        armedTime = time
        // Round up to the next nanosecond, so the clock reads at least `time` when the timer fires;
        // a zero it_value would disarm the timer, so the earliest is 1 ns.
        let nanoseconds = max(1, (max(0, time) * 1e9).rounded(.up))
        var spec = itimerspec()
        spec.it_value = timespec(
            tv_sec: Int(nanoseconds / 1e9),
            tv_nsec: Int(nanoseconds.truncatingRemainder(dividingBy: 1e9)))
        // Cannot fail with a valid fd and a normalised absolute time.
        let result = timerfd_settime(fileDescriptor, Int32(TFD_TIMER_ABSTIME), &spec, nil)
        precondition(result == 0, "timerfd_settime failed: errno \(errno)")
    }

    /// Reads the timer without blocking: the event for the refresh it was armed for when it has
    /// expired, else none.
    public func take() -> [FrameEvent] {
        var expirations: UInt64 = 0
        let count = read(fileDescriptor, &expirations, MemoryLayout<UInt64>.size)
        guard count == MemoryLayout<UInt64>.size, let time = armedTime else { return [] }
        armedTime = nil
        return [FrameEvent(time: time)]
    }
}

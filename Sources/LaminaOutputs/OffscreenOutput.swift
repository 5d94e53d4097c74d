import CLaminaShims
import Glibc
import LaminaServer

/// An output with no screen: frames are drawn into an offscreen image, which captures read back.
///
/// Selected by `--output offscreen:WIDTHxHEIGHT@HZ`. Its frame clock is a timer fd on
/// `CLOCK_MONOTONIC` (the media clock): `requestFrame(at:)` arms it for that refresh, and when it
/// expires the server's poll loop finds the fd readable and `handleEvents()` returns the refresh's
/// `FrameEvent`. Owns two images on its renderer: the visible one `present` draws into and a
/// scratch one for captures. The timer is the loop's (`requestFrame`, `handleEvents`), the images the
/// frame worker's (`present`, `capture`), so the two never touch the same state.
public final class OffscreenOutput: Output {
    /// The output's size and refresh rate.
    public let mode: DisplayMode
    let renderer: any Renderer
    let visible: any RenderTarget
    let scratch: any RenderTarget
    /// The frame timer (`timerfd_create`), closed in `deinit`.
    let timer: Int32
    /// The refresh the timer is armed for, reported when it expires.
    var armedTime: Double?

    /// Creates the output's images on `renderer` and its frame timer.
    public init(mode: DisplayMode, renderer: any Renderer) throws {
        self.mode = mode
        self.renderer = renderer
        visible = try renderer.makeTarget(width: mode.width, height: mode.height)
        scratch = try renderer.makeTarget(width: mode.width, height: mode.height)
        timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard timer >= 0 else { throw OffscreenOutputError(call: "timerfd_create", errno: errno) }
    }

    deinit {
        close(timer)
    }

    /// The frame timer.
    public var eventFileDescriptor: Int32? { timer }

    /// Arms the frame timer to expire at media time `time` (at once when it has passed).
    public func requestFrame(at time: Double) {
        armedTime = time
        // Round up to the next nanosecond, so the clock reads at least `time` when the timer fires;
        // a zero it_value would disarm the timer, so the earliest is 1 ns.
        let nanoseconds = max(1, (max(0, time) * 1e9).rounded(.up))
        var spec = itimerspec()
        spec.it_value = timespec(
            tv_sec: Int(nanoseconds / 1e9),
            tv_nsec: Int(nanoseconds.truncatingRemainder(dividingBy: 1e9)))
        // Cannot fail with a valid fd and a normalised absolute time.
        let result = timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &spec, nil)
        precondition(result == 0, "timerfd_settime failed: errno \(errno)")
    }

    /// Reads the expired timer and returns the event for the refresh it was armed for.
    public func handleEvents() -> [FrameEvent] {
        var expirations: UInt64 = 0
        let count = read(timer, &expirations, MemoryLayout<UInt64>.size)
        guard count == MemoryLayout<UInt64>.size, let time = armedTime else { return [] }
        armedTime = nil
        return [FrameEvent(time: time)]
    }

    /// Renders `list` into the visible image, waiting for the renderer to finish.
    public func present(_ list: DisplayList) throws {
        try renderer.render(list, into: visible)
    }

    /// Renders `list` into the scratch image and reads it back.
    public func capture(_ list: DisplayList) throws -> Bitmap {
        try renderer.render(list, into: scratch)
        return try renderer.readPixels(scratch)
    }

    /// The last presented frame's pixels.
    public func readPresented() throws -> Bitmap {
        try renderer.readPixels(visible)
    }
}

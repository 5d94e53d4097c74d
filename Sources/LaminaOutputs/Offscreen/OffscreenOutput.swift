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
    /// The frame clock.
    let timer: FrameTimer

    /// "offscreen": displays of this output are named `offscreen-N`.
    public var kind: String { "offscreen" }

    /// Creates the output's images on `renderer` and its frame timer.
    public init(mode: DisplayMode, renderer: any Renderer) throws {
        self.mode = mode
        self.renderer = renderer
        visible = try renderer.makeTarget(width: mode.width, height: mode.height)
        scratch = try renderer.makeTarget(width: mode.width, height: mode.height)
        timer = try FrameTimer()
    }

    /// The frame timer.
    public var eventFileDescriptor: Int32? { timer.fileDescriptor }

    /// Arms the frame timer to expire at media time `time` (at once when it has passed).
    public func requestFrame(at time: Double) {
        timer.arm(at: time)
    }

    /// Reads the expired timer and returns the event for the refresh it was armed for.
    public func handleEvents() -> [FrameEvent] {
        timer.take()
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

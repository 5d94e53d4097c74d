import LaminaServer

/// An output without a screen or an event source, for in-process server tests: the server's clock
/// drives its frames (a `ManualClock` in tests), and it draws with any renderer (a
/// `RecordingRenderer` needs no GPU) into a visible and a scratch target it owns, like
/// `OffscreenOutput`. It records every list presented.
///
/// Drawn to on the server's frame worker only (`present`, `capture`); read `presented` once the
/// server is idle.
public final class NullOutput: Output {
    /// The mode the output reports.
    public let mode: DisplayMode
    /// The renderer that draws into the output's targets.
    public let renderer: any Renderer
    /// The target `present` draws into.
    public let visible: any RenderTarget
    /// The target `capture` draws into.
    public let scratch: any RenderTarget
    /// Every list presented successfully, oldest first.
    public private(set) var presented: [DisplayList] = []
    /// How many of the next `present` calls throw `NullOutputError.presentFailed` (to test retries).
    public var failingPresents = 0
    /// Set to make the output report itself closed (`Output.isClosed`), as a window that was closed
    /// does; the server reads it on its loop's thread, so set it there (the test's thread).
    public var isClosed = false

    /// What the output says it is attached to (`Output.attachment`): nil unless set. Two outputs
    /// with the same value stand for one connector plugged in twice.
    public var attachment: String?

    /// "null": displays of this output are named `null-N`.
    public var kind: String { "null" }

    /// An output of `mode` drawing with `renderer` (by default a new `RecordingRenderer`), attached
    /// to `attachment` when given.
    public init(mode: DisplayMode, renderer: any Renderer = RecordingRenderer(), attachment: String? = nil) throws {
        self.mode = mode
        self.attachment = attachment
        self.renderer = renderer
        visible = try renderer.makeTarget(width: mode.width, height: mode.height)
        scratch = try renderer.makeTarget(width: mode.width, height: mode.height)
    }

    /// Draws `list` into the visible target and records it, or throws while `failingPresents` > 0.
    public func present(_ list: DisplayList) throws {
        if failingPresents > 0 {
            failingPresents -= 1
            throw NullOutputError.presentFailed
        }
        try renderer.render(list, into: visible)
        presented.append(list)
    }

    /// Draws `list` into the scratch target and reads it back.
    public func capture(_ list: DisplayList) throws -> Bitmap {
        try renderer.render(list, into: scratch)
        return try renderer.readPixels(scratch)
    }
}

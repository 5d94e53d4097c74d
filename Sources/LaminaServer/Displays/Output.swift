import LaminaCore

/// Where one display's frames go: an offscreen image, a KMS plane, a window.
///
/// `present` and `capture` are called on the server's frame worker, one at a time; `mode` and the
/// event source (`eventFileDescriptor`, `requestFrame(at:)`, `handleEvents()`) on the loop's thread,
/// possibly while a frame is being drawn. An output keeps the state of the two sides apart, or
/// guards what they share. `mode`, `present` and `capture` are mandatory; the event source is
/// optional, and its default is none.
///
/// - With an event source, the output says when a refresh comes: the server calls
///   `requestFrame(at:)` with the media time of the refresh it wants, watches `eventFileDescriptor`
///   in its poll loop, calls `handleEvents()` when it is readable, and presents on the `FrameEvent`
///   it gets (a timer fd offscreen; later page flips on KMS, presentation feedback in a window).
///   Event times are on the server clock's timeline (`CLOCK_MONOTONIC` for the system clock).
///   Its events may also say that the visible frame was lost (`takeRedrawRequest()`, a window that
///   was exposed): the display then gets a frame though nothing on it changed.
/// - Without one, the server's own clock is the frame clock: a frame is presented once the clock
///   reaches its time on the refresh grid (what in-process tests use with a manual clock).
///
/// The output owns the buffers the renderer draws into (for example the visible image and a
/// scratch image for captures) and frees them when it is released.
public protocol Output: AnyObject {
    /// The output's current mode: its size in pixels and refresh rate.
    var mode: DisplayMode { get }

    /// A file descriptor that becomes readable when the output has frame events, or nil when the
    /// server's clock drives this output's frames. Owned by the output; the server only polls it.
    var eventFileDescriptor: Int32? { get }

    /// Asks for a `FrameEvent` at the refresh at media time `time` (in the past: as soon as
    /// possible). A later request replaces an earlier one that has not been delivered.
    func requestFrame(at time: Double)

    /// Reads what made `eventFileDescriptor` readable and returns the frame events it carried, oldest
    /// first (possibly none). Never blocks.
    func handleEvents() -> [FrameEvent]

    /// Returns whether the output's visible frame was lost since the last call, and forgets it: a
    /// window was exposed (uncovered, un-minimised) or resized, and the pixels the last `present` put
    /// there are gone. The server reads it on the loop's thread right after each `handleEvents()` and
    /// then presents a frame at the next refresh, even when nothing shown on the display changed.
    /// Outputs whose frames cannot be lost (offscreen, KMS) keep the default, which is false.
    func takeRedrawRequest() -> Bool

    /// Draws `list` and makes it the visible frame. Mandatory.
    ///
    /// When it returns without throwing, the frame is shown from the refresh at the frame's time (the
    /// time the list was built for) until the next successful `present`. When it throws, the
    /// visible frame is unchanged and the server tries again at the next refresh.
    func present(_ list: DisplayList) throws

    /// Draws `list` off to the side and returns its pixels; the visible frame is unchanged. Mandatory.
    func capture(_ list: DisplayList) throws -> Bitmap

    /// Whether the output has gone for good (its window was closed, its KMS connector unplugged). The
    /// server reads it on the loop's thread after `handleEvents()` and its watched descriptors' handlers;
    /// once it is true the display gets no more frames, its event source is no longer watched, and
    /// captures of it fail, while the other displays go on.
    var isClosed: Bool { get }

    /// The kind of output, the first part of its display's name (`offscreen-0`, `window-1`): a
    /// short lowercase word.
    var kind: String { get }

    /// Where the output's pixels go, as clients are told (`DisplayInfo.connector`): the X server
    /// of a window, a connector's name on KMS; empty offscreen.
    var connector: String { get }

    /// What the output is attached to, the same each time it is attached again: a KMS device's
    /// path and connector name (`/dev/dri/card1 Virtual-1`); nil when the output has no such
    /// identity (offscreen, a window).
    ///
    /// The server reads it on the loop's thread when the output is added while running
    /// (`Server.addOutput`): an output attached where a closed display's output was takes that
    /// display's number again, so the trees clients show on that number appear on it with no commit.
    var attachment: String? { get }
}

extension Output {
    /// No event source: the server's clock drives this output.
    public var eventFileDescriptor: Int32? { nil }

    /// Nothing to arm: the server's clock drives this output.
    public func requestFrame(at time: Double) {}

    /// No events: the server's clock drives this output.
    public func handleEvents() -> [FrameEvent] { [] }

    /// False: the visible frame stays until the next `present`.
    public func takeRedrawRequest() -> Bool { false }

    /// Never closed: the output lasts as long as the server.
    public var isClosed: Bool { false }

    /// "output", for outputs that do not name their kind.
    public var kind: String { "output" }

    /// None: the pixels go nowhere a client could name.
    public var connector: String { "" }

    /// None: a new output of this kind is never the same display as an earlier one.
    public var attachment: String? { nil }
}

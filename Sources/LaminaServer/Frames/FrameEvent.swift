/// An output's signal that a refresh has come: a frame presented now is shown at `time`.
///
/// Returned by `Output.handleEvents()`. The server presents a display's pending frame on the first
/// event at or near (within half a refresh of) the time that frame was scheduled for, and draws the
/// frame for the event's time (a KMS page flip's refresh, not necessarily a tick of the server's
/// grid); events for refreshes it no longer waits for are ignored.
public struct FrameEvent: Sendable, Hashable {
    /// The media time of the refresh, on the server clock's timeline.
    public var time: Double

    /// An event for the refresh at media time `time`.
    public init(time: Double) {
        self.time = time
    }
}

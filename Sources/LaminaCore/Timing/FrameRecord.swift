import Foundation

/// What one presented frame of a display cost: its counters and times, as `laminactl frames` and
/// `CAContext.frameRecords(display:count:)` report them. A Linux addition.
///
/// The counters do not depend on the machine's speed, so tests assert them; the times do, so only
/// benchmarks and people read them.
public struct FrameRecord: Sendable, Hashable {
    /// The media time the frame was drawn for (the refresh it is shown at).
    public var time: Double
    /// The display's number.
    public var display: UInt32
    /// The layers the display list builder walked (every tree shown on the display, hosted trees
    /// and transition snapshots included).
    public var layersVisited: Int
    /// The instances (fills, corners, shapes, images) the frame's display list holds.
    public var instancesEmitted: Int
    /// The pixels the renderer drew: the whole display for a full redraw.
    public var pixelsDrawn: Int
    /// The display's pixel count (width × height).
    public var displayPixels: Int
    /// The offscreen passes the frame drew before the display's own pass.
    public var offscreenPasses: Int
    /// CPU time on the frame worker: evaluating animations, building the display list, recording
    /// and submitting the GPU work, in milliseconds.
    public var cpuMilliseconds: Double
    /// GPU time of the frame's passes in milliseconds, where the device has timestamp queries and
    /// the renderer reports them; nil otherwise.
    public var gpuMilliseconds: Double?
    /// Whether the frame missed its refresh: it started for a later refresh than it was scheduled
    /// for, or was presented after its refresh had passed.
    public var missedDeadline: Bool

    /// Creates a record.
    public init(
        time: Double, display: UInt32, layersVisited: Int, instancesEmitted: Int, pixelsDrawn: Int, displayPixels: Int,
        offscreenPasses: Int, cpuMilliseconds: Double, gpuMilliseconds: Double?, missedDeadline: Bool
    ) {
        self.time = time
        self.display = display
        self.layersVisited = layersVisited
        self.instancesEmitted = instancesEmitted
        self.pixelsDrawn = pixelsDrawn
        self.displayPixels = displayPixels
        self.offscreenPasses = offscreenPasses
        self.cpuMilliseconds = cpuMilliseconds
        self.gpuMilliseconds = gpuMilliseconds
        self.missedDeadline = missedDeadline
    }
}

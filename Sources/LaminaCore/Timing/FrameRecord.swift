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
    /// The offscreen passes the frame's display list holds (drawn before the display's own pass, or
    /// kept from an earlier frame).
    public var offscreenPasses: Int
    /// Of `offscreenPasses`, those the renderer did not draw: their content was the same as a pass an
    /// earlier frame drew, whose image it kept (docs/rendering.md, "Kept passes").
    public var offscreenPassesKept: Int
    /// Rasterized layers (`shouldRasterize`) shown from their kept image: raster cache hits.
    public var rasterCacheHits: Int
    /// Rasterized layers drawn into their image again: raster cache misses.
    public var rasterCacheMisses: Int
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
        offscreenPasses: Int, cpuMilliseconds: Double, gpuMilliseconds: Double?, missedDeadline: Bool,
        offscreenPassesKept: Int = 0, rasterCacheHits: Int = 0, rasterCacheMisses: Int = 0
    ) {
        self.time = time
        self.display = display
        self.layersVisited = layersVisited
        self.instancesEmitted = instancesEmitted
        self.pixelsDrawn = pixelsDrawn
        self.displayPixels = displayPixels
        self.offscreenPasses = offscreenPasses
        self.offscreenPassesKept = offscreenPassesKept
        self.rasterCacheHits = rasterCacheHits
        self.rasterCacheMisses = rasterCacheMisses
        self.cpuMilliseconds = cpuMilliseconds
        self.gpuMilliseconds = gpuMilliseconds
        self.missedDeadline = missedDeadline
    }
}

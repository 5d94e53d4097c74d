/// What a renderer's last `render(_:into:)` did with the list's offscreen passes: how many it drew and
/// how many it kept from an earlier frame without drawing them (docs/rendering.md, "Kept passes").
/// Counters, not times: tests assert them.
public struct RenderCounters: Sendable, Hashable {
    /// Passes drawn into their images this frame.
    public var passesDrawn = 0
    /// Passes whose image an earlier frame drew with the same content key, kept and not drawn.
    public var passesKept = 0
    /// Rasterized layers (`shouldRasterize`) whose kept image was shown: raster cache hits.
    public var rasterHits = 0
    /// Rasterized layers drawn again: raster cache misses.
    public var rasterMisses = 0

    /// Counters of a frame that drew no pass.
    public init() {}

    /// Counters with every value given.
    public init(passesDrawn: Int, passesKept: Int, rasterHits: Int, rasterMisses: Int) {
        self.passesDrawn = passesDrawn
        self.passesKept = passesKept
        self.rasterHits = rasterHits
        self.rasterMisses = rasterMisses
    }
}

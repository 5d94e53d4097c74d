import Foundation

/// A layer drawn a tile at a time, as the display needs them: Core Animation's `CATiledLayer`.
///
/// The layer has no backing store of its own. The render server says which part of the layer a
/// display shows and at what scale (`tiledLayerView`, after each presented frame that shows it
/// otherwise); the layer then draws the tiles that cover that part and are not drawn yet, on
/// background threads, several at once: each gets a context of `tileSize` pixels (smaller at the
/// bounds' edges) whose clip is the tile, so `boundingBoxOfClipPath` gives the tile's rectangle in
/// the layer's coordinates, and `draw(in:)` (by default the delegate's `draw(_:in:)`) draws into
/// it. A drawn tile fades in over the class's `fadeDuration()`. Tiles far from what is shown are
/// dropped once the layer's tiles exceed `tileMemoryBudget` bytes. Since no tile is larger than
/// `tileSize`, a tiled layer may be larger than the largest image the device can sample.
///
/// `setNeedsDisplay()` redraws every drawn tile, `setNeedsDisplay(_:)` those that meet the
/// rectangle; the tiles on screen stay until their new drawing replaces them.
open class CATiledLayer: CALayer {
    /// The drawn tiles and the drawing in progress.
    let tileStore = TileStore()

    /// The size of a tile in pixels: 256 × 256 by default (Core Animation's default). A tile covers
    /// `tileSize / (contentsScale × level scale)` points of the layer.
    open var tileSize: CGSize {
        get { (kvcValue(forKey: "tileSize") as? CGSize) ?? CGSize(width: 256, height: 256) }
        set {
            kvcSetValue(newValue, forKey: "tileSize")
            setNeedsDisplay()
        }
    }

    /// How many levels of detail the layer draws: 1 by default. Level *k* (0 ≤ *k* <
    /// `levelsOfDetail`) draws at `2^(levelsOfDetailBias − k)` times `contentsScale`; the layer draws
    /// the level closest above the scale it is shown at.
    open var levelsOfDetail: Int {
        get { (kvcValue(forKey: "levelsOfDetail") as? Int) ?? 1 }
        set { kvcSetValue(newValue, forKey: "levelsOfDetail") }
    }

    /// How many of the levels magnify (draw at more than `contentsScale`): 0 by default.
    open var levelsOfDetailBias: Int {
        get { (kvcValue(forKey: "levelsOfDetailBias") as? Int) ?? 0 }
        set { kvcSetValue(newValue, forKey: "levelsOfDetailBias") }
    }

    /// The time a newly drawn tile takes to fade in: 0.25 s (Core Animation's documented default).
    /// A subclass may return another time; 0 shows tiles at once.
    open class func fadeDuration() -> CFTimeInterval { 0.25 }

    /// The bytes of tile images the layer keeps before it drops the tiles farthest from what is
    /// shown: 64 MiB (about 1,000 tiles of 256 × 256) by default. Lamina's own (Apple's layer keeps
    /// its budget to itself); the tiles a view shows are kept whatever the budget.
    public var tileMemoryBudget: Int {
        get {
            CATransaction.lock()
            defer { CATransaction.unlock() }
            return tileStore.budget
        }
        set {
            CATransaction.lock()
            tileStore.budget = max(0, newValue)
            CATransaction.unlock()
            requestTiles()
        }
    }

    /// Marks the tiles for drawing again (every drawn tile, or those that meet the rectangle
    /// `setNeedsDisplay(_:)` named) and draws those that are shown; the layer gets no backing store.
    open override func display() {
        let dirty = displayState.needsDisplay ? displayState.dirtyRect : nil
        displayState.needsDisplay = false
        displayState.dirtyRect = nil
        tileStore.invalidate(dirty)
        requestTiles()
    }

    /// The tiled layer's own keys: `tileSize` 256 × 256, `levelsOfDetail` 1, `levelsOfDetailBias` 0
    /// (Core Animation's defaults); else the layer's defaults.
    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "tileSize": CGSize(width: 256, height: 256)
        case "levelsOfDetail": 1
        case "levelsOfDetailBias": 0
        default: super.defaultValue(forKey: key)
        }
    }
}

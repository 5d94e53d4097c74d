/// A part of a frame drawn into an image of its own before the display's pass, and then drawn in
/// the pass that uses it as a textured rectangle (docs/rendering.md, "Offscreen passes").
///
/// A pass covers `rect`, whole device pixels: its instances are in device pixels like every other
/// instance of the list (they live in the list's `instances`), and a renderer maps that rectangle
/// onto its image, which starts transparent. Its batches may sample passes listed before it (a
/// masked layer inside a faded group), so `DisplayList.passes` is in drawing order. A batch that
/// shows the pass samples `image` (`RenderImageID.offscreenPass(_:)`).
public struct OffscreenPass: Sendable, Equatable {
    /// The device pixels the pass covers: x, y, width and height (width and height at least 1).
    public var rect: DamageRect
    /// The batches drawn into the pass, in order.
    public var batches: [DrawBatch]
    /// The id under which batches sample the pass's image.
    public var image: RenderImageID
    /// Device pixels per texel of the pass's image along each axis: 1, or a power of two for the
    /// downsampled passes of a wide blur (`DisplayList.appendBlur`), whose image is `rect` divided by it
    /// (rounded up) and whose rectangle's corner and size are multiples of it.
    public var scale: Int
    /// The size of the space the pass's instances are in, when it is not the display's: the canvas of
    /// a rasterized layer (`shouldRasterize`, `DisplayListBuilder+Rasterize.swift`), whose instances are
    /// in the layer's own space at `rasterizationScale`. A renderer maps this space as it maps the
    /// display's for the others. nil for every other pass.
    public var canvas: SIMD2<Int>?
    /// Whether the pass's instances are placed on its own texels rather than on device pixels: the
    /// display's rectangle (0, 0, display width, display height) is stretched over the whole image, as
    /// for blur passes. A pass that combines images side by side (`DisplayListBuilder+Compositing.swift`)
    /// may be wider than the display, which device pixels could not reach.
    public var mapsOwnTexels: Bool

    /// A pass over `rect` drawing `batches`, sampled as `image`, with `scale` device pixels per texel,
    /// in the display's space or, for a rasterized layer, on `canvas`; `mapsOwnTexels` places its
    /// instances on its own texels.
    public init(
        rect: DamageRect, batches: [DrawBatch], image: RenderImageID, scale: Int = 1, canvas: SIMD2<Int>? = nil,
        mapsOwnTexels: Bool = false
    ) {
        self.rect = rect
        self.batches = batches
        self.image = image
        self.scale = max(1, scale)
        self.canvas = canvas
        self.mapsOwnTexels = mapsOwnTexels
    }

    /// Whether the pass is a rasterized layer's image (`shouldRasterize`), which a renderer counts
    /// apart (`RenderCounters.rasterHits`).
    public var isRaster: Bool { canvas != nil }

    /// The width and height of the pass's image in texels.
    public var texels: (width: Int, height: Int) {
        ((rect.width + scale - 1) / scale, (rect.height + scale - 1) / scale)
    }
}

extension RenderImageID {
    /// The top bit marks the ids of offscreen passes: a renderer never hands it out for an import.
    static let passBit: UInt64 = 1 << 63

    /// The id under which batches sample the image of pass `index` of a display list.
    public static func offscreenPass(_ index: Int) -> RenderImageID {
        RenderImageID(rawValue: passBit | UInt64(index))
    }

    /// The index of the pass this id names, or nil for an imported image.
    public var offscreenPassIndex: Int? {
        rawValue & Self.passBit != 0 ? Int(truncatingIfNeeded: rawValue & ~Self.passBit) : nil
    }
}

import Foundation
import LaminaCore

/// The shape rasters the renderer holds, by what they show (`ShapeRasterKey`), within a memory
/// budget: the least recently used rasters are given back first.
///
/// A raster is made on first use: `ShapeRasterizer` draws it with Cairo and the renderer imports it
/// as an image, which the display list then draws like contents. Used on the frame worker's thread
/// only (the display-list builder asks it for rasters; the worker calls `endFrame()` after each
/// list is built). Eviction happens only in `endFrame()`, and never to a raster the frame just built
/// uses, so an image is never released while a list being drawn names it; the renderer frees a
/// released image once no frame in flight uses it.
public final class ShapeRasterCache {
    /// The most texture bytes (4 per pixel) the cache keeps between frames.
    public let budgetBytes: Int
    /// The most texture bytes one frame's shapes may use; shapes past it are not drawn in that frame.
    public let frameBudgetBytes: Int
    /// The renderer that imports and frees the rasters.
    let renderer: any Renderer

    struct Entry {
        var image: ContentsImage
        var bytes: Int
        var lastFrame: UInt64
    }

    private var entries: [ShapeRasterKey: Entry] = [:]
    /// Each shape's extent in its layer (`ShapeRasterizer.extent(of:)`), measured once per shape; nil
    /// inside for a shape that paints nothing. Emptied when it holds more than `maxExtents`.
    private var extents: [ShapeLayerState: CGRect?] = [:]
    /// The most shapes whose extents are kept.
    static let maxExtents = 4096
    private var frame: UInt64 = 1
    private var frameBytes = 0
    /// Texture bytes of the rasters held now.
    public private(set) var totalBytes = 0
    /// Rasters drawn with Cairo since the cache was made (for tests and benchmarks).
    public private(set) var rasterizations = 0

    /// A cache that imports rasters with `renderer`, keeping at most `budgetBytes` between frames and
    /// using at most `frameBudgetBytes` in one frame.
    public init(renderer: any Renderer, budgetBytes: Int = 64 << 20, frameBudgetBytes: Int = 256 << 20) {
        self.renderer = renderer
        self.budgetBytes = budgetBytes
        self.frameBudgetBytes = frameBudgetBytes
    }

    /// The number of rasters held.
    public var count: Int { entries.count }

    /// The rectangle in its layer that `shape` paints, or nil when it paints nothing (measured once
    /// per shape while it stays in use).
    func extent(of shape: ShapeLayerState) -> CGRect? {
        if let known = extents[shape] { return known }
        if extents.count >= Self.maxExtents { extents.removeAll(keepingCapacity: true) }
        let measured = ShapeRasterizer.extent(of: shape)
        extents[shape] = .some(measured)
        return measured
    }

    /// The raster for `key`, drawn and imported now when it is not held; nil when the frame's budget
    /// is spent or the renderer refuses the image.
    func raster(for key: ShapeRasterKey, transform: CGAffineTransform) -> ContentsImage? {
        if var entry = entries[key] {
            if entry.lastFrame != frame {
                guard frameBytes + entry.bytes <= frameBudgetBytes else { return nil }
                frameBytes += entry.bytes
                entry.lastFrame = frame
                entries[key] = entry
            }
            return entry.image
        }
        let (width, height) = (key.size.x, key.size.y)
        let bytes = width * height * 4
        guard width > 0, height > 0, frameBytes + bytes <= frameBudgetBytes else { return nil }
        var pixels = ShapeRasterizer.draw(key.shape, transform: transform, width: width, height: height)
        if key.blur > 0 {
            pixels = ShadowBlur.blurred(
                pixels, width: width, height: height, sigma: key.blur, color: key.shape.fillColor ?? .black)
        }
        rasterizations += 1
        guard
            let image = try? renderer.importImage(
                ImagePixels(width: width, height: height, stride: width * 4, source: .host(pixels)),
                filtering: .linear)
        else { return nil }
        let contents = ContentsImage(image: image, width: width, height: height)
        entries[key] = Entry(image: contents, bytes: bytes, lastFrame: frame)
        frameBytes += bytes
        totalBytes += bytes
        return contents
    }

    /// Ends a frame: gives back the least recently used rasters not used by it until the rest fit the
    /// budget.
    public func endFrame() {
        if totalBytes > budgetBytes {
            let old = entries.filter { $0.value.lastFrame != frame }.sorted { $0.value.lastFrame < $1.value.lastFrame }
            for (key, entry) in old {
                guard totalBytes > budgetBytes else { break }
                try? renderer.releaseImage(entry.image.image)
                entries[key] = nil
                totalBytes -= entry.bytes
            }
        }
        frame += 1
        frameBytes = 0
    }

    /// Gives back every raster (when the renderer goes away).
    public func removeAll() {
        for entry in entries.values { try? renderer.releaseImage(entry.image.image) }
        entries.removeAll()
        totalBytes = 0
    }
}

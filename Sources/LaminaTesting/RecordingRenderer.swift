import LaminaCore
import LaminaServer

/// A renderer without a GPU for in-process server tests: it records every list it is asked to draw,
/// and "draws" only the clear colour and the fills (blended premultiplied "over"), so a read-back
/// shows where plain rectangles landed. Corners and shapes are recorded but not drawn.
///
/// Used from one thread at a time (the server's frame worker), like any renderer.
public final class RecordingRenderer: Renderer {
    /// One `render` call: the list and the target it was drawn into.
    public struct Render {
        /// The display list drawn.
        public var list: DisplayList
        /// The target it was drawn into.
        public var target: RecordingTarget
    }

    /// Every `render` call so far, oldest first.
    public private(set) var renders: [Render] = []
    /// Targets made so far, in order.
    public private(set) var targets: [RecordingTarget] = []
    /// The images imported and not yet released, with their size and filtering.
    public private(set) var images: [RenderImageID: (width: Int, height: Int, filtering: ImageFiltering)] = [:]
    private var nextImage: UInt64 = 1
    /// How many times each surface image was refreshed (`refreshSurface`).
    public private(set) var surfaceRefreshes: [RenderImageID: Int] = [:]

    /// A renderer with nothing recorded.
    public init() {}

    /// "Recording renderer".
    public var deviceName: String { "Recording renderer" }

    /// Makes a target holding `width`×`height` pixels of zero.
    public func makeTarget(width: Int, height: Int) throws -> any RenderTarget {
        let target = RecordingTarget(width: width, height: height)
        targets.append(target)
        return target
    }

    /// Records the call, then fills the target with the clear colour and blends each fill over it.
    public func render(_ list: DisplayList, into target: any RenderTarget) throws {
        guard let target = target as? RecordingTarget else { throw RecordingRendererError.foreignTarget }
        renders.append(Render(list: list, target: target))
        target.draw(list)
    }

    /// The target's pixels.
    public func readPixels(_ target: any RenderTarget) throws -> Bitmap {
        guard let target = target as? RecordingTarget else { throw RecordingRendererError.foreignTarget }
        return target.bitmap
    }

    /// Records the image's size and filtering after the same validation a GPU renderer makes (with a
    /// 16,384-texel limit a side); no pixels are kept.
    public func importImage(_ pixels: ImagePixels, filtering: ImageFiltering) throws -> RenderImageID {
        try pixels.validate(maximumDimension: 16384)
        let id = RenderImageID(rawValue: nextImage)
        nextImage += 1
        images[id] = (pixels.width, pixels.height, filtering)
        return id
    }

    /// Forgets the image; throws `RenderImageError.unknownImage` for one that is not alive.
    public func releaseImage(_ image: RenderImageID) throws {
        guard images.removeValue(forKey: image) != nil else { throw RenderImageError.unknownImage(image) }
    }

    /// Records the surface as an image of its size (filtered as a single-level image), after the same
    /// validation as `importImage`; no pixels are read, so it counts as zero copy.
    public func importSurface(_ surface: SurfacePixels) throws -> ImportedSurface {
        // An NV12 surface is recorded as BGRA pixels of its size (its planes were checked by the session).
        let pixels =
            surface.yCbCr == nil
            ? surface.pixels
            : ImagePixels(
                width: surface.width, height: surface.height, stride: surface.width * 4,
                source: .host([UInt8](repeating: 0, count: surface.width * surface.height * 4)))
        let image = try importImage(pixels, filtering: .linear)
        return ImportedSurface(image: image, isZeroCopy: true, bytesCopied: 0)
    }

    /// Counts a new frame of a surface (`surfaceRefreshes`); copies nothing.
    public func refreshSurface(_ image: RenderImageID) throws -> Int {
        guard images[image] != nil else { throw RenderImageError.unknownImage(image) }
        surfaceRefreshes[image, default: 0] += 1
        return 0
    }

    /// A new target of the image's size (its pixels start at zero: imported pixels are not kept).
    public func makeTarget(drawingInto image: RenderImageID) throws -> any RenderTarget {
        guard let info = images[image] else { throw RenderImageError.unknownImage(image) }
        if info.filtering == .mipmapped { throw RenderImageError.mipmapped(image) }
        return try makeTarget(width: info.width, height: info.height)
    }
}

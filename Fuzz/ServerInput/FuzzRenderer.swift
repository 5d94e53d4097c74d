import LaminaCore
import LaminaServer

/// A renderer that imports images by id only, for the harness's shape rasters: the rasterization is
/// what is fuzzed, not the GPU.
final class FuzzRenderer: Renderer {
    private var next: UInt64 = 1
    private var live: Set<UInt64> = []

    struct NoTargets: Error {}

    var deviceName: String { "fuzz" }
    func makeTarget(width: Int, height: Int) throws -> any RenderTarget { throw NoTargets() }
    func makeTarget(drawingInto image: RenderImageID) throws -> any RenderTarget { throw NoTargets() }
    func render(_ list: DisplayList, into target: any RenderTarget) throws { throw NoTargets() }
    func readPixels(_ target: any RenderTarget) throws -> Bitmap { throw NoTargets() }

    func importImage(_ pixels: ImagePixels, filtering: ImageFiltering) throws -> RenderImageID {
        try pixels.validate(maximumDimension: 16384)
        next += 1
        live.insert(next)
        return RenderImageID(rawValue: next)
    }

    func importSurface(_ surface: SurfacePixels) throws -> ImportedSurface {
        next += 1
        live.insert(next)
        return ImportedSurface(image: RenderImageID(rawValue: next), isZeroCopy: true, bytesCopied: 0)
    }

    func refreshSurface(_ image: RenderImageID) throws -> Int {
        guard live.contains(image.rawValue) else { throw RenderImageError.unknownImage(image) }
        return 0
    }

    func releaseImage(_ image: RenderImageID) throws {
        guard live.remove(image.rawValue) != nil else { throw RenderImageError.unknownImage(image) }
    }
}

import LaminaProtocol

/// A client's shared surface as the renderer imports it: `height` rows of `width` BGRA8 premultiplied
/// pixels, `stride` bytes apart from the start of `memory`, which the client keeps writing.
///
/// The mapping is read-only and lives as long as this value's `memory` does: the renderer keeps it
/// until the last frame that sampled the surface has finished (docs/architecture.md, "GPU lifetimes").
public struct SurfacePixels: @unchecked Sendable {
    /// The client's memfd, mapped read-only once.
    public var memory: SurfaceMemory
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bytes from the start of one row to the next (of the luma plane for a YCbCr surface).
    public var stride: Int
    /// For an NV12 surface, its planes and conversion (checked against `memory` by the session);
    /// nil for BGRA.
    public var yCbCr: SurfaceYCbCr?

    /// Describes the rows of `memory`, BGRA or, with `yCbCr`, NV12.
    public init(memory: SurfaceMemory, width: Int, height: Int, stride: Int, yCbCr: SurfaceYCbCr? = nil) {
        self.memory = memory
        self.width = width
        self.height = height
        self.stride = stride
        self.yCbCr = yCbCr
    }

    /// The surface's rows as pixels to copy (the copy path and `ImagePixels.validate`).
    public var pixels: ImagePixels {
        ImagePixels(width: width, height: height, stride: stride, source: .surface(memory))
    }
}

/// What `Renderer.importSurface(_:)` made of a surface.
public struct ImportedSurface: Sendable, Hashable {
    /// The image layers showing the surface sample.
    public var image: RenderImageID
    /// Whether that image samples the client's memory in place (a new frame of the surface then
    /// costs no copy); false when each change is copied into a texture (`Renderer.refreshSurface(_:)`).
    public var isZeroCopy: Bool
    /// Bytes copied by the import itself (0 when zero copy).
    public var bytesCopied: Int

    /// Describes an imported surface.
    public init(image: RenderImageID, isZeroCopy: Bool, bytesCopied: Int) {
        self.image = image
        self.isZeroCopy = isZeroCopy
        self.bytesCopied = bytesCopied
    }
}

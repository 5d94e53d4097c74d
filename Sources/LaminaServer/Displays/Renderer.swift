import LaminaCore
import LaminaProtocol

/// Draws display lists. The server knows the renderer only through this protocol.
///
/// All methods are called on the server's render thread, never concurrently. Every method is mandatory.
/// `render` records and submits the frame; the device may still be drawing it when `render` returns (a
/// renderer keeps a bounded number of frames in flight and frees what they use only once they finish).
/// `readPixels` waits for every frame that drew the target, so it always returns the latest frame.
public protocol Renderer: AnyObject {
    /// A short description of the device, for logs (for example "llvmpipe (LLVM 15.0.6, 256 bits)").
    var deviceName: String { get }
    /// Makes a target of the given size in pixels, owned by the renderer.
    func makeTarget(width: Int, height: Int) throws -> any RenderTarget
    /// Makes a target that draws into the imported image `image` (one without a mip chain); the image stays
    /// alive while the target does, even after `releaseImage`.
    func makeTarget(drawingInto image: RenderImageID) throws -> any RenderTarget
    /// Clears `target` to the list's clear colour and draws every batch in order.
    ///
    /// A list with `damage` may be drawn only there, keeping the rest of the target's image, when the
    /// target holds the frame drawn before it; a renderer that cannot do that draws the whole list,
    /// which gives the same image.
    func render(_ list: DisplayList, into target: any RenderTarget) throws
    /// Copies the target's pixels to host memory, after waiting for the frames that drew it.
    func readPixels(_ target: any RenderTarget) throws -> Bitmap
    /// Copies BGRA8 premultiplied pixels into a new device image that can be sampled with `filtering`.
    ///
    /// Throws `RenderImageError` when the sizes are invalid. The pixels are copied before the call
    /// returns, so the source may be released at once.
    func importImage(_ pixels: ImagePixels, filtering: ImageFiltering) throws -> RenderImageID
    /// Gives the image back; its memory is freed once no frame in flight uses it. Throws
    /// `RenderImageError.unknownImage` for an id that is not alive.
    func releaseImage(_ image: RenderImageID) throws
    /// Makes an image of a client's shared surface: one that samples the client's memory in place
    /// where the device can (`VK_EXT_external_memory_host` and a linear layout whose rows are the
    /// surface's), else a texture the rows are copied into now and at every `refreshSurface(_:)`.
    /// The image has no mip chain; `releaseImage` frees it (and lets go of the mapping) once no frame
    /// in flight samples it. Throws `RenderImageError` when the sizes are invalid.
    func importSurface(_ surface: SurfacePixels) throws -> ImportedSurface
    /// A new frame of the surface imported as `image` is ready: a zero-copy image needs nothing and
    /// returns 0; a copied one copies the rows again (ordered after the frames already submitted)
    /// and returns the bytes copied.
    func refreshSurface(_ image: RenderImageID) throws -> Int
    /// The number of the last submission that drew a display list (`render`), 0 for none: it names
    /// the frame whose GPU time `takeGPUTimes()` reports later.
    var lastRenderedFrame: UInt64 { get }
    /// The GPU times, in milliseconds, of the drawn frames that finished since the last call, by
    /// submission number; empty where the device has no timestamps.
    func takeGPUTimes() throws -> [UInt64: Double]
    /// The newest numbered frame (`lastRenderedFrame`) known to have finished on the device, noting
    /// without waiting the frames that finished since the last look; every earlier frame has
    /// finished too.
    func finishedFrame() throws -> UInt64
    /// What the last `render(_:into:)` that drew did with the list's offscreen passes (drawn, or kept
    /// from an earlier frame); zero before the first.
    var lastRenderCounters: RenderCounters { get }
    /// What the device accepts for app-rendered surfaces: its UUIDs, the row alignment of zero-copy
    /// surfaces, the formats Vulkan-device drawables may have. The server asks once, when it is made
    /// (before its worker thread uses the renderer); the renderer measures them on the device then.
    var surfaceCapabilities: SurfaceCapabilities { get }
    /// Imports a Vulkan image a client rendered on a device with the renderer's own UUIDs, from its
    /// exported memory, with the image's exact create info (`Renderer.surfaceCapabilities` says
    /// which formats it takes). Sampled in place; `refreshSurface(_:)` acquires a new frame of it
    /// from the external queue family. Throws when the device refuses the create info, the
    /// allocation size or the descriptor.
    func importDeviceImage(_ image: DeviceImageMemory) throws -> ImportedSurface
    /// Why the renderer's device is lost (the call that reported it), nil while it runs. Unlike the
    /// methods, safe to read from any thread: the server's loop reads it to stop
    /// (`Server+DeviceLoss.swift`). A lost renderer refuses every method that would use the device.
    var deviceLoss: (any Error)? { get }
}

extension Renderer {
    /// A renderer without GPU timing draws no numbered frames.
    public var lastRenderedFrame: UInt64 { 0 }

    /// A renderer without GPU timing reports none.
    public func takeGPUTimes() throws -> [UInt64: Double] { [:] }

    /// A renderer that draws on the caller's thread has finished every frame it drew.
    public func finishedFrame() throws -> UInt64 { lastRenderedFrame }

    /// A renderer that keeps no pass reports none kept.
    public var lastRenderCounters: RenderCounters { RenderCounters() }

    /// A renderer without a Vulkan device accepts no device images and knows no row alignment.
    public var surfaceCapabilities: SurfaceCapabilities { .none }

    /// A renderer that cannot lose its device never reports a loss.
    public var deviceLoss: (any Error)? { nil }

    /// A renderer without a Vulkan device refuses every device image.
    public func importDeviceImage(_ image: DeviceImageMemory) throws -> ImportedSurface {
        throw DeviceImageRefusal("this renderer imports no Vulkan images")
    }
}

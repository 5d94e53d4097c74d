import LaminaServer

/// An image in the renderer's table: its storage and the filtering it was imported for.
struct ImportedImage {
    let storage: VulkanImage
    let filtering: ImageFiltering
    /// For a shared surface on the copy path, the rows each refresh copies into `storage` (nil for
    /// uploaded images and zero-copy surfaces, whose `storage` samples the client's memory itself).
    var copiedSurface: SurfacePixels? = nil
    /// Whether the image's pixels may change under its id (a shared surface, an image a target draws
    /// into): an offscreen pass that samples it is never kept (`DisplayList.passContentKeys`).
    var changesInPlace = false
    /// For a YCbCr surface (NV12, P010), its chroma plane (Cb, Cr pairs); `storage` is then its luma
    /// plane. The `video` draw kinds sample both (`VulkanRenderer+VideoSurfaces.swift`).
    var chroma: VulkanImage? = nil
    /// Whether it is a client's Vulkan image: each new frame is acquired from the external queue
    /// family (`refreshSurface`) rather than copied.
    var acquiresFromExternal = false
}

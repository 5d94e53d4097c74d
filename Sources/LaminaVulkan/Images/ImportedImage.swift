import LaminaServer

/// An image in the renderer's table: its storage and the filtering it was imported for.
struct ImportedImage {
    let storage: VulkanImage
    let filtering: ImageFiltering
    /// For a shared surface on the copy path, the rows each refresh copies into `storage` (nil for
    /// uploaded images and zero-copy surfaces, whose `storage` samples the client's memory itself).
    var copiedSurface: SurfacePixels? = nil
}

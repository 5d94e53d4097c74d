import LaminaServer

/// An image in the renderer's table: its storage and the filtering it was imported for.
struct ImportedImage {
    let storage: VulkanImage
    let filtering: ImageFiltering
}

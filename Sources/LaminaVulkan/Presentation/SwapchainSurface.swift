import CVulkan

/// A `VkSurfaceKHR` and what must outlive it (the window system connection the surface was made on):
/// the owner of the handle, destroyed in `deinit`.
///
/// Every swapchain generation made on the surface holds it, so the surface, and the connection behind
/// it, go only after the last swapchain that used them.
final class SwapchainSurface {
    let vk: VulkanDevice
    let surface: VkSurfaceKHR
    /// Kept alive until the surface is destroyed (for the window output: its X connection).
    let keepAlive: AnyObject?

    init(_ vk: VulkanDevice, surface: VkSurfaceKHR, keepAlive: AnyObject?) {
        self.vk = vk
        self.surface = surface
        self.keepAlive = keepAlive
    }

    deinit {
        vkDestroySurfaceKHR(vk.instance, surface, nil)
    }
}

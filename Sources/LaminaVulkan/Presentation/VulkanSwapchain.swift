import CVulkan

/// A FIFO swapchain on a window's surface, into which `VulkanRenderer.present(_:on:)` copies a render
/// target's pixels.
///
/// The images take the surface's size (the window's, on X11); a target of another size is copied
/// unscaled at the top left, the rest cleared to black. The format is `B8G8R8A8_UNORM` when the
/// surface offers it (the renderer's own, so bytes are copied unchanged), else another 8-bit UNORM
/// format the copy converts to. The swapchain is made again when presenting finds it out of date or
/// suboptimal, or after `setNeedsRecreation()` (a resize). Confined to the render thread, like the
/// renderer it was made with.
public final class VulkanSwapchain {
    let vk: VulkanDevice
    let graveyard: Graveyard
    let surface: SwapchainSurface
    /// The current swapchain, or nil while the surface has no area (a minimised window) or before
    /// the first.
    var generation: SwapchainGeneration?

    /// The images of the current swapchain (0 before it is made or while the window has no area).
    public var imageCount: Int { generation?.images.count ?? 0 }
    /// Whether the next present makes the swapchain again first.
    var needsRecreation = false
    /// The size asked for when the surface does not say its own.
    let requestedWidth: Int
    let requestedHeight: Int

    /// Makes the surface with `makeSurface` (given the renderer's instance, which must have been made
    /// with `windowSystem`) and a swapchain on it of the surface's size (`width`×`height` when the
    /// surface leaves the size to the swapchain). `keepAlive` is kept until the surface is destroyed
    /// (the connection the surface was made on).
    public init(
        renderer: VulkanRenderer, width: Int, height: Int, keepAlive: AnyObject? = nil,
        makeSurface: (VkInstance) throws -> VkSurfaceKHR
    ) throws {
        vk = renderer.vk
        guard vk.canPresentToXcb else {
            throw VulkanUnsupported(
                "the Vulkan device was made without the window-system extensions, or the driver lacks "
                    + "VK_KHR_surface, VK_KHR_xcb_surface or VK_KHR_swapchain")
        }
        graveyard = renderer.graveyard
        requestedWidth = width
        requestedHeight = height
        surface = SwapchainSurface(vk, surface: try makeSurface(vk.instance), keepAlive: keepAlive)
        var supported: VkBool32 = 0
        try check(
            vkGetPhysicalDeviceSurfaceSupportKHR(vk.physicalDevice, vk.queueFamily, surface.surface, &supported),
            "vkGetPhysicalDeviceSurfaceSupportKHR")
        guard supported == VK_TRUE else {
            throw VulkanUnsupported("\(vk.name) cannot present to this window from its graphics queue")
        }
        try recreate()
    }

    /// The size of the swapchain's images, (0, 0) while the surface has no area.
    public var size: (width: Int, height: Int) { (generation?.width ?? 0, generation?.height ?? 0) }

    /// Asks for the swapchain to be made again before the next present (the window was resized).
    public func setNeedsRecreation() {
        needsRecreation = true
    }

    /// Makes the swapchain again at the surface's current size, retiring the old one to the
    /// graveyard until the frames that used it have finished.
    func recreate() throws {
        needsRecreation = false
        var capabilities = VkSurfaceCapabilitiesKHR()
        try check(
            vkGetPhysicalDeviceSurfaceCapabilitiesKHR(vk.physicalDevice, surface.surface, &capabilities),
            "vkGetPhysicalDeviceSurfaceCapabilitiesKHR")
        guard capabilities.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue != 0 else {
            throw VulkanUnsupported("the window's swapchain images cannot be copied into (no TRANSFER_DST usage)")
        }
        var width = requestedWidth
        var height = requestedHeight
        if capabilities.currentExtent.width != UInt32.max {
            width = Int(capabilities.currentExtent.width)
            height = Int(capabilities.currentExtent.height)
        }
        width = min(max(width, Int(capabilities.minImageExtent.width)), Int(capabilities.maxImageExtent.width))
        height = min(max(height, Int(capabilities.minImageExtent.height)), Int(capabilities.maxImageExtent.height))
        let old = generation
        generation = nil
        if let old { graveyard.retire(old, lastUsedBy: old.lastUsedFrame) }
        guard width > 0, height > 0 else { return }
        generation = try SwapchainGeneration(
            surface, width: width, height: height, format: try chooseFormat(), capabilities: capabilities,
            replacing: old)
    }

    /// `B8G8R8A8_UNORM` when offered, else `R8G8B8A8_UNORM` or `A8B8G8R8_UNORM_PACK32`, else the first
    /// format offered; only formats the device can blit into.
    func chooseFormat() throws -> VkSurfaceFormatKHR {
        var count: UInt32 = 0
        try check(
            vkGetPhysicalDeviceSurfaceFormatsKHR(vk.physicalDevice, surface.surface, &count, nil),
            "vkGetPhysicalDeviceSurfaceFormatsKHR")
        var formats = [VkSurfaceFormatKHR](repeating: VkSurfaceFormatKHR(), count: Int(count))
        try check(
            vkGetPhysicalDeviceSurfaceFormatsKHR(vk.physicalDevice, surface.surface, &count, &formats),
            "vkGetPhysicalDeviceSurfaceFormatsKHR")
        let usable = formats.prefix(Int(count)).filter {
            vk.supportsOptimal($0.format, VK_FORMAT_FEATURE_BLIT_DST_BIT.rawValue)
        }
        for preferred in [VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_A8B8G8R8_UNORM_PACK32] {
            if let format = usable.first(where: { $0.format == preferred }) { return format }
        }
        guard let first = usable.first else {
            throw VulkanUnsupported("the window's surface offers no format the device can copy into")
        }
        return first
    }

    deinit {
        if let generation { graveyard.retire(generation, lastUsedBy: generation.lastUsedFrame) }
    }
}

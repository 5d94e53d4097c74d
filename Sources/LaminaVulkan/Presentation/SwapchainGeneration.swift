import CVulkan
import LaminaServer

/// One `VkSwapchainKHR` of a surface, its images and the semaphores that order acquiring, copying and
/// presenting them: the owner of those handles, destroyed in `deinit`.
///
/// A window's swapchain is replaced when it goes out of date or the window's size changes; the old
/// generation then goes to the renderer's graveyard with `lastUsedFrame`, so its handles die only
/// after the frame that follows its last presentation has finished. Confined to the render thread.
final class SwapchainGeneration {
    let surface: SwapchainSurface
    let swapchain: VkSwapchainKHR
    let images: [VkImage]
    let format: VkFormat
    let width: Int
    let height: Int
    /// Signalled by the copy into image `i`, waited for by its presentation: one per image, so a
    /// semaphore is reused only once its image has been acquired again.
    let presentSemaphores: [VkSemaphore]
    /// Signalled by an acquire and waited for by the copy that follows it, used in turn; one more
    /// than there are images.
    let acquireSemaphores: [VkSemaphore]
    /// For each acquire semaphore, the frame whose copy last waited for it (0 for none): it may be
    /// signalled again once that frame has finished.
    var acquireFrames: [UInt64]
    /// The acquire semaphore the next acquire uses.
    var nextAcquire = 0
    /// What each image lacks of the newest frame (buffer age): a present copies only that
    /// (`VulkanRenderer.present(_:on:damage:)`). A new generation's images hold nothing.
    var damage: BufferDamage
    /// The first frame after the newest presentation of one of the images (0 for none): once it has
    /// finished, no submission or presentation uses the generation's handles.
    var lastUsedFrame: UInt64 = 0

    /// Makes a FIFO swapchain of `width`×`height` images of `format` on `surface`, replacing `old`
    /// (which Vulkan then retires) when given.
    init(
        _ surface: SwapchainSurface, width: Int, height: Int, format: VkSurfaceFormatKHR,
        capabilities: VkSurfaceCapabilitiesKHR, replacing old: SwapchainGeneration?
    ) throws {
        let vk = surface.vk
        self.surface = surface
        self.width = width
        self.height = height
        self.format = format.format
        var count = capabilities.minImageCount + 1
        if capabilities.maxImageCount > 0 { count = min(count, capabilities.maxImageCount) }
        var info = VkSwapchainCreateInfoKHR()
        info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR
        info.surface = surface.surface
        info.minImageCount = count
        info.imageFormat = format.format
        info.imageColorSpace = format.colorSpace
        info.imageExtent = VkExtent2D(width: UInt32(width), height: UInt32(height))
        info.imageArrayLayers = 1
        info.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue
        info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.preTransform = capabilities.currentTransform
        info.compositeAlpha = Self.compositeAlpha(capabilities.supportedCompositeAlpha)
        info.presentMode = VK_PRESENT_MODE_FIFO_KHR
        info.clipped = VkBool32(VK_TRUE)
        info.oldSwapchain = old?.swapchain
        var swapchain: VkSwapchainKHR?
        try check(vkCreateSwapchainKHR(vk.device, &info, nil, &swapchain), "vkCreateSwapchainKHR")
        self.swapchain = swapchain!
        var semaphores: [VkSemaphore] = []
        do {
            var imageCount: UInt32 = 0
            try check(vkGetSwapchainImagesKHR(vk.device, swapchain, &imageCount, nil), "vkGetSwapchainImagesKHR")
            var images = [VkImage?](repeating: nil, count: Int(imageCount))
            try check(vkGetSwapchainImagesKHR(vk.device, swapchain, &imageCount, &images), "vkGetSwapchainImagesKHR")
            self.images = images.prefix(Int(imageCount)).compactMap { $0 }
            for _ in 0..<(2 * self.images.count + 1) {
                var semaphoreInfo = VkSemaphoreCreateInfo()
                semaphoreInfo.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO
                var semaphore: VkSemaphore?
                try check(vkCreateSemaphore(vk.device, &semaphoreInfo, nil, &semaphore), "vkCreateSemaphore")
                semaphores.append(semaphore!)
            }
        } catch {
            for semaphore in semaphores { vkDestroySemaphore(vk.device, semaphore, nil) }
            vkDestroySwapchainKHR(vk.device, swapchain, nil)
            throw error
        }
        presentSemaphores = Array(semaphores.prefix(images.count))
        acquireSemaphores = Array(semaphores.dropFirst(images.count))
        acquireFrames = Array(repeating: 0, count: acquireSemaphores.count)
        damage = BufferDamage(bufferCount: images.count)
    }

    /// Opaque when the surface allows it, else the first mode it offers.
    static func compositeAlpha(_ supported: VkCompositeAlphaFlagsKHR) -> VkCompositeAlphaFlagBitsKHR {
        let preferred = [
            VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
            VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR, VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR,
        ]
        return preferred.first { supported & $0.rawValue != 0 } ?? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
    }

    deinit {
        let device = surface.vk.device
        for semaphore in presentSemaphores + acquireSemaphores { vkDestroySemaphore(device, semaphore, nil) }
        vkDestroySwapchainKHR(device, swapchain, nil)
    }
}

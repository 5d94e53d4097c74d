import CVulkan
import LaminaServer

/// An offscreen `B8G8R8A8_UNORM` colour image (the format llvmpipe's fast path needs) with a readback
/// buffer. Tracks its current layout so every barrier names the true old layout.
final class VulkanTarget: RenderTarget {
    let vk: VulkanDevice
    let width: Int
    let height: Int
    let image: VkImage
    let memory: VkDeviceMemory
    let view: VkImageView
    let readback: HostBuffer
    var layout = VK_IMAGE_LAYOUT_UNDEFINED
    static let format = VK_FORMAT_B8G8R8A8_UNORM

    init(_ vk: VulkanDevice, width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw VulkanUnsupported("target size \(width)x\(height) is out of range")
        }
        self.vk = vk
        self.width = width
        self.height = height
        var info = VkImageCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO
        info.imageType = VK_IMAGE_TYPE_2D
        info.format = Self.format
        info.extent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        info.mipLevels = 1
        info.arrayLayers = 1
        info.samples = VK_SAMPLE_COUNT_1_BIT
        info.tiling = VK_IMAGE_TILING_OPTIMAL
        info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
        var image: VkImage?
        try check(vkCreateImage(vk.device, &info, nil, &image), "vkCreateImage")
        var requirements = VkMemoryRequirements()
        vkGetImageMemoryRequirements(vk.device, image, &requirements)
        var memory: VkDeviceMemory?
        var view: VkImageView?
        do {
            memory = try vk.allocateMemory(requirements, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue)
            try check(vkBindImageMemory(vk.device, image, memory, 0), "vkBindImageMemory")
            var viewInfo = VkImageViewCreateInfo()
            viewInfo.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO
            viewInfo.image = image
            viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D
            viewInfo.format = Self.format
            viewInfo.subresourceRange = VkImageSubresourceRange(
                aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: 0, levelCount: 1, baseArrayLayer: 0,
                layerCount: 1)
            try check(vkCreateImageView(vk.device, &viewInfo, nil, &view), "vkCreateImageView")
            readback = try HostBuffer(vk, size: width * height * 4, usage: VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue)
        } catch {
            if let view { vkDestroyImageView(vk.device, view, nil) }
            if let memory { vkFreeMemory(vk.device, memory, nil) }
            vkDestroyImage(vk.device, image, nil)
            throw error
        }
        self.image = image!
        self.memory = memory!
        self.view = view!
    }

    deinit {
        vkDeviceWaitIdle(vk.device)
        vkDestroyImageView(vk.device, view, nil)
        vkDestroyImage(vk.device, image, nil)
        vkFreeMemory(vk.device, memory, nil)
    }
}

import CVulkan

/// One device image with its memory and views: the owner of those handles. Optimally tiled
/// `B8G8R8A8_UNORM` unless made otherwise (a YCbCr surface's planes are `R8`/`R8G8` or
/// `R16`/`R16G16`, linear on host memory or optimal).
///
/// Shared by reference between whoever uses it (a target, the renderer's image table); when the last
/// reference goes, `deinit` destroys the handles at once, so users hand their reference to the renderer's
/// `Graveyard` with `lastUsedFrame` instead of dropping it while a frame may still use it. `layout` is the
/// layout of every mip level after the last recorded command. Confined to the render thread.
final class VulkanImage {
    let vk: VulkanDevice
    let width: Int
    let height: Int
    let mipLevels: Int
    let image: VkImage
    let memory: VkDeviceMemory
    /// A view of every mip level, for sampling.
    let view: VkImageView
    /// A view of level 0 only, for drawing and for sampling without mipmaps (the same handle as `view`
    /// when there is one level): llvmpipe's linear path takes only single-level views.
    let attachmentView: VkImageView
    var layout = VK_IMAGE_LAYOUT_UNDEFINED
    /// The newest frame that recorded a command on the image (0 for none).
    var lastUsedFrame: UInt64 = 0
    /// The layout frames sample it in: `SHADER_READ_ONLY_OPTIMAL`, or `GENERAL` for a linear image
    /// on host memory that its owner keeps writing (host access needs `GENERAL`).
    let sampledLayout: VkImageLayout
    /// What must outlive the handles: the mapping a host-memory image was imported from.
    let keepAlive: AnyObject?
    /// The image's format (`VulkanImage.format` unless made with another).
    let format: VkFormat
    static let format = VK_FORMAT_B8G8R8A8_UNORM

    /// Takes ownership of a single-level image made elsewhere, with its memory and view (a linear
    /// image on host memory: `VulkanRenderer.importSurface`), in layout `layout`.
    init(
        _ vk: VulkanDevice, width: Int, height: Int, image: VkImage, memory: VkDeviceMemory, view: VkImageView,
        layout: VkImageLayout, sampledLayout: VkImageLayout, keepAlive: AnyObject?,
        format: VkFormat = VulkanImage.format
    ) {
        self.vk = vk
        self.format = format
        self.width = width
        self.height = height
        self.mipLevels = 1
        self.image = image
        self.memory = memory
        self.view = view
        self.attachmentView = view
        self.layout = layout
        self.sampledLayout = sampledLayout
        self.keepAlive = keepAlive
    }

    init(
        _ vk: VulkanDevice, width: Int, height: Int, mipLevels: Int = 1, usage: VkImageUsageFlags,
        format: VkFormat = VulkanImage.format
    ) throws {
        self.vk = vk
        self.format = format
        self.width = width
        self.height = height
        self.mipLevels = mipLevels
        self.sampledLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL
        self.keepAlive = nil
        var info = VkImageCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO
        info.imageType = VK_IMAGE_TYPE_2D
        info.format = format
        info.extent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        info.mipLevels = UInt32(mipLevels)
        info.arrayLayers = 1
        info.samples = VK_SAMPLE_COUNT_1_BIT
        info.tiling = VK_IMAGE_TILING_OPTIMAL
        info.usage = usage
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
        var image: VkImage?
        try check(vkCreateImage(vk.device, &info, nil, &image), "vkCreateImage")
        var requirements = VkMemoryRequirements()
        vkGetImageMemoryRequirements(vk.device, image, &requirements)
        var memory: VkDeviceMemory?
        var view: VkImageView?
        var attachmentView: VkImageView?
        do {
            memory = try vk.allocateMemory(requirements, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue)
            try check(vkBindImageMemory(vk.device, image, memory, 0), "vkBindImageMemory")
            view = try Self.makeView(vk, image, levels: mipLevels, format: format)
            attachmentView = mipLevels == 1 ? view : try Self.makeView(vk, image, levels: 1, format: format)
        } catch {
            if let attachmentView, attachmentView != view { vkDestroyImageView(vk.device, attachmentView, nil) }
            if let view { vkDestroyImageView(vk.device, view, nil) }
            if let memory { vkFreeMemory(vk.device, memory, nil) }
            vkDestroyImage(vk.device, image, nil)
            throw error
        }
        self.image = image!
        self.memory = memory!
        self.view = view!
        self.attachmentView = attachmentView!
    }

    static func makeView(
        _ vk: VulkanDevice, _ image: VkImage?, levels: Int, format: VkFormat = VulkanImage.format
    ) throws -> VkImageView {
        var info = VkImageViewCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO
        info.image = image
        info.viewType = VK_IMAGE_VIEW_TYPE_2D
        info.format = format
        info.subresourceRange = VkImageSubresourceRange(
            aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: 0, levelCount: UInt32(levels),
            baseArrayLayer: 0, layerCount: 1)
        var view: VkImageView?
        try check(vkCreateImageView(vk.device, &info, nil, &view), "vkCreateImageView")
        return view!
    }

    deinit {
        if attachmentView != view { vkDestroyImageView(vk.device, attachmentView, nil) }
        vkDestroyImageView(vk.device, view, nil)
        vkDestroyImage(vk.device, image, nil)
        vkFreeMemory(vk.device, memory, nil)
    }
}

import CVulkan
import LaminaServer

/// A render target: a single-level `B8G8R8A8_UNORM` image (the format llvmpipe's fast path needs) with a
/// readback buffer. The image is the target's own, or an imported image it draws into.
///
/// `layout` is the image's, so every barrier names the true old layout even when the image is shared.
/// On `deinit` the image and buffer go to the renderer's graveyard until the last frame that used them
/// has finished.
final class VulkanTarget: RenderTarget {
    let vk: VulkanDevice
    let storage: VulkanImage
    let readback: HostBuffer
    let graveyard: Graveyard
    /// The newest frame that copied the image into `readback` (0 for none).
    var lastReadbackFrame: UInt64 = 0
    /// Whether a frame has been drawn into the target, so that a partial redraw can keep the rest.
    var holdsFrame = false
    static let format = VulkanImage.format

    var width: Int { storage.width }
    var height: Int { storage.height }
    var image: VkImage { storage.image }
    var view: VkImageView { storage.attachmentView }
    var layout: VkImageLayout {
        get { storage.layout }
        set { storage.layout = newValue }
    }

    /// A target with an image of its own.
    convenience init(_ vk: VulkanDevice, width: Int, height: Int, graveyard: Graveyard) throws {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw VulkanUnsupported("target size \(width)x\(height) is out of range")
        }
        let usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue
        try self.init(VulkanImage(vk, width: width, height: height, usage: usage), graveyard: graveyard)
    }

    /// A target drawing into `storage`, which must have one mip level and colour-attachment and
    /// transfer-source usage.
    init(_ storage: VulkanImage, graveyard: Graveyard) throws {
        precondition(storage.mipLevels == 1)
        self.vk = storage.vk
        self.storage = storage
        self.graveyard = graveyard
        readback = try HostBuffer(
            vk, size: storage.width * storage.height * 4, usage: VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue)
    }

    deinit {
        graveyard.retire(storage, lastUsedBy: storage.lastUsedFrame)
        graveyard.retire(readback, lastUsedBy: lastReadbackFrame)
    }
}

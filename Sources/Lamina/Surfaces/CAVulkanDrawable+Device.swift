import CVulkan
import Foundation

/// What the app renders with on a drawable of a layer with a `device`.
extension CAVulkanDrawable {
    /// The image to render into (nil for a CPU drawable): the layer's `drawableSize` and
    /// `pixelFormat`, optimal tiling, one level and layer, usage colour attachment, transfer
    /// destination and sampled (plus transfer source and storage without `framebufferOnly`). The
    /// analogue of Apple's `texture`.
    ///
    /// Hand-over: the image comes to the app in layout `initialLayout` owned by
    /// `VK_QUEUE_FAMILY_EXTERNAL`; the app acquires it for its queue family (a barrier from the
    /// external family, or from `VK_IMAGE_LAYOUT_UNDEFINED` without a family transfer the first time),
    /// renders, and leaves it in `VK_IMAGE_LAYOUT_GENERAL` released to `VK_QUEUE_FAMILY_EXTERNAL`
    /// (a barrier from its family to the external one), in a submission that signals
    /// `signalSemaphore` with `signalValue`. Then it calls `present()`.
    public var image: VkImage? { deviceImage?.image }

    /// The timeline semaphore the app's last submission on `image` signals with `signalValue`
    /// (nil for a CPU drawable). `present()` waits for that value on the CPU, on a library thread,
    /// before the drawable is committed.
    public var signalSemaphore: VkSemaphore? { deviceImage?.semaphore }

    /// The layout `image` is in when handed out: `VK_IMAGE_LAYOUT_UNDEFINED` the first time (its
    /// contents are undefined), then `VK_IMAGE_LAYOUT_GENERAL`, owned by the external queue family.
    public var initialLayout: VkImageLayout {
        signalValue <= 1 ? VK_IMAGE_LAYOUT_UNDEFINED : VK_IMAGE_LAYOUT_GENERAL
    }

    /// The `VkFormat` of `image` (`VK_FORMAT_B8G8R8A8_UNORM` for a CPU drawable's surface).
    public var pixelFormat: VkFormat {
        deviceImage.map { VkFormat(rawValue: $0.description.format) } ?? VK_FORMAT_B8G8R8A8_UNORM
    }
}

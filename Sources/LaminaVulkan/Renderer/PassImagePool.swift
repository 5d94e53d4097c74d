import CVulkan
import LaminaServer

/// The images offscreen passes draw into, kept across frames (docs/rendering.md, "Offscreen passes").
///
/// Sizes are rounded up to size classes (multiples of 64 pixels up to 512, of 256 beyond), so that a
/// pass whose layer moves or grows a little reuses last frame's image. Each frame takes distinct images
/// for its passes; an image no frame has taken for `idleFrames` frames goes to the graveyard (it is
/// freed once the last frame that drew or sampled it has finished). Confined to the render thread.
struct PassImagePool {
    /// Frames an image may stay unused before it is freed.
    static let idleFrames: UInt64 = 120

    struct Entry {
        let image: VulkanImage
        /// The frame that last took the image.
        var takenBy: UInt64
    }

    var entries: [Entry] = []

    /// The side of the size class holding `pixels` (at least 1).
    static func sizeClass(_ pixels: Int) -> Int {
        let n = max(1, pixels)
        return n <= 512 ? (n + 63) / 64 * 64 : (n + 255) / 256 * 256
    }

    /// An image of the size class of `width`×`height` not yet taken by frame `frame`, made when none is.
    mutating func take(width: Int, height: Int, frame: UInt64, vk: VulkanDevice) throws -> VulkanImage {
        let w = Self.sizeClass(width)
        let h = Self.sizeClass(height)
        if let index = entries.firstIndex(where: { $0.takenBy != frame && $0.image.width == w && $0.image.height == h })
        {
            entries[index].takenBy = frame
            return entries[index].image
        }
        let usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_SAMPLED_BIT.rawValue
        let image = try VulkanImage(vk, width: w, height: h, usage: usage)
        entries.append(Entry(image: image, takenBy: frame))
        return image
    }

    /// Hands the images no frame took in the last `idleFrames` frames before `frame` to `graveyard`.
    mutating func retireIdle(before frame: UInt64, into graveyard: Graveyard) {
        entries.removeAll { entry in
            guard entry.takenBy + Self.idleFrames < frame else { return false }
            graveyard.retire(entry.image, lastUsedBy: entry.image.lastUsedFrame)
            return true
        }
    }
}

import CVulkan
import LaminaServer

/// The images offscreen passes draw into, kept across frames (docs/rendering.md, "Offscreen passes"
/// and "Kept passes").
///
/// Sizes are rounded up to size classes (multiples of 64 pixels up to 512, of 256 beyond), so that a
/// pass whose layer moves or grows a little reuses last frame's image. Each image remembers the content
/// key of the pass it holds (`DisplayList.passContentKeys`): a pass of a later frame with that key takes
/// the image as it is and is not drawn again. Each frame takes distinct images for its passes. Images
/// that the frame did not take are kept within `keptBudgetBytes`, the least recently taken going to the
/// graveyard first, and an image no frame has taken for `idleFrames` frames goes there too (it is freed
/// once the last frame that drew or sampled it has finished). Confined to the render thread.
struct PassImagePool {
    /// Frames an image may stay unused before it is freed.
    static let idleFrames: UInt64 = 120
    /// The bytes of images the last frame did not take that are kept for later frames, by default:
    /// 64 MiB (four bytes a pixel), shared by every client's rasterized layers and passes.
    static let defaultKeptBudgetBytes = 64 << 20

    struct Entry {
        let image: VulkanImage
        /// The frame that last took the image.
        var takenBy: UInt64
        /// The content key of the pass the image holds; nil when it holds nothing that can be kept.
        var content: UInt64?
        /// The texels the pass covered.
        var texels: SIMD2<Int>

        /// The image's size in bytes.
        var bytes: Int { image.width * image.height * 4 }
    }

    var entries: [Entry] = []
    /// The bytes of images not taken by the last frame that are kept (`defaultKeptBudgetBytes`).
    var keptBudgetBytes = Self.defaultKeptBudgetBytes

    /// The side of the size class holding `pixels` (at least 1).
    static func sizeClass(_ pixels: Int) -> Int {
        let n = max(1, pixels)
        return n <= 512 ? (n + 63) / 64 * 64 : (n + 255) / 256 * 256
    }

    /// The image that holds the content `key` of a `width`×`height` pass already, taken for frame
    /// `frame` (the pass need not be drawn), or nil when none is kept.
    mutating func takeKept(width: Int, height: Int, key: UInt64, frame: UInt64) -> VulkanImage? {
        let texels = SIMD2(width, height)
        guard
            let index = entries.firstIndex(where: { $0.takenBy != frame && $0.content == key && $0.texels == texels })
        else { return nil }
        entries[index].takenBy = frame
        return entries[index].image
    }

    /// An image of the size class of `width`×`height` not yet taken by frame `frame` (one holding
    /// nothing first, else the one taken longest ago), made when none is, and marked as holding `key`
    /// (the pass is drawn into it).
    mutating func take(width: Int, height: Int, key: UInt64?, frame: UInt64, vk: VulkanDevice) throws -> VulkanImage {
        let texels = SIMD2(width, height)
        let w = Self.sizeClass(width)
        let h = Self.sizeClass(height)
        var best: Int?
        for index in entries.indices where entries[index].takenBy != frame {
            let entry = entries[index]
            guard entry.image.width == w, entry.image.height == h else { continue }
            guard let b = best else {
                best = index
                continue
            }
            if (entry.content == nil) != (entries[b].content == nil) {
                if entry.content == nil { best = index }
            } else if entry.takenBy < entries[b].takenBy {
                best = index
            }
        }
        if let index = best {
            entries[index].takenBy = frame
            entries[index].content = key
            entries[index].texels = texels
            return entries[index].image
        }
        let usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_SAMPLED_BIT.rawValue
        let image = try VulkanImage(vk, width: w, height: h, usage: usage)
        entries.append(Entry(image: image, takenBy: frame, content: key, texels: texels))
        return image
    }

    /// Marks the images frame `frame` took as holding nothing (the frame was not submitted).
    mutating func forgetContent(takenBy frame: UInt64) {
        for index in entries.indices where entries[index].takenBy == frame { entries[index].content = nil }
    }

    /// Hands to `graveyard` the images no frame took in the last `idleFrames` frames before `frame`, and
    /// then, while the images that frame `drawn` (the last one) did not take exceed `keptBudgetBytes`,
    /// the one taken longest ago.
    mutating func retireIdle(before frame: UInt64, drawn: UInt64, into graveyard: Graveyard) {
        entries.removeAll { entry in
            guard entry.takenBy + Self.idleFrames < frame else { return false }
            graveyard.retire(entry.image, lastUsedBy: entry.image.lastUsedFrame)
            return true
        }
        var kept = entries.reduce(0) { $0 + ($1.takenBy == drawn ? 0 : $1.bytes) }
        while kept > keptBudgetBytes {
            guard
                let oldest = entries.indices.filter({ entries[$0].takenBy != drawn }).min(by: {
                    entries[$0].takenBy < entries[$1].takenBy
                })
            else { break }
            kept -= entries[oldest].bytes
            graveyard.retire(entries[oldest].image, lastUsedBy: entries[oldest].image.lastUsedFrame)
            entries.remove(at: oldest)
        }
    }
}

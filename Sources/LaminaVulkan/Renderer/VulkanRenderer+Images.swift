import CVulkan
import Foundation
import LaminaServer

extension VulkanRenderer {
    /// Uploads `pixels` into a new optimally tiled `B8G8R8A8_UNORM` image through a staging buffer.
    ///
    /// With `.mipmapped`, the upload's frame also builds the whole mip chain with linear `vkCmdBlitImage`s,
    /// provided the format supports linear blits on this device; otherwise the image keeps one level and is
    /// sampled bilinearly (trilinear sampling of one level is bilinear). The staging buffer is retired
    /// after the upload's frame; the call does not wait for it. Leaves every level shader-readable.
    public func importImage(_ pixels: ImagePixels, filtering: ImageFiltering) throws -> RenderImageID {
        try refuseIfDeviceLost()
        try pixels.validate(maximumDimension: vk.maxImageDimension2D)
        let width = pixels.width
        let height = pixels.height
        let levels = filtering == .mipmapped && canBlitLinearly ? Self.mipLevelCount(width: width, height: height) : 1
        var usage =
            VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue
            | VK_IMAGE_USAGE_SAMPLED_BIT.rawValue
        if levels == 1 { usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue }
        let storage = try VulkanImage(vk, width: width, height: height, mipLevels: levels, usage: usage)
        let rowBytes = width * 4
        let staging = try HostBuffer(vk, size: rowBytes * height, usage: VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue)
        try pixels.withSourceBytes { source in
            guard let base = source.baseAddress else {
                throw RenderImageError.bufferTooSmall(size: 0, needed: rowBytes)
            }
            for row in 0..<height {
                memcpy(staging.mapped + row * rowBytes, base + pixels.offset + row * pixels.stride, rowBytes)
            }
        }
        let frame = try submit { cb in recordUpload(cb, storage, from: staging) }
        storage.lastUsedFrame = frame
        graveyard.retire(staging, lastUsedBy: frame)
        let id = RenderImageID(rawValue: nextImage)
        nextImage += 1
        images[id] = ImportedImage(storage: storage, filtering: filtering)
        return id
    }

    /// Removes the image from the table and retires it until the last frame that used it has finished:
    /// at once when the frames that have signalled include it (a shared surface is then unmapped
    /// without waiting for the server to draw again).
    public func releaseImage(_ image: RenderImageID) throws {
        guard let entry = images.removeValue(forKey: image) else { throw RenderImageError.unknownImage(image) }
        // A lost device still lets go of images (only destroying is valid then), without looking at fences.
        if lostDevice == nil { try collectFinishedFrames() }
        graveyard.retire(entry.storage, lastUsedBy: entry.storage.lastUsedFrame)
        if let chroma = entry.chroma { graveyard.retire(chroma, lastUsedBy: chroma.lastUsedFrame) }
    }

    /// A target drawing into the imported image `image`, which must have a single mip level.
    public func makeTarget(drawingInto image: RenderImageID) throws -> any RenderTarget {
        guard let entry = images[image] else { throw RenderImageError.unknownImage(image) }
        guard entry.storage.mipLevels == 1 else { throw RenderImageError.mipmapped(image) }
        images[image]?.changesInPlace = true
        return try VulkanTarget(entry.storage, graveyard: graveyard)
    }

    /// The number of mip levels of the imported image `image`.
    public func mipLevels(of image: RenderImageID) throws -> Int {
        guard let entry = images[image] else { throw RenderImageError.unknownImage(image) }
        return entry.storage.mipLevels
    }

    /// Copies mip level `level` of the imported image to host memory, waiting for the copy; for tests and
    /// debugging. Leaves every level in `TRANSFER_SRC_OPTIMAL`.
    public func readImage(_ image: RenderImageID, level: Int = 0) throws -> Bitmap {
        guard let entry = images[image] else { throw RenderImageError.unknownImage(image) }
        let storage = entry.storage
        guard (0..<storage.mipLevels).contains(level) else {
            throw VulkanUnsupported("\(image) has no mip level \(level)")
        }
        let width = max(storage.width >> level, 1)
        let height = max(storage.height >> level, 1)
        let buffer = try HostBuffer(vk, size: width * height * 4, usage: VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue)
        let frame = try submit { cb in
            if storage.layout != VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL {
                Self.imageBarrier(
                    cb, storage, levels: 0..<storage.mipLevels, from: storage.layout,
                    to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, srcStage: VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                    srcAccess: 0, dstStage: VK_PIPELINE_STAGE_2_COPY_BIT, dstAccess: VK_ACCESS_2_TRANSFER_READ_BIT)
                storage.layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL
            }
            copyToHost(cb, image: storage.image, level: level, width: width, height: height, into: buffer.buffer)
        }
        storage.lastUsedFrame = frame
        graveyard.retire(buffer, lastUsedBy: frame)
        try waitUntilFinished(frame)
        let pixels = [UInt8](UnsafeRawBufferPointer(start: buffer.mapped, count: width * height * 4))
        return Bitmap(width: width, height: height, stride: width * 4, pixels: pixels)
    }

    /// Whether this device can build mip chains of the image format with linear blits.
    var canBlitLinearly: Bool {
        vk.supportsOptimal(
            VulkanImage.format,
            VK_FORMAT_FEATURE_BLIT_SRC_BIT.rawValue | VK_FORMAT_FEATURE_BLIT_DST_BIT.rawValue
                | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT.rawValue)
    }

    /// The length of a full mip chain: halving the larger side down to 1.
    static func mipLevelCount(width: Int, height: Int) -> Int {
        var levels = 1
        var side = max(width, height)
        while side > 1 {
            side /= 2
            levels += 1
        }
        return levels
    }

    /// Records the staging copy into level 0, the blits down the mip chain, and the transition of every
    /// level to `SHADER_READ_ONLY_OPTIMAL`.
    func recordUpload(_ cb: VkCommandBuffer, _ storage: VulkanImage, from staging: HostBuffer) {
        let all = 0..<storage.mipLevels
        let transfer = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT
        Self.imageBarrier(
            cb, storage, levels: all, from: VK_IMAGE_LAYOUT_UNDEFINED, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            srcStage: VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, srcAccess: 0, dstStage: transfer,
            dstAccess: VK_ACCESS_2_TRANSFER_WRITE_BIT)
        var region = VkBufferImageCopy()
        region.imageSubresource = VkImageSubresourceLayers(
            aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
        region.imageExtent = VkExtent3D(width: UInt32(storage.width), height: UInt32(storage.height), depth: 1)
        vkCmdCopyBufferToImage(cb, staging.buffer, storage.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region)
        var width = Int32(storage.width)
        var height = Int32(storage.height)
        for level in 1..<max(storage.mipLevels, 1) {
            Self.imageBarrier(
                cb, storage, levels: (level - 1)..<level, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, srcStage: transfer, srcAccess: VK_ACCESS_2_TRANSFER_WRITE_BIT,
                dstStage: transfer, dstAccess: VK_ACCESS_2_TRANSFER_READ_BIT)
            let nextWidth = max(width / 2, 1)
            let nextHeight = max(height / 2, 1)
            var blit = VkImageBlit()
            blit.srcSubresource = VkImageSubresourceLayers(
                aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: UInt32(level - 1), baseArrayLayer: 0,
                layerCount: 1)
            blit.srcOffsets.1 = VkOffset3D(x: width, y: height, z: 1)
            blit.dstSubresource = VkImageSubresourceLayers(
                aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: UInt32(level), baseArrayLayer: 0,
                layerCount: 1)
            blit.dstOffsets.1 = VkOffset3D(x: nextWidth, y: nextHeight, z: 1)
            vkCmdBlitImage(
                cb, storage.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, storage.image,
                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_LINEAR)
            width = nextWidth
            height = nextHeight
        }
        let last = storage.mipLevels - 1
        if last > 0 {
            Self.imageBarrier(
                cb, storage, levels: 0..<last, from: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, srcStage: transfer, srcAccess: 0,
                dstStage: VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, dstAccess: VK_ACCESS_2_SHADER_SAMPLED_READ_BIT)
        }
        Self.imageBarrier(
            cb, storage, levels: last..<(last + 1), from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, srcStage: transfer, srcAccess: VK_ACCESS_2_TRANSFER_WRITE_BIT,
            dstStage: VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, dstAccess: VK_ACCESS_2_SHADER_SAMPLED_READ_BIT)
        storage.layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL
    }

    /// Records one image barrier over mip levels `levels` of an image the renderer owns.
    static func imageBarrier(
        _ cb: VkCommandBuffer, _ storage: VulkanImage, levels: Range<Int>, from old: VkImageLayout,
        to new: VkImageLayout, srcStage: VkPipelineStageFlags2, srcAccess: VkAccessFlags2,
        dstStage: VkPipelineStageFlags2, dstAccess: VkAccessFlags2
    ) {
        rawImageBarrier(
            cb, storage.image, levels: levels, from: old, to: new, srcStage: srcStage, srcAccess: srcAccess,
            dstStage: dstStage, dstAccess: dstAccess)
    }
}

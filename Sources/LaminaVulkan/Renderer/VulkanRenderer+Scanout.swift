import CVulkan
import LaminaServer

extension VulkanRenderer: ScanoutCopying {
    /// The scan-out memory the device imports (`VulkanDevice.scanoutImports`).
    public var scanoutImports: Set<ScanoutImport> { vk.scanoutImports }

    /// Imports `memory` as a buffer the frames are copied into (`VulkanScanoutBuffer`).
    public func importScanout(_ memory: ScanoutMemory, layout: ScanoutLayout) throws -> any ScanoutDestination {
        try VulkanScanoutBuffer(vk, memory: memory, layout: layout)
    }

    /// Copies `target` into `destination` as one more frame on the timeline (the rows at the layout's
    /// offset and stride; the target's top-left corner when the sizes differ) and waits for it.
    ///
    /// A dma-buf is shared with the display engine: the copy begins by acquiring the buffer from
    /// `VK_QUEUE_FAMILY_EXTERNAL` and ends by releasing it there.
    /// Only `region`'s rectangles are copied (cut to the copied area; more than
    /// `maxScanoutCopyRegions` are merged into their bounding box); an empty region submits nothing.
    public func copy(
        _ target: any RenderTarget, into destination: any ScanoutDestination, region: [DamageRect]?
    ) throws {
        guard let target = target as? VulkanTarget, target.layout != VK_IMAGE_LAYOUT_UNDEFINED else {
            throw VulkanUnsupported("a scan-out copy needs a target this renderer has drawn")
        }
        guard let destination = destination as? VulkanScanoutBuffer, destination.vk === vk else {
            throw VulkanUnsupported("foreign scan-out destination")
        }
        let layout = destination.layout
        let rects = Self.scanoutCopyRects(
            region, width: min(layout.width, target.width), height: min(layout.height, target.height))
        guard !rects.isEmpty else { return }
        let frame = try submit { cb in
            if destination.kind == .dmaBuf {
                Self.bufferBarrier(
                    cb, destination.buffer, from: VK_QUEUE_FAMILY_EXTERNAL, to: vk.queueFamily,
                    srcStage: VK_PIPELINE_STAGE_2_NONE, srcAccess: 0, dstStage: VK_PIPELINE_STAGE_2_COPY_BIT,
                    dstAccess: VK_ACCESS_2_TRANSFER_WRITE_BIT)
            }
            makeCopySource(cb, target)
            var copies = rects.map { rect in
                var copy = VkBufferImageCopy()
                copy.bufferOffset = VkDeviceSize(layout.offset + rect.y * layout.stride + rect.x * 4)
                copy.bufferRowLength = UInt32(layout.stride / 4)
                copy.imageSubresource = VkImageSubresourceLayers(
                    aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
                copy.imageOffset = VkOffset3D(x: Int32(rect.x), y: Int32(rect.y), z: 0)
                copy.imageExtent = VkExtent3D(width: UInt32(rect.width), height: UInt32(rect.height), depth: 1)
                return copy
            }
            vkCmdCopyImageToBuffer(
                cb, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, destination.buffer, UInt32(copies.count),
                &copies)
            if destination.kind == .dmaBuf {
                Self.bufferBarrier(
                    cb, destination.buffer, from: vk.queueFamily, to: VK_QUEUE_FAMILY_EXTERNAL,
                    srcStage: VK_PIPELINE_STAGE_2_COPY_BIT, srcAccess: VK_ACCESS_2_TRANSFER_WRITE_BIT,
                    dstStage: VK_PIPELINE_STAGE_2_NONE, dstAccess: 0)
            } else {
                // The display reads the mapping once the fence has signalled: make the writes visible
                // to the host.
                Self.bufferBarrier(
                    cb, destination.buffer, from: VK_QUEUE_FAMILY_IGNORED, to: VK_QUEUE_FAMILY_IGNORED,
                    srcStage: VK_PIPELINE_STAGE_2_COPY_BIT, srcAccess: VK_ACCESS_2_TRANSFER_WRITE_BIT,
                    dstStage: VK_PIPELINE_STAGE_2_HOST_BIT, dstAccess: VK_ACCESS_2_HOST_READ_BIT)
            }
        }
        target.storage.lastUsedFrame = frame
        scanoutBytesCopied += rects.reduce(0) { $0 + $1.area * 4 }
        try waitUntilFinished(frame)
    }

    /// The most rectangles one scan-out copy records; beyond it their bounding box is copied.
    static let maxScanoutCopyRegions = 64

    /// The rectangles of `region` cut to `width`×`height`, the empty ones left out (the whole area for
    /// nil; their bounding box when there are more than `maxScanoutCopyRegions`). Overlapping
    /// rectangles are kept as they are: copying a pixel twice writes the same bytes.
    static func scanoutCopyRects(_ region: [DamageRect]?, width: Int, height: Int) -> [DamageRect] {
        guard width > 0, height > 0 else { return [] }
        guard let region else { return [DamageRect(x: 0, y: 0, width: width, height: height)] }
        let rects = region.compactMap { r -> DamageRect? in
            let (x0, y0) = (max(r.x, 0), max(r.y, 0))
            let (x1, y1) = (min(r.x + r.width, width), min(r.y + r.height, height))
            return x1 > x0 && y1 > y0 ? DamageRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
        }
        guard rects.count > maxScanoutCopyRegions else { return rects }
        return [rects.dropFirst().reduce(rects[0]) { $0.union($1) }]
    }

    /// Records a barrier over all of `buffer`, moving it from queue family `from` to `to` (both
    /// `VK_QUEUE_FAMILY_IGNORED` for none).
    static func bufferBarrier(
        _ cb: VkCommandBuffer, _ buffer: VkBuffer, from: UInt32, to: UInt32, srcStage: VkPipelineStageFlags2,
        srcAccess: VkAccessFlags2, dstStage: VkPipelineStageFlags2, dstAccess: VkAccessFlags2
    ) {
        var barrier = VkBufferMemoryBarrier2()
        barrier.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2
        barrier.srcStageMask = srcStage
        barrier.srcAccessMask = srcAccess
        barrier.dstStageMask = dstStage
        barrier.dstAccessMask = dstAccess
        barrier.srcQueueFamilyIndex = from
        barrier.dstQueueFamilyIndex = to
        barrier.buffer = buffer
        barrier.size = VkDeviceSize(VK_WHOLE_SIZE)
        var dependency = VkDependencyInfo()
        dependency.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO
        dependency.bufferMemoryBarrierCount = 1
        withUnsafePointer(to: &barrier) { p in
            dependency.pBufferMemoryBarriers = p
            vkCmdPipelineBarrier2(cb, &dependency)
        }
    }
}

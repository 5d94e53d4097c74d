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
    public func copy(_ target: any RenderTarget, into destination: any ScanoutDestination) throws {
        guard let target = target as? VulkanTarget, target.layout != VK_IMAGE_LAYOUT_UNDEFINED else {
            throw VulkanUnsupported("a scan-out copy needs a target this renderer has drawn")
        }
        guard let destination = destination as? VulkanScanoutBuffer, destination.vk === vk else {
            throw VulkanUnsupported("foreign scan-out destination")
        }
        let layout = destination.layout
        let frame = try submit { cb in
            if destination.kind == .dmaBuf {
                Self.bufferBarrier(
                    cb, destination.buffer, from: VK_QUEUE_FAMILY_EXTERNAL, to: vk.queueFamily,
                    srcStage: VK_PIPELINE_STAGE_2_NONE, srcAccess: 0, dstStage: VK_PIPELINE_STAGE_2_COPY_BIT,
                    dstAccess: VK_ACCESS_2_TRANSFER_WRITE_BIT)
            }
            makeCopySource(cb, target)
            recordBufferCopy(
                cb, image: target.image, level: 0, width: min(layout.width, target.width),
                height: min(layout.height, target.height), into: destination.buffer, offset: layout.offset,
                rowLength: layout.stride / 4)
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
        try waitUntilFinished(frame)
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

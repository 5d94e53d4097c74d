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
    /// A dma-buf is handed to the display engine afterwards: the copy ends with a release of the buffer
    /// to `VK_QUEUE_FAMILY_EXTERNAL`.
    public func copy(_ target: any RenderTarget, into destination: any ScanoutDestination) throws {
        guard let target = target as? VulkanTarget, target.layout != VK_IMAGE_LAYOUT_UNDEFINED else {
            throw VulkanUnsupported("a scan-out copy needs a target this renderer has drawn")
        }
        guard let destination = destination as? VulkanScanoutBuffer, destination.vk === vk else {
            throw VulkanUnsupported("foreign scan-out destination")
        }
        let layout = destination.layout
        let frame = try submit { cb in
            if target.layout != VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL {
                barrier(
                    cb, target, to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                    srcStage: VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, srcAccess: 0,
                    dstStage: VK_PIPELINE_STAGE_2_COPY_BIT, dstAccess: VK_ACCESS_2_TRANSFER_READ_BIT, discard: false)
            }
            var region = VkBufferImageCopy()
            region.bufferOffset = VkDeviceSize(layout.offset)
            region.bufferRowLength = UInt32(layout.stride / 4)
            region.imageSubresource = VkImageSubresourceLayers(
                aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
            region.imageExtent = VkExtent3D(
                width: UInt32(min(layout.width, target.width)), height: UInt32(min(layout.height, target.height)),
                depth: 1)
            vkCmdCopyImageToBuffer(
                cb, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, destination.buffer, 1, &region)
            var release = VkBufferMemoryBarrier2()
            release.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2
            release.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT
            release.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT
            release.buffer = destination.buffer
            release.size = VkDeviceSize(VK_WHOLE_SIZE)
            if destination.kind == .dmaBuf {
                release.srcQueueFamilyIndex = vk.queueFamily
                release.dstQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL
            } else {
                // The display reads the mapping once the fence has signalled: make the writes visible
                // to the host.
                release.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
                release.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
                release.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT
                release.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT
            }
            var dependency = VkDependencyInfo()
            dependency.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO
            dependency.bufferMemoryBarrierCount = 1
            withUnsafePointer(to: &release) { p in
                dependency.pBufferMemoryBarriers = p
                vkCmdPipelineBarrier2(cb, &dependency)
            }
        }
        target.storage.lastUsedFrame = frame
        try waitUntilFinished(frame)
    }
}

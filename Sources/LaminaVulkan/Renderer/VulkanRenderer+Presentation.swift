import CVulkan
import LaminaServer

extension VulkanRenderer {
    /// How long an acquire waits for a swapchain image before the present fails (and the server
    /// retries at the next refresh), in nanoseconds.
    static let acquireTimeout: UInt64 = 1_000_000_000

    /// Shows `target`'s pixels (drawn by `render`) in `swapchain`'s window: acquires an image, copies
    /// the target into it as one more frame on the timeline, and queues it for presentation.
    ///
    /// The swapchain presents in FIFO order, so this blocks while every image waits to be shown (the
    /// window's refresh paces the caller). When the swapchain is out of date or suboptimal it is made
    /// again at the window's size, once per call; when the window has no area nothing is shown and
    /// this returns. Throws when no image comes within a second or the swapchain stays out of date.
    public func present(_ target: any RenderTarget, on swapchain: VulkanSwapchain) throws {
        guard let target = target as? VulkanTarget, target.layout != VK_IMAGE_LAYOUT_UNDEFINED else {
            throw VulkanUnsupported("present needs a target this renderer has drawn")
        }
        for _ in 0..<2 {
            if swapchain.needsRecreation { try swapchain.recreate() }
            guard let generation = swapchain.generation else { return }
            let acquire = generation.nextAcquire
            generation.nextAcquire = (acquire + 1) % generation.acquireSemaphores.count
            // The semaphore may be signalled again once the copy that last waited for it has finished.
            try waitUntilFinished(generation.acquireFrames[acquire])
            var index: UInt32 = 0
            let acquired = vkAcquireNextImageKHR(
                vk.device, generation.swapchain, Self.acquireTimeout, generation.acquireSemaphores[acquire], nil,
                &index)
            if acquired == VK_ERROR_OUT_OF_DATE_KHR {
                swapchain.needsRecreation = true
                continue
            }
            if acquired == VK_TIMEOUT || acquired == VK_NOT_READY {
                throw VulkanUnsupported("no swapchain image became free within a second")
            }
            if acquired == VK_SUBOPTIMAL_KHR {
                swapchain.needsRecreation = true
            } else {
                try check(acquired, "vkAcquireNextImageKHR")
            }
            let frame = try submitCopy(
                of: target, into: generation, image: Int(index), waiting: generation.acquireSemaphores[acquire])
            generation.acquireFrames[acquire] = frame
            // The presentation below waits for the image's semaphore after this frame: only a later
            // frame's fence shows that it has begun, so the generation lives until the next frame.
            generation.lastUsedFrame = frame + 1
            target.storage.lastUsedFrame = frame
            var info = VkPresentInfoKHR()
            info.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR
            var wait: VkSemaphore? = generation.presentSemaphores[Int(index)]
            var handle: VkSwapchainKHR? = generation.swapchain
            let presented = withUnsafePointer(to: &wait) { semaphore in
                withUnsafePointer(to: &handle) { swapchainPointer in
                    withUnsafePointer(to: &index) { indexPointer in
                        info.waitSemaphoreCount = 1
                        info.pWaitSemaphores = semaphore
                        info.swapchainCount = 1
                        info.pSwapchains = swapchainPointer
                        info.pImageIndices = indexPointer
                        return vkQueuePresentKHR(vk.queue, &info)
                    }
                }
            }
            if presented == VK_ERROR_OUT_OF_DATE_KHR {
                swapchain.needsRecreation = true
                continue
            }
            if presented == VK_SUBOPTIMAL_KHR {
                swapchain.needsRecreation = true
            } else {
                try check(presented, "vkQueuePresentKHR")
            }
            return
        }
        throw VulkanUnsupported("the window's swapchain stayed out of date after it was made again")
    }

    /// Records and submits the copy of `target` into image `image` of `generation`: waits for
    /// `acquired` before writing the image, and signals the image's present semaphore. Returns the frame.
    func submitCopy(
        of target: VulkanTarget, into generation: SwapchainGeneration, image: Int, waiting acquired: VkSemaphore
    ) throws -> UInt64 {
        try submit(
            waiting: (acquired, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT), signalling: generation.presentSemaphores[image]
        ) { cb in
            recordCopy(
                cb, of: target, into: generation.images[image], width: generation.width, height: generation.height)
        }
    }

    /// Records the copy of `target` (in `TRANSFER_SRC_OPTIMAL` after `render`) into the swapchain image
    /// `image` of `width`×`height`, unscaled at the top left (the rest cleared to black when the sizes
    /// differ), leaving the image ready to present.
    func recordCopy(_ cb: VkCommandBuffer, of target: VulkanTarget, into image: VkImage, width: Int, height: Int) {
        let transfer = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT
        let write = VK_ACCESS_2_TRANSFER_WRITE_BIT
        // The draws (or a readback's copy) before this frame finish before the blit reads the target.
        Self.rawImageBarrier(
            cb, target.image, from: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
            srcStage: VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
            srcAccess: VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, dstStage: transfer,
            dstAccess: VK_ACCESS_2_TRANSFER_READ_BIT)
        target.layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL
        // The acquire semaphore is waited for at the transfer stage, which this barrier continues.
        Self.rawImageBarrier(
            cb, image, from: VK_IMAGE_LAYOUT_UNDEFINED, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, srcStage: transfer,
            srcAccess: 0, dstStage: transfer, dstAccess: write)
        let copyWidth = min(width, target.width)
        let copyHeight = min(height, target.height)
        let colour = VkImageSubresourceLayers(
            aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
        if copyWidth < width || copyHeight < height {
            var black = VkClearColorValue()
            black.float32 = (0, 0, 0, 1)
            var range = VkImageSubresourceRange(
                aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: 0, levelCount: 1, baseArrayLayer: 0,
                layerCount: 1)
            vkCmdClearColorImage(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &black, 1, &range)
            Self.rawImageBarrier(
                cb, image, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                srcStage: transfer, srcAccess: write, dstStage: transfer, dstAccess: write)
        }
        var blit = VkImageBlit()
        blit.srcSubresource = colour
        blit.dstSubresource = colour
        let corner = VkOffset3D(x: Int32(copyWidth), y: Int32(copyHeight), z: 1)
        blit.srcOffsets = (VkOffset3D(x: 0, y: 0, z: 0), corner)
        blit.dstOffsets = (VkOffset3D(x: 0, y: 0, z: 0), corner)
        vkCmdBlitImage(
            cb, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
            &blit, VK_FILTER_NEAREST)
        Self.rawImageBarrier(
            cb, image, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, to: VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
            srcStage: transfer, srcAccess: write, dstStage: VK_PIPELINE_STAGE_2_NONE, dstAccess: 0)
    }

    /// Records a layout transition of mip levels `levels` (level 0 unless given) of `image`, which
    /// may be one the renderer does not own (a swapchain's).
    static func rawImageBarrier(
        _ cb: VkCommandBuffer, _ image: VkImage, levels: Range<Int> = 0..<1, from old: VkImageLayout,
        to new: VkImageLayout, srcStage: VkPipelineStageFlags2, srcAccess: VkAccessFlags2,
        dstStage: VkPipelineStageFlags2, dstAccess: VkAccessFlags2
    ) {
        var b = VkImageMemoryBarrier2()
        b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2
        b.srcStageMask = srcStage
        b.srcAccessMask = srcAccess
        b.dstStageMask = dstStage
        b.dstAccessMask = dstAccess
        b.oldLayout = old
        b.newLayout = new
        b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
        b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
        b.image = image
        b.subresourceRange = VkImageSubresourceRange(
            aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: UInt32(levels.lowerBound),
            levelCount: UInt32(levels.count), baseArrayLayer: 0, layerCount: 1)
        var dependency = VkDependencyInfo()
        dependency.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO
        dependency.imageMemoryBarrierCount = 1
        withUnsafePointer(to: &b) { p in
            dependency.pImageMemoryBarriers = p
            vkCmdPipelineBarrier2(cb, &dependency)
        }
    }
}

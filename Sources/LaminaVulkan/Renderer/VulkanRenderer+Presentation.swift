import CVulkan
import LaminaServer

extension VulkanRenderer {
    /// How long an acquire waits for a swapchain image before the present fails (and the server
    /// retries at the next refresh), in nanoseconds.
    static let acquireTimeout: UInt64 = 1_000_000_000

    /// Shows `target`'s pixels (drawn by `render`) in `swapchain`'s window: acquires an image, copies
    /// the target into it as one more frame on the timeline, and queues it for presentation.
    ///
    /// `damage` is what the frame changed against the one drawn into `target` before it (the display
    /// list's `damage`; nil: all of it). Each image keeps the frame it last showed, so only what the
    /// acquired image lacks is copied (`BufferDamage`, by the image's age; the whole frame for an image
    /// that holds none), and where the device has `VK_KHR_incremental_present` the present names the
    /// changed rectangles.
    ///
    /// The swapchain presents in FIFO order, so this blocks while every image waits to be shown (the
    /// window's refresh paces the caller). When the swapchain is out of date or suboptimal it is made
    /// again at the window's size, once per call; when the window has no area nothing is shown and
    /// this returns. Throws when no image comes within a second or the swapchain stays out of date.
    public func present(_ target: any RenderTarget, on swapchain: VulkanSwapchain, damage: [DamageRect]? = nil) throws {
        guard let target = target as? VulkanTarget, target.layout != VK_IMAGE_LAYOUT_UNDEFINED else {
            throw VulkanUnsupported("present needs a target this renderer has drawn")
        }
        try refuseIfDeviceLost()
        for _ in 0..<2 {
            if swapchain.needsRecreation { try swapchain.recreate() }
            guard let generation = swapchain.generation else { return }
            generation.damage.record(damage)
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
                try notingDeviceLoss { try check(acquired, "vkAcquireNextImageKHR") }
            }
            let region = Self.swapchainCopyRects(
                generation.damage.missing(in: Int(index)), width: min(generation.width, target.width),
                height: min(generation.height, target.height))
            let frame = try submitCopy(
                of: target, into: generation, image: Int(index), region: region,
                waiting: generation.acquireSemaphores[acquire])
            generation.damage.filled(Int(index))
            lastPresentPixelsCopied = region?.reduce(0) { $0 + $1.area } ?? generation.width * generation.height
            generation.acquireFrames[acquire] = frame
            // The presentation below waits for the image's semaphore after this frame: only a later
            // frame's fence shows that it has begun, so the generation lives until the next frame.
            generation.lastUsedFrame = frame + 1
            target.storage.lastUsedFrame = frame
            var info = VkPresentInfoKHR()
            info.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR
            var wait: VkSemaphore? = generation.presentSemaphores[Int(index)]
            var handle: VkSwapchainKHR? = generation.swapchain
            // The rectangles that changed since the last present, where the device takes them (none
            // named when nothing changed: a region list may not be empty).
            var rectangles = (vk.presentsRegions && damage?.isEmpty == false ? damage : nil)?.prefix(
                Self.maxScanoutCopyRegions
            ).map {
                VkRectLayerKHR(
                    offset: VkOffset2D(x: Int32($0.x), y: Int32($0.y)),
                    extent: VkExtent2D(width: UInt32($0.width), height: UInt32($0.height)), layer: 0)
            }
            let presented = withUnsafePointer(to: &wait) { semaphore in
                withUnsafePointer(to: &handle) { swapchainPointer in
                    withUnsafePointer(to: &index) { indexPointer in
                        info.waitSemaphoreCount = 1
                        info.pWaitSemaphores = semaphore
                        info.swapchainCount = 1
                        info.pSwapchains = swapchainPointer
                        info.pImageIndices = indexPointer
                        guard rectangles != nil else { return vkQueuePresentKHR(vk.queue, &info) }
                        return rectangles!.withUnsafeMutableBufferPointer { rects in
                            var region = VkPresentRegionKHR(
                                rectangleCount: UInt32(rects.count), pRectangles: UnsafePointer(rects.baseAddress))
                            return withUnsafePointer(to: &region) { regionPointer in
                                var regions = VkPresentRegionsKHR()
                                regions.sType = VK_STRUCTURE_TYPE_PRESENT_REGIONS_KHR
                                regions.swapchainCount = 1
                                regions.pRegions = regionPointer
                                return withUnsafePointer(to: &regions) { regionsPointer in
                                    info.pNext = UnsafeRawPointer(regionsPointer)
                                    return vkQueuePresentKHR(vk.queue, &info)
                                }
                            }
                        }
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
                try notingDeviceLoss { try check(presented, "vkQueuePresentKHR") }
            }
            return
        }
        throw VulkanUnsupported("the window's swapchain stayed out of date after it was made again")
    }

    /// Records and submits the copy of `target` into image `image` of `generation`: waits for
    /// `acquired` before writing the image, and signals the image's present semaphore. Returns the frame.
    /// `region` (nil: all of the target) is what the image lacks; the rest of the image keeps the frame
    /// it showed last.
    func submitCopy(
        of target: VulkanTarget, into generation: SwapchainGeneration, image: Int, region: [DamageRect]? = nil,
        waiting acquired: VkSemaphore
    ) throws -> UInt64 {
        try submit(
            waiting: (acquired, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT), signalling: generation.presentSemaphores[image]
        ) { cb in
            recordCopy(
                cb, of: target, into: generation.images[image], width: generation.width, height: generation.height,
                region: region)
        }
    }

    /// `scanoutCopyRects` for a swapchain image: nil (copy all) stays nil.
    static func swapchainCopyRects(_ region: [DamageRect]?, width: Int, height: Int) -> [DamageRect]? {
        region.map { scanoutCopyRects($0, width: width, height: height) }
    }

    /// Records the copy of `target` (in `TRANSFER_SRC_OPTIMAL` after `render`) into the swapchain image
    /// `image` of `width`×`height`, unscaled at the top left (the rest cleared to black when the sizes
    /// differ), leaving the image ready to present.
    ///
    /// With a `region` only its rectangles are copied and the image keeps the rest of what it showed
    /// (it is taken from the present layout, not discarded).
    func recordCopy(
        _ cb: VkCommandBuffer, of target: VulkanTarget, into image: VkImage, width: Int, height: Int,
        region: [DamageRect]? = nil
    ) {
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
            cb, image, from: region == nil ? VK_IMAGE_LAYOUT_UNDEFINED : VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
            to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, srcStage: transfer, srcAccess: 0, dstStage: transfer,
            dstAccess: write)
        let copyWidth = min(width, target.width)
        let copyHeight = min(height, target.height)
        let colour = VkImageSubresourceLayers(
            aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
        if region == nil, copyWidth < width || copyHeight < height {
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
        let rects = region ?? [DamageRect(x: 0, y: 0, width: copyWidth, height: copyHeight)]
        var blits = rects.map { r in
            var blit = VkImageBlit()
            blit.srcSubresource = colour
            blit.dstSubresource = colour
            let start = VkOffset3D(x: Int32(r.x), y: Int32(r.y), z: 0)
            let end = VkOffset3D(x: Int32(r.x + r.width), y: Int32(r.y + r.height), z: 1)
            blit.srcOffsets = (start, end)
            blit.dstOffsets = (start, end)
            return blit
        }
        if !blits.isEmpty {
            vkCmdBlitImage(
                cb, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                UInt32(blits.count), &blits, VK_FILTER_NEAREST)
        }
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

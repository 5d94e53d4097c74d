import CVulkan
import Foundation
import LaminaServer

/// Draws display lists with Vulkan 1.3 (dynamic rendering, synchronization2) into offscreen targets.
///
/// Up to `framesInFlight` frames (submissions) execute at once, each from its own `FrameSlot`: `render`
/// waits only for the slot's previous frame, and objects a frame used go to a graveyard that frees them
/// once that frame's fence has signalled (see docs/architecture.md, "GPU lifetimes"). `readPixels` waits
/// for its own copy, and so for every frame before it. Confined to the server's render thread.
public final class VulkanRenderer: Renderer {
    /// The device the renderer draws with.
    public let vk: VulkanDevice
    let pipelines: Pipelines
    let samplers: Samplers
    let commandPool: VkCommandPool
    let graveyard = Graveyard()
    var slots: [FrameSlot] = []
    var timeline: FrameTimeline
    var images: [RenderImageID: ImportedImage] = [:]
    var nextImage: UInt64 = 1
    /// The images offscreen passes draw into.
    var passPool = PassImagePool()
    /// The frame (submission) number of the last `render(_:into:)` that drew (0 for none).
    public private(set) var lastRenderedFrame: UInt64 = 0
    /// The bytes `copy(_:into:region:)` has written into scan-out buffers since the renderer was made.
    public internal(set) var scanoutBytesCopied = 0
    /// The pixels the last `present(_:on:damage:)` copied into the swapchain image it showed: the
    /// whole frame, or only what that image lacked of it.
    public internal(set) var lastPresentPixelsCopied = 0
    /// What the last `render(_:into:)` that drew did with its offscreen passes (`takePassImages`).
    public internal(set) var lastRenderCounters = RenderCounters()
    /// Guards `lossCause`, which other threads read (`deviceLoss`).
    let lossLock = NSLock()
    /// The call that reported `VK_ERROR_DEVICE_LOST`, nil while the device runs
    /// (`VulkanRenderer+DeviceLoss.swift`).
    var lossCause: VulkanError?
    /// A test hook: the draws (`render(_:into:)` submissions) left before the next draw's submit
    /// reports `VK_ERROR_DEVICE_LOST` without reaching the device (nil: never). laminad sets it from
    /// `LAMINA_TEST_LOSE_DEVICE_AFTER_FRAMES`.
    public var drawsBeforeTestDeviceLoss: Int?
    /// The instance buffer of the frame being recorded (the next frame's slot).
    var instances: HostBuffer? {
        get { slots[timeline.slot(of: timeline.next)].instances }
        set { slots[timeline.slot(of: timeline.next)].instances = newValue }
    }

    /// Creates the renderer, builds every pipeline and sampler, and makes `framesInFlight` frame slots.
    public init(device: VulkanDevice, framesInFlight: Int = 2) throws {
        precondition(framesInFlight >= 1)
        vk = device
        pipelines = try Pipelines(device, format: VulkanTarget.format)
        samplers = try Samplers(device)
        timeline = FrameTimeline(framesInFlight: framesInFlight)
        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT.rawValue
        poolInfo.queueFamilyIndex = device.queueFamily
        var pool: VkCommandPool?
        try check(vkCreateCommandPool(device.device, &poolInfo, nil, &pool), "vkCreateCommandPool")
        commandPool = pool!
        do {
            for _ in 0..<framesInFlight { slots.append(try FrameSlot(device, pool: commandPool, graveyard: graveyard)) }
        } catch {
            slots = []
            vkDestroyCommandPool(device.device, commandPool, nil)
            throw error
        }
    }

    /// Creates a renderer on a new device (see `VulkanDevice.init`).
    public convenience init(validation: Bool, preferredDevice: String? = nil, framesInFlight: Int = 2) throws {
        try self.init(
            device: VulkanDevice(validation: validation, preferredName: preferredDevice),
            framesInFlight: framesInFlight)
    }

    /// The Vulkan device's name, for logs.
    public var deviceName: String { vk.name }

    /// The validation layer's messages so far (empty when validation is off).
    public var validationMessages: [String] { vk.validation?.messages ?? [] }

    /// Makes a `B8G8R8A8_UNORM` target of the given size, owned by this renderer.
    public func makeTarget(width: Int, height: Int) throws -> any RenderTarget {
        try VulkanTarget(vk, width: width, height: height, graveyard: graveyard)
    }

    /// Uploads the list's instances, clears `target` and draws each batch; returns with the frame in flight.
    ///
    /// When the list names its damage and `target` holds the frame drawn before it, the rest of the
    /// image is kept: each damaged rectangle is cleared and every batch drawn again inside it (a scissor),
    /// and a list with no damage draws nothing at all.
    public func render(_ list: DisplayList, into target: any RenderTarget) throws {
        guard let target = target as? VulkanTarget else { throw VulkanUnsupported("foreign render target") }
        try refuseIfDeviceLost()
        let regions =
            target.holdsFrame && target.width == list.width && target.height == list.height ? list.damage : nil
        if let regions, regions.isEmpty { return }
        let slot = try prepareNextFrame()
        // A partial redraw draws only the instances that touch the damage.
        var drawn = list
        if let regions { drawn.batches = list.batches(touching: regions) }
        // Offscreen passes are drawn whole, before the display's pass that samples them; a pass whose
        // image is kept from an earlier frame is not drawn (`takePassImages`).
        let frame = timeline.next
        let (passImages, kept) = try takePassImages(drawn)
        // A frame that fails before it is submitted drew none of its passes: their images hold nothing.
        var submitted = false
        defer { if !submitted { passPool.forgetContent(takenBy: frame) } }
        let passGroups = drawn.passes.indices.map { kept[$0] ? [] : drawn.passes[$0].batches }
        let (uploaded, groupEnds) = try upload(drawn, groups: passGroups + [drawn.batches])
        var draws = uploaded
        scalePassCoordinates(&draws, passes: drawn.passes, images: passImages)
        let sampled = try bindTextures(&draws, slot: slot, passImages: passImages)
        lastRenderedFrame = try submit(draw: true) { cb in
            slot.writeStartTimestamp(cb)
            for image in sampled where image.layout != image.sampledLayout {
                // Read back or drawn into since its upload (or a host surface's first use): make every
                // level readable by shaders again.
                Self.imageBarrier(
                    cb, image, levels: 0..<image.mipLevels, from: image.layout, to: image.sampledLayout,
                    srcStage: VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, srcAccess: VK_ACCESS_2_MEMORY_WRITE_BIT,
                    dstStage: VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, dstAccess: VK_ACCESS_2_SHADER_SAMPLED_READ_BIT)
                image.layout = image.sampledLayout
            }
            for (index, pass) in drawn.passes.enumerated() where !kept[index] {
                let first = index == 0 ? 0 : groupEnds[index - 1]
                recordPass(
                    cb, pass, into: passImages[index], draws: draws[first..<groupEnds[index]],
                    displayWidth: list.width, displayHeight: list.height)
            }
            let mainDraws = draws[(groupEnds.dropLast().last ?? 0)...]
            // A partial redraw keeps (loads) the image; a full one discards and clears it.
            barrier(
                cb, target, to: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                srcStage: VK_PIPELINE_STAGE_2_COPY_BIT, srcAccess: 0,
                dstStage: VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                dstAccess: regions == nil
                    ? VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT
                    : VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                discard: regions == nil)
            var attachment = VkRenderingAttachmentInfo()
            attachment.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO
            attachment.imageView = target.view
            attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL
            attachment.loadOp = regions == nil ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD
            attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE
            let c = list.clearColor
            attachment.clearValue.color.float32 = (c.x, c.y, c.z, c.w)
            let whole = VkRect2D(
                offset: VkOffset2D(x: 0, y: 0),
                extent: VkExtent2D(width: UInt32(target.width), height: UInt32(target.height)))
            let rects = regions.map { $0.map(Self.rect) } ?? [whole]
            let area =
                regions.map { Self.rect($0.reduce(DamageRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }) }
                ?? whole
            var info = VkRenderingInfo()
            info.sType = VK_STRUCTURE_TYPE_RENDERING_INFO
            info.renderArea = area
            info.layerCount = 1
            info.colorAttachmentCount = 1
            withUnsafePointer(to: &attachment) { p in
                info.pColorAttachments = p
                vkCmdBeginRendering(cb, &info)
            }
            var viewport = VkViewport(
                x: 0, y: 0, width: Float(target.width), height: Float(target.height),
                minDepth: 0, maxDepth: 1)
            vkCmdSetViewport(cb, 0, 1, &viewport)
            var push = SIMD4<Float>(Float(target.width), Float(target.height), 0, 0)
            vkCmdPushConstants(cb, pipelines.layout, Pipelines.pushStages, 0, 16, &push)
            for rect in rects {
                var scissor = rect
                vkCmdSetScissor(cb, 0, 1, &scissor)
                if regions != nil {
                    var clear = VkClearAttachment()
                    clear.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT.rawValue
                    clear.colorAttachment = 0
                    clear.clearValue.color.float32 = (c.x, c.y, c.z, c.w)
                    var clearRect = VkClearRect(rect: rect, baseArrayLayer: 0, layerCount: 1)
                    vkCmdClearAttachments(cb, 1, &clear, 1, &clearRect)
                }
                recordDraws(cb, mainDraws)
            }
            vkCmdEndRendering(cb)
            barrier(
                cb, target, to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                srcStage: VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                srcAccess: VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                dstStage: VK_PIPELINE_STAGE_2_COPY_BIT, dstAccess: VK_ACCESS_2_TRANSFER_READ_BIT, discard: false)
            slot.writeEndTimestamp(cb)
        }
        submitted = true
        target.holdsFrame = true
        passPool.retireIdle(before: timeline.next, drawn: frame, into: graveyard)
    }

    /// The Vulkan rectangle of a damaged rectangle.
    static func rect(_ r: DamageRect) -> VkRect2D {
        VkRect2D(
            offset: VkOffset2D(x: Int32(r.x), y: Int32(r.y)),
            extent: VkExtent2D(width: UInt32(max(0, r.width)), height: UInt32(max(0, r.height))))
    }

    /// Copies `target` to host memory after the frames that drew it have finished.
    public func readPixels(_ target: any RenderTarget) throws -> Bitmap {
        guard let target = target as? VulkanTarget else { throw VulkanUnsupported("foreign render target") }
        guard target.layout != VK_IMAGE_LAYOUT_UNDEFINED else {
            throw VulkanUnsupported("readPixels before any render into this target")
        }
        let frame = try submit { cb in
            makeCopySource(cb, target)
            copyToHost(
                cb, image: target.image, level: 0, width: target.width, height: target.height,
                into: target.readback.buffer)
        }
        target.lastReadbackFrame = frame
        target.storage.lastUsedFrame = frame
        try waitUntilFinished(frame)
        let count = target.width * target.height * 4
        let pixels = [UInt8](UnsafeRawBufferPointer(start: target.readback.mapped, count: count))
        return Bitmap(width: target.width, height: target.height, stride: target.width * 4, pixels: pixels)
    }

    struct Draw {
        var pipeline: VkPipeline
        var bufferOffset: Int
        var firstInstance: Int
        var count: Int
        /// What a textured batch samples.
        var texture: TextureSampling?
        /// The set binding the texture, once `bindTextures` has made it.
        var descriptorSet: VkDescriptorSet?
        /// True for a textured batch whose image is no longer imported: it draws nothing.
        var skipped = false
        /// The batch's `DrawKind.id`.
        var kind = 0
    }

    /// Gives every textured draw a descriptor set from `slot`'s pools (one per distinct image and
    /// sampling in the frame) and marks the images used by the frame being recorded, so that a release
    /// retires them only after it. A draw whose image was released is skipped. Returns the images.
    /// An offscreen pass's image (`passImages`, by pass index) is bound like the others but left out of
    /// the result: its pass moves it to the sampled layout itself.
    func bindTextures(_ draws: inout [Draw], slot: FrameSlot, passImages: [VulkanImage] = []) throws -> [VulkanImage] {
        var sets: [TextureSampling: VkDescriptorSet] = [:]
        var used: [VulkanImage] = []
        for index in draws.indices {
            guard let texture = draws[index].texture else { continue }
            if let set = sets[texture] {
                draws[index].descriptorSet = set
                continue
            }
            let passIndex = texture.image.offscreenPassIndex
            let found = passIndex.map { $0 < passImages.count ? passImages[$0] : nil } ?? images[texture.image]?.storage
            guard let storage = found else {
                draws[index].skipped = true
                continue
            }
            let set = try slot.allocateSet(pipelines.textureSetLayout)
            let imageInfo = VkDescriptorImageInfo(
                sampler: try samplers.sampler(for: texture.filter, lodBias: texture.lodBias),
                // Nearest and linear read level 0 only; a view of that level alone keeps llvmpipe's
                // linear path (a view of the whole chain doubled the textured benchmark's time).
                imageView: texture.filter == .trilinear ? storage.view : storage.attachmentView,
                imageLayout: storage.sampledLayout)
            writeSampledImage(imageInfo, binding: 0, of: set)
            sets[texture] = set
            draws[index].descriptorSet = set
            if storage.lastUsedFrame != timeline.next {
                storage.lastUsedFrame = timeline.next
                if passIndex == nil { used.append(storage) }
            }
            // Binding 1: a YCbCr surface's chroma plane, else the same image again (lavapipe reads
            // every binding of a bound set, so none is left unwritten).
            let chroma = passIndex == nil ? images[texture.image]?.chroma : nil
            try bindSecond(chroma ?? storage, filter: chroma == nil ? texture : nil, to: set)
            if let chroma, chroma.lastUsedFrame != timeline.next {
                chroma.lastUsedFrame = timeline.next
                used.append(chroma)
            }
        }
        return used
    }

    /// Copies the instances into the instance buffer in batch order, one region per draw kind (in
    /// `DrawKind.all` order, each 256-byte aligned), byte for byte: no kind is special here. `groups`
    /// are the batches to draw (each offscreen pass's, then the display's); returns their draws, and
    /// where each group's draws end.
    func upload(_ list: DisplayList, groups: [[DrawBatch]]) throws -> (draws: [Draw], groupEnds: [Int]) {
        let kinds = list.instances.count
        var counts = [Int](repeating: 0, count: kinds)
        for group in groups { for batch in group { counts[batch.kind] += batch.instances.count } }
        var bases = [Int](repeating: 0, count: kinds)
        var end = 0
        for kind in 0..<kinds {
            bases[kind] = (end + 255) & ~255
            end = bases[kind] + counts[kind] * list.instances[kind].stride
        }
        let needed = max(end, 4096)
        if instances == nil || instances!.size < needed {
            let grown = max(needed, (instances?.size ?? 0) * 2)
            instances = nil
            instances = try HostBuffer(vk, size: grown, usage: VK_BUFFER_USAGE_VERTEX_BUFFER_BIT.rawValue)
        }
        let base = instances!.mapped
        var draws: [Draw] = []
        draws.reserveCapacity(list.batches.count)
        var groupEnds: [Int] = []
        var next = [Int](repeating: 0, count: kinds)
        for group in groups {
            for batch in group where !batch.instances.isEmpty {
                let kind = batch.kind
                let buffer = list.instances[kind]
                let stride = buffer.stride
                let first = next[kind]
                buffer.bytes.withUnsafeBytes { source in
                    // One copy per run of consecutive instances (batches are mostly such runs).
                    var out = base + bases[kind] + first * stride
                    let indices = batch.instances
                    var k = 0
                    while k < indices.count {
                        let start = Int(indices[k])
                        var end = start + 1
                        k += 1
                        while k < indices.count && Int(indices[k]) == end {
                            end += 1
                            k += 1
                        }
                        precondition(start >= 0 && end <= buffer.count, "batch names a missing instance")
                        out.copyMemory(from: source.baseAddress! + start * stride, byteCount: (end - start) * stride)
                        out += (end - start) * stride
                    }
                }
                next[kind] = first + batch.instances.count
                draws.append(
                    Draw(
                        pipeline: pipelines.byKind[kind], bufferOffset: bases[kind], firstInstance: first,
                        count: batch.instances.count, texture: batch.texture,
                        skipped: DrawKind.all[kind].samplesTexture && batch.texture == nil, kind: kind))
            }
            groupEnds.append(draws.count)
        }
        return (draws, groupEnds)
    }

    /// Records with `body` into the next frame's slot (waiting first for that slot's previous frame) and
    /// submits it without waiting. With `wait`, the submission waits for that semaphore at its stage
    /// before running; with `signal`, it signals that semaphore when done (a swapchain's acquire and
    /// present semaphores). Returns the new frame's value. A `draw` (a display list's frame) counts
    /// towards the test hook `drawsBeforeTestDeviceLoss`.
    @discardableResult
    func submit(
        waiting wait: (VkSemaphore, VkPipelineStageFlags2)? = nil, signalling signal: VkSemaphore? = nil,
        draw: Bool = false, _ body: (VkCommandBuffer) throws -> Void
    ) throws -> UInt64 {
        let slot = try prepareNextFrame()
        let commandBuffer = slot.commandBuffer
        try check(vkResetCommandBuffer(commandBuffer, 0), "vkResetCommandBuffer")
        var begin = VkCommandBufferBeginInfo()
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT.rawValue
        try check(vkBeginCommandBuffer(commandBuffer, &begin), "vkBeginCommandBuffer")
        try body(commandBuffer)
        try check(vkEndCommandBuffer(commandBuffer), "vkEndCommandBuffer")
        var bufferInfo = VkCommandBufferSubmitInfo()
        bufferInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO
        bufferInfo.commandBuffer = commandBuffer
        try withArena { a in
            var submit = VkSubmitInfo2()
            submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2
            submit.commandBufferInfoCount = 1
            submit.pCommandBufferInfos = UnsafePointer(a.new(bufferInfo))
            if let (semaphore, stage) = wait {
                var waitInfo = VkSemaphoreSubmitInfo()
                waitInfo.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO
                waitInfo.semaphore = semaphore
                waitInfo.stageMask = stage
                submit.waitSemaphoreInfoCount = 1
                submit.pWaitSemaphoreInfos = UnsafePointer(a.new(waitInfo))
            }
            if let signal {
                var signalInfo = VkSemaphoreSubmitInfo()
                signalInfo.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO
                signalInfo.semaphore = signal
                signalInfo.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT
                submit.signalSemaphoreInfoCount = 1
                submit.pSignalSemaphoreInfos = UnsafePointer(a.new(signalInfo))
            }
            // The test hook's loss comes from where a real one would: this submit's result.
            let result =
                takeTestDeviceLoss(draw: draw) ? VK_ERROR_DEVICE_LOST : vkQueueSubmit2(vk.queue, 1, &submit, slot.fence)
            try notingDeviceLoss { try check(result, "vkQueueSubmit2") }
        }
        slot.fencePending = true
        slot.frame = timeline.didSubmit()
        return slot.frame
    }

    /// Records a layout transition of the target and remembers the new layout.
    func barrier(
        _ cb: VkCommandBuffer, _ target: VulkanTarget, to layout: VkImageLayout,
        srcStage: VkPipelineStageFlags2, srcAccess: VkAccessFlags2,
        dstStage: VkPipelineStageFlags2, dstAccess: VkAccessFlags2, discard: Bool
    ) {
        target.storage.lastUsedFrame = timeline.next
        Self.imageBarrier(
            cb, target.storage, levels: 0..<1, from: discard ? VK_IMAGE_LAYOUT_UNDEFINED : target.layout,
            to: layout, srcStage: srcStage, srcAccess: srcAccess, dstStage: dstStage, dstAccess: dstAccess)
        target.layout = layout
    }

    /// Waits for every frame still in flight, frees every retired object and then the frame slots.
    deinit {
        vkDeviceWaitIdle(vk.device)
        if timeline.submitted > 0 { timeline.didFinish(through: timeline.submitted) }
        images.removeAll()
        passPool.entries.removeAll()
        for slot in slots { slot.instances = nil }
        graveyard.close()
        slots = []
        vkDestroyCommandPool(vk.device, commandPool, nil)
    }
}

extension VulkanRenderer {
    /// Records a copy of mip `level` of `image` (in `TRANSFER_SRC_OPTIMAL`, `width`×`height` texels of 4
    /// bytes) into the host-visible `buffer`, and the barrier that makes it readable by the host once the
    /// frame's fence has signalled.
    func copyToHost(_ cb: VkCommandBuffer, image: VkImage, level: Int, width: Int, height: Int, into buffer: VkBuffer) {
        recordBufferCopy(cb, image: image, level: level, width: width, height: height, into: buffer)
        var memoryBarrier = VkMemoryBarrier2()
        memoryBarrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2
        memoryBarrier.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT
        memoryBarrier.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT
        memoryBarrier.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT
        memoryBarrier.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT
        var dependency = VkDependencyInfo()
        dependency.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO
        dependency.memoryBarrierCount = 1
        withUnsafePointer(to: &memoryBarrier) { p in
            dependency.pMemoryBarriers = p
            vkCmdPipelineBarrier2(cb, &dependency)
        }
    }

    /// Records a copy of mip `level` of `image` (in `TRANSFER_SRC_OPTIMAL`, `width`×`height` texels of 4
    /// bytes) into `buffer`: rows from byte `offset`, `rowLength` texels apart (0: tightly packed).
    func recordBufferCopy(
        _ cb: VkCommandBuffer, image: VkImage, level: Int, width: Int, height: Int, into buffer: VkBuffer,
        offset: Int = 0, rowLength: Int = 0
    ) {
        var region = VkBufferImageCopy()
        region.bufferOffset = VkDeviceSize(offset)
        region.bufferRowLength = UInt32(rowLength)
        region.imageSubresource = VkImageSubresourceLayers(
            aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: UInt32(level), baseArrayLayer: 0,
            layerCount: 1)
        region.imageExtent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &region)
    }

    /// Records the move of `target` (drawn by `render`) to `TRANSFER_SRC_OPTIMAL`, after every command
    /// before it, unless it is there already (as `render` leaves it).
    func makeCopySource(_ cb: VkCommandBuffer, _ target: VulkanTarget) {
        guard target.layout != VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL else { return }
        barrier(
            cb, target, to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, srcStage: VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            srcAccess: 0, dstStage: VK_PIPELINE_STAGE_2_COPY_BIT, dstAccess: VK_ACCESS_2_TRANSFER_READ_BIT,
            discard: false)
    }
}

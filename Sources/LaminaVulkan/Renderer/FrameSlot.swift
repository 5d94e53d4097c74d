import CVulkan

/// What one frame in flight owns: a command buffer, the fence its submission signals, the instance
/// buffer its draws read and the descriptor pools its textured batches' sets come from (reset once its
/// fence has been waited for, so a frame's sets live exactly as long as the frame). Slot `i` serves frames `f` with `f % framesInFlight == i`, so none of these is
/// touched again before the slot's previous frame has finished.
final class FrameSlot {
    let vk: VulkanDevice
    let commandBuffer: VkCommandBuffer
    let fence: VkFence
    /// The frame last submitted from this slot (0 for none).
    var frame: UInt64 = 0
    /// Whether `fence` belongs to a submission not yet waited for and reset.
    var fencePending = false
    /// Two timestamps, at the start and the end of a frame's drawing, where the device writes them.
    let timestamps: VkQueryPool?
    /// Whether the pending submission wrote `timestamps` (a frame's drawing; uploads and copies do not).
    var wroteTimestamps = false
    /// The GPU time of the slot's last frame that wrote timestamps, in milliseconds, read once its fence
    /// has signalled; taken by `VulkanRenderer.takeGPUTimes()`.
    var measured: (frame: UInt64, milliseconds: Double)?
    /// The instance buffer; replacing it retires the old one through `graveyard`.
    var instances: HostBuffer? {
        didSet { if let oldValue, oldValue !== instances { graveyard.retire(oldValue, lastUsedBy: frame) } }
    }
    let graveyard: Graveyard
    /// Descriptor pools, grown by one when the last is full; every set is freed at once by a reset.
    private var descriptorPools: [VkDescriptorPool] = []
    /// The pool sets are taken from now.
    private var currentPool = 0
    /// Sets per descriptor pool.
    static let setsPerPool: UInt32 = 64

    init(_ vk: VulkanDevice, pool: VkCommandPool, graveyard: Graveyard) throws {
        self.vk = vk
        self.graveyard = graveyard
        var allocation = VkCommandBufferAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
        allocation.commandPool = pool
        allocation.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY
        allocation.commandBufferCount = 1
        var buffer: VkCommandBuffer?
        try check(vkAllocateCommandBuffers(vk.device, &allocation, &buffer), "vkAllocateCommandBuffers")
        var fenceInfo = VkFenceCreateInfo()
        fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO
        var fence: VkFence?
        let created = vkCreateFence(vk.device, &fenceInfo, nil, &fence)
        guard created == VK_SUCCESS else {
            vkFreeCommandBuffers(vk.device, pool, 1, &buffer)
            throw VulkanError(created, call: "vkCreateFence")
        }
        commandBuffer = buffer!
        self.fence = fence!
        var pool: VkQueryPool?
        if vk.timestampPeriod != nil {
            var queryInfo = VkQueryPoolCreateInfo()
            queryInfo.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO
            queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP
            queryInfo.queryCount = 2
            if vkCreateQueryPool(vk.device, &queryInfo, nil, &pool) != VK_SUCCESS { pool = nil }
        }
        timestamps = pool
    }

    /// Records the start timestamp of a frame's drawing (after resetting the pair).
    func writeStartTimestamp(_ cb: VkCommandBuffer) {
        guard let timestamps else { return }
        vkCmdResetQueryPool(cb, timestamps, 0, 2)
        vkCmdWriteTimestamp2(cb, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, timestamps, 0)
        wroteTimestamps = true
    }

    /// Records the end timestamp of a frame's drawing.
    func writeEndTimestamp(_ cb: VkCommandBuffer) {
        guard let timestamps, wroteTimestamps else { return }
        vkCmdWriteTimestamp2(cb, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, timestamps, 1)
    }

    /// Reads the pair the finished submission wrote into `measured`.
    private func readTimestamps() {
        defer { wroteTimestamps = false }
        guard wroteTimestamps, let timestamps, let period = vk.timestampPeriod else { return }
        var ticks: (UInt64, UInt64) = (0, 0)
        let result = withUnsafeMutableBytes(of: &ticks) { raw in
            vkGetQueryPoolResults(
                vk.device, timestamps, 0, 2, raw.count, raw.baseAddress, 8, VK_QUERY_RESULT_64_BIT.rawValue)
        }
        guard result == VK_SUCCESS else { return }
        let mask = vk.timestampValidBits >= 64 ? UInt64.max : (UInt64(1) << vk.timestampValidBits) - 1
        let elapsed = (ticks.1 &- ticks.0) & mask
        measured = (frame, Double(elapsed) * period / 1e6)
    }

    /// Waits for the slot's last submission, if any is pending, and resets its fence for the next.
    func waitAndReset() throws {
        guard fencePending else { return }
        var f: VkFence? = fence
        try check(vkWaitForFences(vk.device, 1, &f, VkBool32(VK_TRUE), UInt64.max), "vkWaitForFences")
        try check(vkResetFences(vk.device, 1, &f), "vkResetFences")
        fencePending = false
        readTimestamps()
        for pool in descriptorPools { vkResetDescriptorPool(vk.device, pool, 0) }
        currentPool = 0
    }

    /// A descriptor set of `layout` for the frame being recorded in this slot, valid until the slot's
    /// fence is next waited for.
    func allocateSet(_ layout: VkDescriptorSetLayout) throws -> VkDescriptorSet {
        while true {
            if currentPool == descriptorPools.count { descriptorPools.append(try makePool()) }
            var info = VkDescriptorSetAllocateInfo()
            info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
            info.descriptorPool = descriptorPools[currentPool]
            info.descriptorSetCount = 1
            var set: VkDescriptorSet?
            var layout: VkDescriptorSetLayout? = layout
            let result = withUnsafePointer(to: &layout) { l in
                info.pSetLayouts = l
                return vkAllocateDescriptorSets(vk.device, &info, &set)
            }
            if result == VK_SUCCESS, let set { return set }
            guard result == VK_ERROR_OUT_OF_POOL_MEMORY || result == VK_ERROR_FRAGMENTED_POOL else {
                throw VulkanError(result, call: "vkAllocateDescriptorSets")
            }
            currentPool += 1
        }
    }

    private func makePool() throws -> VkDescriptorPool {
        var size = VkDescriptorPoolSize(
            type: VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            descriptorCount: Self.setsPerPool * UInt32(Pipelines.textureBindings))
        var info = VkDescriptorPoolCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO
        info.maxSets = Self.setsPerPool
        info.poolSizeCount = 1
        var pool: VkDescriptorPool?
        try withUnsafePointer(to: &size) { s in
            info.pPoolSizes = s
            try check(vkCreateDescriptorPool(vk.device, &info, nil, &pool), "vkCreateDescriptorPool")
        }
        return pool!
    }

    /// Destroys the fence and the descriptor pools; the command buffer goes with its pool. Call only
    /// when the device is idle.
    deinit {
        for pool in descriptorPools { vkDestroyDescriptorPool(vk.device, pool, nil) }
        vkDestroyFence(vk.device, fence, nil)
        if let timestamps { vkDestroyQueryPool(vk.device, timestamps, nil) }
    }
}

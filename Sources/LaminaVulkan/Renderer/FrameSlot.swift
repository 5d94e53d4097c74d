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
    }

    /// Waits for the slot's last submission, if any is pending, and resets its fence for the next.
    func waitAndReset() throws {
        guard fencePending else { return }
        var f: VkFence? = fence
        try check(vkWaitForFences(vk.device, 1, &f, VkBool32(VK_TRUE), UInt64.max), "vkWaitForFences")
        try check(vkResetFences(vk.device, 1, &f), "vkResetFences")
        fencePending = false
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
            type: VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, descriptorCount: Self.setsPerPool)
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
    }
}

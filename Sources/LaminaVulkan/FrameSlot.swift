import CVulkan

/// What one frame in flight owns: a command buffer, the fence its submission signals, and the instance
/// buffer its draws read. Slot `i` serves frames `f` with `f % framesInFlight == i`, so none of these is
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
    }

    /// Destroys the fence; the command buffer goes with its pool. Call only when the device is idle.
    deinit {
        vkDestroyFence(vk.device, fence, nil)
    }
}

import CVulkan

/// A host-visible, coherent, persistently mapped buffer.
final class HostBuffer {
    let vk: VulkanDevice
    let buffer: VkBuffer
    let memory: VkDeviceMemory
    let size: Int
    let mapped: UnsafeMutableRawPointer

    init(_ vk: VulkanDevice, size: Int, usage: VkBufferUsageFlags) throws {
        self.vk = vk
        self.size = size
        var info = VkBufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
        info.size = VkDeviceSize(size)
        info.usage = usage
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        var buffer: VkBuffer?
        try check(vkCreateBuffer(vk.device, &info, nil, &buffer), "vkCreateBuffer")
        var requirements = VkMemoryRequirements()
        vkGetBufferMemoryRequirements(vk.device, buffer, &requirements)
        let memory: VkDeviceMemory
        do {
            memory = try vk.allocateMemory(
                requirements,
                VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue)
        } catch {
            vkDestroyBuffer(vk.device, buffer, nil)
            throw error
        }
        var pointer: UnsafeMutableRawPointer?
        let bound = vkBindBufferMemory(vk.device, buffer, memory, 0)
        let mapped =
            bound == VK_SUCCESS ? vkMapMemory(vk.device, memory, 0, VkDeviceSize(VK_WHOLE_SIZE), 0, &pointer) : bound
        guard mapped == VK_SUCCESS, let pointer else {
            vkFreeMemory(vk.device, memory, nil)
            vkDestroyBuffer(vk.device, buffer, nil)
            throw VulkanError(mapped, call: bound == VK_SUCCESS ? "vkMapMemory" : "vkBindBufferMemory")
        }
        self.buffer = buffer!
        self.memory = memory
        self.mapped = pointer
    }

    deinit {
        vkUnmapMemory(vk.device, memory)
        vkFreeMemory(vk.device, memory, nil)
        vkDestroyBuffer(vk.device, buffer, nil)
    }
}

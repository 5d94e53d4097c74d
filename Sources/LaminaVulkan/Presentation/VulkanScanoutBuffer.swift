import CVulkan
import Glibc
import LaminaServer

/// Scan-out memory imported as a transfer-destination buffer: a dma-buf (`VK_EXT_external_memory_dma_buf`)
/// or a host mapping (`VK_EXT_external_memory_host`). The owner of the buffer and memory handles,
/// destroyed in `deinit`; `VulkanRenderer.copy` waits for its own copy, so none is in flight then.
/// Unlike the renderer's other objects it may be released on another thread (a KMS output frees its
/// buffers on the loop's thread when its connector goes, under the lock its `present` holds while
/// copying): destroying a buffer and its memory needs only that no command uses them.
final class VulkanScanoutBuffer: ScanoutDestination {
    let vk: VulkanDevice
    let kind: ScanoutImport
    let layout: ScanoutLayout
    let buffer: VkBuffer
    let memory: VkDeviceMemory

    /// Imports `memory` (which `layout` must fit) into a buffer spanning all of it.
    init(_ vk: VulkanDevice, memory imported: ScanoutMemory, layout: ScanoutLayout) throws {
        guard vk.scanoutImports.contains(imported.kind) else {
            throw VulkanUnsupported(
                "\(vk.name) cannot import scan-out memory as a \(imported.kind) (it imports "
                    + "\(vk.scanoutImports.isEmpty ? "none" : vk.scanoutImports.map(\.description).sorted().joined(separator: ", ")))"
            )
        }
        guard layout.fits(in: imported.size) else {
            throw VulkanUnsupported("scan-out layout \(layout) does not fit \(imported.size) bytes")
        }
        let handleType: VkExternalMemoryHandleTypeFlagBits
        var allocation = VkMemoryAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
        allocation.allocationSize = VkDeviceSize(imported.size)
        var typeBits: UInt32 = 0
        var duplicate: Int32 = -1
        switch imported {
        case .hostMapping(let address, let size):
            guard let type = vk.hostMappingHandleType, let properties = vk.getHostPointerProperties else {
                throw VulkanUnsupported("\(vk.name) cannot import a host mapping")
            }
            let alignment = max(vk.hostPointerAlignment, 1)
            guard Int(bitPattern: address) % alignment == 0, size % alignment == 0 else {
                throw VulkanUnsupported("a host mapping must start and end on a \(alignment)-byte boundary")
            }
            handleType = type
            var pointerProperties = VkMemoryHostPointerPropertiesEXT()
            pointerProperties.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT
            try check(
                properties(vk.device, type, address, &pointerProperties), "vkGetMemoryHostPointerPropertiesEXT")
            typeBits = pointerProperties.memoryTypeBits
        case .dmaBuf(let fd, _):
            guard let properties = vk.getFdProperties else {
                throw VulkanUnsupported("\(vk.name) cannot import a dma-buf")
            }
            handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT
            var fdProperties = VkMemoryFdPropertiesKHR()
            fdProperties.sType = VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR
            try check(properties(vk.device, handleType, fd, &fdProperties), "vkGetMemoryFdPropertiesKHR")
            typeBits = fdProperties.memoryTypeBits
            // A successful import owns the descriptor it is given: give it a copy.
            duplicate = fcntl(fd, F_DUPFD_CLOEXEC, 0)
            guard duplicate >= 0 else { throw VulkanUnsupported("dup of the dma-buf failed (errno \(errno))") }
        }
        var external = VkExternalMemoryBufferCreateInfo()
        external.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO
        external.handleTypes = handleType.rawValue
        var info = VkBufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
        info.size = VkDeviceSize(imported.size)
        info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        var buffer: VkBuffer?
        let created = withUnsafePointer(to: &external) { p in
            info.pNext = UnsafeRawPointer(p)
            return vkCreateBuffer(vk.device, &info, nil, &buffer)
        }
        guard created == VK_SUCCESS else {
            if duplicate >= 0 { close(duplicate) }
            throw VulkanError(created, call: "vkCreateBuffer")
        }
        var dedicatedRequirements = VkMemoryDedicatedRequirements()
        dedicatedRequirements.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS
        var requirements2 = VkMemoryRequirements2()
        requirements2.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2
        var query = VkBufferMemoryRequirementsInfo2()
        query.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2
        query.buffer = buffer
        withUnsafeMutablePointer(to: &dedicatedRequirements) { d in
            requirements2.pNext = UnsafeMutableRawPointer(d)
            vkGetBufferMemoryRequirements2(vk.device, &query, &requirements2)
        }
        let requirements = requirements2.memoryRequirements
        let dedicated = dedicatedRequirements.requiresDedicatedAllocation == VK_TRUE
        var memory: VkDeviceMemory?
        var result: VkResult
        do {
            guard requirements.size <= VkDeviceSize(imported.size) else {
                throw VulkanUnsupported(
                    "a buffer over \(imported.size) bytes of scan-out memory needs \(requirements.size) bytes")
            }
            allocation.memoryTypeIndex = try vk.memoryType(requirements.memoryTypeBits & typeBits, 0)
            switch imported {
            case .hostMapping(let address, _):
                var host = VkImportMemoryHostPointerInfoEXT()
                host.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT
                host.handleType = handleType
                host.pHostPointer = address
                result = withUnsafePointer(to: &host) { p in
                    allocation.pNext = UnsafeRawPointer(p)
                    return vkAllocateMemory(vk.device, &allocation, nil, &memory)
                }
            case .dmaBuf:
                var fd = VkImportMemoryFdInfoKHR()
                fd.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR
                fd.handleType = handleType
                fd.fd = duplicate
                // A driver that requires a dedicated allocation gets one, of exactly the buffer's size.
                var dedicatedInfo = VkMemoryDedicatedAllocateInfo()
                dedicatedInfo.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO
                dedicatedInfo.buffer = buffer
                if dedicated { allocation.allocationSize = requirements.size }
                result = withUnsafeMutablePointer(to: &dedicatedInfo) { d in
                    if dedicated { fd.pNext = UnsafeRawPointer(d) }
                    return withUnsafePointer(to: &fd) { p in
                        allocation.pNext = UnsafeRawPointer(p)
                        return vkAllocateMemory(vk.device, &allocation, nil, &memory)
                    }
                }
                if result == VK_SUCCESS { duplicate = -1 }
            }
            try check(result, "vkAllocateMemory (import)")
            try check(vkBindBufferMemory(vk.device, buffer, memory, 0), "vkBindBufferMemory")
        } catch {
            if duplicate >= 0 { close(duplicate) }
            if let memory { vkFreeMemory(vk.device, memory, nil) }
            vkDestroyBuffer(vk.device, buffer, nil)
            throw error
        }
        self.vk = vk
        self.kind = imported.kind
        self.layout = layout
        self.buffer = buffer!
        self.memory = memory!
    }

    deinit {
        vkDestroyBuffer(vk.device, buffer, nil)
        vkFreeMemory(vk.device, memory, nil)
    }
}

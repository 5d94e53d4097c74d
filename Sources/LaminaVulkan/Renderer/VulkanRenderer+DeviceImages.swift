import CVulkan
import Foundation
import Glibc
import LaminaProtocol
import LaminaServer

/// Vulkan-device drawables: images a client rendered on a device with the server's own UUIDs,
/// imported from their exported memory (opaque fds) and sampled in place (docs/surfaces.md).
extension VulkanRenderer {
    /// What the device accepts, measured now: its UUIDs, the row pitch of a one-pixel-wide linear
    /// BGRA image (when it imports host memory: the alignment of zero-copy surface rows), its
    /// `minImportedHostPointerAlignment`, and the allowed drawable formats it can import from an
    /// opaque fd and sample with optimal tiling.
    public var surfaceCapabilities: SurfaceCapabilities {
        var kinds: SurfaceCapabilities.MemoryKinds = []
        if vk.hostMappingHandleType != nil { kinds.insert(.hostMemory) }
        if vk.scanoutImports.contains(.dmaBuf) { kinds.insert(.dmaBuf) }
        let formats = vk.importsOpaqueFDs ? DrawableFormat.allowed.filter(importsOpaqueImages) : []
        if !formats.isEmpty { kinds.insert(.opaqueFD) }
        return SurfaceCapabilities(
            deviceUUID: vk.deviceUUID, driverUUID: vk.driverUUID,
            rowAlignment: vk.hostMappingHandleType == nil ? 0 : linearRowPitch(),
            hostPointerAlignment: UInt32(clamping: vk.hostPointerAlignment), memoryKinds: kinds,
            drawableFormats: formats)
    }

    /// The row pitch the device gives a linear, sampled, one-pixel-wide BGRA image (0 if it makes none).
    func linearRowPitch() -> UInt32 {
        var info = Self.linearSampledImage(format: VulkanImage.format, width: 1, height: 2)
        var image: VkImage?
        guard vkCreateImage(vk.device, &info, nil, &image) == VK_SUCCESS, let image else { return 0 }
        defer { vkDestroyImage(vk.device, image, nil) }
        var subresource = VkImageSubresource(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, arrayLayer: 0)
        var layout = VkSubresourceLayout()
        vkGetImageSubresourceLayout(vk.device, image, &subresource, &layout)
        return UInt32(clamping: layout.rowPitch)
    }

    /// Whether optimally tiled, sampled images of `format` can be imported from an opaque fd here.
    func importsOpaqueImages(_ format: UInt32) -> Bool {
        let vkFormat = VkFormat(rawValue: format)
        guard vk.supportsOptimal(vkFormat, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT.rawValue) else { return false }
        return importableExtent(
            of: VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, format: vkFormat, tiling: VK_IMAGE_TILING_OPTIMAL) != nil
    }

    /// Imports `image` with its exact create info on a dedicated allocation of its exported memory
    /// (a duplicate of its descriptor, which Vulkan owns once imported), and acquires it from the
    /// external queue family in layout `GENERAL`, the layout frames sample it in.
    public func importDeviceImage(_ image: DeviceImageMemory) throws -> ImportedSurface {
        try refuseIfDeviceLost()
        guard vk.importsOpaqueFDs else { throw DeviceImageRefusal("the device imports no opaque fds") }
        let d = image.description
        let limit = vk.maxImageDimension2D
        guard image.width <= limit, image.height <= limit else {
            throw RenderImageError.tooLarge(width: image.width, height: image.height, limit: limit)
        }
        var external = VkExternalMemoryImageCreateInfo()
        external.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO
        external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT.rawValue
        var info = VkImageCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO
        info.flags = d.flags
        info.imageType = VK_IMAGE_TYPE_2D
        info.format = VkFormat(rawValue: d.format)
        info.extent = VkExtent3D(width: d.width, height: d.height, depth: 1)
        info.mipLevels = 1
        info.arrayLayers = 1
        info.samples = VK_SAMPLE_COUNT_1_BIT
        info.tiling = VkImageTiling(rawValue: d.tiling)
        info.usage = d.usage
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
        var vkImage: VkImage?
        let created = withUnsafePointer(to: &external) { p in
            info.pNext = UnsafeRawPointer(p)
            return vkCreateImage(vk.device, &info, nil, &vkImage)
        }
        try check(created, "vkCreateImage (device image)")
        var memory: VkDeviceMemory?
        var view: VkImageView?
        do {
            var requirements = VkMemoryRequirements()
            vkGetImageMemoryRequirements(vk.device, vkImage, &requirements)
            // A dedicated allocation is exactly the image's size (VUID-VkMemoryDedicatedAllocateInfo-image-01433).
            guard d.allocationSize == requirements.size else {
                throw DeviceImageRefusal(
                    "its allocation of \(d.allocationSize) bytes is not the \(requirements.size) bytes the image "
                        + "needs here")
            }
            let fd = try image.fd.duplicate()
            var before = stat()
            fstat(fd.rawValue, &before)
            var dedicated = VkMemoryDedicatedAllocateInfo()
            dedicated.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO
            dedicated.image = vkImage
            var importInfo = VkImportMemoryFdInfoKHR()
            importInfo.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR
            importInfo.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT
            importInfo.fd = fd.rawValue
            var allocation = VkMemoryAllocateInfo()
            allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
            allocation.allocationSize = d.allocationSize
            allocation.memoryTypeIndex = try vk.memoryType(requirements.memoryTypeBits, 0)
            let result = withUnsafeMutablePointer(to: &dedicated) { dp in
                importInfo.pNext = UnsafeRawPointer(dp)
                return withUnsafePointer(to: &importInfo) { ip in
                    allocation.pNext = UnsafeRawPointer(ip)
                    return vkAllocateMemory(vk.device, &allocation, nil, &memory)
                }
            }
            // Imported memory owns the descriptor. A refused import leaves it to us by the spec, but
            // lavapipe closes it then too: it is closed here only while its number still names the
            // same file (never a descriptor another thread has been given since).
            let raw = fd.take()
            if result != VK_SUCCESS {
                var after = stat()
                if fstat(raw, &after) == 0, after.st_dev == before.st_dev, after.st_ino == before.st_ino {
                    Glibc.close(raw)
                }
            }
            guard result == VK_SUCCESS else {
                throw DeviceImageRefusal("the device refused its memory as an opaque fd (\(result))")
            }
            try check(vkBindImageMemory(vk.device, vkImage, memory, 0), "vkBindImageMemory (device image)")
            view = try VulkanImage.makeView(vk, vkImage, levels: 1, format: info.format)
        } catch {
            if let memory { vkFreeMemory(vk.device, memory, nil) }
            vkDestroyImage(vk.device, vkImage, nil)
            throw error
        }
        let storage = VulkanImage(
            vk, width: image.width, height: image.height, image: vkImage!, memory: memory!, view: view!,
            layout: VK_IMAGE_LAYOUT_UNDEFINED, sampledLayout: VK_IMAGE_LAYOUT_GENERAL, keepAlive: nil)
        let id = RenderImageID(rawValue: nextImage)
        nextImage += 1
        images[id] = ImportedImage(
            storage: storage, filtering: .linear, changesInPlace: true, acquiresFromExternal: true)
        try acquireDeviceImage(id)
        // Not zero copy in the frame worker's sense: each new frame is acquired (`refreshSurface`),
        // which copies nothing.
        return ImportedSurface(image: id, isZeroCopy: false, bytesCopied: 0)
    }

    /// Acquires a device image from the external queue family (the app released it there in layout
    /// `GENERAL` after rendering), before the next frame samples it.
    func acquireDeviceImage(_ id: RenderImageID) throws {
        guard let entry = images[id] else { throw RenderImageError.unknownImage(id) }
        let storage = entry.storage
        // The first acquire has no layout of ours to come from: the image is new to this device.
        let old = storage.layout == VK_IMAGE_LAYOUT_UNDEFINED ? VK_IMAGE_LAYOUT_UNDEFINED : VK_IMAGE_LAYOUT_GENERAL
        let frame = try submit { cb in
            var barrier = VkImageMemoryBarrier2()
            barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2
            barrier.srcStageMask = VK_PIPELINE_STAGE_2_NONE
            barrier.srcAccessMask = 0
            barrier.dstStageMask = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT
            barrier.dstAccessMask = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT
            barrier.oldLayout = old
            barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL
            barrier.srcQueueFamilyIndex =
                old == VK_IMAGE_LAYOUT_UNDEFINED ? VK_QUEUE_FAMILY_IGNORED : VK_QUEUE_FAMILY_EXTERNAL
            barrier.dstQueueFamilyIndex = old == VK_IMAGE_LAYOUT_UNDEFINED ? VK_QUEUE_FAMILY_IGNORED : vk.queueFamily
            barrier.image = storage.image
            barrier.subresourceRange = VkImageSubresourceRange(
                aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: 0, levelCount: 1, baseArrayLayer: 0,
                layerCount: 1)
            var dependency = VkDependencyInfo()
            dependency.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO
            dependency.imageMemoryBarrierCount = 1
            withUnsafePointer(to: &barrier) { p in
                dependency.pImageMemoryBarriers = p
                vkCmdPipelineBarrier2(cb, &dependency)
            }
        }
        storage.layout = VK_IMAGE_LAYOUT_GENERAL
        storage.lastUsedFrame = frame
    }
}

import CVulkan
import Foundation
import LaminaServer

/// Shared surfaces: a client's memfd sampled in place as a linear image on host memory
/// (`VK_EXT_external_memory_host`), or, where the device cannot, copied into a texture at each
/// new frame (docs/surfaces.md).
extension VulkanRenderer {
    /// Imports `surface` in place when `hostSurfaceImage` can, else as a single-level texture with its
    /// rows copied in now (the bytes copied are reported). A YCbCr surface's planes are imported as
    /// two images (`importVideoSurface`).
    public func importSurface(_ surface: SurfacePixels) throws -> ImportedSurface {
        try refuseIfDeviceLost()
        if let yCbCr = surface.yCbCr { return try importVideoSurface(surface, yCbCr) }
        try surface.pixels.validate(maximumDimension: vk.maxImageDimension2D)
        let id = RenderImageID(rawValue: nextImage)
        if let storage = hostSurfaceImage(surface) {
            nextImage += 1
            images[id] = ImportedImage(storage: storage, filtering: .linear, changesInPlace: true)
            return ImportedSurface(image: id, isZeroCopy: true, bytesCopied: 0)
        }
        let usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue | VK_IMAGE_USAGE_SAMPLED_BIT.rawValue
        let storage = try VulkanImage(vk, width: surface.width, height: surface.height, usage: usage)
        nextImage += 1
        images[id] = ImportedImage(
            storage: storage, filtering: .linear, copiedSurface: surface, changesInPlace: true)
        return ImportedSurface(image: id, isZeroCopy: false, bytesCopied: try refreshSurface(id))
    }

    /// Copies a copied surface's rows into its texture again (after the frames already submitted,
    /// before the next); 0 for a zero-copy surface. Returns the bytes copied.
    public func refreshSurface(_ image: RenderImageID) throws -> Int {
        guard let entry = images[image] else { throw RenderImageError.unknownImage(image) }
        if entry.acquiresFromExternal {
            try acquireDeviceImage(image)
            return 0
        }
        guard let surface = entry.copiedSurface else { return 0 }
        if surface.yCbCr != nil { return try refreshVideoSurface(entry) }
        let rowBytes = surface.width * 4
        let staging = try HostBuffer(
            vk, size: rowBytes * surface.height, usage: VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue)
        let base = surface.memory.bytes.baseAddress!
        for row in 0..<surface.height {
            memcpy(staging.mapped + row * rowBytes, base + row * surface.stride, rowBytes)
        }
        let frame = try submit { cb in recordUpload(cb, entry.storage, from: staging) }
        entry.storage.lastUsedFrame = frame
        graveyard.retire(staging, lastUsedBy: frame)
        return rowBytes * surface.height
    }

    /// A linear `B8G8R8A8_UNORM` image bound to the surface's own mapping, sampled in layout
    /// `GENERAL` (`hostImage`); nil where that cannot be.
    func hostSurfaceImage(_ surface: SurfacePixels) -> VulkanImage? {
        hostImage(
            surface, offset: 0, width: surface.width, height: surface.height, stride: surface.stride,
            format: VulkanImage.format)
    }

    /// A linear image of `format` bound to the mapping of `surface` at byte `offset`, its rows `stride`
    /// bytes apart,
    /// sampled in layout `GENERAL`; nil where that cannot be: the device imports no host memory, its
    /// alignment is not a divisor of the page size, it cannot sample linear images of the format or
    /// import host memory for them, the image's row pitch is not `stride`, `offset` is not a multiple
    /// of the image's alignment, or it needs more memory than the mapping has from `offset`. The
    /// image keeps the mapping alive until the graveyard frees it.
    func hostImage(
        _ surface: SurfacePixels, offset: Int, width: Int, height: Int, stride: Int, format: VkFormat
    ) -> VulkanImage? {
        let mapping = surface.memory
        guard let handleType = vk.hostMappingHandleType, let properties = vk.getHostPointerProperties,
            let address = mapping.bytes.baseAddress
        else { return nil }
        let length = mapping.bytes.count
        let alignment = max(vk.hostPointerAlignment, 1)
        guard Int(bitPattern: address) % alignment == 0, length % alignment == 0 else { return nil }
        var formatProperties = VkFormatProperties()
        vkGetPhysicalDeviceFormatProperties(vk.physicalDevice, format, &formatProperties)
        let sampled =
            VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT.rawValue | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT.rawValue
        guard formatProperties.linearTilingFeatures & sampled == sampled,
            importsLinearImages(of: handleType, format: format, width: width, height: height)
        else { return nil }
        var external = VkExternalMemoryImageCreateInfo()
        external.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO
        external.handleTypes = handleType.rawValue
        // External memory must start UNDEFINED (VUID-VkImageCreateInfo-pNext-01443). The first frame
        // moves it to GENERAL; a linear image's texels stay where the host wrote them.
        var info = Self.linearSampledImage(format: format, width: width, height: height)
        var image: VkImage?
        let created = withUnsafePointer(to: &external) { p in
            info.pNext = UnsafeRawPointer(p)
            return vkCreateImage(vk.device, &info, nil, &image)
        }
        guard created == VK_SUCCESS, let image else { return nil }
        var memory: VkDeviceMemory?
        var view: VkImageView?
        do {
            var subresource = VkImageSubresource(
                aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, arrayLayer: 0)
            var layout = VkSubresourceLayout()
            vkGetImageSubresourceLayout(vk.device, image, &subresource, &layout)
            var requirements = VkMemoryRequirements()
            vkGetImageMemoryRequirements(vk.device, image, &requirements)
            guard layout.offset == 0, Int(layout.rowPitch) == stride, offset % max(Int(requirements.alignment), 1) == 0,
                Int(requirements.size) <= length - offset
            else {
                throw VulkanUnsupported(
                    "rows \(stride) bytes apart from \(offset) in \(length) bytes; a linear image has them "
                        + "\(layout.rowPitch) apart from \(layout.offset), aligned to \(requirements.alignment), "
                        + "and needs \(requirements.size)")
            }
            var pointerProperties = VkMemoryHostPointerPropertiesEXT()
            pointerProperties.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT
            try check(
                properties(vk.device, handleType, address, &pointerProperties), "vkGetMemoryHostPointerPropertiesEXT")
            var allocation = VkMemoryAllocateInfo()
            allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
            allocation.allocationSize = VkDeviceSize(length)
            allocation.memoryTypeIndex = try vk.memoryType(
                requirements.memoryTypeBits & pointerProperties.memoryTypeBits, 0)
            var host = VkImportMemoryHostPointerInfoEXT()
            host.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT
            host.handleType = handleType
            host.pHostPointer = UnsafeMutableRawPointer(mutating: address)
            let result = withUnsafePointer(to: &host) { p in
                allocation.pNext = UnsafeRawPointer(p)
                return vkAllocateMemory(vk.device, &allocation, nil, &memory)
            }
            try check(result, "vkAllocateMemory (host surface)")
            try check(vkBindImageMemory(vk.device, image, memory, VkDeviceSize(offset)), "vkBindImageMemory")
            view = try VulkanImage.makeView(vk, image, levels: 1, format: format)
        } catch {
            if let memory { vkFreeMemory(vk.device, memory, nil) }
            vkDestroyImage(vk.device, image, nil)
            return nil
        }
        return VulkanImage(
            vk, width: width, height: height, image: image, memory: memory!, view: view!,
            layout: VK_IMAGE_LAYOUT_UNDEFINED, sampledLayout: VK_IMAGE_LAYOUT_GENERAL, keepAlive: mapping,
            format: format)
    }

    /// Whether the device imports host memory of `handleType` for a sampled linear image of `format`
    /// at this size (`vkGetPhysicalDeviceImageFormatProperties2`).
    func importsLinearImages(
        of handleType: VkExternalMemoryHandleTypeFlagBits, format: VkFormat, width: Int, height: Int
    ) -> Bool {
        guard let extent = importableExtent(of: handleType, format: format, tiling: VK_IMAGE_TILING_LINEAR) else {
            return false
        }
        return width <= Int(extent.width) && height <= Int(extent.height)
    }

    /// The create info of a linear, sampled, single-level 2-D image of `format`, starting in layout
    /// `UNDEFINED`.
    static func linearSampledImage(format: VkFormat, width: Int, height: Int) -> VkImageCreateInfo {
        var info = VkImageCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO
        info.imageType = VK_IMAGE_TYPE_2D
        info.format = format
        info.extent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        info.mipLevels = 1
        info.arrayLayers = 1
        info.samples = VK_SAMPLE_COUNT_1_BIT
        info.tiling = VK_IMAGE_TILING_LINEAR
        info.usage = VK_IMAGE_USAGE_SAMPLED_BIT.rawValue
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
        return info
    }

    /// The largest sampled 2-D image of `format` and `tiling` the device imports from memory of
    /// `handleType`, or nil when it imports none (`vkGetPhysicalDeviceImageFormatProperties2` with
    /// `VkPhysicalDeviceExternalImageFormatInfo`).
    func importableExtent(
        of handleType: VkExternalMemoryHandleTypeFlagBits, format: VkFormat, tiling: VkImageTiling
    ) -> VkExtent3D? {
        var external = VkPhysicalDeviceExternalImageFormatInfo()
        external.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO
        external.handleType = handleType
        var info = VkPhysicalDeviceImageFormatInfo2()
        info.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2
        info.format = format
        info.type = VK_IMAGE_TYPE_2D
        info.tiling = tiling
        info.usage = VK_IMAGE_USAGE_SAMPLED_BIT.rawValue
        var externalProperties = VkExternalImageFormatProperties()
        externalProperties.sType = VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES
        var properties = VkImageFormatProperties2()
        properties.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2
        let result = withUnsafePointer(to: &external) { e in
            info.pNext = UnsafeRawPointer(e)
            return withUnsafeMutablePointer(to: &externalProperties) { p in
                properties.pNext = UnsafeMutableRawPointer(p)
                return vkGetPhysicalDeviceImageFormatProperties2(vk.physicalDevice, &info, &properties)
            }
        }
        let importable = VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT.rawValue
        guard result == VK_SUCCESS, externalProperties.externalMemoryProperties.externalMemoryFeatures & importable != 0
        else { return nil }
        return properties.imageFormatProperties.maxExtent
    }
}

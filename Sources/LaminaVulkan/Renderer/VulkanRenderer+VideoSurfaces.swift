import CVulkan
import Foundation
import LaminaServer

/// YCbCr surfaces (NV12, P010): the two planes imported as two images, sampled as they are by the
/// `video` draw kinds, which convert to RGB in their fragment shader (docs/surfaces.md, "Video
/// surfaces"). Each plane lies in the client's memfd as a linear image on host memory where the
/// device can (zero copy), else both are copied plane by plane, without conversion, into textures.
extension VulkanRenderer {
    /// The formats of a YCbCr surface's planes: one luma sample a texel (`R8`, or `R16` for P010,
    /// whose 10-bit value in the high bits reads as that value × 64 / 65535) and one Cb, Cr pair.
    static func planeFormats(_ yCbCr: SurfaceYCbCr) -> (luma: VkFormat, chroma: VkFormat) {
        yCbCr.isTenBit
            ? (VK_FORMAT_R16_UNORM, VK_FORMAT_R16G16_UNORM) : (VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8_UNORM)
    }

    /// The chroma plane's size in samples: half the picture's, rounded up.
    static func chromaSize(_ surface: SurfacePixels) -> (width: Int, height: Int) {
        ((surface.width + 1) / 2, (surface.height + 1) / 2)
    }

    /// Imports a YCbCr surface: both planes in place when `hostImage` can bind each (zero copy), else
    /// two single-level textures with the planes copied in now.
    func importVideoSurface(_ surface: SurfacePixels, _ yCbCr: SurfaceYCbCr) throws -> ImportedSurface {
        let limit = vk.maxImageDimension2D
        guard surface.width <= limit, surface.height <= limit else {
            throw RenderImageError.tooLarge(width: surface.width, height: surface.height, limit: limit)
        }
        let formats = Self.planeFormats(yCbCr)
        let chromaSize = Self.chromaSize(surface)
        let id = RenderImageID(rawValue: nextImage)
        if let luma = hostImage(
            surface, offset: yCbCr.lumaOffset, width: surface.width, height: surface.height,
            stride: yCbCr.lumaStride, format: formats.luma),
            let chroma = hostImage(
                surface, offset: yCbCr.chromaOffset, width: chromaSize.width, height: chromaSize.height,
                stride: yCbCr.chromaStride, format: formats.chroma)
        {
            nextImage += 1
            images[id] = ImportedImage(storage: luma, filtering: .linear, changesInPlace: true, chroma: chroma)
            return ImportedSurface(image: id, isZeroCopy: true, bytesCopied: 0)
        }
        let usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue | VK_IMAGE_USAGE_SAMPLED_BIT.rawValue
        for format in [formats.luma, formats.chroma] {
            var properties = VkFormatProperties()
            vkGetPhysicalDeviceFormatProperties(vk.physicalDevice, format, &properties)
            let needed =
                VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT.rawValue
                | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT.rawValue
                | VK_FORMAT_FEATURE_TRANSFER_DST_BIT.rawValue
            guard properties.optimalTilingFeatures & needed == needed else {
                throw VulkanUnsupported(
                    "the device cannot sample plane format \(format.rawValue) with linear filtering")
            }
        }
        let luma = try VulkanImage(
            vk, width: surface.width, height: surface.height, usage: usage, format: formats.luma)
        let chroma = try VulkanImage(
            vk, width: chromaSize.width, height: chromaSize.height, usage: usage, format: formats.chroma)
        nextImage += 1
        images[id] = ImportedImage(
            storage: luma, filtering: .linear, copiedSurface: surface, changesInPlace: true, chroma: chroma)
        return ImportedSurface(image: id, isZeroCopy: false, bytesCopied: try refreshSurface(id))
    }

    /// Copies a copied YCbCr surface's planes into its two textures, row by row without conversion;
    /// returns the bytes copied (the luma plane's samples and the chroma plane's pairs).
    func refreshVideoSurface(_ entry: ImportedImage) throws -> Int {
        guard let surface = entry.copiedSurface, let yCbCr = surface.yCbCr, let chroma = entry.chroma else { return 0 }
        let sample = yCbCr.bytesPerSample
        let chromaSize = Self.chromaSize(surface)
        let lumaRow = surface.width * sample, chromaRow = chromaSize.width * 2 * sample
        let lumaBytes = lumaRow * surface.height, chromaBytes = chromaRow * chromaSize.height
        let lumaStaging = try HostBuffer(vk, size: lumaBytes, usage: VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue)
        let chromaStaging = try HostBuffer(vk, size: chromaBytes, usage: VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue)
        let base = surface.memory.bytes.baseAddress!
        for row in 0..<surface.height {
            memcpy(lumaStaging.mapped + row * lumaRow, base + yCbCr.lumaOffset + row * yCbCr.lumaStride, lumaRow)
        }
        for row in 0..<chromaSize.height {
            memcpy(
                chromaStaging.mapped + row * chromaRow, base + yCbCr.chromaOffset + row * yCbCr.chromaStride,
                chromaRow)
        }
        let frame = try submit { cb in
            recordUpload(cb, entry.storage, from: lumaStaging)
            recordUpload(cb, chroma, from: chromaStaging)
        }
        entry.storage.lastUsedFrame = frame
        chroma.lastUsedFrame = frame
        graveyard.retire(lumaStaging, lastUsedBy: frame)
        graveyard.retire(chromaStaging, lastUsedBy: frame)
        return lumaBytes + chromaBytes
    }

    /// Writes binding 1 of a textured batch's set: a YCbCr surface's chroma plane, always with the
    /// bilinear sampler (the `video` kinds upsample chroma bilinearly whatever the luma's filter), or,
    /// with `filter` (the batch's sampling), the batch's own image again, which no other kind reads.
    func bindSecond(_ image: VulkanImage, filter: TextureSampling?, to set: VkDescriptorSet) throws {
        let sampler = try samplers.sampler(for: filter?.filter ?? .linear, lodBias: filter?.lodBias ?? 0)
        let view = filter?.filter == .trilinear ? image.view : image.attachmentView
        writeSampledImage(
            VkDescriptorImageInfo(sampler: sampler, imageView: view, imageLayout: image.sampledLayout), binding: 1,
            of: set)
    }

    /// Points binding `binding` of `set` (a combined image sampler) at `imageInfo`.
    func writeSampledImage(_ imageInfo: VkDescriptorImageInfo, binding: UInt32, of set: VkDescriptorSet) {
        var imageInfo = imageInfo
        var write = VkWriteDescriptorSet()
        write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
        write.dstSet = set
        write.dstBinding = binding
        write.descriptorCount = 1
        write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
        withUnsafePointer(to: &imageInfo) { info in
            write.pImageInfo = info
            vkUpdateDescriptorSets(vk.device, 1, &write, 0, nil)
        }
    }
}

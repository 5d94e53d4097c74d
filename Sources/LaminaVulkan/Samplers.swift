import CVulkan
import LaminaServer

/// The three samplers every image is drawn with, created once with the renderer: nearest and linear read
/// level 0 only, trilinear blends across the mip chain. All clamp to the edge.
final class Samplers {
    let vk: VulkanDevice
    let nearest: VkSampler
    let linear: VkSampler
    let trilinear: VkSampler

    init(_ vk: VulkanDevice) throws {
        self.vk = vk
        var made: [VkSampler] = []
        do {
            for filtering in [ImageFiltering.nearest, .linear, .mipmapped] {
                made.append(try Self.make(vk, filtering))
            }
        } catch {
            for sampler in made { vkDestroySampler(vk.device, sampler, nil) }
            throw error
        }
        nearest = made[0]
        linear = made[1]
        trilinear = made[2]
    }

    /// The sampler for `filtering`.
    func sampler(for filtering: ImageFiltering) -> VkSampler {
        switch filtering {
        case .nearest: return nearest
        case .linear: return linear
        case .mipmapped: return trilinear
        }
    }

    static func make(_ vk: VulkanDevice, _ filtering: ImageFiltering) throws -> VkSampler {
        var info = VkSamplerCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO
        let filter = filtering == .nearest ? VK_FILTER_NEAREST : VK_FILTER_LINEAR
        info.magFilter = filter
        info.minFilter = filter
        info.mipmapMode = filtering == .mipmapped ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST
        info.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        info.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        info.minLod = 0
        info.maxLod = filtering == .mipmapped ? VK_LOD_CLAMP_NONE : 0
        var sampler: VkSampler?
        try check(vkCreateSampler(vk.device, &info, nil, &sampler), "vkCreateSampler")
        return sampler!
    }

    deinit {
        vkDestroySampler(vk.device, nearest, nil)
        vkDestroySampler(vk.device, linear, nil)
        vkDestroySampler(vk.device, trilinear, nil)
    }
}

import CVulkan
import LaminaServer

/// The three samplers every image is drawn with, created once with the renderer: nearest and linear read
/// level 0 only, trilinear blends across the mip chain. All clamp to the edge. Trilinear samplers with a
/// level-of-detail bias (`minificationFilterBias`) are made on first use and kept: the bias is rounded
/// to quarter levels and limited to the device's `maxSamplerLodBias`, so there are at most a few
/// dozen of them.
final class Samplers {
    let vk: VulkanDevice
    let nearest: VkSampler
    let linear: VkSampler
    let trilinear: VkSampler
    /// Biased trilinear samplers by bias in quarter levels.
    private var biased: [Int: VkSampler] = [:]
    /// The device's largest level-of-detail bias.
    let maxBias: Float

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
        var properties = VkPhysicalDeviceProperties()
        vkGetPhysicalDeviceProperties(vk.physicalDevice, &properties)
        maxBias = properties.limits.maxSamplerLodBias
    }

    /// The sampler for a batch's filter and level-of-detail bias (used by trilinear filtering only).
    func sampler(for filter: TextureFilter, lodBias: Float) throws -> VkSampler {
        switch filter {
        case .nearest: return nearest
        case .linear: return linear
        case .trilinear:
            let limit = Int((maxBias * 4).rounded(.down))
            let quarters = lodBias.isFinite ? max(-limit, min(limit, Int((lodBias * 4).rounded()))) : 0
            if quarters == 0 { return trilinear }
            if let sampler = biased[quarters] { return sampler }
            let sampler = try Self.make(vk, .mipmapped, bias: Float(quarters) / 4)
            biased[quarters] = sampler
            return sampler
        }
    }

    /// The sampler for `filtering`.
    func sampler(for filtering: ImageFiltering) -> VkSampler {
        switch filtering {
        case .nearest: return nearest
        case .linear: return linear
        case .mipmapped: return trilinear
        }
    }

    static func make(_ vk: VulkanDevice, _ filtering: ImageFiltering, bias: Float = 0) throws -> VkSampler {
        var info = VkSamplerCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO
        let filter = filtering == .nearest ? VK_FILTER_NEAREST : VK_FILTER_LINEAR
        info.magFilter = filter
        info.minFilter = filter
        info.mipmapMode = filtering == .mipmapped ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST
        info.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        info.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        info.mipLodBias = bias
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
        for sampler in biased.values { vkDestroySampler(vk.device, sampler, nil) }
    }
}

import CVulkan
import Foundation
import LaminaServer

/// The graphics pipelines, one per draw kind in `DrawKind.all`, all built at start-up (no first-use
/// compilation during frames) from the kinds' declarations alone: instance stride and attributes,
/// shaders and blend mode. Dynamic rendering, BGRA8 target, one instanced triangle strip of four
/// vertices per primitive, dynamic viewport and scissor, the viewport size and the target's device origin
/// as push constants. One
/// pipeline layout serves every kind: set 0 holds two combined image samplers (bindings 0 and 1,
/// fragment stage). The textured kinds (`DrawKind.samplesTexture`) read binding 0, the `video` kinds
/// binding 1 too (a YCbCr surface's chroma plane); the others ignore them.
final class Pipelines {
    let vk: VulkanDevice
    let layout: VkPipelineLayout
    /// The layout of the textured kinds' descriptor set: combined image samplers at bindings 0 and 1.
    let textureSetLayout: VkDescriptorSetLayout
    /// The pipeline of each kind, indexed by `DrawKind.id`.
    let byKind: [VkPipeline]
    private var modules: [VkShaderModule] = []
    /// The stages that read the push constants (`vkCmdPushConstants` names exactly these).
    static let pushStages = VK_SHADER_STAGE_VERTEX_BIT.rawValue | VK_SHADER_STAGE_FRAGMENT_BIT.rawValue
    /// The combined image samplers of the textured kinds' set (the image, and a YCbCr surface's chroma).
    static let textureBindings = 2

    init(_ vk: VulkanDevice, format: VkFormat, kinds: [DrawKind] = DrawKind.all) throws {
        self.vk = vk
        var bindings = (0..<Self.textureBindings).map { index in
            var binding = VkDescriptorSetLayoutBinding()
            binding.binding = UInt32(index)
            binding.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
            binding.descriptorCount = 1
            binding.stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT.rawValue
            return binding
        }
        var setLayoutInfo = VkDescriptorSetLayoutCreateInfo()
        setLayoutInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO
        setLayoutInfo.bindingCount = UInt32(bindings.count)
        var setLayout: VkDescriptorSetLayout?
        try bindings.withUnsafeMutableBufferPointer { b in
            setLayoutInfo.pBindings = UnsafePointer(b.baseAddress)
            try check(
                vkCreateDescriptorSetLayout(vk.device, &setLayoutInfo, nil, &setLayout), "vkCreateDescriptorSetLayout")
        }
        // The viewport size (vertex and fragment stages) and the target's device origin (fragment
        // stage: shaders that read gl_FragCoord add it, so clips stay in device pixels in a pass).
        var range = VkPushConstantRange(stageFlags: Self.pushStages, offset: 0, size: 16)
        var layoutInfo = VkPipelineLayoutCreateInfo()
        layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO
        layoutInfo.pushConstantRangeCount = 1
        layoutInfo.setLayoutCount = 1
        var layout: VkPipelineLayout?
        let created = withUnsafePointer(to: &range) { r in
            withUnsafePointer(to: &setLayout) { s in
                layoutInfo.pPushConstantRanges = r
                layoutInfo.pSetLayouts = s
                return vkCreatePipelineLayout(vk.device, &layoutInfo, nil, &layout)
            }
        }
        guard created == VK_SUCCESS else {
            vkDestroyDescriptorSetLayout(vk.device, setLayout, nil)
            throw VulkanError(created, call: "vkCreatePipelineLayout")
        }
        self.layout = layout!
        self.textureSetLayout = setLayout!
        var made: [VkPipeline] = []
        var loaded: [String: VkShaderModule] = [:]
        do {
            // Kinds may share shaders (opaque and blended fills do): each module is loaded once.
            func module(_ name: String) throws -> VkShaderModule {
                if let module = loaded[name] { return module }
                let module = try Self.module(vk, name)
                loaded[name] = module
                return module
            }
            for (id, kind) in kinds.enumerated() {
                precondition(kind.id == id, "draw kind \(kind.name) has id \(kind.id) at index \(id)")
                made.append(
                    try Self.pipeline(
                        vk, layout!, format, try module(kind.vertexShader),
                        try module(kind.fragmentShader), kind: kind))
            }
        } catch {
            for p in made { vkDestroyPipeline(vk.device, p, nil) }
            for m in loaded.values { vkDestroyShaderModule(vk.device, m, nil) }
            vkDestroyPipelineLayout(vk.device, layout, nil)
            vkDestroyDescriptorSetLayout(vk.device, setLayout, nil)
            throw error
        }
        byKind = made
        modules = Array(loaded.values)
    }

    /// Loads `NAME.spv`, compiled from `Shaders/NAME` by the CompileShaders build plugin.
    static func module(_ vk: VulkanDevice, _ name: String) throws -> VkShaderModule {
        guard let url = Bundle.module.url(forResource: name, withExtension: "spv") else {
            throw VulkanUnsupported("shader \(name).spv is missing from the LaminaVulkan resources")
        }
        let code = try Data(contentsOf: url)
        var info = VkShaderModuleCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO
        info.codeSize = code.count
        var module: VkShaderModule?
        try code.withUnsafeBytes { bytes in
            info.pCode = bytes.baseAddress!.assumingMemoryBound(to: UInt32.self)
            try check(vkCreateShaderModule(vk.device, &info, nil, &module), "vkCreateShaderModule(\(name))")
        }
        return module!
    }

    static func pipeline(
        _ vk: VulkanDevice, _ layout: VkPipelineLayout, _ format: VkFormat,
        _ vert: VkShaderModule, _ frag: VkShaderModule, kind: DrawKind
    ) throws -> VkPipeline {
        try withArena { a in
            var stages = [VkPipelineShaderStageCreateInfo](repeating: VkPipelineShaderStageCreateInfo(), count: 2)
            for (i, (stage, module)) in [(VK_SHADER_STAGE_VERTEX_BIT, vert), (VK_SHADER_STAGE_FRAGMENT_BIT, frag)]
                .enumerated()
            {
                stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
                stages[i].stage = stage
                stages[i].module = module
                stages[i].pName = a.cString("main")
            }
            let binding = VkVertexInputBindingDescription(
                binding: 0, stride: UInt32(kind.stride),
                inputRate: VK_VERTEX_INPUT_RATE_INSTANCE)
            let attributeList = kind.attributes.enumerated().map { location, attribute in
                VkVertexInputAttributeDescription(
                    location: UInt32(location), binding: 0,
                    format: attribute.format.vulkan, offset: UInt32(attribute.offset))
            }
            var vertexInput = VkPipelineVertexInputStateCreateInfo()
            vertexInput.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO
            vertexInput.vertexBindingDescriptionCount = 1
            vertexInput.pVertexBindingDescriptions = UnsafePointer(a.new(binding))
            vertexInput.vertexAttributeDescriptionCount = UInt32(attributeList.count)
            vertexInput.pVertexAttributeDescriptions = UnsafePointer(a.array(attributeList))
            var assembly = VkPipelineInputAssemblyStateCreateInfo()
            assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO
            assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP
            var viewport = VkPipelineViewportStateCreateInfo()
            viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO
            viewport.viewportCount = 1
            viewport.scissorCount = 1
            var raster = VkPipelineRasterizationStateCreateInfo()
            raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO
            raster.polygonMode = VK_POLYGON_MODE_FILL
            raster.cullMode = VK_CULL_MODE_NONE.rawValue
            raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE
            raster.lineWidth = 1
            var multisample = VkPipelineMultisampleStateCreateInfo()
            multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO
            multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT
            var attachment = VkPipelineColorBlendAttachmentState()
            attachment.colorWriteMask =
                VK_COLOR_COMPONENT_R_BIT.rawValue | VK_COLOR_COMPONENT_G_BIT.rawValue
                | VK_COLOR_COMPONENT_B_BIT.rawValue | VK_COLOR_COMPONENT_A_BIT.rawValue
            if kind.blend == .premultipliedOver {
                // Premultiplied "over".
                attachment.blendEnable = VkBool32(VK_TRUE)
                attachment.srcColorBlendFactor = VK_BLEND_FACTOR_ONE
                attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA
                attachment.colorBlendOp = VK_BLEND_OP_ADD
                attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE
                attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA
                attachment.alphaBlendOp = VK_BLEND_OP_ADD
            } else if kind.blend == .destinationIn {
                // "Destination in": the target keeps what it holds times the source's alpha.
                attachment.blendEnable = VkBool32(VK_TRUE)
                attachment.srcColorBlendFactor = VK_BLEND_FACTOR_ZERO
                attachment.dstColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA
                attachment.colorBlendOp = VK_BLEND_OP_ADD
                attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ZERO
                attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA
            } else if kind.blend == .additive {
                // Premultiplied addition, alpha too ("plus-lighter"; the target's unsigned normalised
                // format saturates each channel at 1).
                attachment.blendEnable = VkBool32(VK_TRUE)
                attachment.srcColorBlendFactor = VK_BLEND_FACTOR_ONE
                attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE
                attachment.colorBlendOp = VK_BLEND_OP_ADD
                attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE
                attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE
                attachment.alphaBlendOp = VK_BLEND_OP_ADD
            }
            var blendState = VkPipelineColorBlendStateCreateInfo()
            blendState.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO
            blendState.attachmentCount = 1
            blendState.pAttachments = UnsafePointer(a.new(attachment))
            let dynamicStates = [VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR]
            var dynamic = VkPipelineDynamicStateCreateInfo()
            dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO
            dynamic.dynamicStateCount = UInt32(dynamicStates.count)
            dynamic.pDynamicStates = UnsafePointer(a.array(dynamicStates))
            var rendering = VkPipelineRenderingCreateInfo()
            rendering.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO
            rendering.colorAttachmentCount = 1
            rendering.pColorAttachmentFormats = UnsafePointer(a.new(format))

            var info = VkGraphicsPipelineCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO
            info.pNext = UnsafeRawPointer(a.new(rendering))
            info.stageCount = 2
            info.pStages = UnsafePointer(a.array(stages))
            info.pVertexInputState = UnsafePointer(a.new(vertexInput))
            info.pInputAssemblyState = UnsafePointer(a.new(assembly))
            info.pViewportState = UnsafePointer(a.new(viewport))
            info.pRasterizationState = UnsafePointer(a.new(raster))
            info.pMultisampleState = UnsafePointer(a.new(multisample))
            info.pColorBlendState = UnsafePointer(a.new(blendState))
            info.pDynamicState = UnsafePointer(a.new(dynamic))
            info.layout = layout
            var pipeline: VkPipeline?
            try check(vkCreateGraphicsPipelines(vk.device, nil, 1, &info, nil, &pipeline), "vkCreateGraphicsPipelines")
            return pipeline!
        }
    }

    deinit {
        for p in byKind { vkDestroyPipeline(vk.device, p, nil) }
        for m in modules { vkDestroyShaderModule(vk.device, m, nil) }
        vkDestroyPipelineLayout(vk.device, layout, nil)
        vkDestroyDescriptorSetLayout(vk.device, textureSetLayout, nil)
    }
}

extension DrawKind.Format {
    /// The Vulkan vertex format of an attribute of this type.
    var vulkan: VkFormat {
        switch self {
        case .float2: VK_FORMAT_R32G32_SFLOAT
        case .float4: VK_FORMAT_R32G32B32A32_SFLOAT
        case .uint4: VK_FORMAT_R32G32B32A32_UINT
        }
    }
}

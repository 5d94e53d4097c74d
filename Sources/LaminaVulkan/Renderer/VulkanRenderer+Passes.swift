import CVulkan
import LaminaServer

/// Offscreen passes (docs/rendering.md, "Offscreen passes"): each is drawn, in the frame's command
/// buffer and before the display's pass, into a pooled image (`PassImagePool`), which then moves to
/// the sampled layout for the passes after it and the display's pass.
extension VulkanRenderer {
    /// Records `draws` (bound pipelines and sets are looked up again for each call).
    func recordDraws(_ cb: VkCommandBuffer, _ draws: ArraySlice<Draw>) {
        var bound: VkPipeline?
        var boundSet: VkDescriptorSet?
        for draw in draws where !draw.skipped {
            if let set = draw.descriptorSet, set != boundSet {
                var s: VkDescriptorSet? = set
                vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.layout, 0, 1, &s, 0, nil)
                boundSet = set
            }
            if bound != draw.pipeline {
                vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, draw.pipeline)
                var buffer: VkBuffer? = instances!.buffer
                var offset = VkDeviceSize(draw.bufferOffset)
                vkCmdBindVertexBuffers(cb, 0, 1, &buffer, &offset)
                bound = draw.pipeline
            }
            vkCmdDraw(cb, 4, UInt32(draw.count), 0, UInt32(draw.firstInstance))
        }
    }

    /// Records one offscreen pass: `image` cleared to transparent, the pass's draws with the display's
    /// device pixels mapped onto it (the viewport moved by the pass's corner, which the fragment
    /// shaders that read `gl_FragCoord` add back through the push constant), then the move to the
    /// layout shaders sample.
    func recordPass(
        _ cb: VkCommandBuffer, _ pass: OffscreenPass, into image: VulkanImage, draws: ArraySlice<Draw>,
        displayWidth: Int, displayHeight: Int
    ) {
        image.lastUsedFrame = timeline.next
        // Earlier frames sampled the image: their reads finish before it is drawn again.
        Self.imageBarrier(
            cb, image, levels: 0..<1, from: VK_IMAGE_LAYOUT_UNDEFINED, to: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            srcStage: VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, srcAccess: 0,
            dstStage: VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, dstAccess: VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT
        )
        var attachment = VkRenderingAttachmentInfo()
        attachment.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO
        attachment.imageView = image.attachmentView
        attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL
        attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR
        attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE
        attachment.clearValue.color.float32 = (0, 0, 0, 0)
        let area = VkRect2D(
            offset: VkOffset2D(x: 0, y: 0),
            extent: VkExtent2D(width: UInt32(pass.texels.width), height: UInt32(pass.texels.height)))
        var info = VkRenderingInfo()
        info.sType = VK_STRUCTURE_TYPE_RENDERING_INFO
        info.renderArea = area
        info.layerCount = 1
        info.colorAttachmentCount = 1
        withUnsafePointer(to: &attachment) { p in
            info.pColorAttachments = p
            vkCmdBeginRendering(cb, &info)
        }
        // A blur pass's quad covers the viewport, which is the pass's own texels (they may lie beyond the
        // display), and so does the display's rectangle in a pass that maps its own texels; the others
        // map the display's device pixels, moved by the pass's corner.
        let isBlur = pass.mapsOwnTexels || pass.batches.allSatisfy { $0.kind == DrawKind.blur.id }
        let scale = Float(pass.scale)
        let (displayWidth, displayHeight) = Self.canvas(
            of: pass, displayWidth: displayWidth, displayHeight: displayHeight)
        var viewport =
            isBlur
            ? VkViewport(
                x: 0, y: 0, width: Float(pass.texels.width), height: Float(pass.texels.height), minDepth: 0,
                maxDepth: 1)
            : VkViewport(
                x: Float(-pass.rect.x) / scale, y: Float(-pass.rect.y) / scale, width: Float(displayWidth) / scale,
                height: Float(displayHeight) / scale, minDepth: 0, maxDepth: 1)
        vkCmdSetViewport(cb, 0, 1, &viewport)
        var scissor = area
        vkCmdSetScissor(cb, 0, 1, &scissor)
        var push = SIMD4<Float>(Float(displayWidth), Float(displayHeight), Float(pass.rect.x), Float(pass.rect.y))
        vkCmdPushConstants(cb, pipelines.layout, Pipelines.pushStages, 0, 16, &push)
        recordDraws(cb, draws)
        vkCmdEndRendering(cb)
        Self.imageBarrier(
            cb, image, levels: 0..<1, from: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, srcStage: VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            srcAccess: VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, dstStage: VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
            dstAccess: VK_ACCESS_2_SHADER_SAMPLED_READ_BIT)
        image.layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL
    }

    /// Scales the texture coordinates of the image instances that sample a pass (uploaded as 0...1
    /// over the pass) to the part of the pooled image the pass covers, which is rounded up to a size
    /// class. Image instances hold their coordinates in their second `vec4`, image-shape instances (a
    /// frosted layer's backdrop under a rounded clip) their texture transform in their sixth, whose
    /// four lanes scale alike; the other textured kinds that sample passes (`blur`) read texels by
    /// index and are left alone.
    func scalePassCoordinates(_ draws: inout [Draw], passes: [OffscreenPass], images: [VulkanImage]) {
        guard !passes.isEmpty else { return }
        let base = instances!.mapped
        let shapeOffset = MemoryLayout<ImageShapeInstance>.offset(of: \ImageShapeInstance.uvTransform)!
        for draw in draws {
            guard let index = draw.texture?.image.offscreenPassIndex, index < passes.count else { continue }
            let stride = DrawKind.all[draw.kind].stride
            let offset: Int
            if stride == MemoryLayout<ImageInstance>.stride {
                offset = MemoryLayout<ImageInstance>.offset(of: \ImageInstance.uv)!
            } else if draw.kind == DrawKind.imageShape.id || draw.kind == DrawKind.additiveImageShape.id {
                offset = shapeOffset
            } else {
                continue
            }
            let texels = passes[index].texels
            let scale = SIMD4<Float>(
                Float(texels.width) / Float(images[index].width), Float(texels.height) / Float(images[index].height),
                Float(texels.width) / Float(images[index].width), Float(texels.height) / Float(images[index].height))
            for k in 0..<draw.count {
                let uv = base + draw.bufferOffset + (draw.firstInstance + k) * stride + offset
                let value = uv.loadUnaligned(as: SIMD4<Float>.self)
                uv.storeBytes(of: value * scale, as: SIMD4<Float>.self)
            }
        }
    }
}

import CVulkan
import Foundation
import Lamina
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// The Vulkan renderer after `VK_ERROR_DEVICE_LOST` (docs/rendering.md, "Device loss"): the loss is
/// recognised from the `VulkanError`, recorded with the call that reported it, and every later
/// request is refused with `VulkanDeviceLost` before any Vulkan call, so nothing more is submitted.
/// The loss comes from the test hook `drawsBeforeTestDeviceLoss`, at the submit a real one comes from.
@Suite(.serialized) struct DeviceLossRendererTests {
    @Test func deviceLossIsRecognisedFromTheResultOnly() {
        #expect(VulkanError(VK_ERROR_DEVICE_LOST, call: "vkQueueSubmit2").isDeviceLost)
        #expect(VulkanError(VK_ERROR_DEVICE_LOST, call: "vkWaitForFences").isDeviceLost)
        #expect(!VulkanError(VK_ERROR_OUT_OF_DEVICE_MEMORY, call: "vkQueueSubmit2").isDeviceLost)
        #expect(!VulkanError(VK_ERROR_OUT_OF_DATE_KHR, call: "vkQueuePresentKHR").isDeviceLost)
        #expect(!VulkanError(VK_TIMEOUT, call: "vkWaitForFences").isDeviceLost)
    }

    @Test func aLostRendererRefusesFurtherWorkWithoutCallingVulkan() throws {
        let ops =
            RendererTests.layer(1, frame: CGRect(x: 0, y: 0, width: 8, height: 8), color: nil)
            + RendererTests.layer(
                2, frame: CGRect(x: 0, y: 0, width: 8, height: 8), color: RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
            )
            + [.setSublayers(1, [2]), .setRoot(display: 0, layer: 1)]
        let tree = try RenderTree().applying(ops, displayCount: 1)
        let list = DisplayListBuilder.build(
            trees: [tree], display: 0, width: 8, height: 8, clearColor: SIMD4(0, 0, 0, 1))
        try SharedVulkanDevice.withRenderer { renderer, validation in
            renderer.drawsBeforeTestDeviceLoss = 1
            let target = try renderer.makeTarget(width: 8, height: 8)
            let pixels = ImagePixels(width: 2, height: 2, stride: 8, source: .host([UInt8](repeating: 255, count: 16)))
            // An upload is no draw: the hook's count is of draws only.
            let image = try renderer.importImage(pixels, filtering: .linear)
            // The first draw runs: the layer's red fills the target.
            try renderer.render(list, into: target)
            let drawn = try renderer.readPixels(target)
            #expect(drawn.rgba(x: 4, y: 4) == (255, 0, 0, 255))
            #expect(renderer.lostDevice == nil)
            #expect((renderer as any Renderer).deviceLoss == nil)

            // The second draw's submit reports the loss; it is recorded with its call.
            let submitted = renderer.submittedFrame
            do {
                try renderer.render(list, into: target)
                Issue.record("the draw after the hook's count did not fail")
            } catch let error as VulkanError {
                #expect(error.isDeviceLost && error.call == "vkQueueSubmit2", "\(error)")
            }
            #expect(renderer.lostDevice?.call == "vkQueueSubmit2")
            #expect(renderer.lostDevice?.isDeviceLost == true)
            #expect((renderer as any Renderer).deviceLoss is VulkanError)
            #expect(renderer.submittedFrame == submitted, "the lost draw reached the queue")

            // Everything after is refused by name, naming the call that lost the device.
            func expectRefused(_ what: String, _ body: () throws -> Void) {
                do {
                    try body()
                    Issue.record("\(what) was not refused after the loss")
                } catch let error as VulkanDeviceLost {
                    #expect(error.cause.call == "vkQueueSubmit2", "\(what): \(error)")
                    #expect(
                        "\(error)".hasPrefix("the Vulkan device was lost (vkQueueSubmit2 failed: VK_ERROR_DEVICE_LOST"),
                        "\(error)")
                } catch {
                    Issue.record("\(what) failed with \(error), not VulkanDeviceLost")
                }
            }
            expectRefused("render") { try renderer.render(list, into: target) }
            expectRefused("readPixels") { _ = try renderer.readPixels(target) }
            expectRefused("importImage") { _ = try renderer.importImage(pixels, filtering: .linear) }
            expectRefused("finishedFrame") { _ = try renderer.finishedFrame() }
            expectRefused("takeGPUTimes") { _ = try renderer.takeGPUTimes() }
            expectRefused("waitForAllFrames") { try renderer.waitForAllFrames() }
            // Letting go of an image stays possible (Vulkan allows destroying after a loss).
            #expect(throws: Never.self) { try renderer.releaseImage(image) }
            #expect(renderer.submittedFrame == submitted, "work was submitted after the loss")
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }
}

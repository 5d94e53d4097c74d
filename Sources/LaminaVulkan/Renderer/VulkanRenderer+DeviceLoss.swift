import CVulkan
import Foundation
import LaminaServer

/// The renderer's device was lost earlier: the renderer refuses the work it was asked for without
/// calling Vulkan. `cause` names the call that reported the loss.
///
/// `description` reads, for example, "the Vulkan device was lost (vkQueueSubmit2 failed:
/// VK_ERROR_DEVICE_LOST (-4)): the renderer submits no more work".
public struct VulkanDeviceLost: Error, CustomStringConvertible, Sendable {
    /// The call that reported `VK_ERROR_DEVICE_LOST`.
    public let cause: VulkanError

    /// The loss, and that nothing more is submitted.
    public var description: String { "the Vulkan device was lost (\(cause)): the renderer submits no more work" }
}

extension VulkanRenderer {
    /// The call that reported `VK_ERROR_DEVICE_LOST` to this renderer, nil while its device runs.
    /// Safe to read from any thread.
    public var lostDevice: VulkanError? { lossLock.withLock { lossCause } }

    /// The loss, for the server (`Renderer.deviceLoss`): the same as `lostDevice`.
    public var deviceLoss: (any Error)? { lostDevice }

    /// Throws `VulkanDeviceLost` once the device is lost. Every path that submits work, waits for
    /// it, presents or imports an image starts here, so after a loss the renderer makes no call on
    /// the device other than destroying its objects (Vulkan allows nothing else).
    func refuseIfDeviceLost() throws {
        if let cause = lostDevice { throw VulkanDeviceLost(cause: cause) }
    }

    /// Runs `body`; a `VulkanError` it throws with `VK_ERROR_DEVICE_LOST` marks the device lost
    /// (the first such call is kept as the cause) before it is thrown on.
    func notingDeviceLoss<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as VulkanError where error.isDeviceLost {
            lossLock.withLock { lossCause = lossCause ?? error }
            throw error
        }
    }

    /// Whether the test hook (`drawsBeforeTestDeviceLoss`) makes this submit report the loss: true
    /// for the first draw after the given number of draws. Copies and uploads do not count.
    func takeTestDeviceLoss(draw: Bool) -> Bool {
        guard draw, let left = drawsBeforeTestDeviceLoss else { return false }
        guard left == 0 else {
            drawsBeforeTestDeviceLoss = left - 1
            return false
        }
        drawsBeforeTestDeviceLoss = nil
        return true
    }
}

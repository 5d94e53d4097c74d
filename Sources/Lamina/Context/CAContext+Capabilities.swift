import Foundation
import LaminaProtocol

extension CAContext {
    /// What the server's device accepts for app-rendered surfaces: its Vulkan device and driver
    /// UUIDs (zeros without Vulkan), the row alignment of zero-copy `IOSurface`s, the formats of
    /// Vulkan-device drawables and the kinds of memory it imports. The context asks once, right
    /// after connecting; this waits for the answer (at most `timeout` seconds). A Linux addition.
    public func surfaceCapabilities(timeout: Double = 10) throws -> SurfaceCapabilities {
        try connection.surfaceCapabilities(timeout: timeout)
    }
}

import CVulkan

/// A failed Vulkan call: the `VkResult` and the name of the call.
public struct VulkanError: Error, CustomStringConvertible, Sendable {
    public let result: Int32
    public let call: String

    public init(_ result: VkResult, call: String) {
        self.result = result.rawValue
        self.call = call
    }

    public var description: String { "\(call) failed with VkResult \(result)" }
}

/// Something the renderer needs that the device cannot give.
public struct VulkanUnsupported: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Throws `VulkanError` unless `result` is `VK_SUCCESS`.
@inline(__always)
func check(_ result: VkResult, _ call: @autoclosure () -> String) throws {
    if result != VK_SUCCESS { throw VulkanError(result, call: call()) }
}

import CVulkan

/// A failed Vulkan call: the `VkResult` and the name of the one call that returned it.
///
/// `description` reads, for example, "vkQueueSubmit failed: VK_ERROR_DEVICE_LOST (-4)".
public struct VulkanError: Error, CustomStringConvertible, Sendable {
    /// The raw `VkResult` value.
    public let result: Int32
    /// The Vulkan function that failed, for example "vkQueueSubmit2".
    public let call: String

    /// Records that `call` returned `result`.
    public init(_ result: VkResult, call: String) {
        self.result = result.rawValue
        self.call = call
    }

    /// The `VkResult`'s name, such as "VK_ERROR_DEVICE_LOST", or "VkResult" for a value this build does not know.
    public var resultName: String { Self.names[result] ?? "VkResult" }

    /// Whether the call reported `VK_ERROR_DEVICE_LOST`: the device can run nothing more, only be
    /// destroyed (docs/rendering.md, "Device loss").
    public var isDeviceLost: Bool { result == VK_ERROR_DEVICE_LOST.rawValue }

    /// The call, the result's name and its value.
    public var description: String { "\(call) failed: \(resultName) (\(result))" }

    /// The results Vulkan 1.3 core and the common extensions define.
    static let names: [Int32: String] = [
        0: "VK_SUCCESS", 1: "VK_NOT_READY", 2: "VK_TIMEOUT", 3: "VK_EVENT_SET", 4: "VK_EVENT_RESET",
        5: "VK_INCOMPLETE", -1: "VK_ERROR_OUT_OF_HOST_MEMORY", -2: "VK_ERROR_OUT_OF_DEVICE_MEMORY",
        -3: "VK_ERROR_INITIALIZATION_FAILED", -4: "VK_ERROR_DEVICE_LOST", -5: "VK_ERROR_MEMORY_MAP_FAILED",
        -6: "VK_ERROR_LAYER_NOT_PRESENT", -7: "VK_ERROR_EXTENSION_NOT_PRESENT", -8: "VK_ERROR_FEATURE_NOT_PRESENT",
        -9: "VK_ERROR_INCOMPATIBLE_DRIVER", -10: "VK_ERROR_TOO_MANY_OBJECTS", -11: "VK_ERROR_FORMAT_NOT_SUPPORTED",
        -12: "VK_ERROR_FRAGMENTED_POOL", -13: "VK_ERROR_UNKNOWN", -1_000_069_000: "VK_ERROR_OUT_OF_POOL_MEMORY",
        -1_000_072_003: "VK_ERROR_INVALID_EXTERNAL_HANDLE", -1_000_161_000: "VK_ERROR_FRAGMENTATION",
        -1_000_257_000: "VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS", 1_000_297_000: "VK_PIPELINE_COMPILE_REQUIRED",
        -1_000_000_000: "VK_ERROR_SURFACE_LOST_KHR", -1_000_000_001: "VK_ERROR_NATIVE_WINDOW_IN_USE_KHR",
        1_000_001_003: "VK_SUBOPTIMAL_KHR", -1_000_001_004: "VK_ERROR_OUT_OF_DATE_KHR",
        -1_000_011_001: "VK_ERROR_VALIDATION_FAILED_EXT",
    ]
}

/// Throws `VulkanError` unless `result` is `VK_SUCCESS`.
@inline(__always)
func check(_ result: VkResult, _ call: @autoclosure () -> String) throws {
    if result != VK_SUCCESS { throw VulkanError(result, call: call()) }
}

import CVulkan
import Foundation

/// Collects messages from `VK_LAYER_KHRONOS_validation` (warnings and errors) so tests can assert none.
public final class ValidationSink: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    /// An empty sink.
    public init() {}

    /// Every message received so far.
    public var messages: [String] { lock.withLock { collected } }

    func record(_ message: String) {
        lock.withLock { collected.append(message) }
    }
}

/// The debug-utils callback: forwards warnings and errors to the `ValidationSink` in `pUserData`.
let validationCallback: PFN_vkDebugUtilsMessengerCallbackEXT = { severity, _, data, userData in
    guard let data, let userData else { return VkBool32(VK_FALSE) }
    let sink = Unmanaged<ValidationSink>.fromOpaque(userData).takeUnretainedValue()
    let text = data.pointee.pMessage.map { String(cString: $0) } ?? "(no text)"
    let serious =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT.rawValue
        | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT.rawValue
    if severity.rawValue & serious != 0 { sink.record(text) }
    return VkBool32(VK_FALSE)
}

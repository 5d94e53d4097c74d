import CVulkan

/// Something the renderer needs that the device cannot give.
public struct VulkanUnsupported: Error, CustomStringConvertible, Sendable {
    /// A sentence naming what is missing.
    public let description: String
    /// Wraps `description`.
    public init(_ description: String) { self.description = description }
}

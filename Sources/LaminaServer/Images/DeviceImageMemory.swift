import LaminaCore
import LaminaProtocol

/// A Vulkan image a client rendered on its own device and registered (`registerDeviceImage`): its
/// create info and allocation size as the client sent them (checked by the server) and the
/// descriptor of its exported memory, which the renderer imports on the worker's thread.
public final class DeviceImageMemory: @unchecked Sendable {
    /// The image's create info, allocation size and device, as registered.
    public let description: DeviceImageDescription
    /// The exported memory (`VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT`); the renderer imports a
    /// duplicate of it, and this one closes when the object goes.
    public let fd: OwnedFD

    /// Wraps a checked registration and its descriptor.
    public init(description: DeviceImageDescription, fd: OwnedFD) {
        self.description = description
        self.fd = fd
    }

    /// The image's width in pixels.
    public var width: Int { Int(description.width) }
    /// The image's height in pixels.
    public var height: Int { Int(description.height) }
}

/// Why a renderer refused a device image; the text names what was at fault.
public struct DeviceImageRefusal: Error, CustomStringConvertible {
    /// The reason, for the error the client gets.
    public var description: String

    /// A refusal for `reason`.
    public init(_ reason: String) { description = reason }
}

import Foundation
import LaminaCore

/// What the server's device accepts for app-rendered surfaces (the `surfaceCapabilities` reply,
/// docs/protocol.md §4.2): the Vulkan device and driver it draws with, the row alignment a shared
/// surface needs to be sampled without a copy, the pixel formats a Vulkan-device drawable may
/// have, and the kinds of memory it imports.
public struct SurfaceCapabilities: Sendable, Hashable {
    /// The kinds of memory the server imports for surfaces and drawables.
    public struct MemoryKinds: OptionSet, Sendable, Hashable {
        /// The wire bits.
        public let rawValue: UInt32

        /// Creates the set from its wire bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Shared CPU surfaces (memfds) sampled in place (`VK_EXT_external_memory_host`); without it
        /// they are copied into a texture at each new frame.
        public static let hostMemory = MemoryKinds(rawValue: 1 << 0)
        /// Vulkan images exported as `VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT` by a device whose
        /// device and driver UUIDs are the server's (`registerDeviceImage`).
        public static let opaqueFD = MemoryKinds(rawValue: 1 << 1)
        /// Linux dma-bufs (`VK_EXT_external_memory_dma_buf`); announced, not yet accepted for surfaces.
        public static let dmaBuf = MemoryKinds(rawValue: 1 << 2)
    }

    /// The number of bytes in a device or driver UUID (`VK_UUID_SIZE`).
    public static let uuidSize = 16
    /// The most formats a reply carries.
    public static let maximumFormats = 64

    /// The server device's `VkPhysicalDeviceIDProperties.deviceUUID`; 16 zeros where it draws
    /// without Vulkan (a recording renderer).
    public var deviceUUID: [UInt8]
    /// The server driver's `VkPhysicalDeviceIDProperties.driverUUID`; 16 zeros without Vulkan.
    public var driverUUID: [UInt8]
    /// The multiple of bytes a shared surface's `bytesPerRow` must be to be sampled in place: the
    /// row pitch the device gives a one-pixel-wide linear BGRA image. 0: unknown (no Vulkan device,
    /// or the device imports no host memory).
    public var rowAlignment: UInt32
    /// The device's `minImportedHostPointerAlignment`: the alignment of a mapping's address and
    /// length for it to be imported; 0 where the device imports no host memory.
    public var hostPointerAlignment: UInt32
    /// The kinds of memory the server imports.
    public var memoryKinds: MemoryKinds
    /// The `VkFormat` values a Vulkan-device drawable may have: those of the allow-list that the
    /// server's device imported and sampled when it started. Empty without `opaqueFD`.
    public var drawableFormats: [UInt32]

    /// Capabilities with every field given.
    public init(
        deviceUUID: [UInt8], driverUUID: [UInt8], rowAlignment: UInt32, hostPointerAlignment: UInt32,
        memoryKinds: MemoryKinds, drawableFormats: [UInt32]
    ) {
        self.deviceUUID = deviceUUID
        self.driverUUID = driverUUID
        self.rowAlignment = rowAlignment
        self.hostPointerAlignment = hostPointerAlignment
        self.memoryKinds = memoryKinds
        self.drawableFormats = drawableFormats
    }

    /// A server without a Vulkan device: zero UUIDs, no known alignment, no memory imported in place.
    public static let none = SurfaceCapabilities(
        deviceUUID: [UInt8](repeating: 0, count: uuidSize), driverUUID: [UInt8](repeating: 0, count: uuidSize),
        rowAlignment: 0, hostPointerAlignment: 0, memoryKinds: [], drawableFormats: [])

    /// Whether the server draws with a Vulkan device (its device UUID is not all zeros).
    public var hasVulkanDevice: Bool { deviceUUID.contains { $0 != 0 } }
}

/// The pixel formats a Vulkan-device drawable may have, as `VkFormat` values (the numbers of the
/// Vulkan registry, so that the protocol module needs no Vulkan header).
public enum DrawableFormat {
    /// `VK_FORMAT_R8G8B8A8_UNORM`.
    public static let rgba8Unorm: UInt32 = 37
    /// `VK_FORMAT_R8G8B8A8_SRGB`.
    public static let rgba8SRGB: UInt32 = 43
    /// `VK_FORMAT_B8G8R8A8_UNORM`: Apple's default `.bgra8Unorm`.
    public static let bgra8Unorm: UInt32 = 44
    /// `VK_FORMAT_B8G8R8A8_SRGB`: Apple's `.bgra8Unorm_srgb`.
    public static let bgra8SRGB: UInt32 = 50
    /// `VK_FORMAT_A2B10G10R10_UNORM_PACK32`: Apple's `.rgb10a2Unorm`.
    public static let a2b10g10r10Unorm: UInt32 = 64
    /// `VK_FORMAT_R16G16B16A16_SFLOAT`: Apple's `.rgba16Float`.
    public static let rgba16Float: UInt32 = 97

    /// The formats Lamina allows, before the server's device is asked which it imports and samples.
    public static let allowed: [UInt32] = [
        bgra8Unorm, bgra8SRGB, rgba8Unorm, rgba8SRGB, a2b10g10r10Unorm, rgba16Float,
    ]

    /// Bytes per pixel of an allowed format; nil for another.
    public static func bytesPerPixel(_ format: UInt32) -> Int? {
        switch format {
        case rgba8Unorm, rgba8SRGB, bgra8Unorm, bgra8SRGB, a2b10g10r10Unorm: 4
        case rgba16Float: 8
        default: nil
        }
    }
}

/// A Vulkan image an app rendered on its own device, exported as an opaque fd (the wire's part of
/// `registerDeviceImage`, docs/protocol.md §4.2): the exact create info the server needs to import
/// it on its device, and the UUIDs of the device that made it.
public struct DeviceImageDescription: Sendable, Hashable {
    /// The image's id, in the image id space (never 0).
    public var id: UInt64
    /// `VkImageCreateInfo.extent.width`.
    public var width: UInt32
    /// `VkImageCreateInfo.extent.height`.
    public var height: UInt32
    /// `VkImageCreateInfo.format` (a `DrawableFormat`).
    public var format: UInt32
    /// `VkImageCreateInfo.usage`.
    public var usage: UInt32
    /// `VkImageCreateInfo.flags`.
    public var flags: UInt32
    /// `VkImageCreateInfo.tiling` (0: optimal, 1: linear).
    public var tiling: UInt32
    /// The `allocationSize` of the image's dedicated allocation.
    public var allocationSize: UInt64
    /// The UUID of the app's physical device (16 bytes).
    public var deviceUUID: [UInt8]
    /// The UUID of the app's driver (16 bytes).
    public var driverUUID: [UInt8]

    /// A description with every field given.
    public init(
        id: UInt64, width: UInt32, height: UInt32, format: UInt32, usage: UInt32, flags: UInt32, tiling: UInt32,
        allocationSize: UInt64, deviceUUID: [UInt8], driverUUID: [UInt8]
    ) {
        self.id = id
        self.width = width
        self.height = height
        self.format = format
        self.usage = usage
        self.flags = flags
        self.tiling = tiling
        self.allocationSize = allocationSize
        self.deviceUUID = deviceUUID
        self.driverUUID = driverUUID
    }
}

import CVulkan
import Foundation
import LaminaProtocol

/// The app's Vulkan device, which a `CAVulkanLayer` makes its drawables on: the analogue of the
/// `MTLDevice` a `CAMetalLayer` is given (developer.apple.com/documentation/quartzcore/cametallayer/device).
///
/// The app keeps its instance, physical device, device and queue; Lamina only makes images and
/// semaphores on them and never submits. The device must have been created with Vulkan 1.2 or later,
/// the `timelineSemaphore` feature and the `VK_KHR_external_memory_fd` extension. Its drawables are
/// shown only by a server whose device and driver UUIDs are this device's
/// (`CAContext.surfaceCapabilities()`): the same GPU and driver build in both processes.
public final class CAVulkanDevice: @unchecked Sendable {
    /// The app's physical device.
    public let physicalDevice: VkPhysicalDevice
    /// The app's logical device.
    public let device: VkDevice
    /// The queue family the app renders with: drawables are acquired from and released to the
    /// external queue family on it.
    public let queueFamilyIndex: UInt32
    /// `VkPhysicalDeviceIDProperties.deviceUUID` of the physical device.
    public let deviceUUID: [UInt8]
    /// `VkPhysicalDeviceIDProperties.driverUUID` of the physical device.
    public let driverUUID: [UInt8]
    let memoryProperties: VkPhysicalDeviceMemoryProperties
    let getMemoryFD: PFN_vkGetMemoryFdKHR

    /// Wraps the app's device. Returns nil when the device lacks `vkGetMemoryFdKHR` (the
    /// `VK_KHR_external_memory_fd` extension was not enabled).
    public init?(physicalDevice: VkPhysicalDevice, device: VkDevice, queueFamilyIndex: UInt32) {
        guard let function = vkGetDeviceProcAddr(device, "vkGetMemoryFdKHR") else { return nil }
        getMemoryFD = unsafeBitCast(function, to: PFN_vkGetMemoryFdKHR.self)
        self.physicalDevice = physicalDevice
        self.device = device
        self.queueFamilyIndex = queueFamilyIndex
        var id = VkPhysicalDeviceIDProperties()
        id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES
        var properties = VkPhysicalDeviceProperties2()
        properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2
        withUnsafeMutablePointer(to: &id) { p in
            properties.pNext = UnsafeMutableRawPointer(p)
            vkGetPhysicalDeviceProperties2(physicalDevice, &properties)
        }
        deviceUUID = withUnsafeBytes(of: id.deviceUUID) { Array($0) }
        driverUUID = withUnsafeBytes(of: id.driverUUID) { Array($0) }
        var memory = VkPhysicalDeviceMemoryProperties()
        vkGetPhysicalDeviceMemoryProperties(physicalDevice, &memory)
        memoryProperties = memory
    }

    /// Whether a server with `capabilities` can import this device's images of `format`: the same
    /// device and driver UUIDs, opaque fds imported, and the format among its drawable formats.
    public func isCompatible(with capabilities: SurfaceCapabilities, format: VkFormat) -> Bool {
        capabilities.memoryKinds.contains(.opaqueFD) && capabilities.deviceUUID == deviceUUID
            && capabilities.driverUUID == driverUUID && capabilities.drawableFormats.contains(format.rawValue)
    }

    /// The first memory type allowed by `bits`, device-local where one is.
    func memoryType(_ bits: UInt32) -> UInt32? {
        let types = withUnsafeBytes(of: memoryProperties.memoryTypes) { Array($0.bindMemory(to: VkMemoryType.self)) }
        let allowed = (0..<Int(memoryProperties.memoryTypeCount)).filter { bits & (1 << $0) != 0 }
        let local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue
        return (allowed.first { types[$0].propertyFlags & local != 0 } ?? allowed.first).map(UInt32.init)
    }
}

import CVulkan
import Foundation
import LaminaServer
import Logging

/// The Vulkan instance, the chosen physical device, the logical device and its graphics queue.
///
/// Needs Vulkan 1.3 with `dynamicRendering` and `synchronization2`; any such device works (lavapipe on
/// machines without a GPU). Confined to the render thread.
public final class VulkanDevice {
    let instance: VkInstance
    let physicalDevice: VkPhysicalDevice
    let device: VkDevice
    let queue: VkQueue
    let queueFamily: UInt32
    let memoryProperties: VkPhysicalDeviceMemoryProperties
    /// The largest width or height of a 2D image the device supports (`maxImageDimension2D`).
    public let maxImageDimension2D: Int
    /// Nanoseconds per timestamp tick, when the queue writes timestamps (its family's
    /// `timestampValidBits` is not 0); nil otherwise.
    public let timestampPeriod: Double?
    /// The bits of a timestamp that count (the queue family's `timestampValidBits`).
    let timestampValidBits: UInt32
    private var messenger: VkDebugUtilsMessengerEXT?
    /// The validation layer's messages, when validation is on.
    public let validation: ValidationSink?
    /// The device's name as the driver reports it.
    public let name: String
    /// Whether the instance has `VK_KHR_surface` and `VK_KHR_xcb_surface` and the device
    /// `VK_KHR_swapchain`: asked for with `windowSystem` and offered by the driver.
    public let canPresentToXcb: Bool
    /// Whether `VK_KHR_incremental_present` is enabled (with the swapchain, where the driver offers
    /// it): a window's presents then name the rectangles that changed (`VkPresentRegionsKHR`).
    public let presentsRegions: Bool
    /// The scan-out memory the device can import (`ScanoutCopying.scanoutImports`): dma-bufs with
    /// `VK_KHR_external_memory_fd` and `VK_EXT_external_memory_dma_buf`, host mappings with
    /// `VK_EXT_external_memory_host` (see `hostMappingHandleType`). Their extensions are enabled.
    public let scanoutImports: Set<ScanoutImport>
    /// The handle type a host mapping is imported as: host-mapped foreign memory where the device
    /// imports that, else a host allocation on a CPU device (its memory is all host memory, and a
    /// mapping of a display buffer is ordinary memory to it); nil when neither.
    let hostMappingHandleType: VkExternalMemoryHandleTypeFlagBits?
    /// `vkGetMemoryHostPointerPropertiesEXT` and `vkGetMemoryFdPropertiesKHR`, when enabled.
    let getHostPointerProperties: PFN_vkGetMemoryHostPointerPropertiesEXT?
    let getFdProperties: PFN_vkGetMemoryFdPropertiesKHR?
    /// The alignment of an imported host pointer and its size (`minImportedHostPointerAlignment`).
    let hostPointerAlignment: Int
    /// Whether `VK_KHR_external_memory_fd` is enabled: the device can import memory another process
    /// exported as an opaque fd (a Vulkan-device drawable).
    let importsOpaqueFDs: Bool
    /// The device's and driver's UUIDs (`VkPhysicalDeviceIDProperties`): memory exported as an
    /// opaque fd is importable only by a device and driver with the same two.
    let deviceUUID: [UInt8]
    let driverUUID: [UInt8]

    /// Creates the device. With `validation`, enables `VK_LAYER_KHRONOS_validation` and collects its
    /// warnings and errors (throws if the layer is not installed). `preferredName` picks the first
    /// device whose name contains it (the `LAMINA_VULKAN_DEVICE` variable sets it in laminad).
    ///
    /// With `windowSystem`, also enables the instance extensions `VK_KHR_surface` and
    /// `VK_KHR_xcb_surface` and the device extension `VK_KHR_swapchain` where the driver offers them
    /// (`canPresentToXcb` says whether it did), for the window output. Off by default, so an
    /// offscreen-only server asks nothing of the window system.
    public init(validation: Bool, preferredName: String? = nil, windowSystem: Bool = false) throws {
        let sink = validation ? ValidationSink() : nil
        self.validation = sink
        var instance: VkInstance?
        var messenger: VkDebugUtilsMessengerEXT?
        let surfaceExtensions = windowSystem ? Self.availableSurfaceExtensions() : []
        try withArena { a in
            var app = VkApplicationInfo()
            app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
            app.pApplicationName = a.cString("laminad")
            app.pEngineName = a.cString("Lamina")
            app.apiVersion = cvk_make_api_version(0, 1, 3, 0)
            var info = VkInstanceCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
            info.pApplicationInfo = UnsafePointer(a.new(app))
            var messengerInfo = VkDebugUtilsMessengerCreateInfoEXT()
            let extensions = surfaceExtensions + (sink != nil ? [VK_EXT_DEBUG_UTILS_EXTENSION_NAME] : [])
            info.enabledExtensionCount = UInt32(extensions.count)
            info.ppEnabledExtensionNames = a.cStrings(extensions)
            if let sink {
                info.enabledLayerCount = 1
                info.ppEnabledLayerNames = a.cStrings(["VK_LAYER_KHRONOS_validation"])
                messengerInfo.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT
                messengerInfo.messageSeverity =
                    VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT.rawValue
                    | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT.rawValue
                messengerInfo.messageType =
                    VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT.rawValue
                    | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT.rawValue
                    | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT.rawValue
                messengerInfo.pfnUserCallback = validationCallback
                messengerInfo.pUserData = Unmanaged.passUnretained(sink).toOpaque()
                info.pNext = UnsafeRawPointer(a.new(messengerInfo))
            }
            try check(vkCreateInstance(&info, nil, &instance), "vkCreateInstance")
            if sink != nil {
                guard let create = vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT") else {
                    throw VulkanUnsupported("vkCreateDebugUtilsMessengerEXT is missing")
                }
                let fn = unsafeBitCast(create, to: PFN_vkCreateDebugUtilsMessengerEXT.self)
                try check(fn(instance, &messengerInfo, nil, &messenger), "vkCreateDebugUtilsMessengerEXT")
            }
        }
        self.instance = instance!
        self.messenger = messenger

        do {
            let candidates = try Self.enumeratePhysicalDevices(instance!)
            var chosen: (VkPhysicalDevice, UInt32, String, Int, Float)?
            var isCPU = false
            for pd in candidates {
                var props = VkPhysicalDeviceProperties()
                vkGetPhysicalDeviceProperties(pd, &props)
                let name = withUnsafeBytes(of: props.deviceName) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                }
                guard props.apiVersion >= cvk_make_api_version(0, 1, 3, 0) else { continue }
                guard let family = Self.graphicsQueueFamily(pd) else { continue }
                if let preferredName, !name.contains(preferredName) { continue }
                chosen = (pd, family, name, Int(props.limits.maxImageDimension2D), props.limits.timestampPeriod)
                isCPU = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU
                break
            }
            guard let (pd, family, name, limit, period) = chosen else {
                throw VulkanUnsupported(
                    "no Vulkan 1.3 device with a graphics queue"
                        + (preferredName.map { " whose name contains '\($0)'" } ?? ""))
            }
            physicalDevice = pd
            queueFamily = family
            self.name = name
            maxImageDimension2D = limit
            let validBits = Self.timestampValidBits(pd, family: family)
            timestampValidBits = validBits
            timestampPeriod = validBits > 0 && period > 0 ? Double(period) : nil
            var memory = VkPhysicalDeviceMemoryProperties()
            vkGetPhysicalDeviceMemoryProperties(pd, &memory)
            memoryProperties = memory

            var features13 = VkPhysicalDeviceVulkan13Features()
            features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES
            var features = VkPhysicalDeviceFeatures2()
            features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2
            try withUnsafeMutablePointer(to: &features13) { p in
                features.pNext = UnsafeMutableRawPointer(p)
                vkGetPhysicalDeviceFeatures2(pd, &features)
                guard p.pointee.dynamicRendering == VK_TRUE, p.pointee.synchronization2 == VK_TRUE else {
                    throw VulkanUnsupported("\(name) lacks dynamicRendering or synchronization2")
                }
            }

            let swapchain =
                surfaceExtensions.count == 2 && Self.deviceOffers(VK_KHR_SWAPCHAIN_EXTENSION_NAME, pd)
            let dmaBuf =
                Self.deviceOffers(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME, pd)
                && Self.deviceOffers(VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME, pd)
                && Self.importsBuffers(of: VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, pd)
            var hostType: VkExternalMemoryHandleTypeFlagBits?
            var alignment = 0
            if Self.deviceOffers(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME, pd) {
                if Self.importsBuffers(of: VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_MAPPED_FOREIGN_MEMORY_BIT_EXT, pd) {
                    hostType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_MAPPED_FOREIGN_MEMORY_BIT_EXT
                } else if isCPU && Self.importsBuffers(of: VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, pd) {
                    hostType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT
                }
                var host = VkPhysicalDeviceExternalMemoryHostPropertiesEXT()
                host.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT
                var properties = VkPhysicalDeviceProperties2()
                properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2
                withUnsafeMutablePointer(to: &host) { p in
                    properties.pNext = UnsafeMutableRawPointer(p)
                    vkGetPhysicalDeviceProperties2(pd, &properties)
                }
                alignment = Int(host.minImportedHostPointerAlignment)
            }
            var deviceExtensions = swapchain ? [VK_KHR_SWAPCHAIN_EXTENSION_NAME] : []
            let regions = swapchain && Self.deviceOffers(VK_KHR_INCREMENTAL_PRESENT_EXTENSION_NAME, pd)
            if regions { deviceExtensions.append(VK_KHR_INCREMENTAL_PRESENT_EXTENSION_NAME) }
            if dmaBuf {
                deviceExtensions += [
                    VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME, VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME,
                ]
            }
            if hostType != nil { deviceExtensions.append(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME) }
            let opaqueFDs = Self.deviceOffers(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME, pd)
            if opaqueFDs && !dmaBuf { deviceExtensions.append(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME) }
            (deviceUUID, driverUUID) = Self.uuids(pd)
            var device: VkDevice?
            try withArena { a in
                var enabled = VkPhysicalDeviceVulkan13Features()
                enabled.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES
                enabled.dynamicRendering = VkBool32(VK_TRUE)
                enabled.synchronization2 = VkBool32(VK_TRUE)
                var queueInfo = VkDeviceQueueCreateInfo()
                queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO
                queueInfo.queueFamilyIndex = family
                queueInfo.queueCount = 1
                queueInfo.pQueuePriorities = UnsafePointer(a.new(Float(1)))
                var info = VkDeviceCreateInfo()
                info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO
                info.pNext = UnsafeRawPointer(a.new(enabled))
                info.queueCreateInfoCount = 1
                info.pQueueCreateInfos = UnsafePointer(a.new(queueInfo))
                if !deviceExtensions.isEmpty {
                    info.enabledExtensionCount = UInt32(deviceExtensions.count)
                    info.ppEnabledExtensionNames = a.cStrings(deviceExtensions)
                }
                try check(vkCreateDevice(pd, &info, nil, &device), "vkCreateDevice")
            }
            self.device = device!
            canPresentToXcb = swapchain
            presentsRegions = regions
            hostMappingHandleType = hostType
            hostPointerAlignment = alignment
            importsOpaqueFDs = opaqueFDs
            scanoutImports = Set([dmaBuf ? .dmaBuf : nil, hostType != nil ? .hostMapping : nil].compactMap { $0 })
            getHostPointerProperties =
                hostType == nil
                ? nil
                : vkGetDeviceProcAddr(device, "vkGetMemoryHostPointerPropertiesEXT").map {
                    unsafeBitCast($0, to: PFN_vkGetMemoryHostPointerPropertiesEXT.self)
                }
            getFdProperties =
                !dmaBuf
                ? nil
                : vkGetDeviceProcAddr(device, "vkGetMemoryFdPropertiesKHR").map {
                    unsafeBitCast($0, to: PFN_vkGetMemoryFdPropertiesKHR.self)
                }
            var queue: VkQueue?
            vkGetDeviceQueue(device, family, 0, &queue)
            self.queue = queue!
        } catch {
            Self.destroyInstance(instance!, messenger)
            throw error
        }
    }

    /// `VK_KHR_surface` and `VK_KHR_xcb_surface` when the loader offers both, else none.
    static func availableSurfaceExtensions() -> [String] {
        var count: UInt32 = 0
        guard vkEnumerateInstanceExtensionProperties(nil, &count, nil) == VK_SUCCESS else { return [] }
        var properties = [VkExtensionProperties](repeating: VkExtensionProperties(), count: Int(count))
        guard vkEnumerateInstanceExtensionProperties(nil, &count, &properties) == VK_SUCCESS else { return [] }
        let names = Set(properties.prefix(Int(count)).map { Self.extensionName($0) })
        let wanted = [VK_KHR_SURFACE_EXTENSION_NAME, "VK_KHR_xcb_surface"]
        return wanted.allSatisfy(names.contains) ? wanted : []
    }

    /// Whether the physical device `pd` offers the device extension `name`.
    static func deviceOffers(_ name: String, _ pd: VkPhysicalDevice) -> Bool {
        var count: UInt32 = 0
        guard vkEnumerateDeviceExtensionProperties(pd, nil, &count, nil) == VK_SUCCESS else { return false }
        var properties = [VkExtensionProperties](repeating: VkExtensionProperties(), count: Int(count))
        guard vkEnumerateDeviceExtensionProperties(pd, nil, &count, &properties) == VK_SUCCESS else { return false }
        return properties.prefix(Int(count)).contains { Self.extensionName($0) == name }
    }

    /// Whether `pd` can import buffers (transfer destinations) from memory of `handleType`.
    static func importsBuffers(of handleType: VkExternalMemoryHandleTypeFlagBits, _ pd: VkPhysicalDevice) -> Bool {
        var info = VkPhysicalDeviceExternalBufferInfo()
        info.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO
        info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue
        info.handleType = handleType
        var properties = VkExternalBufferProperties()
        properties.sType = VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES
        vkGetPhysicalDeviceExternalBufferProperties(pd, &info, &properties)
        let importable = VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT.rawValue
        return properties.externalMemoryProperties.externalMemoryFeatures & importable != 0
    }

    static func extensionName(_ properties: VkExtensionProperties) -> String {
        withUnsafeBytes(of: properties.extensionName) {
            String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
        }
    }

    static func enumeratePhysicalDevices(_ instance: VkInstance) throws -> [VkPhysicalDevice] {
        var count: UInt32 = 0
        try check(vkEnumeratePhysicalDevices(instance, &count, nil), "vkEnumeratePhysicalDevices")
        var devices = [VkPhysicalDevice?](repeating: nil, count: Int(count))
        try check(vkEnumeratePhysicalDevices(instance, &count, &devices), "vkEnumeratePhysicalDevices")
        return devices.compactMap { $0 }
    }

    static func graphicsQueueFamily(_ pd: VkPhysicalDevice) -> UInt32? {
        var count: UInt32 = 0
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, nil)
        var families = [VkQueueFamilyProperties](repeating: VkQueueFamilyProperties(), count: Int(count))
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, &families)
        return families.firstIndex { $0.queueFlags & VK_QUEUE_GRAPHICS_BIT.rawValue != 0 }.map(UInt32.init)
    }

    /// The index of a memory type allowed by `typeBits` with all of `properties`.
    func memoryType(_ typeBits: UInt32, _ properties: VkMemoryPropertyFlags) throws -> UInt32 {
        let types = withUnsafeBytes(of: memoryProperties.memoryTypes) { Array($0.bindMemory(to: VkMemoryType.self)) }
        for i in 0..<Int(memoryProperties.memoryTypeCount)
        where typeBits & (1 << i) != 0 && types[i].propertyFlags & properties == properties {
            return UInt32(i)
        }
        throw VulkanUnsupported("no memory type with properties \(properties) in mask \(typeBits)")
    }

    /// Allocates memory that satisfies `requirements` from a type with all of `properties`.
    func allocateMemory(_ requirements: VkMemoryRequirements, _ properties: VkMemoryPropertyFlags) throws
        -> VkDeviceMemory
    {
        var allocation = VkMemoryAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
        allocation.allocationSize = requirements.size
        allocation.memoryTypeIndex = try memoryType(requirements.memoryTypeBits, properties)
        var memory: VkDeviceMemory?
        try check(vkAllocateMemory(device, &allocation, nil, &memory), "vkAllocateMemory")
        return memory!
    }

    /// Whether optimally tiled images of `format` support every feature in `features`.
    func supportsOptimal(_ format: VkFormat, _ features: VkFormatFeatureFlags) -> Bool {
        var properties = VkFormatProperties()
        vkGetPhysicalDeviceFormatProperties(physicalDevice, format, &properties)
        return properties.optimalTilingFeatures & features == features
    }

    static func destroyInstance(_ instance: VkInstance, _ messenger: VkDebugUtilsMessengerEXT?) {
        if let messenger, let destroy = vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT") {
            unsafeBitCast(destroy, to: PFN_vkDestroyDebugUtilsMessengerEXT.self)(instance, messenger, nil)
        }
        vkDestroyInstance(instance, nil)
    }

    deinit {
        vkDeviceWaitIdle(device)
        vkDestroyDevice(device, nil)
        Self.destroyInstance(instance, messenger)
    }

    /// The device and driver UUIDs of `pd`.
    static func uuids(_ pd: VkPhysicalDevice) -> (device: [UInt8], driver: [UInt8]) {
        var id = VkPhysicalDeviceIDProperties()
        id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES
        var properties = VkPhysicalDeviceProperties2()
        properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2
        withUnsafeMutablePointer(to: &id) { p in
            properties.pNext = UnsafeMutableRawPointer(p)
            vkGetPhysicalDeviceProperties2(pd, &properties)
        }
        return (withUnsafeBytes(of: id.deviceUUID) { Array($0) }, withUnsafeBytes(of: id.driverUUID) { Array($0) })
    }

    /// The `timestampValidBits` of queue family `family` of `pd`.
    static func timestampValidBits(_ pd: VkPhysicalDevice, family: UInt32) -> UInt32 {
        var count: UInt32 = 0
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, nil)
        guard family < count else { return 0 }
        var families = [VkQueueFamilyProperties](repeating: VkQueueFamilyProperties(), count: Int(count))
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, &families)
        return families[Int(family)].timestampValidBits
    }
}

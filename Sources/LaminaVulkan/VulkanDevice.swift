import CVulkan
import Foundation
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
    private var messenger: VkDebugUtilsMessengerEXT?
    /// The validation layer's messages, when validation is on.
    public let validation: ValidationSink?
    /// The device's name as the driver reports it.
    public let name: String

    /// Creates the device. With `validation`, enables `VK_LAYER_KHRONOS_validation` and collects its
    /// warnings and errors (throws if the layer is not installed). `preferredName` picks the first
    /// device whose name contains it (the `LAMINA_VULKAN_DEVICE` variable sets it in laminad).
    public init(validation: Bool, preferredName: String? = nil) throws {
        let sink = validation ? ValidationSink() : nil
        self.validation = sink
        var instance: VkInstance?
        var messenger: VkDebugUtilsMessengerEXT?
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
            if let sink {
                info.enabledLayerCount = 1
                info.ppEnabledLayerNames = a.cStrings(["VK_LAYER_KHRONOS_validation"])
                info.enabledExtensionCount = 1
                info.ppEnabledExtensionNames = a.cStrings([VK_EXT_DEBUG_UTILS_EXTENSION_NAME])
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
            var chosen: (VkPhysicalDevice, UInt32, String, Int)?
            for pd in candidates {
                var props = VkPhysicalDeviceProperties()
                vkGetPhysicalDeviceProperties(pd, &props)
                let name = withUnsafeBytes(of: props.deviceName) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                }
                guard props.apiVersion >= cvk_make_api_version(0, 1, 3, 0) else { continue }
                guard let family = Self.graphicsQueueFamily(pd) else { continue }
                if let preferredName, !name.contains(preferredName) { continue }
                chosen = (pd, family, name, Int(props.limits.maxImageDimension2D))
                break
            }
            guard let (pd, family, name, limit) = chosen else {
                throw VulkanUnsupported(
                    "no Vulkan 1.3 device with a graphics queue"
                        + (preferredName.map { " whose name contains '\($0)'" } ?? ""))
            }
            physicalDevice = pd
            queueFamily = family
            self.name = name
            maxImageDimension2D = limit
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
                try check(vkCreateDevice(pd, &info, nil, &device), "vkCreateDevice")
            }
            self.device = device!
            var queue: VkQueue?
            vkGetDeviceQueue(device, family, 0, &queue)
            self.queue = queue!
        } catch {
            Self.destroyInstance(instance!, messenger)
            throw error
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
}

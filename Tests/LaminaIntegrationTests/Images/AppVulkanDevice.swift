import CVulkan
import CVulkanXcb  // the test target imports both; a constant may come from either (they share vulkan_core.h)
import Foundation
@testable import Lamina
import Testing

/// A test's own Vulkan device (the app's side of `CAVulkanLayer.device`): lavapipe with
/// `VK_KHR_external_memory_fd`, timeline semaphores and the validation layer, whose messages it
/// collects. It renders a drawable the way the API docs ask: acquire, clear to a colour, release to
/// the external queue family in layout `GENERAL`, signal the drawable's timeline value.
final class AppVulkanDevice: @unchecked Sendable {
    let instance: VkInstance
    let physicalDevice: VkPhysicalDevice
    let device: VkDevice
    let queue: VkQueue
    let family: UInt32
    let pool: VkCommandPool
    private var messenger: VkDebugUtilsMessengerEXT?
    let layerDevice: CAVulkanDevice

    nonisolated(unsafe) static var messages: [String] = []
    static let messagesLock = NSLock()

    /// The validation layer's warnings and errors so far, from every app device of this process.
    static var validationMessages: [String] { messagesLock.withLock { messages } }

    struct Failure: Error { var text: String }

    init() throws {
        var instance: VkInstance?
        let layers = ["VK_LAYER_KHRONOS_validation"]
        let extensions = [VK_EXT_DEBUG_UTILS_EXTENSION_NAME]
        var messengerInfo = VkDebugUtilsMessengerCreateInfoEXT()
        messengerInfo.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT
        messengerInfo.messageSeverity =
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT.rawValue
            | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT.rawValue
        messengerInfo.messageType =
            VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT.rawValue
            | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT.rawValue
        messengerInfo.pfnUserCallback = { _, _, data, _ in
            let text = data.map { String(cString: $0.pointee.pMessage) } ?? "?"
            AppVulkanDevice.messagesLock.withLock { AppVulkanDevice.messages.append(text) }
            return VkBool32(VK_FALSE)
        }
        var app = VkApplicationInfo()
        app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
        app.apiVersion = cvk_make_api_version(0, 1, 3, 0)
        let created = try withCStrings(layers) { layerNames in
            try withCStrings(extensions) { extensionNames in
                try withUnsafePointer(to: &app) { appPointer in
                    try withUnsafePointer(to: &messengerInfo) { m in
                        var info = VkInstanceCreateInfo()
                        info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
                        info.pNext = UnsafeRawPointer(m)
                        info.pApplicationInfo = appPointer
                        info.enabledLayerCount = 1
                        info.ppEnabledLayerNames = layerNames
                        info.enabledExtensionCount = 1
                        info.ppEnabledExtensionNames = extensionNames
                        let result = vkCreateInstance(&info, nil, &instance)
                        guard result == VK_SUCCESS else { throw Failure(text: "vkCreateInstance: \(result)") }
                        return instance!
                    }
                }
            }
        }
        self.instance = created
        if let create = vkGetInstanceProcAddr(created, "vkCreateDebugUtilsMessengerEXT") {
            _ = unsafeBitCast(create, to: PFN_vkCreateDebugUtilsMessengerEXT.self)(
                created, &messengerInfo, nil, &messenger)
        }
        var count: UInt32 = 0
        vkEnumeratePhysicalDevices(created, &count, nil)
        var devices = [VkPhysicalDevice?](repeating: nil, count: Int(count))
        vkEnumeratePhysicalDevices(created, &count, &devices)
        guard let pd = devices.first ?? nil else { throw Failure(text: "no physical device") }
        physicalDevice = pd
        var familyCount: UInt32 = 0
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &familyCount, nil)
        var families = [VkQueueFamilyProperties](repeating: VkQueueFamilyProperties(), count: Int(familyCount))
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &familyCount, &families)
        family = UInt32(families.firstIndex { $0.queueFlags & VK_QUEUE_GRAPHICS_BIT.rawValue != 0 } ?? 0)
        var features12 = VkPhysicalDeviceVulkan12Features()
        features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES
        features12.timelineSemaphore = VkBool32(VK_TRUE)
        var features13 = VkPhysicalDeviceVulkan13Features()
        features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES
        features13.synchronization2 = VkBool32(VK_TRUE)
        var priority: Float = 1
        var device: VkDevice?
        let family = self.family
        try withCStrings([VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME]) { names in
            try withUnsafeMutablePointer(to: &features13) { f13 in
                features12.pNext = UnsafeMutableRawPointer(f13)
                try withUnsafeMutablePointer(to: &features12) { f12 in
                    try withUnsafePointer(to: &priority) { p in
                        var queueInfo = VkDeviceQueueCreateInfo()
                        queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO
                        queueInfo.queueFamilyIndex = family
                        queueInfo.queueCount = 1
                        queueInfo.pQueuePriorities = p
                        try withUnsafePointer(to: &queueInfo) { q in
                            var info = VkDeviceCreateInfo()
                            info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO
                            info.pNext = UnsafeRawPointer(f12)
                            info.queueCreateInfoCount = 1
                            info.pQueueCreateInfos = q
                            info.enabledExtensionCount = 1
                            info.ppEnabledExtensionNames = names
                            let result = vkCreateDevice(pd, &info, nil, &device)
                            guard result == VK_SUCCESS else { throw Failure(text: "vkCreateDevice: \(result)") }
                        }
                    }
                }
            }
        }
        self.device = device!
        var queue: VkQueue?
        vkGetDeviceQueue(device, family, 0, &queue)
        self.queue = queue!
        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.queueFamilyIndex = family
        var pool: VkCommandPool?
        vkCreateCommandPool(device, &poolInfo, nil, &pool)
        self.pool = pool!
        layerDevice = try #require(CAVulkanDevice(physicalDevice: pd, device: device!, queueFamilyIndex: family))
    }

    deinit {
        vkDeviceWaitIdle(device)
        vkDestroyCommandPool(device, pool, nil)
        vkDestroyDevice(device, nil)
        if let messenger, let destroy = vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT") {
            unsafeBitCast(destroy, to: PFN_vkDestroyDebugUtilsMessengerEXT.self)(instance, messenger, nil)
        }
        vkDestroyInstance(instance, nil)
    }

    /// The row pitch this device gives a linear, sampled, one-pixel-wide BGRA image.
    func linearRowPitch() -> Int {
        var info = VkImageCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO
        info.imageType = VK_IMAGE_TYPE_2D
        info.format = VK_FORMAT_B8G8R8A8_UNORM
        info.extent = VkExtent3D(width: 1, height: 2, depth: 1)
        info.mipLevels = 1
        info.arrayLayers = 1
        info.samples = VK_SAMPLE_COUNT_1_BIT
        info.tiling = VK_IMAGE_TILING_LINEAR
        info.usage = VK_IMAGE_USAGE_SAMPLED_BIT.rawValue
        info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
        var image: VkImage?
        guard vkCreateImage(device, &info, nil, &image) == VK_SUCCESS else { return 0 }
        defer { vkDestroyImage(device, image, nil) }
        var subresource = VkImageSubresource(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, arrayLayer: 0)
        var layout = VkSubresourceLayout()
        vkGetImageSubresourceLayout(device, image, &subresource, &layout)
        return Int(layout.rowPitch)
    }

    /// Clears `drawable`'s image to `color` (red, green, blue, alpha in 0...1) on this device: acquire
    /// from the external queue family (or from undefined the first time), clear, release to the
    /// external family in `GENERAL`, signalling the drawable's timeline value. Returns at once.
    func clear(_ drawable: CAVulkanDrawable, to color: (Float, Float, Float, Float)) throws {
        let image = try #require(drawable.image)
        var allocate = VkCommandBufferAllocateInfo()
        allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
        allocate.commandPool = pool
        allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY
        allocate.commandBufferCount = 1
        var cb: VkCommandBuffer?
        vkAllocateCommandBuffers(device, &allocate, &cb)
        var begin = VkCommandBufferBeginInfo()
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT.rawValue
        vkBeginCommandBuffer(cb, &begin)
        let range = VkImageSubresourceRange(
            aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: 0, levelCount: 1, baseArrayLayer: 0,
            layerCount: 1)
        let first = drawable.initialLayout == VK_IMAGE_LAYOUT_UNDEFINED
        barrier(
            cb!, image, range, from: drawable.initialLayout, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            srcFamily: first ? VK_QUEUE_FAMILY_IGNORED : VK_QUEUE_FAMILY_EXTERNAL,
            dstFamily: first ? VK_QUEUE_FAMILY_IGNORED : family, srcAccess: 0,
            dstAccess: VK_ACCESS_2_TRANSFER_WRITE_BIT)
        var value = VkClearColorValue(float32: (color.0, color.1, color.2, color.3))
        var clearRange = range
        vkCmdClearColorImage(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &value, 1, &clearRange)
        barrier(
            cb!, image, range, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, to: VK_IMAGE_LAYOUT_GENERAL,
            srcFamily: family, dstFamily: VK_QUEUE_FAMILY_EXTERNAL, srcAccess: VK_ACCESS_2_TRANSFER_WRITE_BIT,
            dstAccess: 0)
        vkEndCommandBuffer(cb)
        var bufferInfo = VkCommandBufferSubmitInfo()
        bufferInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO
        bufferInfo.commandBuffer = cb
        var signal = VkSemaphoreSubmitInfo()
        signal.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO
        signal.semaphore = drawable.signalSemaphore
        signal.value = drawable.signalValue
        signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT
        let result = withUnsafePointer(to: &bufferInfo) { b in
            withUnsafePointer(to: &signal) { s in
                var submit = VkSubmitInfo2()
                submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2
                submit.commandBufferInfoCount = 1
                submit.pCommandBufferInfos = b
                submit.signalSemaphoreInfoCount = 1
                submit.pSignalSemaphoreInfos = s
                return vkQueueSubmit2(queue, 1, &submit, nil)
            }
        }
        guard result == VK_SUCCESS else { throw Failure(text: "vkQueueSubmit2: \(result)") }
        // The command buffer is freed with the pool; the test waits for idle before reusing anything.
    }

    private func barrier(
        _ cb: VkCommandBuffer, _ image: VkImage, _ range: VkImageSubresourceRange, from old: VkImageLayout,
        to new: VkImageLayout, srcFamily: UInt32, dstFamily: UInt32, srcAccess: VkAccessFlags2,
        dstAccess: VkAccessFlags2
    ) {
        var b = VkImageMemoryBarrier2()
        b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2
        b.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT
        b.srcAccessMask = srcAccess
        b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT
        b.dstAccessMask = dstAccess
        b.oldLayout = old
        b.newLayout = new
        b.srcQueueFamilyIndex = srcFamily
        b.dstQueueFamilyIndex = dstFamily
        b.image = image
        b.subresourceRange = range
        withUnsafePointer(to: &b) { p in
            var dependency = VkDependencyInfo()
            dependency.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO
            dependency.imageMemoryBarrierCount = 1
            dependency.pImageMemoryBarriers = p
            vkCmdPipelineBarrier2(cb, &dependency)
        }
    }
}

/// Calls `body` with `strings` as a C array of C strings.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) throws -> T) rethrows
    -> T
{
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) }
    return try pointers.withUnsafeBufferPointer { try body($0.baseAddress!) }
}

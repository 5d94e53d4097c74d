import CVulkan
import Foundation
import Lamina

/// The demo's Vulkan scene: a `CAVulkanLayer` whose drawables the demo renders on its own Vulkan
/// device (a plasma of 24 × 24 cells, each cleared to its colour with `vkCmdClearAttachments`),
/// beside Core Animation layers. Writes `vulkan-0.png` … `vulkan-2.png`, one per presented drawable.
/// Without a Vulkan device that the server shares (other UUIDs), it says so and writes nothing.
func runVulkanScene(on context: CAContext, outputFolder: String) throws {
    guard let renderer = DemoVulkanRenderer() else {
        print("vulkan scene: no Vulkan 1.3 device with external memory fds here; skipped")
        return
    }
    let root = CALayer()
    root.name = "vulkan root"
    root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
    root.backgroundColor = CGColor(red: 0.1, green: 0.11, blue: 0.14, alpha: 1)
    let frameLayer = CALayer()
    frameLayer.name = "frame around the Vulkan layer"
    frameLayer.frame = CGRect(x: 440, y: 160, width: 400, height: 400)
    frameLayer.backgroundColor = CGColor(red: 0.95, green: 0.95, blue: 0.92, alpha: 1)
    frameLayer.cornerRadius = 24
    frameLayer.shadowOpacity = 0.5
    frameLayer.shadowRadius = 16
    root.addSublayer(frameLayer)
    let layer = CAVulkanLayer()
    layer.name = "plasma (rendered by the demo's own Vulkan device)"
    layer.frame = CGRect(x: 20, y: 20, width: 360, height: 360)
    layer.cornerRadius = 12
    layer.masksToBounds = true
    layer.device = renderer.layerDevice
    frameLayer.addSublayer(layer)
    let badge = CALayer()
    badge.name = "badge (a Core Animation layer over the Vulkan one)"
    badge.frame = CGRect(x: 280, y: 280, width: 90, height: 90)
    badge.backgroundColor = CGColor(red: 0.9, green: 0.3, blue: 0.35, alpha: 0.85)
    badge.cornerRadius = 45
    frameLayer.addSublayer(badge)
    context.layer = root
    try context.synchronize()
    for frame in 0..<3 {
        guard let drawable = layer.nextDrawable() else {
            print("vulkan scene: the server cannot show this device's images; skipped")
            return
        }
        try renderer.renderPlasma(into: drawable, time: Double(frame) * 0.6)
        drawable.present()
        let deadline = Date().addingTimeInterval(5)
        while drawable.presentedTime == 0, Date() < deadline { usleep(2_000) }
        let capture = try context.capture()
        try capture.writePNG(to: outputFolder + "/vulkan-\(frame).png")
        print("wrote \(outputFolder)/vulkan-\(frame).png (presented at \(drawable.presentedTime))")
    }
    renderer.waitIdle()
}

/// The demo's own Vulkan device: the first Vulkan 1.3 device, with `VK_KHR_external_memory_fd`,
/// timeline semaphores, synchronization2 and dynamic rendering.
final class DemoVulkanRenderer {
    let instance: VkInstance
    let device: VkDevice
    let queue: VkQueue
    let family: UInt32
    let pool: VkCommandPool
    let layerDevice: CAVulkanDevice
    /// Command buffers submitted, freed once the device is idle.
    private var submitted: [VkCommandBuffer?] = []

    init?() {
        var app = VkApplicationInfo()
        app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
        app.apiVersion = cvk_make_api_version(0, 1, 3, 0)
        var instance: VkInstance?
        let made = withUnsafePointer(to: &app) { a in
            var info = VkInstanceCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
            info.pApplicationInfo = a
            return vkCreateInstance(&info, nil, &instance)
        }
        guard made == VK_SUCCESS, let instance else { return nil }
        var count: UInt32 = 0
        vkEnumeratePhysicalDevices(instance, &count, nil)
        var devices = [VkPhysicalDevice?](repeating: nil, count: Int(count))
        vkEnumeratePhysicalDevices(instance, &count, &devices)
        guard let pd = devices.first ?? nil else {
            vkDestroyInstance(instance, nil)
            return nil
        }
        var familyCount: UInt32 = 0
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &familyCount, nil)
        var families = [VkQueueFamilyProperties](repeating: VkQueueFamilyProperties(), count: Int(familyCount))
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &familyCount, &families)
        let family = UInt32(families.firstIndex { $0.queueFlags & VK_QUEUE_GRAPHICS_BIT.rawValue != 0 } ?? 0)
        var features12 = VkPhysicalDeviceVulkan12Features()
        features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES
        features12.timelineSemaphore = VkBool32(VK_TRUE)
        var features13 = VkPhysicalDeviceVulkan13Features()
        features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES
        features13.synchronization2 = VkBool32(VK_TRUE)
        features13.dynamicRendering = VkBool32(VK_TRUE)
        var priority: Float = 1
        var device: VkDevice?
        let name = strdup(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME)
        defer { free(name) }
        var names: [UnsafePointer<CChar>?] = [UnsafePointer(name)]
        let created = withUnsafeMutablePointer(to: &features13) { f13 in
            features12.pNext = UnsafeMutableRawPointer(f13)
            return withUnsafeMutablePointer(to: &features12) { f12 in
                withUnsafePointer(to: &priority) { p in
                    var queueInfo = VkDeviceQueueCreateInfo()
                    queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO
                    queueInfo.queueFamilyIndex = family
                    queueInfo.queueCount = 1
                    queueInfo.pQueuePriorities = p
                    return withUnsafePointer(to: &queueInfo) { q in
                        names.withUnsafeMutableBufferPointer { n in
                            var info = VkDeviceCreateInfo()
                            info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO
                            info.pNext = UnsafeRawPointer(f12)
                            info.queueCreateInfoCount = 1
                            info.pQueueCreateInfos = q
                            info.enabledExtensionCount = 1
                            info.ppEnabledExtensionNames = UnsafePointer(n.baseAddress)
                            return vkCreateDevice(pd, &info, nil, &device)
                        }
                    }
                }
            }
        }
        guard created == VK_SUCCESS, let device,
            let layerDevice = CAVulkanDevice(physicalDevice: pd, device: device, queueFamilyIndex: family)
        else {
            vkDestroyInstance(instance, nil)
            return nil
        }
        var queue: VkQueue?
        vkGetDeviceQueue(device, family, 0, &queue)
        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.queueFamilyIndex = family
        var pool: VkCommandPool?
        vkCreateCommandPool(device, &poolInfo, nil, &pool)
        self.instance = instance
        self.device = device
        self.queue = queue!
        self.family = family
        self.pool = pool!
        self.layerDevice = layerDevice
    }

    deinit {
        vkDeviceWaitIdle(device)
        vkDestroyCommandPool(device, pool, nil)
        vkDestroyDevice(device, nil)
        vkDestroyInstance(instance, nil)
    }

    /// Waits until the device has finished everything submitted.
    func waitIdle() { vkDeviceWaitIdle(device) }

    /// Renders a plasma at `time` into `drawable`: acquire (from undefined the first time, else from
    /// the external queue family), one cleared rectangle per cell, release to the external family in
    /// `GENERAL`, signalling the drawable's timeline value.
    func renderPlasma(into drawable: CAVulkanDrawable, time: Double) throws {
        guard let image = drawable.image else { return }
        let size = drawable.layer?.drawableSize ?? CGSize(width: 360, height: 360)
        let (width, height) = (UInt32(size.width), UInt32(size.height))
        var viewInfo = VkImageViewCreateInfo()
        viewInfo.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO
        viewInfo.image = image
        viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D
        viewInfo.format = drawable.pixelFormat
        viewInfo.subresourceRange = Self.range
        var view: VkImageView?
        vkCreateImageView(device, &viewInfo, nil, &view)
        defer { vkDestroyImageView(device, view, nil) }
        var allocate = VkCommandBufferAllocateInfo()
        allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
        allocate.commandPool = pool
        allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY
        allocate.commandBufferCount = 1
        var cb: VkCommandBuffer?
        vkAllocateCommandBuffers(device, &allocate, &cb)
        submitted.append(cb)
        var begin = VkCommandBufferBeginInfo()
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT.rawValue
        vkBeginCommandBuffer(cb, &begin)
        let first = drawable.initialLayout == VK_IMAGE_LAYOUT_UNDEFINED
        barrier(
            cb, image, from: drawable.initialLayout, to: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            srcFamily: first ? VK_QUEUE_FAMILY_IGNORED : VK_QUEUE_FAMILY_EXTERNAL,
            dstFamily: first ? VK_QUEUE_FAMILY_IGNORED : family)
        var attachment = VkRenderingAttachmentInfo()
        attachment.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO
        attachment.imageView = view
        attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL
        attachment.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE
        attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE
        withUnsafePointer(to: &attachment) { a in
            var rendering = VkRenderingInfo()
            rendering.sType = VK_STRUCTURE_TYPE_RENDERING_INFO
            rendering.renderArea = VkRect2D(
                offset: VkOffset2D(x: 0, y: 0), extent: VkExtent2D(width: width, height: height))
            rendering.layerCount = 1
            rendering.colorAttachmentCount = 1
            rendering.pColorAttachments = a
            vkCmdBeginRendering(cb, &rendering)
        }
        let cells = 24
        for row in 0..<cells {
            for column in 0..<cells {
                let (x, y) = (Double(column) / Double(cells), Double(row) / Double(cells))
                let v = sin(x * 9 + time) + sin(y * 7 - time * 1.3) + sin((x + y) * 6 + time * 0.7)
                let color = (
                    Float(0.5 + 0.5 * sin(v * 1.2)), Float(0.5 + 0.5 * sin(v * 1.2 + 2.1)),
                    Float(0.5 + 0.5 * sin(v * 1.2 + 4.2))
                )
                var clear = VkClearAttachment()
                clear.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT.rawValue
                clear.colorAttachment = 0
                clear.clearValue.color = VkClearColorValue(float32: (color.0, color.1, color.2, 1))
                let (x0, y0) = (UInt32(column) * width / UInt32(cells), UInt32(row) * height / UInt32(cells))
                let (x1, y1) = (UInt32(column + 1) * width / UInt32(cells), UInt32(row + 1) * height / UInt32(cells))
                var rect = VkClearRect(
                    rect: VkRect2D(
                        offset: VkOffset2D(x: Int32(x0), y: Int32(y0)),
                        extent: VkExtent2D(width: x1 - x0, height: y1 - y0)),
                    baseArrayLayer: 0, layerCount: 1)
                vkCmdClearAttachments(cb, 1, &clear, 1, &rect)
            }
        }
        vkCmdEndRendering(cb)
        barrier(
            cb, image, from: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, to: VK_IMAGE_LAYOUT_GENERAL, srcFamily: family,
            dstFamily: VK_QUEUE_FAMILY_EXTERNAL)
        vkEndCommandBuffer(cb)
        var bufferInfo = VkCommandBufferSubmitInfo()
        bufferInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO
        bufferInfo.commandBuffer = cb
        var signal = VkSemaphoreSubmitInfo()
        signal.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO
        signal.semaphore = drawable.signalSemaphore
        signal.value = drawable.signalValue
        signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT
        _ = withUnsafePointer(to: &bufferInfo) { b in
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
        // The view is destroyed on return: wait for this frame's rendering first.
        _ = drawable.signalSemaphore.map { semaphore in
            var semaphores: [VkSemaphore?] = [semaphore]
            var values = [drawable.signalValue]
            return semaphores.withUnsafeMutableBufferPointer { sp in
                values.withUnsafeMutableBufferPointer { vp in
                    var wait = VkSemaphoreWaitInfo()
                    wait.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO
                    wait.semaphoreCount = 1
                    wait.pSemaphores = UnsafePointer(sp.baseAddress)
                    wait.pValues = UnsafePointer(vp.baseAddress)
                    return vkWaitSemaphores(device, &wait, 5_000_000_000)
                }
            }
        }
    }

    static let range = VkImageSubresourceRange(
        aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: 0, levelCount: 1, baseArrayLayer: 0,
        layerCount: 1)

    private func barrier(
        _ cb: VkCommandBuffer?, _ image: VkImage, from old: VkImageLayout, to new: VkImageLayout, srcFamily: UInt32,
        dstFamily: UInt32
    ) {
        var b = VkImageMemoryBarrier2()
        b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2
        b.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT
        b.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT
        b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT
        b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT
        b.oldLayout = old
        b.newLayout = new
        b.srcQueueFamilyIndex = srcFamily
        b.dstQueueFamilyIndex = dstFamily
        b.image = image
        b.subresourceRange = Self.range
        withUnsafePointer(to: &b) { p in
            var dependency = VkDependencyInfo()
            dependency.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO
            dependency.imageMemoryBarrierCount = 1
            dependency.pImageMemoryBarriers = p
            vkCmdPipelineBarrier2(cb, &dependency)
        }
    }
}

import CVulkan
import Foundation
import LaminaProtocol

/// The image behind a Vulkan-device drawable: a `VkImage` made on the app's device with a dedicated
/// allocation exportable as an opaque fd (exported once), and the timeline semaphore the app signals
/// when its rendering ends. It stands in `contents` for the drawable's id in the image id space, so
/// the context registers it once (`registerDeviceImage`), marks its new frames (`surfaceChanged`)
/// and releases it (`releaseSurface`) as it does a surface's. Thread-safe.
final class VulkanDrawableImage: @unchecked Sendable {
    let device: CAVulkanDevice
    let image: VkImage
    let memory: VkDeviceMemory
    let semaphore: VkSemaphore
    /// The exported memory, sent with the registration.
    let fd: OwnedFD
    /// The create info and allocation the server needs.
    let description: DeviceImageDescription
    /// The id layers name the image by, in the image id space.
    var contentsID: UInt64 { description.id }
    private let lock = NSLock()
    private var changes: UInt64 = 0
    private var signalled: UInt64 = 0

    /// Why an image could not be made.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Makes a `width` × `height` image of `format` with `usage` on `device`, its exported memory
    /// and its timeline semaphore.
    init(device: CAVulkanDevice, width: Int, height: Int, format: VkFormat, usage: VkImageUsageFlags) throws {
        self.device = device
        var external = VkExternalMemoryImageCreateInfo()
        external.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO
        external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT.rawValue
        var info = VkImageCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO
        info.imageType = VK_IMAGE_TYPE_2D
        info.format = format
        info.extent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        info.mipLevels = 1
        info.arrayLayers = 1
        info.samples = VK_SAMPLE_COUNT_1_BIT
        info.tiling = VK_IMAGE_TILING_OPTIMAL
        info.usage = usage
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
        var image: VkImage?
        let created = withUnsafePointer(to: &external) { p in
            info.pNext = UnsafeRawPointer(p)
            return vkCreateImage(device.device, &info, nil, &image)
        }
        guard created == VK_SUCCESS, let image else { throw Failure(description: "vkCreateImage: \(created)") }
        var memory: VkDeviceMemory?
        var semaphore: VkSemaphore?
        do {
            var requirements = VkMemoryRequirements()
            vkGetImageMemoryRequirements(device.device, image, &requirements)
            guard let type = device.memoryType(requirements.memoryTypeBits) else {
                throw Failure(description: "no memory type for the image")
            }
            var dedicated = VkMemoryDedicatedAllocateInfo()
            dedicated.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO
            dedicated.image = image
            var export = VkExportMemoryAllocateInfo()
            export.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO
            export.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT.rawValue
            var allocation = VkMemoryAllocateInfo()
            allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
            allocation.allocationSize = requirements.size
            allocation.memoryTypeIndex = type
            let allocated = withUnsafeMutablePointer(to: &dedicated) { d in
                export.pNext = UnsafeRawPointer(d)
                return withUnsafePointer(to: &export) { e in
                    allocation.pNext = UnsafeRawPointer(e)
                    return vkAllocateMemory(device.device, &allocation, nil, &memory)
                }
            }
            guard allocated == VK_SUCCESS else { throw Failure(description: "vkAllocateMemory: \(allocated)") }
            let bound = vkBindImageMemory(device.device, image, memory, 0)
            guard bound == VK_SUCCESS else { throw Failure(description: "vkBindImageMemory: \(bound)") }
            var get = VkMemoryGetFdInfoKHR()
            get.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR
            get.memory = memory
            get.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT
            var raw: Int32 = -1
            let exported = device.getMemoryFD(device.device, &get, &raw)
            guard exported == VK_SUCCESS, raw >= 0 else { throw Failure(description: "vkGetMemoryFdKHR: \(exported)") }
            fd = OwnedFD(raw)
            var timeline = VkSemaphoreTypeCreateInfo()
            timeline.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO
            timeline.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE
            timeline.initialValue = 0
            var semaphoreInfo = VkSemaphoreCreateInfo()
            semaphoreInfo.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO
            let made = withUnsafePointer(to: &timeline) { p in
                semaphoreInfo.pNext = UnsafeRawPointer(p)
                return vkCreateSemaphore(device.device, &semaphoreInfo, nil, &semaphore)
            }
            guard made == VK_SUCCESS else { throw Failure(description: "vkCreateSemaphore (timeline): \(made)") }
            description = DeviceImageDescription(
                id: ContentsImageRegistry.makeID(), width: UInt32(width), height: UInt32(height),
                format: format.rawValue, usage: usage, flags: 0, tiling: 0, allocationSize: requirements.size,
                deviceUUID: device.deviceUUID, driverUUID: device.driverUUID)
        } catch {
            if let memory { vkFreeMemory(device.device, memory, nil) }
            vkDestroyImage(device.device, image, nil)
            throw error
        }
        self.image = image
        self.memory = memory!
        self.semaphore = semaphore!
    }

    deinit {
        // The app's rendering into it has ended: a drawable comes back only after its wait.
        vkDestroySemaphore(device.device, semaphore, nil)
        vkDestroyImage(device.device, image, nil)
        vkFreeMemory(device.device, memory, nil)
    }

    /// The next value the app's rendering signals on `semaphore`.
    func nextSignalValue() -> UInt64 {
        lock.withLock {
            signalled += 1
            return signalled
        }
    }

    /// Waits on the CPU, at most `timeout` seconds, until `semaphore` reaches `value`.
    func wait(for value: UInt64, timeout: Double) -> Bool {
        var semaphores: [VkSemaphore?] = [semaphore]
        var values = [value]
        return semaphores.withUnsafeMutableBufferPointer { s in
            values.withUnsafeMutableBufferPointer { v in
                var info = VkSemaphoreWaitInfo()
                info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO
                info.semaphoreCount = 1
                info.pSemaphores = UnsafePointer(s.baseAddress)
                info.pValues = UnsafePointer(v.baseAddress)
                return vkWaitSemaphores(device.device, &info, UInt64(timeout * 1e9)) == VK_SUCCESS
            }
        }
    }

    /// Counts a new frame: the next commit of each context that registered it says so.
    func noteChanged() { lock.withLock { changes += 1 } }

    /// How many new frames have been counted.
    var changeCount: UInt64 { lock.withLock { changes } }
}

/// Finds a live drawable image by its id (held weakly, as `IOSurfaceRegistry` holds surfaces).
enum VulkanDrawableImageRegistry {
    private final class Entry {
        weak var image: VulkanDrawableImage?
        init(_ image: VulkanDrawableImage) { self.image = image }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var entries: [UInt64: Entry] = [:]

    /// Records `image` and returns its id.
    static func remember(_ image: VulkanDrawableImage) -> UInt64 {
        lock.withLock {
            if entries[image.contentsID]?.image == nil {
                entries = entries.filter { $0.value.image != nil }
                entries[image.contentsID] = Entry(image)
            }
        }
        return image.contentsID
    }

    /// The live image with id `id`, or nil.
    static func image(_ id: UInt64) -> VulkanDrawableImage? {
        guard id != 0 else { return nil }
        return lock.withLock { entries[id]?.image }
    }
}

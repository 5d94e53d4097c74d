import Foundation
import Glibc
import LaminaCore
import LaminaProtocol

/// Vulkan-device drawables: images a client rendered on its own device, registered once with their
/// exported memory and shown by id in the image id space like shared surfaces (docs/surfaces.md,
/// docs/protocol.md §4.2).
extension Server {
    /// The usage bits a device image may have: transfer source and destination, sampled, storage
    /// and colour attachment. Sampled is required.
    static let deviceImageUsage: UInt32 = 0x1F
    /// `VK_IMAGE_USAGE_SAMPLED_BIT`.
    static let sampledUsage: UInt32 = 0x4

    /// Checks and keeps device image `image.id` of `session`; the frame worker imports it. A released
    /// one the tree still draws, of the same size and allocation, is revived instead. Throws a refusal
    /// (`SessionError.isRefusal`: answered by `surfaceRefused`, the client stays) for a server that
    /// imports no Vulkan images, or a format outside `surfaceCapabilities.drawableFormats`
    /// (`deviceImageRefused`); device or driver UUIDs other than the server's (`deviceMismatch`); an
    /// empty or oversized extent, flags, a tiling other than optimal or linear, a usage without
    /// sampled or with other bits, an allocation below the pixels' bytes or over four times them plus
    /// 1 MiB (`invalidValue`); a descriptor that is a file smaller than the allocation
    /// (`badFileDescriptor`). Throws the error the client is disconnected for: id 0 (`invalidValue`)
    /// or one already in use (`duplicateImage`); a descriptor that is a file but not a memfd sealed or
    /// sealable against shrinking (`badFileDescriptor`); a budget passed (`limitExceeded`). The
    /// renderer's refusal of the memory itself (a plain memfd, not exported memory; an allocation or
    /// extent its device will not take) is a refusal too (`deviceImageRefused`), sent once the frame
    /// worker tried the import, before the client's later messages are read.
    func registerDeviceImage(_ image: DeviceImageDescription, fd: OwnedFD, for session: ClientSession) throws {
        let id = image.id
        guard id != 0 else { throw SessionError(.invalidValue, "device image id 0 is reserved for no image") }
        if let existing = session.images[id] {
            // A released device image the tree still draws comes back to life (a pool's image shown
            // again): the server's import is of the same memory.
            if existing.surfaceBytes == Int(image.allocationSize), existing.isReleased,
                existing.width == Int(image.width),
                existing.height == Int(image.height)
            {
                session.images[id]!.isReleased = false
                session.tree.liveImages.insert(id)
                session.tree.liveSurfaces.insert(id)
                // Shown again, it holds a new frame: the worker acquires it and redraws what shows it.
                session.tree.surfaceRevisions[id, default: 0] &+= 1
                return
            }
            throw SessionError(.duplicateImage, "registerDeviceImage \(id): the id already names an image or surface")
        }
        let capabilities = surfaceCapabilities
        guard capabilities.memoryKinds.contains(.opaqueFD) else {
            throw SessionError.refusal(.deviceImageRefused, "device image \(id): this server imports no Vulkan images")
        }
        guard image.deviceUUID == capabilities.deviceUUID, image.driverUUID == capabilities.driverUUID else {
            throw SessionError.refusal(
                .deviceMismatch,
                "device image \(id) was made on device \(Self.hex(image.deviceUUID)) with driver "
                    + "\(Self.hex(image.driverUUID)); this server draws on device \(Self.hex(capabilities.deviceUUID)) "
                    + "with driver \(Self.hex(capabilities.driverUUID))")
        }
        guard capabilities.drawableFormats.contains(image.format),
            let pixelBytes = DrawableFormat.bytesPerPixel(image.format)
        else {
            throw SessionError.refusal(
                .deviceImageRefused,
                "device image \(id) has VkFormat \(image.format); this server takes "
                    + capabilities.drawableFormats.map(String.init).joined(separator: ", "))
        }
        let (w, h) = (Int(image.width), Int(image.height))
        let side = configuration.limits.imageSideMax
        guard (1...side).contains(w), (1...side).contains(h) else {
            throw SessionError.refusal(
                .invalidValue, "device image \(id) is \(w)x\(h) pixels; each side must be from 1 to \(side)")
        }
        guard image.flags == 0, image.tiling <= 1 else {
            throw SessionError.refusal(
                .invalidValue,
                "device image \(id) has flags 0x\(String(image.flags, radix: 16)) and tiling \(image.tiling); "
                    + "only flags 0 and tiling 0 (optimal) or 1 (linear) are imported")
        }
        guard image.usage & Self.sampledUsage != 0, image.usage & ~Self.deviceImageUsage == 0 else {
            throw SessionError.refusal(
                .invalidValue,
                "device image \(id) has usage 0x\(String(image.usage, radix: 16)); it must include sampled (0x4) "
                    + "and no bits beyond 0x1f")
        }
        let bytes = w * h * pixelBytes
        guard image.allocationSize >= UInt64(bytes), image.allocationSize <= UInt64(bytes * 4 + (1 << 20)) else {
            throw SessionError.refusal(
                .invalidValue,
                "device image \(id) claims an allocation of \(image.allocationSize) bytes; \(w)x\(h) pixels of "
                    + "\(pixelBytes) bytes need from \(bytes) to \(bytes * 4 + (1 << 20))")
        }
        var status = stat()
        guard fstat(fd.rawValue, &status) == 0 else {
            throw SessionError(.badFileDescriptor, "device image \(id): fstat of its descriptor failed")
        }
        // Memory a CPU driver exports is a file: it must hold the allocation. (A GPU driver's is not
        // a regular file, and its size is the driver's to check.)
        if status.st_mode & S_IFMT == S_IFREG {
            guard status.st_size >= Int(image.allocationSize) else {
                throw SessionError.refusal(
                    .badFileDescriptor,
                    "device image \(id): its descriptor is a file of \(status.st_size) bytes, smaller than the "
                        + "\(image.allocationSize) bytes allocated")
            }
            // Truncated under the server's mapping, it would fault the frame worker (SIGBUS).
            guard SurfaceMemory.sealAgainstShrinking(fd) else {
                throw SessionError(
                    .badFileDescriptor,
                    "device image \(id): its descriptor is a file that is not a memfd sealed, or sealable, "
                        + "against shrinking")
            }
        }
        do {
            try budget.registerSurface(bytes: Int(image.allocationSize), for: &session.budget)
        } catch {
            throw SessionError(.limitExceeded, "device image \(id): \(error)")
        }
        session.images[id] = ClientImage(
            width: w, height: h, textureBytes: 0, surfaceBytes: Int(image.allocationSize))
        session.tree.liveImages.insert(id)
        session.tree.liveSurfaces.insert(id)
        // The client's later messages wait for the import: a commit naming the image is applied
        // knowing whether the device refused it.
        session.importsInFlight += 1
        frames.perform(
            .registerDeviceImage(
                session: session.id, id: id, image: DeviceImageMemory(description: image, fd: fd)))
    }

    /// A UUID as 32 hex digits.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

import CVulkan
import Foundation
import LaminaProtocol

/// Vulkan-device drawables: a pool of images made on the app's device, each exported once as an
/// opaque fd and registered once with the server (docs/surfaces.md, "Vulkan-device drawables").
extension CAVulkanLayer {
    /// How long `present()` waits on the CPU for the app's rendering before the drawable is dropped.
    nonisolated(unsafe) static var renderingTimeout = 5.0
    private static let renderingWaits = DispatchQueue(label: "lamina-vulkan-layer-wait", attributes: .concurrent)

    /// `nextDrawable()` with a device: nil (and a `drawableRefused` diagnostic) when the server
    /// showing the layer cannot import the device's images of `pixelFormat`; else as for CPU
    /// drawables, with images of the device in the slots.
    func nextDeviceDrawable(on device: CAVulkanDevice) -> CAVulkanDrawable? {
        let size = drawableSize
        guard size.width.isFinite, size.height.isFinite else { return nil }
        let (width, height) = (Int(size.width), Int(size.height))
        guard (1...16384).contains(width), (1...16384).contains(height) else { return nil }
        let format = pixelFormat
        guard isCompatible(device, format: format) else { return nil }
        let usage =
            VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue
            | VK_IMAGE_USAGE_SAMPLED_BIT.rawValue
            | (framebufferOnly ? 0 : VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue | VK_IMAGE_USAGE_STORAGE_BIT.rawValue)
        let deadline = allowsNextDrawableTimeout ? Date().addingTimeInterval(1) : nil
        // Images dropped from the pool give back their registration once the pool's lock is let go.
        var unpinned: [(id: UInt64, context: CAContext?)] = []
        defer { for pin in unpinned { unpinDeviceImage(pin.id, from: pin.context) } }
        pool.lock()
        defer { pool.unlock() }
        while true {
            while slotInUse.count > deviceSlots.count { deviceSlots.append(nil) }
            for i in deviceSlots.indices where !slotInUse[i] {
                if let image = deviceSlots[i],
                    image.device !== device || image.description.width != UInt32(width)
                        || image.description.height != UInt32(height) || image.description.format != format.rawValue
                        || image.description.usage != usage || refusedSurfaces.contains(image.contentsID)
                {
                    deviceSlots[i] = nil
                    refusedSurfaces.remove(image.contentsID)
                    deviceImagesAwaitingRelease.remove(image.contentsID)
                    if let pin = devicePins.removeValue(forKey: image.contentsID) {
                        unpinned.append((image.contentsID, pin.context))
                    }
                }
            }
            // A free image comes back once the server has released it: no frame still samples it.
            if let i = deviceSlots.indices.first(where: {
                !slotInUse[$0] && deviceSlots[$0].map { !deviceImagesAwaitingRelease.contains($0.contentsID) } == true
            }) {
                return handOutDevice(slot: i)
            }
            if deviceSlots.compactMap({ $0 }).count < maximumDrawableCount {
                let image: VulkanDrawableImage
                do {
                    image = try VulkanDrawableImage(
                        device: device, width: width, height: height, format: format, usage: usage)
                } catch {
                    LaminaDiagnostics.report(.drawableRefused, "CAVulkanLayer \(layerID): no drawable: \(error)")
                    return nil
                }
                if let i = deviceSlots.indices.first(where: { deviceSlots[$0] == nil && !slotInUse[$0] }) {
                    deviceSlots[i] = image
                    return handOutDevice(slot: i)
                }
                deviceSlots.append(image)
                slotInUse.append(false)
                return handOutDevice(slot: deviceSlots.count - 1)
            }
            if let deadline {
                guard pool.wait(until: deadline) else { return nil }
            } else {
                pool.wait()
            }
        }
    }

    /// Marks device slot `i` in use and makes its drawable (the pool's lock is held).
    private func handOutDevice(slot i: Int) -> CAVulkanDrawable {
        slotInUse[i] = true
        lastDrawableID += 1
        let image = deviceSlots[i]!
        return CAVulkanDrawable(
            layer: self, image: image, signalValue: image.nextSignalValue(), drawableID: lastDrawableID, slot: i)
    }

    /// Whether the server showing the layer (or, before it is shown, the newest context) can import
    /// `device`'s images of `format`; the verdict is kept per device and format, and a refusal is
    /// reported once.
    private func isCompatible(_ device: CAVulkanDevice, format: VkFormat) -> Bool {
        if let checked = pool.withLock({ checkedDevice }), checked.device === device, checked.format == format.rawValue
        {
            return checked.compatible
        }
        CATransaction.lock()
        let contexts = CAContext.liveContexts()
        let context = contexts.first { $0.sent[layerID] != nil } ?? contexts.last
        CATransaction.unlock()
        guard let context else {
            LaminaDiagnostics.report(
                .drawableRefused, "CAVulkanLayer \(layerID): no drawable: no render server connection to show it")
            return false
        }
        let compatible: Bool
        do {
            let capabilities = try context.surfaceCapabilities()
            compatible = device.isCompatible(with: capabilities, format: format)
            if !compatible {
                LaminaDiagnostics.report(
                    .drawableRefused,
                    "CAVulkanLayer \(layerID): no drawable: the render server cannot import this device's images "
                        + "of VkFormat \(format.rawValue) (its device \(Self.hex(capabilities.deviceUUID)), driver "
                        + "\(Self.hex(capabilities.driverUUID)), formats \(capabilities.drawableFormats); this device "
                        + "\(Self.hex(device.deviceUUID)), driver \(Self.hex(device.driverUUID)))")
            }
        } catch {
            LaminaDiagnostics.report(.drawableRefused, "CAVulkanLayer \(layerID): no drawable: \(error)")
            return false
        }
        pool.withLock { checkedDevice = (device, format.rawValue, compatible) }
        return compatible
    }

    /// A drawable's `present()` or timed present: a CPU drawable is queued at once (`enqueue`); a
    /// device drawable once the app's rendering has signalled its value (`enqueueAfterRendering`).
    func present(_ drawable: CAVulkanDrawable, target: PresentTarget) {
        if drawable.deviceImage != nil {
            enqueueAfterRendering(drawable, target: target)
        } else {
            enqueue(drawable, target: target)
        }
    }

    /// `present()` of a device drawable: waits on a library thread until the app's rendering has
    /// signalled the drawable's value, then queues it as a CPU drawable is queued; a drawable whose
    /// rendering does not end within `renderingTimeout` is dropped (`presentedTime` 0).
    func enqueueAfterRendering(_ drawable: CAVulkanDrawable, target: PresentTarget = .now) {
        guard let image = drawable.deviceImage else { return }
        let box = PendingPresent(layer: self, drawable: drawable)
        Self.renderingWaits.async {
            guard image.wait(for: box.drawable.signalValue, timeout: Self.renderingTimeout) else {
                LaminaDiagnostics.report(
                    .drawableRefused,
                    "CAVulkanDrawable \(box.drawable.drawableID): its rendering did not signal value "
                        + "\(box.drawable.signalValue) within \(Self.renderingTimeout) s; dropped")
                box.drawable.finish(at: 0)
                return
            }
            box.layer?.enqueue(box.drawable, target: target)
        }
    }

    /// A UUID as 32 hex digits.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

/// A present carried to the wait queue: the layer (weakly) and the drawable, both thread-safe.
private struct PendingPresent: @unchecked Sendable {
    weak var layer: CAVulkanLayer?
    let drawable: CAVulkanDrawable
}

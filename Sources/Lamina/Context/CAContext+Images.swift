import Foundation
import LaminaProtocol

extension CAContext {
    /// Counts `delta` more (or fewer) uses of image `id` by the context's sent layers and committed
    /// animations; id 0 (no image) is not counted.
    func useImage(_ id: UInt64, by delta: Int) {
        guard id != 0 else { return }
        imageUses[id, default: 0] += delta
    }

    /// Counts the images of the animations in `after` and not in `before` (just committed) as used,
    /// and those of the animations in `before` and not in `after` (removed) as no longer used.
    func trackAnimationImages(before: [UInt64], after: [UInt64]) {
        guard before != after else { return }
        // A layer has few animations: the ids in both lists are found by a search of the other
        // list, and a set of them is built only for many.
        let kept = before.count > 8 && after.count > 8 ? Set(before).intersection(after) : nil
        func isKept(_ id: UInt64, other: [UInt64]) -> Bool { kept?.contains(id) ?? other.contains(id) }
        for id in before where !isKept(id, other: after) {
            for image in animationImages.removeValue(forKey: id) ?? [] { useImage(image, by: -1) }
        }
        for id in after where !isKept(id, other: before) {
            guard let images = LayerAnimation.registry[id]?.record.imageIDs, !images.isEmpty else { continue }
            animationImages[id] = images
            for image in images { useImage(image, by: 1) }
        }
    }

    /// Sends every image the commit being sent uses for the first time: one `uploadImage` each,
    /// with its pixels (BGRA8 premultiplied, rows `width × 4` bytes apart) in one sealed memfd, or,
    /// for an `IOSurface`, one `registerSurface` with its memfd. Sent before the transaction's parts,
    /// so the server knows the image when it applies them.
    func uploadNewImages() throws {
        for (id, uses) in imageUses where uses > 0 && !uploadedImages.contains(id) {
            if let drawable = VulkanDrawableImageRegistry.image(id) {
                try connection.send(.registerDeviceImage(drawable.description), fds: [drawable.fd.rawValue])
                // A device drawable's presented time comes from the server's feedback, as a CPU one's.
                try connection.send(.surfaceFeedback(id: id, enabled: true))
                uploadedImages.insert(id)
                surfaceChangesSent[id] = drawable.changeCount
                continue
            }
            if let surface = IOSurfaceRegistry.surface(id) {
                try connection.send(
                    .registerSurface(
                        id: id, width: UInt32(surface.width), height: UInt32(surface.height),
                        stride: UInt32(surface.bytesPerRow), format: surface.pixelFormat, planes: surface.planes),
                    fds: [surface.fileDescriptor])
                uploadedImages.insert(id)
                surfaceRegistrations += 1
                surfaceChangesSent[id] = surface.changeCount
                // A pool's buffer asks for presented and release feedback (CAVulkanLayer+Pacing.swift).
                if CAVulkanLayer.isPoolSurface(id) { try connection.send(.surfaceFeedback(id: id, enabled: true)) }
                continue
            }
            guard let image = ContentsImageRegistry.image(id) else {
                LaminaDiagnostics.report(.commitNotSent, "image \(id) is gone before its first commit")
                continue
            }
            let stride = image.width * 4
            let memory = try SharedMemory.create(name: "lamina-image", size: stride * image.height) { buffer in
                let out = buffer.bindMemory(to: UInt8.self)
                image.premultipliedRGBA.withUnsafeBufferPointer { rgba in
                    var i = 0
                    while i < rgba.count {
                        out[i] = rgba[i + 2]
                        out[i + 1] = rgba[i + 1]
                        out[i + 2] = rgba[i]
                        out[i + 3] = rgba[i + 3]
                        i += 4
                    }
                }
            }
            try connection.send(
                .uploadImage(id: id, width: UInt32(image.width), height: UInt32(image.height), stride: UInt32(stride)),
                fds: [memory.fileDescriptor])
            uploadedImages.insert(id)
        }
    }

    /// Sends `releaseImage` (`releaseSurface` for a surface) for every uploaded image that no sent
    /// layer or committed animation uses any more, after the commit that dropped its last use.
    func releaseUnusedImages() throws {
        for (id, uses) in imageUses where uses <= 0 {
            imageUses[id] = nil
            guard uploadedImages.remove(id) != nil else { continue }
            if surfaceChangesSent.removeValue(forKey: id) != nil {
                try connection.send(.releaseSurface(id: id))
            } else {
                try connection.send(.releaseImage(id: id))
            }
        }
    }

    /// One `surfaceChanged` for each registered surface whose `changeCount` moved since the server
    /// last heard of it (a layer showing it got `setContentsChanged()`, or the surface again), unless
    /// another thread's open transaction marked it (`CATransaction.holdSurfaceChange`).
    func surfaceChangeOperations() -> [LayerOperation] {
        var ops: [LayerOperation] = []
        let committer = CATransaction.State.threadStack
        for (id, sentCount) in surfaceChangesSent {
            guard !CATransaction.surfaceChangeIsHeld(id, committer: committer),
                let count = IOSurfaceRegistry.surface(id)?.changeCount
                    ?? VulkanDrawableImageRegistry.image(id)?.changeCount,
                count != sentCount
            else { continue }
            surfaceChangesSent[id] = count
            ops.append(.surfaceChanged(id))
        }
        return ops
    }
}

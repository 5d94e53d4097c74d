import Foundation
import LaminaCore
import LaminaProtocol

extension Server {
    /// Checks and keeps image `id` of `session`, `height` rows of `width` BGRA8 premultiplied pixels
    /// `stride` bytes apart in the memfd `fd`, and hands it to the frame worker to import; an id
    /// released but still drawn is revived instead (same size; its kept pixels stay). Throws the
    /// error the client is disconnected for: id 0 or taken, a size over `ResourceLimits.imageSideMax`,
    /// a stride below `width * 4`, a descriptor that is not a memfd sealed against writing,
    /// shrinking and growing, or is smaller than the pixels, or a budget passed.
    func uploadImage(
        id: UInt64, width: UInt32, height: UInt32, stride: UInt32, fd: OwnedFD, for session: ClientSession
    ) throws {
        let limits = configuration.limits
        guard id != 0 else { throw SessionError(.invalidValue, "image id 0 is reserved for no image") }
        if session.images[id]?.surfaceBytes != nil {
            throw SessionError(.duplicateImage, "uploadImage \(id): the id names a shared surface")
        }
        if let existing = session.images[id], !existing.isReleased {
            throw SessionError(.duplicateImage, "image \(id) is already uploaded")
        }
        let (w, h, s) = (Int(width), Int(height), Int(stride))
        guard w > 0, h > 0 else { throw SessionError(.invalidValue, "image \(id) is empty (\(w)x\(h) pixels)") }
        guard w <= limits.imageSideMax, h <= limits.imageSideMax else {
            throw SessionError(
                .invalidValue, "image \(id) is \(w)x\(h) pixels, over the \(limits.imageSideMax) pixels a side allowed")
        }
        guard s >= w * 4 else {
            throw SessionError(.invalidValue, "image \(id) has a stride of \(s) bytes, below width × 4 = \(w * 4)")
        }
        let needed = s * (h - 1) + w * 4
        let memory: SharedMemory
        do {
            memory = try SharedMemory.map(fd, minimumSize: needed)
        } catch SharedMemoryError.notSealed {
            throw SessionError(
                .badFileDescriptor,
                "image \(id): the descriptor is not a memfd sealed against writing, shrinking and growing")
        } catch SharedMemoryError.tooSmall(let actual, let needed) {
            throw SessionError(
                .badFileDescriptor, "image \(id): the memfd holds \(actual) bytes, the pixels need \(needed)")
        } catch {
            throw SessionError(.badFileDescriptor, "image \(id): the memfd cannot be mapped: \(error)")
        }
        // A released image the tree still draws comes back to life: its pixels are the ones kept.
        if let kept = session.images[id] {
            guard kept.width == w, kept.height == h else {
                throw SessionError(
                    .duplicateImage,
                    "image \(id) is released but still drawn at \(kept.width)x\(kept.height) pixels, not \(w)x\(h)")
            }
            session.images[id]!.isReleased = false
            session.tree.liveImages.insert(id)
            withExtendedLifetime(memory) {}
            return
        }
        let bytes = ResourceBudget.textureBytes(width: w, height: h)
        do {
            try budget.uploadImage(bytes: bytes, for: &session.budget)
        } catch {
            throw SessionError(.limitExceeded, "image \(id): \(error)")
        }
        session.images[id] = ClientImage(width: w, height: h, textureBytes: bytes)
        session.tree.liveImages.insert(id)
        let pixels = ImagePixels(width: w, height: h, stride: s, source: .sharedMemory(memory))
        frames.perform(.upload(session: session.id, id: id, pixels: pixels))
    }

    /// Releases image `id` of `session`: no later reference may name it, and it is freed as soon as
    /// the client's tree no longer draws it (at once when nothing does). Throws `unknownImage` for an
    /// id not uploaded or already released.
    func releaseImage(id: UInt64, for session: ClientSession) throws {
        guard session.images[id]?.isReleased == false, session.images[id]?.surfaceBytes == nil else {
            throw SessionError(.unknownImage, "releaseImage of image \(id), which is not uploaded or already released")
        }
        session.images[id]!.isReleased = true
        session.tree.liveImages.remove(id)
        session.hasReleasedImages = true
        freeReleasedImages(of: session)
    }

    /// Frees the client's released images that its tree no longer draws: the budget gives their
    /// bytes back and the frame worker releases them from the renderer after the frames in flight.
    func freeReleasedImages(of session: ClientSession) {
        guard session.hasReleasedImages else { return }
        let released = session.images.filter(\.value.isReleased)
        guard !released.isEmpty else {
            session.hasReleasedImages = false
            return
        }
        let drawn = session.tree.referencedImages()
        var left = false
        for (id, image) in released {
            if drawn.contains(id) {
                left = true
                continue
            }
            session.images[id] = nil
            if let bytes = image.surfaceBytes {
                budget.releaseSurface(bytes: bytes, for: &session.budget)
                session.tree.surfaceRevisions[id] = nil
                session.tree.surfaceShows[id] = nil
            } else {
                budget.releaseImage(bytes: image.textureBytes, for: &session.budget)
            }
            frames.perform(.release(session: session.id, id: id))
        }
        session.hasReleasedImages = left
    }

    /// What each client `asker` may see holds, in connection order: every client for a peer of the
    /// server's user or root, else `asker` alone. Names are cut to 256 bytes and the list to what
    /// one message holds.
    func statistics(for asker: ClientSession) -> [ClientStatistics] {
        let everyone = asker.peer?.seesEveryClient(serverUID: serverUID) ?? false
        let shown = everyone ? sessions.filter(\.greeted) : [asker]
        var out: [ClientStatistics] = []
        var bytes = 64
        for session in shown {
            let name = session.name.truncatedToUTF8(256)
            bytes += 68 + name.utf8.count
            guard bytes <= WireLimits.maxMessageBytes else { break }
            out.append(
                ClientStatistics(
                    name: name, pid: session.peer?.pid ?? 0, layers: UInt64(session.tree.layers.count),
                    animations: UInt64(session.tree.animationCount), images: UInt64(session.budget.images),
                    textureBytes: UInt64(session.budget.textureBytes), surfaces: UInt64(session.budget.surfaces),
                    surfaceBytes: UInt64(session.budget.surfaceBytes),
                    surfaceBytesCopied: UInt64(frames.surfaceBytesCopied(by: session.id))))
        }
        return out
    }
}

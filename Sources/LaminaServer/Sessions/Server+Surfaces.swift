import Foundation
import LaminaCore
import LaminaProtocol

/// Shared surfaces (`IOSurface`): memfds the client keeps writing, mapped once and shown by id in
/// the image id space (docs/surfaces.md, docs/protocol.md §4.1).
extension Server {
    /// The widest row stride a surface may have, in bytes (a larger one is refused as absurd).
    static let maximumSurfaceStride = 1 << 20

    /// Checks and keeps surface `id` of `session`: `height` rows of `width` pixels of `format`,
    /// `stride` bytes apart in the memfd `fd`, mapped read-only here once; the frame worker imports
    /// it (a released surface still drawn, of the same size, is revived instead). Throws a refusal
    /// (`SessionError.isRefusal`: answered by `surfaceRefused`, the client stays) for a format other
    /// than 'BGRA' and the YCbCr ones; an empty size or one over `ResourceLimits.imageSideMax`; a
    /// stride below `width * 4`, not a multiple of 4 or over `maximumSurfaceStride`; a memfd smaller
    /// than its rows (`badFileDescriptor`). Throws the error the client is disconnected for: id 0, or
    /// an id already naming an image or a live surface; a descriptor that is not a memfd sealed
    /// against shrinking; a budget passed. The frame worker's refusal (a size over the device's own
    /// limit) is answered by `surfaceRefused` too, before the client's later messages are read.
    ///
    /// A bi-planar YCbCr surface (NV12: '420v', '420f'; P010: 'x420', 'xf20') carries `planes`: a
    /// luma stride from `width` samples to `maximumSurfaceStride`, a chroma stride from
    /// `2 × ⌈width / 2⌉` samples to the same (a sample is 1 byte, 2 for P010), a matrix of BT.601 or
    /// BT.709, both planes within the memfd (checked without overflow), and `checkPlaneLayout`'s
    /// rules (`invalidSurfaceLayout`); all are refusals, the memfd's size too.
    func registerSurface(
        id: UInt64, width: UInt32, height: UInt32, stride: UInt32, format: UInt32, planes: SurfacePlanes? = nil,
        fd: OwnedFD, for session: ClientSession
    ) throws {
        let limits = configuration.limits
        guard id != 0 else { throw SessionError(.invalidValue, "surface id 0 is reserved for no image") }
        if let existing = session.images[id] {
            // A released surface the tree still draws comes back to life (a pool's buffer shown again):
            // the mapping kept is the same memory.
            if existing.surfaceBytes != nil, existing.isReleased, existing.width == Int(width),
                existing.height == Int(height)
            {
                session.images[id]!.isReleased = false
                session.tree.liveImages.insert(id)
                session.tree.liveSurfaces.insert(id)
                return
            }
            let what = existing.surfaceBytes == nil ? "an image" : "a surface"
            let state = existing.isReleased ? "released but still drawn" : "live"
            throw SessionError(.duplicateImage, "registerSurface \(id): the id already names \(what) (\(state))")
        }
        guard format == SurfaceFormat.bgra8 || SurfaceFormat.isBiPlanarYCbCr(format) else {
            throw SessionError.refusal(
                .invalidValue,
                "surface \(id) has pixel format 0x\(String(format, radix: 16)); only 'BGRA' (0x42475241), "
                    + "'420v' (0x34323076), '420f' (0x34323066), 'x420' (0x78343230) and 'xf20' (0x78663230) "
                    + "are supported")
        }
        let (w, h, s) = (Int(width), Int(height), Int(stride))
        if SurfaceFormat.isBiPlanarYCbCr(format) {
            try registerYCbCrSurface(
                id: id, width: w, height: h, stride: s, format: format, planes: planes, fd: fd, for: session)
            return
        }
        guard w > 0, h > 0 else {
            throw SessionError.refusal(.invalidValue, "surface \(id) is empty (\(w)x\(h) pixels)")
        }
        guard w <= limits.imageSideMax, h <= limits.imageSideMax else {
            throw SessionError.refusal(
                .invalidValue,
                "surface \(id) is \(w)x\(h) pixels, over the \(limits.imageSideMax) pixels a side allowed")
        }
        guard s >= w * 4, s % 4 == 0, s <= Self.maximumSurfaceStride else {
            throw SessionError.refusal(
                .invalidValue,
                "surface \(id) has a stride of \(s) bytes: it must be a multiple of 4 from width × 4 = \(w * 4) "
                    + "to \(Self.maximumSurfaceStride)")
        }
        let needed = s * (h - 1) + w * 4
        let memory: SurfaceMemory
        do {
            memory = try SurfaceMemory.map(fd, minimumSize: needed)
        } catch {
            throw Self.mappingError(error, "surface \(id): \(error)")
        }
        do {
            try budget.registerSurface(bytes: memory.size, for: &session.budget)
        } catch {
            throw SessionError(.limitExceeded, "surface \(id): \(error)")
        }
        session.images[id] = ClientImage(width: w, height: h, textureBytes: 0, surfaceBytes: memory.size)
        session.tree.liveImages.insert(id)
        session.tree.liveSurfaces.insert(id)
        let pixels = SurfacePixels(memory: memory, width: w, height: h, stride: s)
        importing(pixels, id: id, for: session)
    }

    /// `registerSurface` for an NV12 or P010 surface whose id and format were checked: checks its
    /// planes against each other and the memfd, maps and charges it, and hands it to the frame worker.
    private func registerYCbCrSurface(
        id: UInt64, width w: Int, height h: Int, stride: Int, format: UInt32, planes: SurfacePlanes?, fd: OwnedFD,
        for session: ClientSession
    ) throws {
        let limits = configuration.limits
        guard w > 0, h > 0 else {
            throw SessionError.refusal(.invalidValue, "surface \(id) is empty (\(w)x\(h) pixels)")
        }
        guard w <= limits.imageSideMax, h <= limits.imageSideMax else {
            throw SessionError.refusal(
                .invalidValue,
                "surface \(id) is \(w)x\(h) pixels, over the \(limits.imageSideMax) pixels a side allowed")
        }
        let name = SurfaceFormat.isTenBit(format) ? "P010" : "NV12"
        guard let planes else {
            throw SessionError.refusal(.invalidValue, "\(name) surface \(id) carries no plane layout")
        }
        let matrix: SurfaceYCbCr.Matrix
        switch planes.matrix {
        case SurfacePlanes.bt601: matrix = .bt601
        case SurfacePlanes.bt709: matrix = .bt709
        default:
            throw SessionError.refusal(
                .invalidValue,
                "\(name) surface \(id) names matrix \(planes.matrix); only 1 (BT.709) and 6 (BT.601) are supported")
        }
        guard let chromaLocation = ChromaLocation(code: planes.chromaLocation) else {
            throw SessionError.refusal(
                .invalidValue,
                "\(name) surface \(id) names chroma location \(planes.chromaLocation); only 0 (Left) to 5 (Bottom) "
                    + "are supported")
        }
        let (chromaWidth, chromaHeight) = ((w + 1) / 2, (h + 1) / 2)
        let sample = SurfaceFormat.isTenBit(format) ? 2 : 1
        let lumaStride = try planeStride(stride, rowBytes: w * sample, plane: "luma", name: name, id: id)
        let chromaStride = try planeStride(
            Int(planes.chromaStride), rowBytes: chromaWidth * 2 * sample, plane: "chroma", name: name, id: id)
        // Every value is below 2^32, so these sums and products fit in Int without overflow.
        let lumaEnd = Int(planes.lumaOffset) + lumaStride * (h - 1) + w * sample
        let chromaEnd = Int(planes.chromaOffset) + chromaStride * (chromaHeight - 1) + chromaWidth * 2 * sample
        let memory: SurfaceMemory
        do {
            memory = try SurfaceMemory.map(fd, minimumSize: max(lumaEnd, chromaEnd))
        } catch {
            throw Self.mappingError(
                error,
                "\(name) surface \(id) needs \(lumaEnd) bytes for its luma plane and \(chromaEnd) for its chroma "
                    + "plane: \(error)")
        }
        try checkPlaneLayout(
            id: id, planes: planes, lumaStride: lumaStride, sample: sample, lumaEnd: lumaEnd, chromaEnd: chromaEnd)
        do {
            try budget.registerSurface(bytes: memory.size, for: &session.budget)
        } catch {
            throw SessionError(.limitExceeded, "surface \(id): \(error)")
        }
        session.images[id] = ClientImage(width: w, height: h, textureBytes: 0, surfaceBytes: memory.size)
        session.tree.liveImages.insert(id)
        session.tree.liveSurfaces.insert(id)
        let yCbCr = SurfaceYCbCr(
            lumaOffset: Int(planes.lumaOffset), lumaStride: lumaStride, chromaOffset: Int(planes.chromaOffset),
            chromaStride: chromaStride, matrix: matrix, isFullRange: SurfaceFormat.isFullRange(format),
            isTenBit: sample == 2, chromaLocation: chromaLocation)
        let pixels = SurfacePixels(memory: memory, width: w, height: h, stride: lumaStride, yCbCr: yCbCr)
        importing(pixels, id: id, for: session)
    }

    /// Checks that the planes keep to the format's layout (`invalidSurfaceLayout` otherwise): each
    /// plane's offset and stride a whole number of its elements (`sample` bytes for luma, a Cb, Cr
    /// pair of `2 × sample` for chroma), so that the renderer can sample the planes as images of
    /// those elements, and the two planes' bytes apart.
    private func checkPlaneLayout(
        id: UInt64, planes: SurfacePlanes, lumaStride: Int, sample: Int, lumaEnd: Int, chromaEnd: Int
    ) throws {
        let (lumaOffset, chromaOffset) = (Int(planes.lumaOffset), Int(planes.chromaOffset))
        let chromaStride = Int(planes.chromaStride)
        let pair = 2 * sample
        guard lumaOffset % sample == 0, lumaStride % sample == 0 else {
            throw SessionError.refusal(
                .invalidSurfaceLayout,
                "surface \(id): its luma plane at offset \(lumaOffset), stride \(lumaStride), is not a whole "
                    + "number of \(sample)-byte samples")
        }
        guard chromaOffset % pair == 0, chromaStride % pair == 0 else {
            throw SessionError.refusal(
                .invalidSurfaceLayout,
                "surface \(id): its chroma plane at offset \(chromaOffset), stride \(chromaStride), is not a "
                    + "whole number of \(pair)-byte Cb, Cr pairs")
        }
        guard lumaEnd <= chromaOffset || chromaEnd <= lumaOffset else {
            throw SessionError.refusal(
                .invalidSurfaceLayout,
                "surface \(id): its luma plane (bytes \(lumaOffset)..<\(lumaEnd)) and chroma plane (bytes "
                    + "\(chromaOffset)..<\(chromaEnd)) overlap")
        }
    }

    /// The error for a memfd `SurfaceMemory.map` would not map, named by `message`: a refusal
    /// (`badFileDescriptor`) for one shorter than the layout needs, which the client could have
    /// sized right; fatal for one that is not a memfd sealed against shrinking (the message's
    /// contract: such memory could shrink under the mapping) or that cannot be mapped.
    static func mappingError(_ error: SurfaceMemoryError, _ message: String) -> SessionError {
        if case .tooSmall = error { return .refusal(.badFileDescriptor, message) }
        return SessionError(.badFileDescriptor, message)
    }

    /// Starts the frame worker's import of `surface`, registered as `id`: the client's later messages
    /// wait for it (`ClientSession.importsInFlight`), so that a refusal reaches the commits after it.
    private func importing(_ surface: SurfacePixels, id: UInt64, for session: ClientSession) {
        session.importsInFlight += 1
        frames.perform(.registerSurface(session: session.id, id: id, surface: surface))
    }

    /// Checks a plane's stride: at least `rowBytes`, at most `maximumSurfaceStride`.
    private func planeStride(_ stride: Int, rowBytes: Int, plane: String, name: String, id: UInt64) throws -> Int {
        guard stride >= rowBytes, stride <= Self.maximumSurfaceStride else {
            throw SessionError.refusal(
                .invalidValue,
                "\(name) surface \(id) has a \(plane) stride of \(stride) bytes: it must be from \(rowBytes) "
                    + "to \(Self.maximumSurfaceStride)")
        }
        return stride
    }

    /// Releases surface `id` of `session`: no later reference may name it, and it is unmapped as soon
    /// as the client's tree no longer draws it and no frame in flight samples it. Throws
    /// `unknownSurface` for an id that is not a registered, unreleased surface.
    func releaseSurface(id: UInt64, for session: ClientSession) throws {
        guard let surface = session.images[id], surface.surfaceBytes != nil, !surface.isReleased else {
            throw SessionError(
                .unknownSurface, "releaseSurface of surface \(id), which is not registered or already released")
        }
        session.images[id]!.isReleased = true
        session.tree.liveImages.remove(id)
        session.tree.liveSurfaces.remove(id)
        session.hasReleasedImages = true
        freeReleasedImages(of: session)
    }
}

import CDRM
import CGBM
import Glibc
import LaminaServer

/// A linear XRGB8888 scan-out buffer allocated with GBM (`GBM_BO_USE_SCANOUT | GBM_BO_USE_LINEAR`),
/// its framebuffer, and its memory imported by the renderer, which copies each frame into it: as a
/// dma-buf (a GPU writes it directly) or as this process's mapping of the dma-buf (a CPU device such as
/// lavapipe writes it directly). Either way no frame is read back or copied by laminad itself.
/// Freed in `deinit`: the import first, then the mapping, the framebuffer and the buffer object.
final class KMSGBMBuffer {
    let kms: KMSDevice
    let gbm: KMSGBMDevice
    let bo: OpaquePointer
    let framebuffer: UInt32
    /// The buffer as a dma-buf, opened read-write.
    let dmaBuf: Int32
    /// The dma-buf's size in bytes.
    let size: Int
    /// The mapping, for a `hostMapping` import.
    let mapping: UnsafeMutableRawPointer?
    /// The renderer's import; nil only while `deinit` runs.
    private(set) var destination: (any ScanoutDestination)?

    /// Allocates a `width` × `height` buffer, adds its framebuffer and imports it into `renderer` as
    /// `kind`. Throws the failing call.
    init(
        kms: KMSDevice, gbm: KMSGBMDevice, width: Int, height: Int, kind: ScanoutImport, renderer: any ScanoutCopying
    ) throws {
        let usage = GBM_BO_USE_SCANOUT.rawValue | GBM_BO_USE_LINEAR.rawValue
        guard let bo = gbm_bo_create(gbm.device, UInt32(width), UInt32(height), CGBM_FORMAT_XRGB8888, usage) else {
            throw KMSError(call: "gbm_bo_create", errno: errno, detail: "linear scan-out XRGB8888 \(width)x\(height)")
        }
        var framebuffer: UInt32 = 0
        var dmaBuf: Int32 = -1
        var mapping: UnsafeMutableRawPointer?
        var size = 0
        do {
            let handle = gbm_bo_get_handle_for_plane(bo, 0).u32
            let stride = Int(gbm_bo_get_stride_for_plane(bo, 0))
            let offset = Int(gbm_bo_get_offset(bo, 0))
            framebuffer = try kms.addFramebuffer(
                width: width, height: height, handle: handle, pitch: stride, offset: offset,
                modifier: gbm_bo_get_modifier(bo))
            // Read-write, so that the mapping may be written (gbm_bo_get_fd's may be read-only).
            try KMSError.check(
                drmPrimeHandleToFD(kms.fileDescriptor, handle, UInt32(O_CLOEXEC | O_RDWR), &dmaBuf),
                "drmPrimeHandleToFD", "GBM buffer \(handle)")
            size = Int(lseek(dmaBuf, 0, SEEK_END))
            guard size > 0 else { throw KMSError(call: "lseek", errno: errno, detail: "size of the dma-buf") }
            let memory: ScanoutMemory
            switch kind {
            case .dmaBuf:
                memory = .dmaBuf(fileDescriptor: dmaBuf, size: size)
            case .hostMapping:
                guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, dmaBuf, 0), mapped != MAP_FAILED
                else { throw KMSError(call: "mmap", errno: errno, detail: "dma-buf of \(size) bytes") }
                mapping = mapped
                memory = .hostMapping(address: mapped, size: size)
            }
            destination = try renderer.importScanout(
                memory, layout: ScanoutLayout(width: width, height: height, stride: stride, offset: offset))
        } catch {
            if let mapping { munmap(mapping, size) }
            if dmaBuf >= 0 { close(dmaBuf) }
            if framebuffer != 0 { _ = drmModeRmFB(kms.fileDescriptor, framebuffer) }
            gbm_bo_destroy(bo)
            throw error
        }
        self.kms = kms
        self.gbm = gbm
        self.bo = bo
        self.framebuffer = framebuffer
        self.dmaBuf = dmaBuf
        self.size = size
        self.mapping = mapping
    }

    deinit {
        destination = nil
        if let mapping { munmap(mapping, size) }
        close(dmaBuf)
        _ = drmModeRmFB(kms.fileDescriptor, framebuffer)
        gbm_bo_destroy(bo)
    }

    /// Has `renderer` copy the frame drawn into `target` into the buffer (only `region` when given:
    /// what the buffer lacks of it), bracketing a mapping's CPU writes with the dma-buf's sync ioctl.
    func fill(from target: any RenderTarget, renderer: any ScanoutCopying, region: [DamageRect]? = nil) throws {
        guard let destination else { return }
        if mapping != nil { _ = cgbm_dmabuf_sync_write(dmaBuf, 0) }
        defer { if mapping != nil { _ = cgbm_dmabuf_sync_write(dmaBuf, 1) } }
        try renderer.copy(target, into: destination, region: region)
    }
}

import CDRM
import Glibc
import LaminaServer

/// A dumb buffer (`drmModeCreateDumbBuffer`): CPU-written XRGB8888 memory the display can scan out,
/// with its framebuffer id and its mapping. Freed in `deinit`.
final class KMSDumbBuffer {
    let device: KMSDevice
    let width: Int
    let height: Int
    let handle: UInt32
    /// Bytes per row.
    let pitch: Int
    let size: Int
    /// The framebuffer (`drmModeAddFB2`) that shows it.
    let framebuffer: UInt32
    let memory: UnsafeMutableRawPointer

    /// Creates a `width` × `height` buffer, its framebuffer and its mapping.
    init(device: KMSDevice, width: Int, height: Int) throws(KMSError) {
        self.device = device
        self.width = width
        self.height = height
        let fd = device.fileDescriptor
        var handle: UInt32 = 0
        var pitch: UInt32 = 0
        var size: UInt64 = 0
        try KMSError.check(
            drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size),
            "drmModeCreateDumbBuffer", "\(width)x\(height)")
        let framebuffer: UInt32
        do {
            framebuffer = try device.addFramebuffer(width: width, height: height, handle: handle, pitch: Int(pitch))
        } catch {
            _ = drmModeDestroyDumbBuffer(fd, handle)
            throw error
        }
        var offset: UInt64 = 0
        let mapped = drmModeMapDumbBuffer(fd, handle, &offset)
        let memory =
            mapped == 0 ? mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset)) : MAP_FAILED
        guard mapped == 0, let memory, memory != MAP_FAILED else {
            let error = KMSError(
                call: mapped == 0 ? "mmap" : "drmModeMapDumbBuffer", errno: mapped == 0 ? errno : -mapped)
            _ = drmModeRmFB(fd, framebuffer)
            _ = drmModeDestroyDumbBuffer(fd, handle)
            throw error
        }
        self.handle = handle
        self.pitch = Int(pitch)
        self.size = Int(size)
        self.framebuffer = framebuffer
        self.memory = memory
    }

    deinit {
        munmap(memory, size)
        _ = drmModeRmFB(device.fileDescriptor, framebuffer)
        _ = drmModeDestroyDumbBuffer(device.fileDescriptor, handle)
    }

    /// Copies the pixels of `region` (all of them when nil) from `pixels` (BGRA8 rows of `stride`
    /// bytes, the renderer's layout: XRGB8888's bytes in memory) into the buffer.
    func copy(_ pixels: [UInt8], stride: Int, region: [DamageRect]?) {
        guard let region else { return copy(pixels, stride: stride) }
        let rows = min(height, pixels.count / max(stride, 1))
        pixels.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            for rect in region {
                let x0 = max(0, rect.x), x1 = min(width, rect.x + rect.width, min(stride, pitch) / 4)
                let y0 = max(0, rect.y), y1 = min(rows, rect.y + rect.height)
                guard x1 > x0 else { continue }
                for y in y0..<max(y0, y1) {
                    memcpy(memory + y * pitch + x0 * 4, base + y * stride + x0 * 4, (x1 - x0) * 4)
                }
            }
        }
    }

    /// Copies `pixels` (BGRA8 rows of `stride` bytes, the renderer's layout: XRGB8888's bytes in
    /// memory) into the buffer.
    func copy(_ pixels: [UInt8], stride: Int) {
        let row = min(width * 4, stride, pitch)
        pixels.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            if stride == pitch && source.count >= pitch * height {
                memcpy(memory, base, pitch * height)
                return
            }
            for y in 0..<min(height, source.count / max(stride, 1)) {
                memcpy(memory + y * pitch, base + y * stride, row)
            }
        }
    }
}

import CDRM
import Glibc

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
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var framebuffer: UInt32 = 0
        let added = withUnsafePointer(to: &handles) { h in
            withUnsafePointer(to: &pitches) { p in
                withUnsafePointer(to: &offsets) { o in
                    drmModeAddFB2(
                        fd, UInt32(width), UInt32(height), CDRM_FORMAT_XRGB8888,
                        UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                        UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                        UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &framebuffer, 0)
                }
            }
        }
        do {
            try KMSError.check(added, "drmModeAddFB2", "XRGB8888 \(width)x\(height)")
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

import CDRM

extension KMSDevice {
    /// Adds a one-plane XRGB8888 framebuffer over the buffer object `handle` (rows `pitch` bytes apart
    /// from byte `offset`) and returns its id. A `modifier` other than `DRM_FORMAT_MOD_INVALID` is
    /// passed on (`DRM_MODE_FB_MODIFIERS`) when the device takes modifiers; otherwise the driver's
    /// implicit layout is meant (linear for dumb and linear buffers).
    func addFramebuffer(
        width: Int, height: Int, handle: UInt32, pitch: Int, offset: Int = 0, modifier: UInt64 = CDRM_FORMAT_MOD_INVALID
    ) throws(KMSError) -> UInt32 {
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (UInt32(pitch), 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (UInt32(offset), 0, 0, 0)
        var modifiers: (UInt64, UInt64, UInt64, UInt64) = (modifier, 0, 0, 0)
        var capability: UInt64 = 0
        let withModifier =
            modifier != CDRM_FORMAT_MOD_INVALID
            && drmGetCap(fileDescriptor, UInt64(DRM_CAP_ADDFB2_MODIFIERS), &capability) == 0 && capability == 1
        var framebuffer: UInt32 = 0
        let added = withUnsafePointer(to: &handles) { h in
            withUnsafePointer(to: &pitches) { p in
                withUnsafePointer(to: &offsets) { o in
                    withUnsafePointer(to: &modifiers) { m in
                        drmModeAddFB2WithModifiers(
                            fileDescriptor, UInt32(width), UInt32(height), CDRM_FORMAT_XRGB8888,
                            UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                            UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                            UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self),
                            withModifier ? UnsafeRawPointer(m).assumingMemoryBound(to: UInt64.self) : nil, &framebuffer,
                            withModifier ? UInt32(DRM_MODE_FB_MODIFIERS) : 0)
                    }
                }
            }
        }
        try KMSError.check(
            added, withModifier ? "drmModeAddFB2WithModifiers" : "drmModeAddFB2",
            "XRGB8888 \(width)x\(height) pitch \(pitch)")
        return framebuffer
    }
}

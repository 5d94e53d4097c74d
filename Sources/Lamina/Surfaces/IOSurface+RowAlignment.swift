import Foundation

/// The default row pitch of a new surface: the connected server's zero-copy alignment when known.
extension IOSurface {
    private static let alignmentLock = NSLock()
    nonisolated(unsafe) private static var announcedAlignment = 0

    /// The row alignment the newest server connection announced (`SurfaceCapabilities.rowAlignment`),
    /// 0 while none has. Set by the connection when the answer arrives.
    static var serverRowAlignment: Int {
        get { alignmentLock.withLock { announcedAlignment } }
        set { alignmentLock.withLock { announcedAlignment = newValue } }
    }

    /// The row alignment a surface made now gets by default: the server's when one announced a
    /// multiple of 4 up to 4,096, else 64 (lavapipe's linear row pitch).
    public static var defaultRowAlignment: Int {
        let announced = serverRowAlignment
        return announced > 0 && announced % 4 == 0 && announced <= 4096 ? announced : 64
    }

    /// `bytes` rounded up to `defaultRowAlignment`.
    static func alignedRowBytes(_ bytes: Int) -> Int {
        let alignment = defaultRowAlignment
        return (bytes + alignment - 1) / alignment * alignment
    }
}

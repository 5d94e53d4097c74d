import Foundation

/// A key of the properties an `IOSurface` is created with, mirroring IOSurface's
/// `IOSurfacePropertyKey` (developer.apple.com/documentation/iosurface/iosurfacepropertykey).
public struct IOSurfacePropertyKey: RawRepresentable, Hashable, Sendable {
    /// The key's name, as Apple's constant's string value (`"IOSurfaceWidth"`).
    public let rawValue: String

    /// The key named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The width in pixels (an integer, required).
    public static let width = IOSurfacePropertyKey(rawValue: "IOSurfaceWidth")
    /// The height in pixels (an integer, required).
    public static let height = IOSurfacePropertyKey(rawValue: "IOSurfaceHeight")
    /// The bytes of one pixel (4 for 'BGRA', the default; any other value makes the initializer fail).
    public static let bytesPerElement = IOSurfacePropertyKey(rawValue: "IOSurfaceBytesPerElement")
    /// The bytes from one row to the next (default: width × 4 rounded up to 64 bytes; at least
    /// width × 4 and a multiple of 4).
    public static let bytesPerRow = IOSurfacePropertyKey(rawValue: "IOSurfaceBytesPerRow")
    /// The pixel format as a four-character code (default and only value: 'BGRA' = 0x42475241).
    public static let pixelFormat = IOSurfacePropertyKey(rawValue: "IOSurfacePixelFormat")
    /// The total bytes to allocate (default: bytesPerRow × height; rounded up to whole pages).
    public static let allocSize = IOSurfacePropertyKey(rawValue: "IOSurfaceAllocSize")
    /// The YCbCr matrix of an NV12 surface, a string: `IOSurface.yCbCrMatrixITU_R_709_2` or
    /// `IOSurface.yCbCrMatrixITU_R_601_4`. Apple attaches it to a pixel buffer as
    /// `kCVImageBufferYCbCrMatrixKey` ("CVImageBufferYCbCrMatrix"), whose name this key takes.
    public static let yCbCrMatrix = IOSurfacePropertyKey(rawValue: "CVImageBufferYCbCrMatrix")
    /// Where the chroma samples of an NV12 or P010 surface sit, a string: `IOSurface.chromaLocationLeft`,
    /// `...Center` (the default), `...TopLeft`, `...Top`, `...BottomLeft` or `...Bottom`. Apple attaches
    /// it to a pixel buffer as `kCVImageBufferChromaLocationTopFieldKey`
    /// ("CVImageBufferChromaLocationTopField"), whose name this key takes.
    public static let chromaLocationTopField = IOSurfacePropertyKey(rawValue: "CVImageBufferChromaLocationTopField")
    /// A name for debugging (Linux: it names the memfd, as `/proc/PID/maps` shows it).
    public static let name = IOSurfacePropertyKey(rawValue: "IOSurfaceName")
}

/// Options of `IOSurface.lock(options:seed:)` and `unlock(options:seed:)`, mirroring
/// `IOSurfaceLockOptions` (developer.apple.com/documentation/iosurface/iosurfacelockoptions).
public struct IOSurfaceLockOptions: OptionSet, Sendable {
    /// The options' bits, as Apple's (`kIOSurfaceLockReadOnly` = 1, `kIOSurfaceLockAvoidSync` = 2).
    public let rawValue: UInt32

    /// The options with bits `rawValue`.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The lock is for reading only: unlocking it does not change the surface's `seed`.
    public static let readOnly = IOSurfaceLockOptions(rawValue: 1)
    /// Do not wait for pending GPU work (nothing to wait for on Linux: all writes are the CPU's).
    public static let avoidSync = IOSurfaceLockOptions(rawValue: 2)
}

/// A Mach kernel return code, as IOSurface's lock calls return it (0: `KERN_SUCCESS`).
public typealias kern_return_t = Int32

/// Success (`KERN_SUCCESS`).
public let KERN_SUCCESS: kern_return_t = 0

/// IOKit's `kIOReturnBadArgument` (0xE00002C2): what `IOSurface.unlock(options:seed:)` returns
/// without a matching `lock`.
public let kIOReturnBadArgument = kern_return_t(bitPattern: 0xE000_02C2)

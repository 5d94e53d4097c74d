import Foundation
import LaminaGraphics
import LaminaProtocol

/// A shared buffer of pixels that the app writes on the CPU and laminad shows without a copy,
/// mirroring IOSurface's `IOSurface` class (developer.apple.com/documentation/iosurface/iosurface).
///
/// On Linux the memory is a memfd that this process maps read-write, sealed against shrinking and
/// growing (never against writing). Set it as a layer's `contents`: the commit that first shows it
/// sends the memfd once (`registerSurface`); the server maps it read-only and, where the device
/// can (lavapipe can), samples it in place. After writing a new frame, call the layer's
/// `setContentsChanged()` or assign the same surface to `contents` again: the next commit tells the
/// server (`surfaceChanged`), which redraws the layers showing it in the frame of that commit.
/// A write without either may show earlier, in any frame that redraws the layer, but only a marked
/// commit guarantees it (docs/surfaces.md). The formats are 'BGRA' (premultiplied,
/// `kCVPixelFormatType_32BGRA`) and NV12 ('420v' and '420f': a luma plane and a plane of interleaved
/// Cb, Cr at half size, read through the plane API, converted to RGB by the server with the
/// `yCbCrMatrix`). Thread-safe.
public final class IOSurface: @unchecked Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from the start of one row to the next.
    public let bytesPerRow: Int
    /// Bytes of one pixel: 4 for 'BGRA'; one luma sample (1, or 2 for P010) for a bi-planar surface.
    public let bytesPerElement: Int
    /// The pixel format's four-character code: 'BGRA' (0x42475241), '420v' (0x34323076), '420f'
    /// (0x34323066), 'x420' (0x78343230) or 'xf20' (0x78663230).
    public let pixelFormat: UInt32
    /// The planes' layout for NV12 ('420v', '420f') and P010 ('x420', 'xf20'), with the colour
    /// matrix and chroma location; nil for 'BGRA'.
    let planes: SurfacePlanes?
    /// The bytes allocated (whole pages, at least `bytesPerRow × height`).
    public let allocationSize: Int
    /// The surface's name (`IOSurfacePropertyKey.name`), or nil.
    public let name: String?
    /// The memfd and its read-write mapping.
    let memory: SurfaceMemory
    /// The id layers name the surface by, in the image id space (`LayerState.contents`).
    package let contentsID: UInt64 = ContentsImageRegistry.makeID()
    private let lock = NSLock()
    private var lockCount = 0
    private var writeLocks = 0
    private var currentSeed: UInt32 = 0
    private var changes: UInt64 = 0

    /// Creates a surface from `properties`: `.width` and `.height` (required, 1 to 16,384),
    /// `.pixelFormat` ('BGRA', the default; NV12: '420v', '420f'; P010: 'x420', 'xf20'),
    /// `.bytesPerElement` (4 for 'BGRA'), `.bytesPerRow` (optional; for 'BGRA' by default `width × 4`
    /// rounded up to `IOSurface.defaultRowAlignment`, the connected server's zero-copy alignment),
    /// `.allocSize` (optional, 'BGRA' only), `.name`, and for NV12 and P010 `.yCbCrMatrix`
    /// (`IOSurface.yCbCrMatrixITU_R_709_2` or `..._601_4`; default BT.709 from 1280 × 720 up, BT.601
    /// below) and `.chromaLocationTopField` (`IOSurface.chromaLocationLeft` ... `...Bottom`; default
    /// `...Center`). A bi-planar surface has the luma plane first, then the chroma plane, each row of each
    /// rounded up to 64 bytes, or `.bytesPerRow` apart in both planes when given (Lamina's: Apple sets
    /// plane strides through plane info). Returns nil for a missing or invalid value or when the
    /// memory cannot be made, as Apple's initializer does.
    public init?(properties: [IOSurfacePropertyKey: Any]) {
        func integer(_ key: IOSurfacePropertyKey) -> Int? {
            switch properties[key] {
            case let v as Int: v
            case let v as UInt32: Int(v)
            case let v as Int32: Int(v)
            case let v as UInt: Int(clamping: v)
            case let v as Int64: Int(v)
            case let v as UInt64: Int(clamping: v)
            case let v as NSNumber: v.intValue
            default: nil
            }
        }
        guard let width = integer(.width), let height = integer(.height), (1...16384).contains(width),
            (1...16384).contains(height)
        else { return nil }
        let format = properties[.pixelFormat] == nil ? Int(SurfaceFormat.bgra8) : integer(.pixelFormat)
        if let format, SurfaceFormat.isBiPlanarYCbCr(UInt32(truncatingIfNeeded: format)), format >= 0 {
            let sample = SurfaceFormat.isTenBit(UInt32(format)) ? 2 : 1
            let row = properties[.bytesPerRow] == nil ? nil : integer(.bytesPerRow)
            guard properties[.bytesPerRow] == nil || row != nil,
                let layout = Self.yCbCrLayout(
                    width: width, height: height, sample: sample, bytesPerRow: row, properties: properties),
                let memory = try? SurfaceMemory.create(
                    name: "lamina-surface" + ((properties[.name] as? String).map { "-" + $0 } ?? ""),
                    size: SurfaceMemory.pageRounded(layout.size))
            else { return nil }
            self.width = width
            self.height = height
            bytesPerRow = layout.lumaStride
            bytesPerElement = sample
            pixelFormat = UInt32(format)
            planes = layout.planes
            allocationSize = memory.size
            name = properties[.name] as? String
            self.memory = memory
            return
        }
        guard format == Int(SurfaceFormat.bgra8) else { return nil }
        let element = properties[.bytesPerElement] == nil ? 4 : integer(.bytesPerElement)
        guard element == 4 else { return nil }
        let row = properties[.bytesPerRow] == nil ? Self.alignedRowBytes(width * 4) : integer(.bytesPerRow)
        guard let row, row >= width * 4, row % 4 == 0, row <= 1 << 20 else { return nil }
        let requested = properties[.allocSize] == nil ? row * height : integer(.allocSize)
        guard let requested, requested >= row * (height - 1) + width * 4 else { return nil }
        let name = properties[.name] as? String
        guard
            let memory = try? SurfaceMemory.create(
                name: "lamina-surface" + (name.map { "-" + $0 } ?? ""), size: SurfaceMemory.pageRounded(requested))
        else { return nil }
        self.width = width
        self.height = height
        bytesPerRow = row
        bytesPerElement = 4
        pixelFormat = SurfaceFormat.bgra8
        planes = nil
        allocationSize = memory.size
        self.name = name
        self.memory = memory
    }

    /// The first byte of the pixels: row `y` starts `y × bytesPerRow` bytes on, each pixel is blue,
    /// green, red, alpha (premultiplied). Valid while the surface lives; write between `lock` and
    /// `unlock` (on Linux nothing stops a write outside them).
    public var baseAddress: UnsafeMutableRawPointer { memory.mutableBytes.baseAddress! }

    /// A number that changes each time the surface is unlocked after a lock for writing (a lock
    /// without `.readOnly`), as Apple's `seed` does.
    public var seed: UInt32 { lock.withLock { currentSeed } }

    /// Whether the surface is locked now.
    public var isLocked: Bool { lock.withLock { lockCount > 0 } }

    /// Locks the surface for the CPU, writing the seed to `seed` if given; returns `KERN_SUCCESS`.
    /// On Linux there is no GPU work to wait for: a lock records only whether the unlock changes
    /// the seed. Locks nest.
    @discardableResult
    public func lock(options: IOSurfaceLockOptions = [], seed: UnsafeMutablePointer<UInt32>?) -> kern_return_t {
        lock.withLock {
            lockCount += 1
            if !options.contains(.readOnly) { writeLocks += 1 }
            seed?.pointee = currentSeed
            return KERN_SUCCESS
        }
    }

    /// Unlocks a lock made with the same `options`, writing the seed after it to `seed` if given:
    /// the seed changes when the lock was for writing. Returns `KERN_SUCCESS`, or
    /// `kIOReturnBadArgument` when the surface is not locked (as that lock).
    @discardableResult
    public func unlock(options: IOSurfaceLockOptions = [], seed: UnsafeMutablePointer<UInt32>?) -> kern_return_t {
        lock.withLock {
            let forWriting = !options.contains(.readOnly)
            guard lockCount > 0, !forWriting || writeLocks > 0 else { return kIOReturnBadArgument }
            lockCount -= 1
            if forWriting {
                writeLocks -= 1
                currentSeed &+= 1
            }
            seed?.pointee = currentSeed
            return KERN_SUCCESS
        }
    }

    /// How many times a layer showing the surface was told its pixels changed (`setContentsChanged()`,
    /// or the surface assigned to `contents` again); a commit compares it with the count it last sent.
    package var changeCount: UInt64 { lock.withLock { changes } }

    /// Counts a new frame of the surface, for the next commit to send.
    package func noteChanged() {
        lock.withLock { changes &+= 1 }
    }

    /// The memfd's descriptor, sent with `registerSurface`.
    var fileDescriptor: Int32 { memory.fileDescriptor }
}

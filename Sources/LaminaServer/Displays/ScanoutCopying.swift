/// A renderer that can copy its frames straight into memory a display scans out, so that no frame is
/// read back and copied by the CPU.
///
/// The KMS output imports each scan-out buffer once (`importScanout`) and, every frame, has the
/// renderer copy the drawn target into the one not on screen (`copy`). Called on the render thread,
/// like every `Renderer` method.
public protocol ScanoutCopying: Renderer {
    /// The kinds of scan-out memory the renderer's device can import (empty when it can import none).
    var scanoutImports: Set<ScanoutImport> { get }
    /// Imports `memory`, laid out as `layout` says, as a destination for `copy`.
    ///
    /// Throws when the device cannot import that kind of memory or the layout does not fit it. A
    /// `dmaBuf`'s descriptor is duplicated: the caller keeps its own. A `hostMapping` must stay mapped
    /// for as long as the destination lives.
    func importScanout(_ memory: ScanoutMemory, layout: ScanoutLayout) throws -> any ScanoutDestination
    /// Copies the pixels `render` last drew into `target` into `destination`, at its layout's offset
    /// and row stride, and returns once the device has written them (the buffer may be shown then).
    /// Only the rectangles of `region` (device pixels, possibly overlapping) are copied: what the
    /// buffer lacks of the newest frame (`BufferDamage.missing(in:)`); nil copies the whole frame
    /// and an empty region nothing.
    func copy(_ target: any RenderTarget, into destination: any ScanoutDestination, region: [DamageRect]?) throws
}

extension ScanoutCopying {
    /// Copies the whole frame: `copy(_:into:region:)` with no region.
    public func copy(_ target: any RenderTarget, into destination: any ScanoutDestination) throws {
        try copy(target, into: destination, region: nil)
    }
}

/// A kind of scan-out memory a renderer may import.
public enum ScanoutImport: String, Hashable, Sendable, CustomStringConvertible {
    /// A dma-buf file descriptor (`VK_EXT_external_memory_dma_buf`): the zero-copy path of GPUs.
    case dmaBuf = "dma-buf"
    /// The buffer's mapping in this process (`VK_EXT_external_memory_host`): a CPU device such as
    /// lavapipe writes the frame into it directly.
    case hostMapping = "host mapping"

    /// The name logs and docs use ("dma-buf", "host mapping").
    public var description: String { rawValue }
}

/// Memory a display scans out, as handed to `ScanoutCopying.importScanout`.
public enum ScanoutMemory {
    /// A dma-buf of `size` bytes.
    case dmaBuf(fileDescriptor: Int32, size: Int)
    /// `size` bytes mapped at `address` (page-aligned; `size` a multiple of the page size).
    case hostMapping(address: UnsafeMutableRawPointer, size: Int)

    /// The kind of import it needs.
    public var kind: ScanoutImport {
        switch self {
        case .dmaBuf: .dmaBuf
        case .hostMapping: .hostMapping
        }
    }

    /// Its size in bytes.
    public var size: Int {
        switch self {
        case .dmaBuf(_, let size), .hostMapping(_, let size): size
        }
    }
}

/// Where a frame's pixels go in scan-out memory: `height` rows of `width` BGRA8 pixels (XRGB8888 in
/// DRM's naming), `stride` bytes apart, the first at byte `offset`.
public struct ScanoutLayout: Equatable, Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bytes from one row to the next (at least `width * 4`, a multiple of 4).
    public var stride: Int
    /// Byte offset of the first row.
    public var offset: Int

    /// A layout of `height` rows of `width` pixels, `stride` bytes apart, from `offset`.
    public init(width: Int, height: Int, stride: Int, offset: Int = 0) {
        self.width = width
        self.height = height
        self.stride = stride
        self.offset = offset
    }

    /// The bytes the layout spans, from the start of the memory.
    public var extent: Int { offset + stride * max(height - 1, 0) + width * 4 }

    /// Whether the layout is well formed and fits in `size` bytes.
    public func fits(in size: Int) -> Bool {
        (1...16384).contains(width) && (1...16384).contains(height) && (0...(1 << 30)).contains(offset)
            && offset % 4 == 0 && (width * 4...(1 << 20)).contains(stride) && stride % 4 == 0 && extent <= size
    }
}

/// Scan-out memory imported by a renderer (`ScanoutCopying.importScanout`). Its device objects are
/// freed when the last reference goes; no copy is in flight then, since `copy` waits for its own.
public protocol ScanoutDestination: AnyObject {
    /// The kind of memory imported.
    var kind: ScanoutImport { get }
    /// The layout frames are copied in.
    var layout: ScanoutLayout { get }
}

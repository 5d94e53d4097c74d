import LaminaProtocol

/// Names an image a renderer imported with `Renderer.importImage(_:filtering:)`.
///
/// Values are unique per renderer and never reused while it lives.
public struct RenderImageID: Hashable, Sendable, CustomStringConvertible {
    /// The renderer's number for the image.
    public let rawValue: UInt64

    /// Wraps a renderer's number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// "image N".
    public var description: String { "image \(rawValue)" }
}

/// How an imported image will be sampled; mipmapped filtering makes the renderer build a mip chain.
public enum ImageFiltering: Sendable, CaseIterable {
    /// Nearest texel, level 0 only.
    case nearest
    /// Bilinear, level 0 only.
    case linear
    /// Trilinear across a mip chain built at import.
    case mipmapped
}

/// Pixels to import: `width` × `height` texels, BGRA8 with premultiplied alpha, rows `stride` bytes apart.
///
/// The bytes come from host memory or from a sealed memfd already mapped by `SharedMemory.map`, starting
/// at `offset`. The last row needs only `width * 4` bytes, not a whole stride.
public struct ImagePixels {
    /// Where the bytes live.
    public enum Source {
        /// Bytes in host memory.
        case host([UInt8])
        /// A sealed, read-only memfd mapping; it is read during the import only.
        case sharedMemory(SharedMemory)
    }

    /// Width in texels.
    public var width: Int
    /// Height in texels.
    public var height: Int
    /// Bytes from the start of one row to the next.
    public var stride: Int
    /// Byte offset of the first row in the source.
    public var offset: Int
    /// The bytes.
    public var source: Source

    /// Describes pixels in `source`.
    public init(width: Int, height: Int, stride: Int, offset: Int = 0, source: Source) {
        self.width = width
        self.height = height
        self.stride = stride
        self.offset = offset
        self.source = source
    }

    /// Checks the sizes against each other, the source and `maximumDimension`, throwing the first problem.
    public func validate(maximumDimension: Int) throws(RenderImageError) {
        guard width > 0, height > 0 else { throw .emptySize(width: width, height: height) }
        guard width <= maximumDimension, height <= maximumDimension else {
            throw .tooLarge(width: width, height: height, limit: maximumDimension)
        }
        let (rowBytes, rowOverflow) = width.multipliedReportingOverflow(by: 4)
        guard !rowOverflow, stride >= rowBytes else { throw .strideTooSmall(stride: stride, minimum: width * 4) }
        guard offset >= 0 else { throw .negativeOffset(offset) }
        let (rows, rowsOverflow) = stride.multipliedReportingOverflow(by: height - 1)
        let (lastRow, lastOverflow) = rows.addingReportingOverflow(rowBytes)
        let (needed, neededOverflow) = lastRow.addingReportingOverflow(offset)
        guard !rowsOverflow, !lastOverflow, !neededOverflow, needed <= byteCount else {
            throw .bufferTooSmall(
                size: byteCount, needed: rowsOverflow || lastOverflow || neededOverflow ? Int.max : needed)
        }
    }

    /// The size of the source in bytes.
    public var byteCount: Int {
        switch source {
        case .host(let bytes): return bytes.count
        case .sharedMemory(let memory): return memory.size
        }
    }

    /// Calls `body` with the whole source's bytes (valid only during the call).
    public func withSourceBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch source {
        case .host(let bytes): return try bytes.withUnsafeBytes(body)
        case .sharedMemory(let memory): return try body(memory.bytes)
        }
    }
}

/// Why an image could not be imported or named; the server turns it into a client error.
public enum RenderImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Width or height is zero or negative.
    case emptySize(width: Int, height: Int)
    /// Width or height exceeds the device's largest 2D image.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// The stride is shorter than a row of `width * 4` bytes.
    case strideTooSmall(stride: Int, minimum: Int)
    /// The offset of the first row is negative.
    case negativeOffset(Int)
    /// The source holds fewer bytes than the rows need (`Int.max` when the need overflows).
    case bufferTooSmall(size: Int, needed: Int)
    /// No image with this id is alive in the renderer.
    case unknownImage(RenderImageID)
    /// The operation needs an image without a mip chain.
    case mipmapped(RenderImageID)

    /// A sentence naming the problem.
    public var description: String {
        switch self {
        case .emptySize(let width, let height): return "image size \(width)x\(height) is empty"
        case .tooLarge(let width, let height, let limit):
            return "image size \(width)x\(height) exceeds the device limit of \(limit) texels a side"
        case .strideTooSmall(let stride, let minimum): return "image stride \(stride) is below \(minimum) bytes"
        case .bufferTooSmall(let size, let needed):
            return "image buffer holds \(size) bytes, \(needed == Int.max ? "more than Int.max" : "\(needed)") needed"
        case .negativeOffset(let offset): return "image offset \(offset) is negative"
        case .unknownImage(let id): return "no \(id) in this renderer"
        case .mipmapped(let id): return "\(id) has a mip chain and cannot be a render target"
        }
    }
}

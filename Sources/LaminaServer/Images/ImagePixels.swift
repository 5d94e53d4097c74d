import LaminaProtocol

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
        /// A shared surface's read-only mapping (its writer may change it meanwhile: a copy of it
        /// may tear, as a copy of an `IOSurface` the app writes unlocked may).
        case surface(SurfaceMemory)
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
        case .surface(let memory): return memory.size
        }
    }

    /// Whether every pixel's alpha byte is 255 (BGRA: the fourth byte of each pixel). Call after
    /// `validate(maximumDimension:)`.
    public var isOpaque: Bool {
        withSourceBytes { bytes in
            for row in 0..<height {
                let start = offset + row * stride
                for alpha in Swift.stride(from: start + 3, to: start + width * 4, by: 4) where bytes[alpha] != 255 {
                    return false
                }
            }
            return true
        }
    }

    /// Calls `body` with the whole source's bytes (valid only during the call).
    public func withSourceBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch source {
        case .host(let bytes): return try bytes.withUnsafeBytes(body)
        case .sharedMemory(let memory): return try body(memory.bytes)
        case .surface(let memory): return try body(UnsafeRawBufferPointer(rebasing: memory.bytes[0..<memory.size]))
        }
    }
}

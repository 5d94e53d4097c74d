import LaminaProtocol

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

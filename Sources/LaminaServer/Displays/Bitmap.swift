import LaminaCore

/// Pixels read back from a render target: premultiplied BGRA, 8 bits per channel, rows top to bottom.
public struct Bitmap: Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bytes per row.
    public var stride: Int
    /// The rows, `stride` bytes apart, each pixel B, G, R, A.
    public var pixels: [UInt8]

    /// A bitmap over `pixels`, which must hold `height` rows of `stride` bytes.
    public init(width: Int, height: Int, stride: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
    }

    /// The pixel at (x, y) as (red, green, blue, alpha).
    public func rgba(x: Int, y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let i = y * stride + x * 4
        return (pixels[i + 2], pixels[i + 1], pixels[i], pixels[i + 3])
    }
}

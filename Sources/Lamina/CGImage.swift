import Foundation
@_exported import LaminaCore

/// A bitmap image: 8-bit premultiplied RGBA, rows top to bottom.
///
/// Lamina's `CGImage` holds its pixels in memory. It comes from captures (`CAContext.capture(at:)`),
/// PNG files (`init?(contentsOfPNGFile:)`) or raw pixels (`init?(width:height:premultipliedRGBA:)`).
public final class CGImage: @unchecked Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Always 8.
    public var bitsPerComponent: Int { 8 }
    /// Always 32.
    public var bitsPerPixel: Int { 32 }
    /// Bytes per row: `width × 4`.
    public var bytesPerRow: Int { width * 4 }
    /// Premultiplied RGBA bytes, `bytesPerRow × height` of them.
    public let premultipliedRGBA: [UInt8]
    let contentsID: UInt64 = ContentsImageRegistry.makeID()

    /// Creates an image from premultiplied RGBA bytes; nil when the count does not match the size.
    public init?(width: Int, height: Int, premultipliedRGBA: [UInt8]) {
        guard width > 0, height > 0, premultipliedRGBA.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.premultipliedRGBA = premultipliedRGBA
    }

    /// Creates an image from premultiplied BGRA rows with `stride` bytes per row (the capture format,
    /// and what the renderer reads back); nil when the bytes do not fit the size.
    public convenience init?(width: Int, height: Int, stride: Int, premultipliedBGRA source: [UInt8]) {
        let image = source.withUnsafeBytes {
            CGImage(width: width, height: height, stride: stride, premultipliedBGRA: $0)
        }
        guard let image else { return nil }
        self.init(width: width, height: height, premultipliedRGBA: image.premultipliedRGBA)
    }

    /// Creates an image from premultiplied BGRA rows with `stride` bytes per row (the capture format).
    init?(width: Int, height: Int, stride: Int, premultipliedBGRA source: UnsafeRawBufferPointer) {
        guard width > 0, height > 0, stride >= width * 4, source.count >= stride * (height - 1) + width * 4 else {
            return nil
        }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        rgba.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                for x in 0..<width {
                    let s = y * stride + x * 4, d = (y * width + x) * 4
                    out[d] = source[s + 2]
                    out[d + 1] = source[s + 1]
                    out[d + 2] = source[s]
                    out[d + 3] = source[s + 3]
                }
            }
        }
        self.width = width
        self.height = height
        premultipliedRGBA = rgba
    }

    /// The premultiplied pixel at (x, y): red, green, blue, alpha.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside the image")
        let i = (y * width + x) * 4
        return (premultipliedRGBA[i], premultipliedRGBA[i + 1], premultipliedRGBA[i + 2], premultipliedRGBA[i + 3])
    }

    /// A copy of the rectangle `rect` (in pixels), clamped to the image; nil when empty.
    public func cropping(to rect: CGRect) -> CGImage? {
        let r = rect.integral.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !r.isNull, r.width > 0, r.height > 0 else { return nil }
        let x0 = Int(r.minX), y0 = Int(r.minY), w = Int(r.width), h = Int(r.height)
        var out = [UInt8]()
        out.reserveCapacity(w * h * 4)
        for y in y0..<(y0 + h) {
            let start = (y * width + x0) * 4
            out.append(contentsOf: premultipliedRGBA[start..<(start + w * 4)])
        }
        return CGImage(width: w, height: h, premultipliedRGBA: out)
    }
}

import Foundation

/// A bitmap image, mirroring Core Graphics' `CGImage`: its pixels in memory, held as 8-bit
/// premultiplied RGBA, rows top to bottom.
///
/// An image comes from raw bytes in one of Core Graphics' layouts
/// (`init?(width:height:bitsPerComponent:bitsPerPixel:bytesPerRow:space:bitmapInfo:provider:decode:shouldInterpolate:intent:)`),
/// a PNG or JPEG file (`init?(pngDataProviderSource:…)`, `init?(jpegDataProviderSource:…)`,
/// `init?(contentsOfPNGFile:)`), a capture (`CAContext.capture(at:)`) or premultiplied RGBA bytes
/// (`init?(width:height:premultipliedRGBA:)`). Whatever the source, `premultipliedRGBA` holds the
/// pixels converted to that one form; the layout properties (`bitsPerComponent`, `bitmapInfo`,
/// `dataProvider`…) report what the image was created with, as Apple's do. Instances never change,
/// so sharing one across threads is safe.
public final class CGImage: @unchecked Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bits in each colour or alpha component of the layout the image was created with (8 for
    /// decoded files, captures and premultiplied RGBA).
    public let bitsPerComponent: Int
    /// Bits in each pixel of that layout (32 for decoded files, captures and premultiplied RGBA).
    public let bitsPerPixel: Int
    /// Bytes per row of that layout (`width × 4` for decoded files, captures and premultiplied RGBA).
    public let bytesPerRow: Int
    /// The layout's alpha and byte order (`premultipliedLast` for decoded PNGs, captures and
    /// premultiplied RGBA; `noneSkipLast` for JPEGs).
    public let bitmapInfo: CGBitmapInfo
    /// The colour space the image was created with (sRGB for decoded files and captures).
    public let colorSpace: CGColorSpace?
    /// Whether drawing the image scaled should interpolate its pixels.
    public let shouldInterpolate: Bool
    /// The rendering intent the image was created with.
    public let renderingIntent: CGColorRenderingIntent
    /// The pixels: 8-bit premultiplied RGBA, rows top to bottom, `width × 4` bytes each.
    public let premultipliedRGBA: [UInt8]
    package let contentsID: UInt64 = ContentsImageRegistry.makeID()
    /// The provider the image was created with, for images made from raw bytes.
    private let sourceProvider: CGDataProvider?

    /// Creates an image from converted pixels and the layout to report.
    init(
        width: Int, height: Int, premultipliedRGBA: [UInt8], bitsPerComponent: Int = 8, bitsPerPixel: Int = 32,
        bytesPerRow: Int? = nil,
        bitmapInfo: CGBitmapInfo = CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue),
        colorSpace: CGColorSpace? = CGColorSpace(name: CGColorSpace.sRGB), shouldInterpolate: Bool = true,
        renderingIntent: CGColorRenderingIntent = .defaultIntent, provider: CGDataProvider? = nil
    ) {
        self.width = width
        self.height = height
        self.premultipliedRGBA = premultipliedRGBA
        self.bitsPerComponent = bitsPerComponent
        self.bitsPerPixel = bitsPerPixel
        self.bytesPerRow = bytesPerRow ?? width * 4
        self.bitmapInfo = bitmapInfo
        self.colorSpace = colorSpace
        self.shouldInterpolate = shouldInterpolate
        self.renderingIntent = renderingIntent
        sourceProvider = provider
    }

    /// Creates an image from premultiplied RGBA bytes, rows top to bottom; nil when the count does
    /// not match the size.
    ///
    /// The image reports the layout 8 bits per component, 32 per pixel, `premultipliedLast`, sRGB.
    public convenience init?(width: Int, height: Int, premultipliedRGBA: [UInt8]) {
        guard width > 0, height > 0, premultipliedRGBA.count == width * height * 4 else { return nil }
        self.init(width: width, height: height, premultipliedRGBA: premultipliedRGBA, bytesPerRow: nil)
    }

    /// Creates an image from premultiplied BGRA rows with `stride` bytes per row (the capture format,
    /// and what the renderer reads back); nil when the bytes do not fit the size.
    public convenience init?(width: Int, height: Int, stride: Int, premultipliedBGRA source: [UInt8]) {
        let rgba = source.withUnsafeBytes {
            Self.rgba(width: width, height: height, stride: stride, premultipliedBGRA: $0)
        }
        guard let rgba else { return nil }
        self.init(width: width, height: height, premultipliedRGBA: rgba, bytesPerRow: nil)
    }

    /// Creates an image from premultiplied BGRA rows with `stride` bytes per row (the capture format).
    package convenience init?(width: Int, height: Int, stride: Int, premultipliedBGRA source: UnsafeRawBufferPointer) {
        guard let rgba = Self.rgba(width: width, height: height, stride: stride, premultipliedBGRA: source) else {
            return nil
        }
        self.init(width: width, height: height, premultipliedRGBA: rgba, bytesPerRow: nil)
    }

    /// Premultiplied BGRA rows reordered to RGBA; nil when the bytes do not fit the size.
    private static func rgba(width: Int, height: Int, stride: Int, premultipliedBGRA source: UnsafeRawBufferPointer)
        -> [UInt8]?
    {
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
        return rgba
    }

    /// Where the layout keeps alpha, and whether colours are premultiplied by it.
    public var alphaInfo: CGImageAlphaInfo {
        bitmapInfo.alphaInfo ?? .none
    }

    /// A provider of the bytes in the layout the image reports: for an image made from raw bytes,
    /// the provider it was made with; otherwise a provider of `premultipliedRGBA`, which is that
    /// layout.
    public var dataProvider: CGDataProvider? {
        sourceProvider ?? CGDataProvider(bytes: Data(premultipliedRGBA))
    }

    /// The premultiplied pixel at (x, y): red, green, blue, alpha.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside the image")
        let i = (y * width + x) * 4
        return (premultipliedRGBA[i], premultipliedRGBA[i + 1], premultipliedRGBA[i + 2], premultipliedRGBA[i + 3])
    }

    /// A copy of the pixels inside `rect`, as Core Graphics' `cropping(to:)` makes it; nil when
    /// nothing of the image is inside.
    ///
    /// As Apple documents: `rect` is in pixels with the origin at the image's first (top-left)
    /// pixel; it is made integral (`CGRect.integral`) and intersected with the image. The copy keeps
    /// the colour space, interpolation and intent, and reports the layout of `premultipliedRGBA`
    /// (8-bit `premultipliedLast`), where Apple's keeps the original layout.
    public func cropping(to rect: CGRect) -> CGImage? {
        guard !rect.isNull else { return nil }
        let r = rect.integral.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !r.isNull, r.width > 0, r.height > 0 else { return nil }
        let x0 = Int(r.minX), y0 = Int(r.minY), w = Int(r.width), h = Int(r.height)
        var out = [UInt8]()
        out.reserveCapacity(w * h * 4)
        for y in y0..<(y0 + h) {
            let start = (y * width + x0) * 4
            out.append(contentsOf: premultipliedRGBA[start..<(start + w * 4)])
        }
        return CGImage(
            width: w, height: h, premultipliedRGBA: out, colorSpace: colorSpace, shouldInterpolate: shouldInterpolate,
            renderingIntent: renderingIntent)
    }
}

import CPNG
import Foundation

/// Reads and writes `CGImage`s as PNG files with libpng's simplified API.
///
/// PNG stores straight (non-premultiplied) alpha: writing un-premultiplies, reading premultiplies.
public enum PNGCodec {
    /// A PNG that could not be read or written; the text includes libpng's message.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with libpng's message where it gave one.
        public let description: String
    }

    /// Writes `image` to `path` as 8-bit RGBA PNG.
    public static func write(_ image: CGImage, to path: String) throws {
        var straight = image.premultipliedRGBA
        for i in stride(from: 0, to: straight.count, by: 4) {
            let a = Int(straight[i + 3])
            guard a != 0 && a != 255 else { continue }
            for c in 0..<3 { straight[i + c] = UInt8(min(255, (Int(straight[i + c]) * 255 + a / 2) / a)) }
        }
        var png = png_image()
        png.version = UInt32(CPNG_IMAGE_VERSION)
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = CPNG_FORMAT_RGBA
        let ok = straight.withUnsafeBytes { bytes in
            png_image_write_to_file(&png, path, 0, bytes.baseAddress, Int32(image.width * 4), nil)
        }
        defer { png_image_free(&png) }
        guard ok != 0 else { throw Failure(description: "cannot write PNG '\(path)': \(message(png))") }
    }

    /// Reads a PNG file into a premultiplied RGBA image.
    ///
    /// Every PNG colour type is read (palette, gray, gray with alpha, RGB, RGBA, with or without
    /// transparency chunks, 1 to 16 bits, interlaced or not); 16-bit components are rounded to 8
    /// bits as sRGB-encoded values. Files larger than `CGImage.maximumSide` on a side or
    /// `CGImage.maximumPixelBytes` of RGBA are refused.
    public static func read(_ path: String) throws -> CGImage {
        var png = png_image()
        png.version = UInt32(CPNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&png, path) != 0 else {
            throw Failure(description: "cannot read PNG '\(path)': \(message(png))")
        }
        return try finishRead(&png, name: "'\(path)'")
    }

    /// Decodes the PNG file held in `bytes` into a premultiplied RGBA image, as `read(_:)` does.
    ///
    /// Data that is not a PNG, corrupt or truncated (including a missing `IEND` chunk) throws;
    /// libpng's simplified API reports every error as a status, so nothing here can trap.
    public static func decode(_ bytes: Data) throws -> CGImage {
        // libpng stops reading at the last image data, so a file cut short after it would pass.
        let end: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        guard bytes.count > end.count, bytes.suffix(end.count).elementsEqual(end) else {
            throw Failure(description: "PNG data is truncated or not a PNG")
        }
        // libpng keeps the pointer to the bytes until the read finishes: both calls share one closure.
        return try bytes.withUnsafeBytes { memory in
            var png = png_image()
            png.version = UInt32(CPNG_IMAGE_VERSION)
            guard png_image_begin_read_from_memory(&png, memory.baseAddress, memory.count) != 0 else {
                throw Failure(description: "cannot read PNG data: \(message(png))")
            }
            return try finishRead(&png, name: "data")
        }
    }

    /// Finishes a read begun on `png`: checks the size, decodes to RGBA and premultiplies.
    private static func finishRead(_ png: inout png_image, name: String) throws -> CGImage {
        png.format = CPNG_FORMAT_RGBA
        png.flags |= CPNG_IMAGE_FLAG_16BIT_sRGB
        let width = Int(png.width), height = Int(png.height)
        guard width > 0, height > 0, width <= CGImage.maximumSide, height <= CGImage.maximumSide,
            width * height * 4 <= CGImage.maximumPixelBytes
        else {
            png_image_free(&png)
            throw Failure(description: "PNG \(name) has an unsupported size \(width)x\(height)")
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let ok = pixels.withUnsafeMutableBytes {
            png_image_finish_read(&png, nil, $0.baseAddress, Int32(width * 4), nil)
        }
        defer { png_image_free(&png) }
        guard ok != 0 else { throw Failure(description: "cannot decode PNG \(name): \(message(png))") }
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = pixels[i + 3]
            guard a != 255 else { continue }
            for c in 0..<3 { pixels[i + c] = premultiply(pixels[i + c], a) }
        }
        return CGImage(width: width, height: height, premultipliedRGBA: pixels)!
    }

    static func message(_ png: png_image) -> String {
        withUnsafeBytes(of: png.message) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
    }
}

extension CGImage {
    /// Writes the image to `path` as PNG.
    public func writePNG(to path: String) throws { try PNGCodec.write(self, to: path) }

    /// Reads a PNG file; nil when it cannot be read.
    public convenience init?(contentsOfPNGFile path: String) {
        guard let image = try? PNGCodec.read(path) else { return nil }
        self.init(width: image.width, height: image.height, premultipliedRGBA: image.premultipliedRGBA)
    }
}

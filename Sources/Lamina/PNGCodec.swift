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
            png_image_write_to_file(&png, path, 0, bytes.baseAddress, Int32(image.bytesPerRow), nil)
        }
        defer { png_image_free(&png) }
        guard ok != 0 else { throw Failure(description: "cannot write PNG '\(path)': \(message(png))") }
    }

    /// Reads a PNG file into a premultiplied RGBA image.
    public static func read(_ path: String) throws -> CGImage {
        var png = png_image()
        png.version = UInt32(CPNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&png, path) != 0 else {
            throw Failure(description: "cannot read PNG '\(path)': \(message(png))")
        }
        png.format = CPNG_FORMAT_RGBA
        let width = Int(png.width), height = Int(png.height)
        guard width > 0, height > 0, width <= 65536, height <= 65536 else {
            png_image_free(&png)
            throw Failure(description: "PNG '\(path)' has an unsupported size \(width)x\(height)")
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let ok = pixels.withUnsafeMutableBytes {
            png_image_finish_read(&png, nil, $0.baseAddress, Int32(width * 4), nil)
        }
        defer { png_image_free(&png) }
        guard ok != 0 else { throw Failure(description: "cannot decode PNG '\(path)': \(message(png))") }
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = Int(pixels[i + 3])
            guard a != 255 else { continue }
            for c in 0..<3 { pixels[i + c] = UInt8((Int(pixels[i + c]) * a + 127) / 255) }
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

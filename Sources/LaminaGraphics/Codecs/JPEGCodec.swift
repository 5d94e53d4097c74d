import CJPEG
import Foundation

/// Reads JPEG files into `CGImage`s with libjpeg-turbo.
///
/// libjpeg's errors and warnings are caught in the `CJPEG` shim and come back as a status, so
/// corrupt, truncated or unsupported data throws instead of trapping.
public enum JPEGCodec {
    /// A JPEG that could not be read.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    /// Decodes the baseline or progressive JPEG held in `bytes` (gray, YCbCr or RGB) into an opaque
    /// image that reports the layout 8 bits per component, 32 per pixel, `noneSkipLast`, sRGB.
    ///
    /// Corrupt data, data that ends early (libjpeg would patch it over with grey; Lamina refuses
    /// it), CMYK images and images larger than `CGImage.maximumSide` on a side or
    /// `CGImage.maximumPixelBytes` of RGBA throw.
    public static func decode(_ bytes: Data) throws -> CGImage {
        var pixels: UnsafeMutablePointer<UInt8>? = nil
        var width: UInt32 = 0
        var height: UInt32 = 0
        let status = bytes.withUnsafeBytes { memory in
            cjpeg_decode_rgba(
                memory.bindMemory(to: UInt8.self).baseAddress, memory.count, UInt32(CGImage.maximumSide),
                CGImage.maximumPixelBytes, &pixels, &width, &height)
        }
        defer { free(pixels) }
        switch status {
        case CJPEG_OK: break
        case CJPEG_ERROR_TOO_LARGE: throw Failure(description: "JPEG is larger than Lamina reads")
        case CJPEG_ERROR_MEMORY: throw Failure(description: "no memory for the JPEG's pixels")
        default: throw Failure(description: "JPEG data is corrupt, truncated or unsupported")
        }
        guard let pixels else { throw Failure(description: "JPEG decoder returned no pixels") }
        let count = Int(width) * Int(height) * 4
        let rgba = [UInt8](UnsafeBufferPointer(start: pixels, count: count))
        return CGImage(
            width: Int(width), height: Int(height), premultipliedRGBA: rgba,
            bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.noneSkipLast.rawValue))
    }
}

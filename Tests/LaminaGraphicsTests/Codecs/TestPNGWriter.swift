import Foundation

/// Writes PNG files byte by byte for the decoding tests, independently of libpng: chunks with their
/// CRC-32, image data as a zlib stream of stored (uncompressed) deflate blocks, every scanline with
/// filter 0, and Adam7 interlacing by the PNG specification's pass table.
enum TestPNGWriter {
    /// A PNG of `pixels` (rows of pixels, each pixel its samples: 1 gray or palette index, 2 gray
    /// and alpha, 3 RGB, 4 RGBA), of `colourType` and `bitDepth`, with `extraChunks` (PLTE, tRNS…)
    /// between IHDR and IDAT.
    static func png(
        _ pixels: [[[Int]]], colourType: UInt8, bitDepth: UInt8, interlaced: Bool = false,
        extraChunks: [(String, [UInt8])] = []
    ) -> Data {
        let height = pixels.count, width = pixels[0].count
        var raw: [UInt8] = []
        let passes: [(x: Int, y: Int, dx: Int, dy: Int)] =
            interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        for pass in passes {
            let xs = Array(stride(from: pass.x, to: width, by: pass.dx))
            let ys = Array(stride(from: pass.y, to: height, by: pass.dy))
            // A pass with no pixels has no scanlines at all.
            guard !xs.isEmpty, !ys.isEmpty else { continue }
            for y in ys {
                raw.append(0)
                raw += pack(xs.map { pixels[y][$0] }, bitDepth: Int(bitDepth))
            }
        }
        var ihdr: [UInt8] = []
        ihdr += bigEndian(UInt32(width))
        ihdr += bigEndian(UInt32(height))
        ihdr += [bitDepth, colourType, 0, 0, interlaced ? 1 : 0]
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", ihdr)
        for (type, body) in extraChunks { file += chunk(type, body) }
        file += chunk("IDAT", zlibStored(raw))
        file += chunk("IEND", [])
        return Data(file)
    }

    /// A PNG whose header claims `width × height` RGBA pixels, with one row of image data.
    static func header(width: UInt32, height: UInt32) -> Data {
        var ihdr: [UInt8] = []
        ihdr += bigEndian(width)
        ihdr += bigEndian(height)
        ihdr += [8, 6, 0, 0, 0]
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", ihdr)
        file += chunk("IDAT", zlibStored([0, 0, 0, 0, 0]))
        file += chunk("IEND", [])
        return Data(file)
    }

    /// One scanline's samples packed at `bitDepth` bits, most significant first, 16-bit big endian.
    static func pack(_ row: [[Int]], bitDepth: Int) -> [UInt8] {
        switch bitDepth {
        case 8: return row.flatMap { $0.map { UInt8($0) } }
        case 16: return row.flatMap { $0.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
        default:
            var bytes: [UInt8] = []
            var bit = 0
            for sample in row.flatMap({ $0 }) {
                if bit == 0 { bytes.append(0) }
                bytes[bytes.count - 1] |= UInt8(sample << (8 - bitDepth - bit))
                bit = (bit + bitDepth) % 8
            }
            return bytes
        }
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(body.count)) + typeBytes + body + bigEndian(crc32(typeBytes + body))
    }

    /// A zlib stream (RFC 1950) of stored deflate blocks (RFC 1951 §3.2.4).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65535, data.count - start)
            let last: UInt8 = start + count == data.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[start..<(start + count)]
            start += count
        } while start < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}

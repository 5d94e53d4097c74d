import CJPEG
import Foundation
import LaminaGraphics
import Testing

/// Decodes `data` as a PNG with Apple's initialiser.
private func png(_ data: Data) -> CGImage? {
    CGImage(
        pngDataProviderSource: CGDataProvider(data: data as CFData)!, decode: nil, shouldInterpolate: true,
        intent: .defaultIntent)
}

/// Decodes `data` as a JPEG with Apple's initialiser.
private func jpeg(_ data: Data) -> CGImage? {
    CGImage(
        jpegDataProviderSource: CGDataProvider(data: data as CFData)!, decode: nil, shouldInterpolate: true,
        intent: .defaultIntent)
}

/// Encodes `width × height` pixels of `components` bytes (3 RGB, 1 gray) as a JPEG with libjpeg.
private func encodeJPEG(_ pixels: [UInt8], width: Int, height: Int, components: Int, quality: Int32 = 95) -> Data {
    var out: UnsafeMutablePointer<UInt8>? = nil
    var size = 0
    let status = pixels.withUnsafeBufferPointer {
        cjpeg_encode(
            $0.baseAddress, UInt32(width), UInt32(height), width * components, Int32(components), quality, &out, &size)
    }
    precondition(status == CJPEG_OK, "libjpeg could not encode the test image")
    defer { free(out) }
    return Data(bytes: out!, count: size)
}

/// The PNG the project's own encoder writes for `image`.
private func projectPNG(_ image: CGImage) throws -> Data {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-decode-\(getpid())-\(UUID()).png")
    defer { try? FileManager.default.removeItem(at: path) }
    try image.writePNG(to: path.path)
    return try Data(contentsOf: path)
}

/// A small PNG of every kind of pixel: opaque, half and fully transparent.
private func samplePNG() throws -> Data {
    try projectPNG(
        CGImage(width: 2, height: 2, premultipliedRGBA: [100, 50, 25, 128, 10, 20, 30, 255, 0, 0, 0, 0, 0, 0, 64, 64])!)
}

/// A 32 × 16 JPEG: the left 16 × 16 block (one MCU) (200, 100, 50), the right (20, 180, 90).
private func sampleJPEG() -> Data {
    var rgb: [UInt8] = []
    for _ in 0..<16 {
        for x in 0..<32 { rgb += x < 16 ? [200, 100, 50] : [20, 180, 90] }
    }
    return encodeJPEG(rgb, width: 32, height: 16, components: 3)
}

/// PNG and JPEG decoding through `CGImage(pngDataProviderSource:…)` and
/// `CGImage(jpegDataProviderSource:…)`: every PNG colour type to exact premultiplied RGBA, JPEG
/// within the codec's error, and nil (never a trap) for truncated, corrupt, empty or oversized data.
@Suite struct ImageDecodingTests {
    @Test func projectEncoderRoundTripsExactly() throws {
        // PNG stores straight alpha; the encoder un-premultiplies and the decoder premultiplies back,
        // which is exact for 8-bit values (the straight value's rounding error, scaled by a/255,
        // stays under half a level).
        let pixels: [UInt8] = [100, 50, 25, 128, 10, 20, 30, 255, 0, 0, 0, 0, 0, 0, 64, 64]
        let image = try #require(png(try samplePNG()))
        #expect(image.width == 2 && image.height == 2)
        #expect(image.premultipliedRGBA == pixels)
        // A decoded PNG reports the layout of its pixels: 8-bit RGBA, premultipliedLast, sRGB.
        #expect(image.bitsPerComponent == 8 && image.bitsPerPixel == 32 && image.bytesPerRow == 8)
        #expect(image.alphaInfo == .premultipliedLast)
        #expect(image.colorSpace?.name == CGColorSpace.sRGB)
        #expect(image.dataProvider?.data as Data? == Data(pixels))
    }

    @Test func everyColourTypeDecodesToPremultipliedRGBA() throws {
        // PNG specification §11.2.2 (IHDR): colour type 0 gray, 2 RGB, 3 palette, 4 gray + alpha,
        // 6 RGBA. Values are straight; expected values are premultiplied by hand.
        // Gray 8-bit.
        let gray = try #require(png(TestPNGWriter.png([[[0], [77]], [[255], [128]]], colourType: 0, bitDepth: 8)))
        #expect(gray.premultipliedRGBA == [0, 0, 0, 255, 77, 77, 77, 255, 255, 255, 255, 255, 128, 128, 128, 255])
        // Gray 1-bit: a row of 9 pixels 1,0,1,1,0,0,0,1,1 (two bytes, the second padded).
        let bits = [1, 0, 1, 1, 0, 0, 0, 1, 1]
        let mono = try #require(png(TestPNGWriter.png([bits.map { [$0] }], colourType: 0, bitDepth: 1)))
        #expect(mono.premultipliedRGBA == bits.flatMap { $0 == 1 ? [255, 255, 255, 255] : [0, 0, 0, 255] })
        // Gray 16-bit: 0x4D4D is 77·257.
        let gray16 = try #require(png(TestPNGWriter.png([[[0x4D4D]]], colourType: 0, bitDepth: 16)))
        #expect(gray16.premultipliedRGBA == [77, 77, 77, 255])
        // Gray with alpha: 200 at alpha 128 → 100.
        let grayAlpha = try #require(png(TestPNGWriter.png([[[200, 128], [9, 0]]], colourType: 4, bitDepth: 8)))
        #expect(grayAlpha.premultipliedRGBA == [100, 100, 100, 128, 0, 0, 0, 0])
        // RGB.
        let rgb = try #require(png(TestPNGWriter.png([[[200, 100, 50]]], colourType: 2, bitDepth: 8)))
        #expect(rgb.premultipliedRGBA == [200, 100, 50, 255])
        // RGB with a tRNS colour key: pixels of that colour are transparent.
        let keyed = try #require(
            png(
                TestPNGWriter.png(
                    [[[200, 100, 50], [1, 2, 3]]], colourType: 2, bitDepth: 8,
                    extraChunks: [("tRNS", [0, 1, 0, 2, 0, 3])])))
        #expect(keyed.premultipliedRGBA == [200, 100, 50, 255, 0, 0, 0, 0])
        // RGBA: (200, 100, 50) at 128 → (100, 50, 25).
        let rgba = try #require(png(TestPNGWriter.png([[[200, 100, 50, 128]]], colourType: 6, bitDepth: 8)))
        #expect(rgba.premultipliedRGBA == [100, 50, 25, 128])
        // RGBA 16-bit: each component v·257.
        let rgba16 = try #require(
            png(TestPNGWriter.png([[[200 * 257, 100 * 257, 50 * 257, 128 * 257]]], colourType: 6, bitDepth: 16)))
        #expect(rgba16.premultipliedRGBA == [100, 50, 25, 128])
        // Palette 8-bit with tRNS: index 0 (200, 100, 50) at 128, index 1 (10, 20, 30) opaque.
        let palette = try #require(
            png(
                TestPNGWriter.png(
                    [[[1], [0], [1]]], colourType: 3, bitDepth: 8,
                    extraChunks: [("PLTE", [200, 100, 50, 10, 20, 30]), ("tRNS", [128])])))
        #expect(palette.premultipliedRGBA == [10, 20, 30, 255, 100, 50, 25, 128, 10, 20, 30, 255])
        // Palette 2-bit: indices 3, 2, 1, 0, 3.
        let palette2 = try #require(
            png(
                TestPNGWriter.png(
                    [[[3], [2], [1], [0], [3]]], colourType: 3, bitDepth: 2,
                    extraChunks: [("PLTE", [0, 0, 0, 85, 85, 85, 170, 170, 170, 255, 0, 0])])))
        #expect(
            palette2.premultipliedRGBA == [
                255, 0, 0, 255, 170, 170, 170, 255, 85, 85, 85, 255, 0, 0, 0, 255, 255, 0, 0, 255,
            ])
    }

    @Test func interlacedPNGDecodesExactly() throws {
        // Adam7 (PNG specification §8.2) on a 9 × 9 image touches all seven passes; pixel (x, y) is
        // (x, y, 10·x + y) at alpha 255, or at alpha 0 on the diagonal.
        let pixels = (0..<9).map { y in
            (0..<9).map { x in [x, y, 10 * x + y, x == y ? 0 : 255] }
        }
        let interlaced = try #require(png(TestPNGWriter.png(pixels, colourType: 6, bitDepth: 8, interlaced: true)))
        let expected = pixels.flatMap { $0.flatMap { $0[3] == 0 ? [0, 0, 0, 0] : $0.map { UInt8($0) } } }
        #expect(interlaced.premultipliedRGBA == expected)
        let progressive = try #require(png(TestPNGWriter.png(pixels, colourType: 6, bitDepth: 8)))
        #expect(progressive.premultipliedRGBA == expected)
    }

    @Test func truncatedPNGsGiveNil() throws {
        let data = try samplePNG()
        #expect(png(data) != nil)
        for length in 0..<data.count {
            #expect(png(data.prefix(length)) == nil, "prefix of \(length) of \(data.count) bytes")
        }
    }

    @Test func pngsWithAFlippedByteGiveNil() throws {
        // Every chunk carries a CRC-32 and the signature is fixed, so a changed byte in the
        // signature or a critical chunk (IHDR, IDAT, IEND) is an error. libpng discards an
        // ancillary chunk (lower-case first letter, here the encoder's sRGB) whose CRC fails, with a
        // warning, so flips there leave the pixels as they were.
        let data = try samplePNG()
        let pixels = try #require(png(data)).premultipliedRGBA
        var ancillary: [Range<Int>] = []
        var offset = 8
        while offset + 8 <= data.count {
            let length = data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            if data[offset + 4] & 0x20 != 0 { ancillary.append(offset..<(offset + 12 + length)) }
            offset += 12 + length
        }
        #expect(offset == data.count)
        for index in 0..<data.count {
            var corrupt = data
            corrupt[index] ^= 0xFF
            // A flip in an ancillary chunk's length or type makes it a different chunk; only its
            // data and CRC are skipped for certain.
            if let chunk = ancillary.first(where: { $0.contains(index) }), index >= chunk.lowerBound + 8 {
                #expect(png(corrupt)?.premultipliedRGBA == pixels, "byte \(index) flipped")
            } else if !ancillary.contains(where: { $0.contains(index) }) {
                #expect(png(corrupt) == nil, "byte \(index) flipped")
            } else {
                let decoded = png(corrupt)
                #expect(decoded == nil || decoded?.premultipliedRGBA == pixels, "byte \(index) flipped")
            }
        }
    }

    @Test func notAnImageGivesNil() {
        let text = Data("this is not an image, not even close".utf8)
        #expect(png(Data()) == nil)
        #expect(jpeg(Data()) == nil)
        #expect(png(text) == nil)
        #expect(jpeg(text) == nil)
        // The PNG signature alone, and a JPEG start-of-image marker alone.
        #expect(png(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])) == nil)
        #expect(jpeg(Data([0xFF, 0xD8, 0xFF])) == nil)
        // Each format through the other's initialiser.
        #expect(png(sampleJPEG()) == nil)
        #expect(jpeg(try! samplePNG()) == nil)
    }

    @Test func oversizedImagesGiveNil() {
        // The bounds: at most 16384 pixels a side and 256 MiB of RGBA.
        #expect(CGImage.maximumSide == 16384)
        #expect(CGImage.maximumPixelBytes == 256 << 20)
        #expect(png(TestPNGWriter.header(width: 16385, height: 1)) == nil)
        #expect(png(TestPNGWriter.header(width: 16384, height: 16384)) == nil)
        // A JPEG whose frame header (SOF0: FFC0, length, precision, height, width) claims 20000
        // pixels across.
        var wide = sampleJPEG()
        let sof = try! #require(wide.indices.first { wide[$0] == 0xFF && wide[$0 + 1] == 0xC0 })
        wide[sof + 7] = UInt8(20000 >> 8)
        wide[sof + 8] = UInt8(20000 & 0xFF)
        #expect(jpeg(wide) == nil)
    }

    @Test func jpegDecodesWithinTheCodecsError() throws {
        let image = try #require(jpeg(sampleJPEG()))
        #expect(image.width == 32 && image.height == 16)
        // Apple reports JPEGs as opaque RGB with a skipped byte.
        #expect(image.alphaInfo == .noneSkipLast)
        #expect(image.bitsPerPixel == 32 && image.bytesPerRow == 128)
        // libjpeg's fancy upsampling blends chroma across the edge, so columns 15 and 16 mix the two.
        for y in 0..<16 {
            for x in 0..<32 where x != 15 && x != 16 {
                let p = image.pixel(x: x, y: y)
                let want: [Int] = x < 16 ? [200, 100, 50] : [20, 180, 90]
                // Flat 16 × 16 blocks survive quality-95 coding within a few levels.
                #expect(abs(Int(p.red) - want[0]) <= 3 && abs(Int(p.green) - want[1]) <= 3, "(\(x), \(y))")
                #expect(abs(Int(p.blue) - want[2]) <= 3 && p.alpha == 255, "(\(x), \(y))")
            }
        }
        #expect(image.dataProvider?.data as Data? == Data(image.premultipliedRGBA))
    }

    @Test func grayJPEGDecodesToGray() throws {
        let data = encodeJPEG([UInt8](repeating: 77, count: 64), width: 8, height: 8, components: 1)
        let image = try #require(jpeg(data))
        for y in 0..<8 {
            for x in 0..<8 {
                let p = image.pixel(x: x, y: y)
                #expect(abs(Int(p.red) - 77) <= 1 && p.red == p.green && p.green == p.blue && p.alpha == 255)
            }
        }
    }

    @Test func truncatedJPEGsGiveNil() {
        // libjpeg would fill a short file with grey and warn ("Premature end of JPEG file"); Lamina
        // counts the warning as a failure.
        let data = sampleJPEG()
        #expect(jpeg(data) != nil)
        for length in 0..<data.count {
            #expect(jpeg(data.prefix(length)) == nil, "prefix of \(length) of \(data.count) bytes")
        }
    }

    @Test func jpegsWithAFlippedByteNeverTrap() {
        // A JPEG has no checksum: a flipped byte in the entropy-coded data may still decode (to wrong
        // pixels). Every flip must return without trapping; flips in the start-of-image marker and
        // in the frame header's precision must give nil.
        let data = sampleJPEG()
        var decoded = 0
        for index in 0..<data.count {
            var corrupt = data
            corrupt[index] ^= 0xFF
            if jpeg(corrupt) != nil { decoded += 1 }
        }
        #expect(decoded < data.count)
        for index in [0, 1] {
            var corrupt = data
            corrupt[index] ^= 0xFF
            #expect(jpeg(corrupt) == nil)
        }
        let sof = data.indices.first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 }!
        var badPrecision = data
        badPrecision[sof + 4] = 12
        #expect(jpeg(badPrecision) == nil)
    }

    @Test func paddedRawImageWritesAndReadsBackAsFile() throws {
        // An image made from rows of 12 bytes for 2 pixels (bytesPerRow 12) is written from its
        // RGBA pixels, not with the layout's stride; the file route (contentsOfPNGFile) reads it back.
        let row: [UInt8] = [200, 100, 50, 128, 10, 20, 30, 255, 9, 9, 9, 9]
        let provider = try #require(CGDataProvider(data: Data(row + row) as CFData))
        let made = CGImage(
            width: 2, height: 2, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 12,
            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.last.rawValue),
            provider: provider, decode: nil, shouldInterpolate: true, intent: .defaultIntent)
        let image = try #require(made)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-padded-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try image.writePNG(to: path)
        let read = try #require(CGImage(contentsOfPNGFile: path))
        #expect(read.premultipliedRGBA == [100, 50, 25, 128, 10, 20, 30, 255, 100, 50, 25, 128, 10, 20, 30, 255])
        // An interlaced gray file through the same route.
        try TestPNGWriter.png([[[7], [8], [9]]], colourType: 0, bitDepth: 8, interlaced: true).write(
            to: URL(fileURLWithPath: path))
        #expect(CGImage(contentsOfPNGFile: path)?.premultipliedRGBA == [7, 7, 7, 255, 8, 8, 8, 255, 9, 9, 9, 255])
    }

    @Test func pngFileThroughURLProvider() throws {
        // CGDataProvider(url: u as CFURL) feeding CGImage(pngDataProviderSource:…), as Apple code reads files.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-url-\(getpid()).png")
        try samplePNG().write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let provider = try #require(CGDataProvider(url: url as CFURL))
        let image = try #require(
            CGImage(pngDataProviderSource: provider, decode: nil, shouldInterpolate: false, intent: .perceptual))
        #expect(image.pixel(x: 1, y: 0) == (10, 20, 30, 255))
        #expect(image.shouldInterpolate == false && image.renderingIntent == .perceptual)
    }
}

import Foundation
import LaminaGraphics
import Testing

/// One raw layout: the bytes of one pixel and the premultiplied RGBA it must read as.
struct RawLayoutCase: CustomStringConvertible, Sendable {
    let description: String
    let gray: Bool
    let bitsPerComponent: Int
    let bitsPerPixel: Int
    let info: UInt32
    let bytes: [UInt8]
    let expected: [UInt8]
}

private let premultipliedFirst = CGImageAlphaInfo.premultipliedFirst.rawValue
private let premultipliedLast = CGImageAlphaInfo.premultipliedLast.rawValue
private let first = CGImageAlphaInfo.first.rawValue
private let last = CGImageAlphaInfo.last.rawValue
private let skipFirst = CGImageAlphaInfo.noneSkipFirst.rawValue
private let skipLast = CGImageAlphaInfo.noneSkipLast.rawValue
private let none = CGImageAlphaInfo.none.rawValue
private let little32 = CGBitmapInfo.byteOrder32Little.rawValue
private let big32 = CGBitmapInfo.byteOrder32Big.rawValue
private let little16 = CGBitmapInfo.byteOrder16Little.rawValue
private let big16 = CGBitmapInfo.byteOrder16Big.rawValue

// The straight colour (200, 100, 50) at alpha 128 premultiplies to (100, 50, 25): 200·128/255 =
// 100.4, 100·128/255 = 50.2, 50·128/255 = 25.1, rounded. Opaque layouts keep (200, 100, 50).
private let half: [UInt8] = [100, 50, 25, 128]
private let opaque: [UInt8] = [200, 100, 50, 255]

/// Apple's layouts (CGImage.h, "Bitmap Images" in the Quartz 2D Programming Guide): alpha first or
/// last in the byte order the alpha info names; `byteOrder32Little` reverses a 32-bit pixel (so
/// `premultipliedFirst | byteOrder32Little` is B, G, R, A in memory); 16-bit components are big
/// endian by default.
let rawLayoutCases: [RawLayoutCase] = [
    .init(
        description: "RGBA premultipliedLast", gray: false, bitsPerComponent: 8, bitsPerPixel: 32,
        info: premultipliedLast, bytes: [100, 50, 25, 128], expected: half),
    .init(
        description: "RGBA premultipliedLast 32Big", gray: false, bitsPerComponent: 8, bitsPerPixel: 32,
        info: premultipliedLast | big32, bytes: [100, 50, 25, 128], expected: half),
    .init(
        description: "ABGR premultipliedLast 32Little", gray: false, bitsPerComponent: 8, bitsPerPixel: 32,
        info: premultipliedLast | little32, bytes: [128, 25, 50, 100], expected: half),
    .init(
        description: "ARGB premultipliedFirst", gray: false, bitsPerComponent: 8, bitsPerPixel: 32,
        info: premultipliedFirst, bytes: [128, 100, 50, 25], expected: half),
    .init(
        description: "BGRA premultipliedFirst 32Little", gray: false, bitsPerComponent: 8, bitsPerPixel: 32,
        info: premultipliedFirst | little32, bytes: [25, 50, 100, 128], expected: half),
    .init(
        description: "RGBA last", gray: false, bitsPerComponent: 8, bitsPerPixel: 32, info: last,
        bytes: [200, 100, 50, 128], expected: half),
    .init(
        description: "ABGR last 32Little", gray: false, bitsPerComponent: 8, bitsPerPixel: 32, info: last | little32,
        bytes: [128, 50, 100, 200], expected: half),
    .init(
        description: "ARGB first", gray: false, bitsPerComponent: 8, bitsPerPixel: 32, info: first,
        bytes: [128, 200, 100, 50], expected: half),
    .init(
        description: "BGRA first 32Little", gray: false, bitsPerComponent: 8, bitsPerPixel: 32, info: first | little32,
        bytes: [50, 100, 200, 128], expected: half),
    .init(
        description: "RGBX noneSkipLast", gray: false, bitsPerComponent: 8, bitsPerPixel: 32, info: skipLast,
        bytes: [200, 100, 50, 7], expected: opaque),
    .init(
        description: "XBGR noneSkipLast 32Little", gray: false, bitsPerComponent: 8, bitsPerPixel: 32,
        info: skipLast | little32, bytes: [7, 50, 100, 200], expected: opaque),
    .init(
        description: "XRGB noneSkipFirst", gray: false, bitsPerComponent: 8, bitsPerPixel: 32, info: skipFirst,
        bytes: [7, 200, 100, 50], expected: opaque),
    .init(
        description: "BGRX noneSkipFirst 32Little", gray: false, bitsPerComponent: 8, bitsPerPixel: 32,
        info: skipFirst | little32, bytes: [50, 100, 200, 7], expected: opaque),
    .init(
        description: "RGB none 24 bpp", gray: false, bitsPerComponent: 8, bitsPerPixel: 24, info: none,
        bytes: [200, 100, 50], expected: opaque),
    .init(
        description: "gray none", gray: true, bitsPerComponent: 8, bitsPerPixel: 8, info: none, bytes: [77],
        expected: [77, 77, 77, 255]),
    .init(
        description: "gray alpha premultipliedLast", gray: true, bitsPerComponent: 8, bitsPerPixel: 16,
        info: premultipliedLast, bytes: [60, 128], expected: [60, 60, 60, 128]),
    // 200 at alpha 128 premultiplies to 100.
    .init(
        description: "gray alpha last", gray: true, bitsPerComponent: 8, bitsPerPixel: 16, info: last,
        bytes: [200, 128], expected: [100, 100, 100, 128]),
    .init(
        description: "alpha gray first", gray: true, bitsPerComponent: 8, bitsPerPixel: 16, info: first,
        bytes: [128, 200], expected: [100, 100, 100, 128]),
    .init(
        description: "alpha gray last 16Little", gray: true, bitsPerComponent: 8, bitsPerPixel: 16,
        info: last | little16, bytes: [128, 200], expected: [100, 100, 100, 128]),
    .init(
        description: "gray alpha last 16Big", gray: true, bitsPerComponent: 8, bitsPerPixel: 16, info: last | big16,
        bytes: [200, 128], expected: [100, 100, 100, 128]),
    .init(
        description: "gray skip noneSkipLast", gray: true, bitsPerComponent: 8, bitsPerPixel: 16, info: skipLast,
        bytes: [90, 3], expected: [90, 90, 90, 255]),
    // 16-bit components: 0xC8B0 is 200·257 − 24, so it rounds to 200 (its byte-swapped 0xB0C8 would
    // round to 176); 0x64B0 to 100, 0x32B0 to 50, 0x80B0 to 128, 0x4DB0 to 77.
    .init(
        description: "RGBA last 16 bpc big endian", gray: false, bitsPerComponent: 16, bitsPerPixel: 64, info: last,
        bytes: [0xC8, 0xB0, 0x64, 0xB0, 0x32, 0xB0, 0x80, 0xB0], expected: half),
    .init(
        description: "RGBA last 16 bpc 16Big", gray: false, bitsPerComponent: 16, bitsPerPixel: 64,
        info: last | big16, bytes: [0xC8, 0xB0, 0x64, 0xB0, 0x32, 0xB0, 0x80, 0xB0], expected: half),
    .init(
        description: "ARGB first 16 bpc 16Little", gray: false, bitsPerComponent: 16, bitsPerPixel: 64,
        info: first | little16, bytes: [0xB0, 0x80, 0xB0, 0xC8, 0xB0, 0x64, 0xB0, 0x32], expected: half),
    .init(
        description: "RGB none 16 bpc 16Little", gray: false, bitsPerComponent: 16, bitsPerPixel: 48,
        info: none | little16, bytes: [0xB0, 0xC8, 0xB0, 0x64, 0xB0, 0x32], expected: opaque),
    .init(
        description: "gray none 16 bpc", gray: true, bitsPerComponent: 16, bitsPerPixel: 16, info: none,
        bytes: [0x4D, 0xB0], expected: [77, 77, 77, 255]),
    .init(
        description: "gray alpha last 16 bpc", gray: true, bitsPerComponent: 16, bitsPerPixel: 32, info: last,
        bytes: [0xC8, 0xB0, 0x80, 0xB0], expected: [100, 100, 100, 128]),
]

private func rgbSpace() -> CGColorSpace { CGColorSpace(name: CGColorSpace.sRGB)! }
private func graySpace() -> CGColorSpace { CGColorSpace(name: CGColorSpace.genericGray)! }

/// Makes an image with Apple's raw-bytes initialiser.
private func image(
    width: Int, height: Int, bitsPerComponent: Int = 8, bitsPerPixel: Int = 32, bytesPerRow: Int, gray: Bool = false,
    info: UInt32, bytes: [UInt8], decode: [CGFloat]? = nil
) -> CGImage? {
    let provider = CGDataProvider(data: Data(bytes) as CFData)!
    let make = { (decode: UnsafePointer<CGFloat>?) in
        CGImage(
            width: width, height: height, bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel,
            bytesPerRow: bytesPerRow, space: gray ? graySpace() : rgbSpace(), bitmapInfo: CGBitmapInfo(rawValue: info),
            provider: provider, decode: decode, shouldInterpolate: true, intent: .defaultIntent)
    }
    guard let decode else { return make(nil) }
    return decode.withUnsafeBufferPointer { make($0.baseAddress) }
}

/// `CGImage` made from raw bytes in Apple's layouts, its layout properties, `cropping(to:)` and
/// `CGDataProvider`.
@Suite struct CGImageTests {
    @Test(arguments: rawLayoutCases)
    func rawLayoutReadsAsPremultipliedRGBA(_ layout: RawLayoutCase) throws {
        // Two rows of two pixels, rows padded by 3 bytes: the layout's pixel, then a transparent
        // (zero) pixel, on both rows.
        let pixelBytes = layout.bitsPerPixel / 8
        let row = layout.bytes + [UInt8](repeating: 0, count: pixelBytes) + [9, 9, 9]
        let made = image(
            width: 2, height: 2, bitsPerComponent: layout.bitsPerComponent, bitsPerPixel: layout.bitsPerPixel,
            bytesPerRow: row.count, gray: layout.gray, info: layout.info, bytes: row + row)
        let image = try #require(made)
        let transparentOrBlack: [UInt8] = layout.expected[3] == 255 ? [0, 0, 0, 255] : [0, 0, 0, 0]
        #expect(image.premultipliedRGBA == layout.expected + transparentOrBlack + layout.expected + transparentOrBlack)
        // Apple reports the layout the image was made with.
        #expect(image.bitsPerComponent == layout.bitsPerComponent)
        #expect(image.bitsPerPixel == layout.bitsPerPixel)
        #expect(image.bytesPerRow == row.count)
        #expect(image.bitmapInfo == CGBitmapInfo(rawValue: layout.info))
        #expect(image.alphaInfo.rawValue == layout.info & 0x1F)
        #expect(image.colorSpace?.model == (layout.gray ? .monochrome : .rgb))
        #expect(image.dataProvider?.data as Data? == Data(row + row))
    }

    @Test func unsupportedLayoutsGiveNil() {
        let bytes = [UInt8](repeating: 0, count: 64)
        // Floating-point components.
        #expect(
            image(width: 1, height: 1, bytesPerRow: 4, info: last | CGBitmapInfo.floatComponents.rawValue, bytes: bytes)
                == nil)
        // Alpha only.
        #expect(
            image(
                width: 1, height: 1, bitsPerPixel: 8, bytesPerRow: 1, gray: true,
                info: CGImageAlphaInfo.alphaOnly.rawValue, bytes: bytes) == nil)
        // Alpha with 24 bits per pixel, and no alpha with 32.
        #expect(image(width: 1, height: 1, bitsPerPixel: 24, bytesPerRow: 3, info: last, bytes: bytes) == nil)
        #expect(image(width: 1, height: 1, bitsPerPixel: 32, bytesPerRow: 4, info: none, bytes: bytes) == nil)
        // A 32-bit byte order on a 24-bit pixel; a 16-bit order on a 32-bit pixel of 8-bit components.
        #expect(
            image(width: 1, height: 1, bitsPerPixel: 24, bytesPerRow: 3, info: none | little32, bytes: bytes) == nil)
        #expect(image(width: 1, height: 1, bytesPerRow: 4, info: last | little16, bytes: bytes) == nil)
        // A 32-bit byte order on 16-bit components.
        #expect(
            image(
                width: 1, height: 1, bitsPerComponent: 16, bitsPerPixel: 64, bytesPerRow: 8, info: last | little32,
                bytes: bytes) == nil)
        // Other depths.
        #expect(
            image(
                width: 1, height: 1, bitsPerComponent: 5, bitsPerPixel: 16, bytesPerRow: 2, info: skipFirst,
                bytes: bytes) == nil)
        // An undefined alpha value.
        #expect(image(width: 1, height: 1, bytesPerRow: 4, info: 9, bytes: bytes) == nil)
        // No pixels.
        #expect(image(width: 0, height: 1, bytesPerRow: 4, info: last, bytes: bytes) == nil)
        // Too large on a side.
        #expect(image(width: 16385, height: 1, bytesPerRow: 16385 * 4, info: last, bytes: bytes) == nil)
    }

    @Test func providerMustHoldTheLastRowsPixelsOnly() {
        // Apple needs bytesPerRow × (height − 1) + the last row's pixels: 2 rows of 2 RGBA pixels,
        // 12 bytes a row, is 12 + 8 = 20 bytes.
        let bytes = [UInt8](repeating: 255, count: 20)
        #expect(image(width: 2, height: 2, bytesPerRow: 12, info: last, bytes: bytes) != nil)
        #expect(image(width: 2, height: 2, bytesPerRow: 12, info: last, bytes: Array(bytes.dropLast())) == nil)
        // A row must fit in bytesPerRow.
        #expect(image(width: 2, height: 2, bytesPerRow: 7, info: last, bytes: bytes) == nil)
    }

    @Test func nonPremultipliedColoursArePremultipliedAndPremultipliedOnesClamped() throws {
        // Straight 255 at alpha 0 → 0; 255 at 1 → 1; 1 at 254 → 1 (254/255 rounds up).
        let straight = try #require(
            image(
                width: 3, height: 1, bytesPerRow: 12, info: last, bytes: [255, 255, 255, 0, 255, 0, 1, 1, 1, 1, 1, 254])
        )
        #expect(straight.premultipliedRGBA == [0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 254])
        // A premultiplied colour above its alpha is clamped to it.
        let clamped = try #require(
            image(width: 1, height: 1, bytesPerRow: 4, info: premultipliedLast, bytes: [200, 10, 90, 80]))
        #expect(clamped.premultipliedRGBA == [80, 10, 80, 80])
    }

    @Test func decodeArrayMapsEachColourRange() throws {
        // Apple's decode array: a (min, max) pair per colour component; [1, 0] inverts gray:
        // 1 − 77/255 = 0.698 → 178.
        let inverted = try #require(
            image(
                width: 1, height: 1, bitsPerPixel: 8, bytesPerRow: 1, gray: true, info: none, bytes: [77],
                decode: [1, 0]))
        #expect(inverted.premultipliedRGBA == [178, 178, 178, 255])
        // RGB: red kept, green squeezed into [0, 0.5] (200 → 100), blue inverted (50 → 205).
        let mapped = try #require(
            image(
                width: 1, height: 1, bitsPerPixel: 24, bytesPerRow: 3, info: none, bytes: [200, 200, 50],
                decode: [0, 1, 0, 0.5, 1, 0]))
        #expect(mapped.premultipliedRGBA == [200, 100, 205, 255])
    }

    @Test func reportsWhatItWasCreatedWith() throws {
        let provider = try #require(CGDataProvider(data: Data([1, 2, 3, 4, 5, 6, 7, 8]) as CFData))
        let made = CGImage(
            width: 2, height: 1, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 8, space: rgbSpace(),
            bitmapInfo: CGBitmapInfo(rawValue: premultipliedFirst | little32), provider: provider, decode: nil,
            shouldInterpolate: false, intent: .perceptual)
        let image = try #require(made)
        #expect(image.width == 2 && image.height == 1)
        #expect(image.alphaInfo == .premultipliedFirst)
        #expect(image.bitmapInfo.contains(.byteOrder32Little))
        #expect(image.shouldInterpolate == false)
        #expect(image.renderingIntent == .perceptual)
        #expect(image.colorSpace?.name == CGColorSpace.sRGB)
        #expect(image.dataProvider === provider)
        // B, G, R, A = 1, 2, 3, 4, with colours clamped to alpha 4: (3, 2, 1, 4).
        #expect(image.premultipliedRGBA == [3, 2, 1, 4, 7, 6, 5, 8])
    }

    @Test func premultipliedRGBAImagesReportTheirOwnLayout() throws {
        let bytes: [UInt8] = [10, 20, 30, 40, 50, 60, 70, 80]
        let image = try #require(CGImage(width: 2, height: 1, premultipliedRGBA: bytes))
        #expect(image.bitsPerComponent == 8)
        #expect(image.bitsPerPixel == 32)
        #expect(image.bytesPerRow == 8)
        #expect(image.alphaInfo == .premultipliedLast)
        #expect(image.bitmapInfo.rawValue & CGBitmapInfo.byteOrderMask.rawValue == 0)
        #expect(image.colorSpace?.name == CGColorSpace.sRGB)
        #expect(image.dataProvider?.data as Data? == Data(bytes))
        // The BGRA capture form reports the same RGBA layout.
        let capture = try #require(
            CGImage(width: 1, height: 1, stride: 8, premultipliedBGRA: [1, 2, 3, 4, 0, 0, 0, 0]))
        #expect(capture.dataProvider?.data as Data? == Data([3, 2, 1, 4]))
        #expect(capture.bytesPerRow == 4)
    }

    /// A 4 × 3 image whose pixel (x, y) is (x, y, 10·y + x, 255).
    private func grid() -> CGImage {
        var bytes: [UInt8] = []
        for y in 0..<3 { for x in 0..<4 { bytes += [UInt8(x), UInt8(y), UInt8(10 * y + x), 255] } }
        return CGImage(width: 4, height: 3, premultipliedRGBA: bytes)!
    }

    private func blues(_ image: CGImage?) -> [UInt8]? {
        guard let image else { return nil }
        return stride(from: 2, to: image.premultipliedRGBA.count, by: 4).map { image.premultipliedRGBA[$0] }
    }

    @Test func croppingCopiesTheIntegralRectangleFromTheTopLeft() throws {
        // Apple: "Adjusts the area specified by the rect parameter to integral bounds by calling
        // CGRectIntegral; intersects the result with a rectangle whose origin is (0,0) and size is
        // equal to the size of the image" (CGImageCreateWithImageInRect); rows from the top.
        let image = grid()
        let middle = try #require(image.cropping(to: CGRect(x: 1, y: 1, width: 2, height: 2)))
        #expect(middle.width == 2 && middle.height == 2)
        #expect(middle.premultipliedRGBA == [1, 1, 11, 255, 2, 1, 12, 255, 1, 2, 21, 255, 2, 2, 22, 255])
        // (0.5, 0.5, 1, 1) is made integral to (0, 0, 2, 2).
        #expect(blues(image.cropping(to: CGRect(x: 0.5, y: 0.5, width: 1, height: 1))) == [0, 1, 10, 11])
        // Partly outside: only the inside is kept.
        #expect(blues(image.cropping(to: CGRect(x: 3, y: 2, width: 5, height: 5))) == [23])
        #expect(blues(image.cropping(to: CGRect(x: -2, y: -2, width: 3, height: 3))) == [0])
        #expect(blues(image.cropping(to: .infinite)) == blues(image))
        // Outside, empty or null: nil.
        #expect(image.cropping(to: CGRect(x: 10, y: 10, width: 2, height: 2)) == nil)
        #expect(image.cropping(to: CGRect(x: 1, y: 1, width: 0, height: 2)) == nil)
        #expect(image.cropping(to: .null) == nil)
    }

    @Test func croppingKeepsColourSpaceAndIntent() throws {
        let made = image(width: 2, height: 1, bytesPerRow: 8, info: skipLast, bytes: [1, 2, 3, 0, 4, 5, 6, 0])
        let source = try #require(made)
        let cropped = try #require(source.cropping(to: CGRect(x: 1, y: 0, width: 1, height: 1)))
        #expect(cropped.premultipliedRGBA == [4, 5, 6, 255])
        #expect(cropped.colorSpace == source.colorSpace)
        #expect(cropped.dataProvider?.data as Data? == Data([4, 5, 6, 255]))
    }

    @Test func dataProviderFromCFDataURLAndFilename() throws {
        // Apple's spellings: CGDataProvider(data: d as CFData), CGDataProvider(url: u as CFURL).
        let data = Data([1, 2, 3])
        let fromData = try #require(CGDataProvider(data: data as CFData))
        #expect(fromData.data as Data? == data)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-provider-\(getpid()).bin")
        try Data([4, 5, 6, 7]).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fromURL = try #require(CGDataProvider(url: url as CFURL))
        #expect(fromURL.data as Data? == Data([4, 5, 6, 7]))
        let fromFile = try #require(CGDataProvider(filename: url.path))
        #expect(fromFile.data as Data? == Data([4, 5, 6, 7]))
        let missing = URL(fileURLWithPath: "/nonexistent/lamina/none.png")
        #expect(CGDataProvider(url: missing as CFURL) == nil)
        #expect(CGDataProvider(filename: missing.path) == nil)
    }

    @Test func dataProviderFromPointerCallsReleaseWhenFreed() throws {
        // Apple calls releaseData(info, data, size) when the provider no longer needs the bytes.
        let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        counter.initialize(to: 0)
        defer { counter.deallocate() }
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 3)
        bytes.initialize(from: [9, 8, 7], count: 3)
        defer { bytes.deallocate() }
        var provider = CGDataProvider(
            dataInfo: UnsafeMutableRawPointer(counter), data: bytes, size: 3,
            releaseData: { info, _, size in info!.assumingMemoryBound(to: Int.self).pointee += size })
        #expect(provider?.data as Data? == Data([9, 8, 7]))
        withExtendedLifetime(provider) { #expect(counter.pointee == 0) }
        provider = nil
        #expect(counter.pointee == 3)
    }
}

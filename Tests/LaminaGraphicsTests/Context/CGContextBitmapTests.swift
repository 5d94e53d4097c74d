import Foundation
import Testing

@testable import LaminaGraphics

/// Bitmap contexts: the layouts Core Graphics supports ("Supported Pixel Formats", Quartz 2D
/// Programming Guide, Graphics Contexts), the y-up device space, `makeImage()` and the layer context.
@Suite("CGContext bitmaps")
struct CGContextBitmapTests {
    /// `fill(CGRect(x: 0, y: 0, width: 10, height: 10))` paints the bottom-left pixels: Core
    /// Graphics' device space has its origin at the bottom-left (Quartz 2D Programming Guide,
    /// "Coordinate Systems"), so those are the last 10 rows of `data`.
    @Test func fillUsesBottomLeftOrigin() {
        let context = CGContext.rgba(width: 20, height: 20)
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.move(to: CGPoint(x: 15, y: 15))
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        // Apple: "The current path is cleared as a side effect of calling this function."
        #expect(context.isPathEmpty)
        #expect(context.bytes(x: 0, row: 19) == [255, 0, 0, 255])
        #expect(context.bytes(x: 9, row: 10) == [255, 0, 0, 255])
        #expect(context.bytes(x: 0, row: 9) == [0, 0, 0, 0])
        #expect(context.bytes(x: 10, row: 19) == [0, 0, 0, 0])
        // Apple: a fresh bitmap context's CTM is the identity.
        #expect(context.ctm == .identity)
    }

    /// Colour (1, 0.2, 0) is (255, 51, 0) in bytes; each layout puts the bytes where its name says
    /// (`CGImageAlphaInfo`/`CGBitmapInfo` docs: "first"/"last" alpha, 32-bit little-endian reverses).
    @Test(arguments: [
        (CGImageAlphaInfo.premultipliedLast.rawValue, [UInt8]([255, 51, 0, 255])),
        (CGImageAlphaInfo.premultipliedLast.rawValue | CGBitmapInfo.byteOrder32Big.rawValue, [255, 51, 0, 255]),
        (CGImageAlphaInfo.premultipliedLast.rawValue | CGBitmapInfo.byteOrder32Little.rawValue, [255, 0, 51, 255]),
        (CGImageAlphaInfo.premultipliedFirst.rawValue, [255, 255, 51, 0]),
        (CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue, [0, 51, 255, 255]),
    ])
    func colourBytesInEachLayout(info: UInt32, expected: [UInt8]) {
        let context = CGContext(
            data: nil, width: 3, height: 2, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: info)!
        context.setFillColor(red: 1, green: 0.2, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 3, height: 2))
        #expect(context.bytes(x: 2, row: 1) == expected)
        #expect(context.bitsPerPixel == 32)
        #expect(context.bytesPerRow == 12)
        #expect(context.bitmapInfo.rawValue == info)
    }

    /// Skipped alpha: the three colour bytes sit around the unused one (`noneSkipLast`: R G B x;
    /// `noneSkipFirst` little-endian: B G R x), and half-transparent red over the initial black
    /// gives red 128 (the context is opaque).
    @Test func skippedAlphaLayouts() {
        let last = CGContext(
            data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue)!
        last.setFillColor(red: 1, green: 0.2, blue: 0, alpha: 1)
        last.fill(CGRect(x: 0, y: 0, width: 2, height: 2))
        #expect(Array(last.bytes(x: 0, row: 0)[0..<3]) == [255, 51, 0])
        let first = CGContext(
            data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: CGImageAlphaInfo.noneSkipFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
        first.setFillColor(red: 1, green: 0, blue: 0, alpha: 0.5)
        first.fill(CGRect(x: 0, y: 0, width: 2, height: 2))
        #expect(Array(first.bytes(x: 1, row: 1)[0..<3]) == [0, 0, 128])
        #expect(first.alphaInfo == .noneSkipFirst)
    }

    /// A grey context (DeviceGray, `.none`) stores one byte a pixel: grey 0.2 is 51. An alpha-only
    /// context stores coverage only: alpha 0.2 is 51, whatever the colour; its colour space is nil.
    @Test func grayAndAlphaOnlyLayouts() {
        let gray = CGContext(
            data: nil, width: 5, height: 2, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGImageAlphaInfo.none.rawValue)!
        gray.setFillColor(gray: 0.2, alpha: 1)
        gray.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(gray.bytes(x: 0, row: 1) == [51])
        #expect(gray.bytes(x: 1, row: 1) == [0])
        #expect(gray.bytesPerRow == 8)
        #expect(gray.bitsPerPixel == 8)
        let alpha = CGContext(
            data: nil, width: 3, height: 3, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGImageAlphaInfo.alphaOnly.rawValue)!
        alpha.setFillColor(red: 1, green: 1, blue: 0, alpha: 0.2)
        alpha.fill(CGRect(x: 2, y: 2, width: 1, height: 1))
        #expect(alpha.bytes(x: 2, row: 0) == [51])
        #expect(alpha.bytes(x: 1, row: 0) == [0])
        #expect(alpha.colorSpace == nil)
    }

    /// Combinations Core Graphics does not support return nil (Apple: "returns NULL" for an
    /// unsupported parameter combination): 16 bits, RGB without alpha, non-premultiplied alpha,
    /// grey with alpha, a row too short, an empty size, a size whose bytes overflow.
    @Test func unsupportedCombinationsReturnNil() {
        let rgb = CGColorSpaceCreateDeviceRGB()
        let gray = CGColorSpaceCreateDeviceGray()
        let premultipliedLast = CGImageAlphaInfo.premultipliedLast.rawValue
        #expect(
            CGContext(
                data: nil, width: 2, height: 2, bitsPerComponent: 16, bytesPerRow: 0, space: rgb,
                bitmapInfo: premultipliedLast) == nil)
        #expect(
            CGContext(
                data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 0, space: rgb,
                bitmapInfo: CGImageAlphaInfo.none.rawValue) == nil)
        #expect(
            CGContext(
                data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 0, space: rgb,
                bitmapInfo: CGImageAlphaInfo.last.rawValue) == nil)
        #expect(
            CGContext(
                data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 0, space: gray,
                bitmapInfo: premultipliedLast) == nil)
        #expect(
            CGContext(
                data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 7, space: rgb,
                bitmapInfo: premultipliedLast) == nil)
        #expect(
            CGContext(
                data: nil, width: 2, height: 30000, bitsPerComponent: 8, bytesPerRow: Int.max / 2, space: rgb,
                bitmapInfo: premultipliedLast) == nil)
        #expect(
            CGContext(
                data: nil, width: 0, height: 2, bitsPerComponent: 8, bytesPerRow: 0, space: rgb,
                bitmapInfo: premultipliedLast) == nil)
    }

    /// Drawing into caller-supplied memory lands there in the caller's layout (RGBA here, which
    /// Cairo cannot draw directly), padding bytes past each row are left alone, and what the
    /// caller wrote before drawing stays (Apple draws straight into `data`).
    @Test func drawsIntoCallerMemory() {
        var memory = [UInt8](repeating: 7, count: 3 * 16)
        memory[0..<4] = [0, 0, 255, 255]
        memory.withUnsafeMutableBytes { buffer in
            let context = CGContext(
                data: buffer.baseAddress, width: 3, height: 3, bitsPerComponent: 8, bytesPerRow: 16,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
            #expect(context.data == buffer.baseAddress)
            context.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
            context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        }
        #expect(Array(memory[32..<36]) == [0, 255, 0, 255])
        #expect(Array(memory[0..<4]) == [0, 0, 255, 255])
        #expect(Array(memory[12..<16]) == [7, 7, 7, 7])
    }

    /// Caller memory in Cairo's own layout (BGRA, `premultipliedFirst` + `byteOrder32Little`) is
    /// drawn into directly.
    @Test func drawsIntoCallerMemoryInNativeLayout() {
        var memory = [UInt8](repeating: 0, count: 2 * 2 * 4)
        memory.withUnsafeMutableBytes { buffer in
            let context = CGContext(
                data: buffer.baseAddress, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 8,
                space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
            context.setFillColor(red: 1, green: 0.2, blue: 0, alpha: 1)
            context.fill(CGRect(x: 1, y: 1, width: 1, height: 1))
        }
        #expect(Array(memory[4..<8]) == [0, 51, 255, 255])
        #expect(Array(memory[8..<16]) == [UInt8](repeating: 0, count: 8))
    }

    /// `makeImage()` copies the pixels as premultiplied RGBA, top row first; later drawing does not
    /// change it (Apple: "copy-on-write" snapshot of the context).
    @Test func makeImageCopiesPixels() throws {
        let context = CGContext(
            data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
        context.setFillColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        let image = try #require(context.makeImage())
        context.fill(CGRect(x: 0, y: 0, width: 2, height: 2))
        #expect(image.width == 2 && image.height == 2)
        #expect(image.premultipliedRGBA == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 128, 0, 0, 0, 0])
    }

    /// The layer context: user space is the bounds in points, origin top-left, y down, scaled by
    /// `contentsScale`; its CTM reads as iOS's for `draw(in:)`: scale (s, −s), origin at the top.
    @Test func layerContextIsFlippedAndScaled() throws {
        let context = try #require(
            CGContext.makeLayerContext(bounds: CGRect(x: 0, y: 0, width: 10, height: 20), contentsScale: 2))
        #expect(context.width == 20 && context.height == 40)
        #expect(context.ctm == CGAffineTransform(a: 2, b: 0, c: 0, d: -2, tx: 0, ty: 40))
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 5, height: 5))
        // BGRA bytes: the top-left 10 × 10 pixels are red.
        #expect(context.bytes(x: 0, row: 0) == [0, 0, 255, 255])
        #expect(context.bytes(x: 9, row: 9) == [0, 0, 255, 255])
        #expect(context.bytes(x: 10, row: 0) == [0, 0, 0, 0])
        #expect(context.bytes(x: 0, row: 10) == [0, 0, 0, 0])
    }

    /// The bounds origin maps to the top-left pixel.
    @Test func layerContextHonoursBoundsOrigin() throws {
        let context = try #require(
            CGContext.makeLayerContext(bounds: CGRect(x: 5, y: 5, width: 4, height: 4), contentsScale: 1))
        context.fill(CGRect(x: 5, y: 5, width: 1, height: 1))
        #expect(context.bytes(x: 0, row: 0) == [0, 0, 0, 255])
        #expect(context.bytes(x: 1, row: 0) == [0, 0, 0, 0])
        #expect(CGContext.makeLayerContext(bounds: .zero, contentsScale: 1) == nil)
        #expect(
            CGContext.makeLayerContext(bounds: CGRect(x: 0, y: 0, width: 1e300, height: 1), contentsScale: 1) == nil)
    }
}

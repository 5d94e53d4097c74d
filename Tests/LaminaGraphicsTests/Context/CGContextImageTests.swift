import Foundation
import Testing

@testable import LaminaGraphics

/// `draw(_:in:byTiling:)`: orientation, interpolation and tiling.
@Suite("CGContext images")
struct CGContextImageTests {
    /// A 2 × 2 image: top row red, green; bottom row blue, white (premultiplied RGBA, top row first).
    private let pixels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]

    /// Apple draws an image with its top row at the rect's maxY: in a y-up bitmap context the image
    /// is upright, so the memory rows equal the image's rows.
    @Test func uprightInBitmapContext() throws {
        let image = try #require(CGImage(width: 2, height: 2, premultipliedRGBA: pixels))
        let context = CGContext.rgba(width: 2, height: 2)
        context.draw(image, in: CGRect(x: 0, y: 0, width: 2, height: 2))
        #expect(context.allBytes.flatMap { $0 } == pixels)
    }

    /// In the flipped (y-down) layer context the same call draws the image upside down, Apple's
    /// well-known behaviour there: the top-left pixel (red) lands at the bottom-left.
    @Test func upsideDownInFlippedContext() throws {
        let image = try #require(CGImage(width: 2, height: 2, premultipliedRGBA: pixels))
        let context = try #require(
            CGContext.makeLayerContext(bounds: CGRect(x: 0, y: 0, width: 2, height: 2), contentsScale: 1))
        context.draw(image, in: CGRect(x: 0, y: 0, width: 2, height: 2))
        // BGRA: bottom-left red, top-left blue.
        #expect(context.bytes(x: 0, row: 1) == [0, 0, 255, 255])
        #expect(context.bytes(x: 0, row: 0) == [255, 0, 0, 255])
        #expect(context.bytes(x: 1, row: 0) == [255, 255, 255, 255])
    }

    /// `interpolationQuality = .none` scales by repeating pixels: each image pixel becomes a 2 × 2
    /// block; the default quality blends neighbours, so the block edges differ.
    @Test func interpolationQuality() throws {
        let image = try #require(CGImage(width: 2, height: 2, premultipliedRGBA: pixels))
        let nearest = CGContext.rgba(width: 4, height: 4)
        nearest.interpolationQuality = .none
        nearest.draw(image, in: CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(nearest.bytes(x: 1, row: 1) == [255, 0, 0, 255])
        #expect(nearest.bytes(x: 2, row: 1) == [0, 255, 0, 255])
        #expect(nearest.bytes(x: 1, row: 2) == [0, 0, 255, 255])
        let smooth = CGContext.rgba(width: 4, height: 4)
        smooth.draw(image, in: CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(smooth.bytes(x: 1, row: 1) != [255, 0, 0, 255])
    }

    /// Tiling repeats the image at the rect's size from the rect's origin across the clip.
    @Test func tiling() throws {
        let image = try #require(CGImage(width: 2, height: 2, premultipliedRGBA: pixels))
        let context = CGContext.rgba(width: 4, height: 4)
        context.draw(image, in: CGRect(x: 0, y: 0, width: 2, height: 2), byTiling: true)
        let top: [UInt8] = Array(pixels[0..<8]) + Array(pixels[0..<8])
        let bottom: [UInt8] = Array(pixels[8..<16]) + Array(pixels[8..<16])
        let expected: [UInt8] = top + bottom + top + bottom
        #expect(context.allBytes.flatMap { $0 } == expected)
    }

    /// Global alpha applies to images: 0.5 halves the opaque pixels.
    @Test func alphaApplies() throws {
        let image = try #require(CGImage(width: 2, height: 2, premultipliedRGBA: pixels))
        let context = CGContext.rgba(width: 2, height: 2)
        context.setAlpha(0.5)
        context.draw(image, in: CGRect(x: 0, y: 0, width: 2, height: 2))
        #expect(context.bytes(x: 0, row: 0) == [128, 0, 0, 128])
    }
}

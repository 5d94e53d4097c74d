import Foundation
import Testing

@testable import LaminaGraphics

/// Clipping to rectangles, paths and masks (Apple's `clip(to:)`, `clip(using:)`, `clip(to:mask:)`).
@Suite("CGContext clipping")
struct CGContextClipTests {
    /// After `clip(to:)` a full fill only reaches the clip rect (bottom-left 2 × 2 here), and the
    /// clip's bounding box is that rect; without a clip it is the whole context. Apple: `clip(to:)`
    /// "resets the context's current path to an empty path".
    @Test func clipToRect() {
        let context = CGContext.rgba(width: 4, height: 4)
        #expect(context.boundingBoxOfClipPath == CGRect(x: 0, y: 0, width: 4, height: 4))
        context.move(to: CGPoint(x: 3, y: 3))
        context.clip(to: CGRect(x: 0, y: 0, width: 2, height: 2))
        #expect(context.isPathEmpty)
        #expect(context.boundingBoxOfClipPath == CGRect(x: 0, y: 0, width: 2, height: 2))
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(context.alpha(x: 1, row: 3) == 255)
        #expect(context.alpha(x: 1, row: 2) == 255)
        #expect(context.alpha(x: 2, row: 3) == 0)
        #expect(context.alpha(x: 0, row: 1) == 0)
    }

    /// An even-odd clip to two nested squares leaves a ring: the outer square minus the inner one.
    @Test func clipToPathEvenOdd() {
        let context = CGContext.rgba(width: 6, height: 6)
        context.addRect(CGRect(x: 0, y: 0, width: 6, height: 6))
        context.addRect(CGRect(x: 2, y: 2, width: 2, height: 2))
        context.clip(using: .evenOdd)
        // Clipping consumes the path (Apple: "resets the current path to an empty path").
        #expect(context.isPathEmpty)
        context.fill(CGRect(x: 0, y: 0, width: 6, height: 6))
        #expect(context.alpha(x: 0, row: 0) == 255)
        #expect(context.alpha(x: 1, row: 2) == 255)
        #expect(context.alpha(x: 2, row: 2) == 0)
        #expect(context.alpha(x: 3, row: 3) == 0)
    }

    /// A grey mask without alpha clips by its grey (white paints, black blocks); its top row maps
    /// to the rect's top (maxY), so white upper rows let the fill through at the top.
    @Test func clipToGrayMask() throws {
        let white: [UInt8] = [255, 255, 255, 255]
        let black: [UInt8] = [0, 0, 0, 255]
        let rows = [white, white, white, white, white, white, white, white] + Array(repeating: black, count: 8)
        let mask = try #require(CGImage(width: 4, height: 4, premultipliedRGBA: rows.flatMap { $0 }))
        let context = CGContext.rgba(width: 4, height: 4)
        context.clip(to: CGRect(x: 0, y: 0, width: 4, height: 4), mask: mask)
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(context.bytes(x: 0, row: 0) == [255, 0, 0, 255])
        #expect(context.bytes(x: 3, row: 1) == [255, 0, 0, 255])
        #expect(context.bytes(x: 0, row: 2) == [0, 0, 0, 0])
        #expect(context.bytes(x: 3, row: 3) == [0, 0, 0, 0])
    }

    /// A mask with alpha clips by alpha: 0 blocks, 128 lets half through (255 · 128 / 255 = 128).
    /// Outside the mask's rect nothing paints.
    @Test func clipToAlphaMask() throws {
        let mask = try #require(CGImage(width: 2, height: 1, premultipliedRGBA: [0, 0, 0, 0, 0, 0, 0, 128]))
        let context = CGContext.rgba(width: 3, height: 1)
        context.clip(to: CGRect(x: 0, y: 0, width: 2, height: 1), mask: mask)
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 3, height: 1))
        #expect(context.bytes(x: 0, row: 0) == [0, 0, 0, 0])
        #expect(context.bytes(x: 1, row: 0) == [128, 0, 0, 128])
        #expect(context.bytes(x: 2, row: 0) == [0, 0, 0, 0])
        #expect(context.boundingBoxOfClipPath == CGRect(x: 0, y: 0, width: 2, height: 1))
    }

    /// Blend modes keep their meaning under a mask clip: `.copy` replaces only the pixels under the
    /// filled rect (and only where the mask lets through), leaving the rest of the masked area alone.
    @Test func maskClipKeepsBlendModeBounded() throws {
        let mask = try #require(
            CGImage(
                width: 4, height: 1,
                premultipliedRGBA: [UInt8](repeating: 255, count: 8) + [0, 0, 0, 255, 0, 0, 0, 255]))
        let context = CGContext.rgba(width: 4, height: 1)
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        context.clip(to: CGRect(x: 0, y: 0, width: 4, height: 1), mask: mask)
        context.setBlendMode(.copy)
        context.setFillColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        context.fill(CGRect(x: 1, y: 0, width: 2, height: 1))
        // White mask columns 0–1, black 2–3; the rect covers columns 1–2.
        #expect(context.bytes(x: 0, row: 0) == [255, 0, 0, 255])
        #expect(context.bytes(x: 1, row: 0) == [0, 0, 128, 128])
        #expect(context.bytes(x: 2, row: 0) == [255, 0, 0, 255])
        #expect(context.bytes(x: 3, row: 0) == [255, 0, 0, 255])
    }
}

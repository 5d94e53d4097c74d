import Foundation
import Testing

@testable import LaminaGraphics

/// Global alpha, blend modes and graphics-state defaults, with values computed from the
/// compositing equations Apple gives for each `CGBlendMode` ("Blend Modes", CGContext docs).
@Suite("CGContext compositing")
struct CGContextCompositingTests {
    /// A 4 × 1 RGBA context filled opaque red (255, 0, 0, 255).
    private func red() -> CGContext {
        let context = CGContext.rgba(width: 4, height: 1)
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        return context
    }

    /// Apple's defaults: fill colour opaque black, alpha 1, blend normal, interpolation `.default`.
    @Test func defaults() {
        let context = CGContext.rgba(width: 2, height: 1)
        context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(context.bytes(x: 0, row: 0) == [0, 0, 0, 255])
        #expect(context.interpolationQuality == .default)
    }

    /// `setAlpha(0.5)` halves opaque red: premultiplied (128, 0, 0, 128).
    @Test func globalAlphaScalesPainting() {
        let context = CGContext.rgba(width: 2, height: 1)
        context.setAlpha(0.5)
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(context.bytes(x: 0, row: 0) == [128, 0, 0, 128])
    }

    /// `.copy` (R = S) replaces red with half-transparent blue (0, 0, 128, 128) under the rect only;
    /// `.clear` (R = 0) clears under the rect only.
    @Test func copyAndClear() {
        let copy = red()
        copy.setBlendMode(.copy)
        copy.setFillColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        copy.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        #expect(copy.bytes(x: 1, row: 0) == [0, 0, 128, 128])
        #expect(copy.bytes(x: 2, row: 0) == [255, 0, 0, 255])
        let clear = red()
        clear.setBlendMode(.clear)
        clear.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        #expect(clear.bytes(x: 0, row: 0) == [0, 0, 0, 0])
        #expect(clear.bytes(x: 3, row: 0) == [255, 0, 0, 255])
    }

    /// `.multiply` (R = S·D for opaque colours): (1, 0.2, 0) over grey 128 gives (128, 26, 0), as
    /// 51 · 128 / 255 = 25.6 rounds to 26.
    @Test func multiply() {
        let context = CGContext.rgba(width: 1, height: 1)
        context.setFillColor(gray: 128.0 / 255.0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        context.setBlendMode(.multiply)
        context.setFillColor(red: 1, green: 0.2, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(context.bytes(x: 0, row: 0) == [128, 26, 0, 255])
    }

    /// `.sourceIn` (R = S·Da) paints blue where red was, and leaves pixels outside the filled
    /// shape alone; `.destinationOut` (R = D·(1 − Sa)) with alpha 128 leaves red at 255 · 127 / 255 = 127.
    @Test func porterDuffModesStayInsideTheShape() {
        let sourceIn = red()
        sourceIn.setBlendMode(.sourceIn)
        sourceIn.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        sourceIn.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        #expect(sourceIn.bytes(x: 0, row: 0) == [0, 0, 255, 255])
        #expect(sourceIn.bytes(x: 3, row: 0) == [255, 0, 0, 255])
        let out = red()
        out.setBlendMode(.destinationOut)
        out.setFillColor(red: 0, green: 1, blue: 0, alpha: 0.5)
        out.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(out.bytes(x: 0, row: 0) == [127, 0, 0, 127])
        #expect(out.bytes(x: 1, row: 0) == [255, 0, 0, 255])
    }

    /// `clear(_:)` makes the rect transparent whatever the blend mode and alpha
    /// (Apple: "paints a transparent rectangle").
    @Test func clearRect() {
        let context = red()
        context.setBlendMode(.multiply)
        context.setAlpha(0.25)
        context.clear(CGRect(x: 1, y: 0, width: 2, height: 1))
        #expect(context.bytes(x: 1, row: 0) == [0, 0, 0, 0])
        #expect(context.bytes(x: 2, row: 0) == [0, 0, 0, 0])
        #expect(context.bytes(x: 3, row: 0) == [255, 0, 0, 255])
    }

    /// `restoreGState()` brings back the colour, alpha, line width, CTM and clip saved by
    /// `saveGState()` (Apple: the graphics state includes all of these; the path is not part of it).
    @Test func saveAndRestore() {
        let context = CGContext.rgba(width: 4, height: 4)
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.move(to: CGPoint(x: 1, y: 1))
        context.saveGState()
        context.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        context.setAlpha(0.5)
        context.translateBy(x: 2, y: 2)
        context.restoreGState()
        #expect(!context.isPathEmpty)
        context.saveGState()
        context.clip(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        context.restoreGState()
        #expect(context.ctm == .identity)
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(context.bytes(x: 0, row: 0) == [255, 0, 0, 255])
        #expect(context.bytes(x: 3, row: 3) == [255, 0, 0, 255])
        // An unbalanced restore does nothing.
        context.restoreGState()
        #expect(context.ctm == .identity)
    }
}

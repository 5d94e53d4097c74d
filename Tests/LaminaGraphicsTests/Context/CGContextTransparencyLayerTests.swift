import Foundation
import Testing

@testable import LaminaGraphics

/// Transparency layers (Apple's `beginTransparencyLayer(auxiliaryInfo:)`: drawing inside is
/// composited as one image with the alpha, blend mode and clip in effect at the start).
@Suite("CGContext transparency layers")
struct CGContextTransparencyLayerTests {
    /// Two overlapping opaque red rects inside a layer at alpha 0.5 composite as one: the overlap
    /// is (128, 0, 0, 128) like the rest, where drawn directly it would be 128 + 128 · 127 / 255 = 192.
    @Test func layerCompositesAsOneImage() {
        let context = CGContext.rgba(width: 3, height: 1)
        context.setAlpha(0.5)
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.beginTransparencyLayer(auxiliaryInfo: nil)
        context.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        context.fill(CGRect(x: 1, y: 0, width: 2, height: 1))
        context.endTransparencyLayer()
        #expect(context.bytes(x: 0, row: 0) == [128, 0, 0, 128])
        #expect(context.bytes(x: 1, row: 0) == [128, 0, 0, 128])
        let direct = CGContext.rgba(width: 3, height: 1)
        direct.setAlpha(0.5)
        direct.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        direct.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        direct.fill(CGRect(x: 1, y: 0, width: 2, height: 1))
        #expect(direct.bytes(x: 1, row: 0)[3] > 128)
    }

    /// A layer bounded by a rect discards drawing outside it; states saved inside and not restored
    /// are dropped at the end, so the CTM is back to the identity.
    @Test func boundedLayerAndUnbalancedSaves() {
        let context = CGContext.rgba(width: 4, height: 1)
        context.beginTransparencyLayer(in: CGRect(x: 0, y: 0, width: 2, height: 1), auxiliaryInfo: nil)
        context.saveGState()
        context.translateBy(x: 1, y: 0)
        context.fill(CGRect(x: 0, y: 0, width: 3, height: 1))
        context.endTransparencyLayer()
        #expect(context.ctm == .identity)
        #expect(context.alpha(x: 0, row: 0) == 0)
        #expect(context.alpha(x: 1, row: 0) == 255)
        #expect(context.alpha(x: 2, row: 0) == 0)
        // An end without a begin does nothing.
        context.endTransparencyLayer()
        #expect(context.alpha(x: 1, row: 0) == 255)
    }

    /// A mask clip set inside a layer clips the drawing inside it.
    @Test func maskInsideLayer() throws {
        let mask = try #require(CGImage(width: 2, height: 1, premultipliedRGBA: [0, 0, 0, 255, 255, 255, 255, 255]))
        let context = CGContext.rgba(width: 4, height: 1)
        context.beginTransparencyLayer(auxiliaryInfo: nil)
        context.clip(to: CGRect(x: 2, y: 0, width: 2, height: 1), mask: mask)
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        context.endTransparencyLayer()
        #expect(context.allBytes.map { $0[3] } == [0, 0, 0, 255])
    }

    /// Under a mask clip inside a layer, `.copy` keeps the layer's pixels outside the filled rect:
    /// the backdrop copied is the layer's own, not the context's.
    @Test func maskedCopyInsideLayer() throws {
        let mask = try #require(CGImage(width: 1, height: 1, premultipliedRGBA: [255, 255, 255, 255]))
        let context = CGContext.rgba(width: 4, height: 1)
        context.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        context.beginTransparencyLayer(auxiliaryInfo: nil)
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        context.clip(to: CGRect(x: 0, y: 0, width: 4, height: 1), mask: mask)
        context.setBlendMode(.copy)
        context.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        context.fill(CGRect(x: 1, y: 0, width: 1, height: 1))
        context.endTransparencyLayer()
        // Column 0 keeps the layer's red, 1 is the copied blue, 2–3 show the green backdrop.
        #expect(context.allBytes == [[255, 0, 0, 255], [0, 0, 255, 255], [0, 255, 0, 255], [0, 255, 0, 255]])
    }
}

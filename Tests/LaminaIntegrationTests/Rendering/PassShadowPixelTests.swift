import Foundation
import Lamina
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// Shadows that follow the drawing (App. A, spec §2.5): a layer without a `shadowPath` whose alpha is
/// not its rounded bounds casts the blurred alpha of its whole drawing, through offscreen passes.
/// Drawn by the Vulkan renderer with validation on, compared with the Gaussian computed here.
@Suite(.serialized) struct PassShadowPixelTests {
    typealias Frame = OffscreenPassPixelTests.Frame

    static let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)

    /// A 40×40 opaque red image with a transparent 10×10 hole at (15, 15) (premultiplied BGRA).
    static let holedImage: (Int, Int, [UInt8]) = {
        var bytes: [UInt8] = []
        for y in 0..<40 {
            for x in 0..<40 {
                let hole = (15..<25).contains(x) && (15..<25).contains(y)
                bytes += hole ? [0, 0, 0, 0] : [0, 0, 255, 255]
            }
        }
        return (40, 40, bytes)
    }()

    /// The shadow a white shape casts over black at pixel (x, y): the blurred coverage of `rect` less
    /// that of `hole`, as a byte.
    static func expected(_ x: Int, _ y: Int, rect: CGRect, hole: CGRect?, sigma: Double) -> Int {
        func blurred(_ r: CGRect) -> Double {
            BlurPixelTests.coverage(Double(x) + 0.5, r.minX, r.maxX, sigma: sigma)
                * BlurPixelTests.coverage(Double(y) + 0.5, r.minY, r.maxY, sigma: sigma)
        }
        return Int((255 * (blurred(rect) - (hole.map(blurred) ?? 0))).rounded())
    }

    /// An image with a transparent hole casts a shadow with the hole: layer 2 (no background, the holed
    /// image as contents, 40×40 at (10, 10)) with a white shadow of opacity 1, radius 2, moved 60 to the
    /// right. Every pixel right of the layer is within 2/255 of the blurred square less the blurred hole.
    @Test func imageWithAHoleCastsAShadowWithTheHole() throws {
        let ops = RendererTests.layer(
            2, frame: CGRect(x: 10, y: 10, width: 40, height: 40), color: nil,
            [
                .shadowOpacity(1), .shadowRadius(2), .shadowColor(Self.white),
                .shadowOffset(CGSize(width: 60, height: 0)),
            ])
        let frame = try OffscreenPassPixelTests.draw(
            ops, children: [2], width: 130, height: 60, images: [7: Self.holedImage], contents: [2: 7],
            png: "shadow-pass-hole.png")
        #expect(frame.list.passes.count == 3, "the drawing's pass and two blur passes")
        var worst = 0
        for y in 0..<60 {
            for x in 55..<130 {
                let e = Self.expected(
                    x, y, rect: CGRect(x: 70, y: 10, width: 40, height: 40),
                    hole: CGRect(x: 85, y: 25, width: 10, height: 10), sigma: 2)
                let i = y * frame.bitmap.stride + x * 4
                worst = max(worst, abs(Int(frame.bitmap.pixels[i + 2]) - e))
            }
        }
        #expect(worst <= 2, "largest error \(worst)/255")
        // The hole's centre is dark, the solid part beside it lit.
        // 5 pixels (2.5σ) from the hole's edges: 1 − 0.9876² of the white, 6/255.
        OffscreenPassPixelTests.expect(frame, 90, 30, (6, 6, 6, 255), tolerance: 2, "the hole's shadow")
        OffscreenPassPixelTests.expect(frame, 77, 30, (255, 255, 255, 255), tolerance: 2, "the image's shadow")
        // The layer itself still shows its image, hole included.
        OffscreenPassPixelTests.expect(frame, 20, 20, (255, 0, 0, 255), "the image")
        OffscreenPassPixelTests.expect(frame, 30, 30, (0, 0, 0, 255), "the image's hole")
    }

    /// The closed form and the pass agree on a rounded rectangle both can draw: a white card 40×30
    /// with corner radius 8 and a white shadow (radius 4, moved 60 right), once alone (closed form, no
    /// pass) and once with a transparent image as contents (which makes the bounds no longer known to
    /// be the drawing's alpha: the pass). Every pixel of the shadow agrees within 3/255.
    @Test func passShadowAgreesWithTheClosedForm() throws {
        let card = RendererTests.layer(
            2, frame: CGRect(x: 10, y: 10, width: 40, height: 30), color: Self.white,
            [
                .cornerRadius(8), .shadowOpacity(1), .shadowRadius(4), .shadowColor(Self.white),
                .shadowOffset(CGSize(width: 60, height: 0)),
            ])
        let clear: (Int, Int, [UInt8]) = (1, 1, [0, 0, 0, 0])
        let closed = try OffscreenPassPixelTests.draw(
            card, children: [2], width: 130, height: 50, png: "shadow-closed-form.png")
        let pass = try OffscreenPassPixelTests.draw(
            card, children: [2], width: 130, height: 50, images: [7: clear], contents: [2: 7],
            png: "shadow-pass-form.png")
        #expect(closed.list.passes.isEmpty)
        #expect(pass.list.passes.count == 3)
        var worst = 0
        var lit = 0
        for y in 0..<50 {
            for x in 55..<130 {
                let i = y * pass.bitmap.stride + x * 4
                for c in 0..<3 {
                    worst = max(worst, abs(Int(pass.bitmap.pixels[i + c]) - Int(closed.bitmap.pixels[i + c])))
                }
                if closed.bitmap.pixels[i + 2] > 128 { lit += 1 }
            }
        }
        #expect(lit > 600, "the shadow is drawn: \(lit) pixels over half")
        #expect(worst <= 3, "largest difference \(worst)/255")
    }
}

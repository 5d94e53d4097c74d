import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// A layer's `backgroundFilters` (spec §2.8, line 207: they filter "the content behind the layer"):
/// the frosted panel. A `CIGaussianBlur` blurs what was drawn before the layer, shown within the
/// layer's rounded bounds. Drawn by the Vulkan renderer with validation on; every pixel compared with
/// the Gaussian computed here (within 2/255, `BlurPixelTests`' tolerance at full resolution).
@Suite(.serialized) struct BackgroundFilterPixelTests {
    static let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
    static let black = RGBAColor(red: 0, green: 0, blue: 0, alpha: 1)
    static let panel = CGRect(x: 30, y: 20, width: 60, height: 40)

    /// An opaque black backdrop (layer 3, 120×80) with white stripes 4 wide every 8 (layers 10…24, full
    /// height), under a panel (layer 2, no background, corner radius 8) blurring its backdrop by
    /// `radius`.
    static func scene(radius: Double, stripeColor: RGBAColor = white) -> ([LayerOperation], [LayerID]) {
        var ops = RendererTests.layer(3, frame: CGRect(x: 0, y: 0, width: 120, height: 80), color: Self.black)
        var children: [LayerID] = [3]
        for k in 0..<15 {
            let id = LayerID(10 + k)
            ops += RendererTests.layer(id, frame: CGRect(x: 8 * k, y: 0, width: 4, height: 80), color: stripeColor)
            children.append(id)
        }
        ops += RendererTests.layer(
            2, frame: Self.panel, color: nil,
            [
                .cornerRadius(8),
                .backgroundFilters([
                    LayerFilter(filterName: LayerFilter.gaussianBlurName, name: "frost", radius: radius)
                ]),
            ])
        children.append(2)
        return (ops, children)
    }

    /// The stripes blurred with `sigma` at pixel column x: white times the summed coverage.
    static func blurredStripes(_ x: Int, sigma: Double) -> Int {
        let c = (0..<15).reduce(0.0) {
            $0 + BlurPixelTests.coverage(Double(x) + 0.5, Double(8 * $1), Double(8 * $1 + 4), sigma: sigma)
        }
        return Int((255 * c).rounded())
    }

    /// Inside the panel (away from its rounded corners) every pixel is the stripes blurred with σ = 2;
    /// outside it the stripes are untouched (0 or 255); just outside a rounded corner, inside the
    /// panel's box, too. One backdrop pass and two blur passes.
    @Test func frostedPanelBlursOnlyWithinItsRoundedBounds() throws {
        let (ops, children) = Self.scene(radius: 2)
        let frame = try OffscreenPassPixelTests.draw(
            ops, children: children, width: 120, height: 80, png: "background-filter-frost.png")
        #expect(frame.list.passes.count == 3, "the backdrop's pass and two blur passes")
        var worstInside = 0
        var worstOutside = 0
        for y in 0..<80 {
            for x in 0..<120 {
                let i = y * frame.bitmap.stride + x * 4
                let red = Int(frame.bitmap.pixels[i + 2])
                let inBand =
                    (38..<82).contains(x) && (21..<59).contains(y) || (31..<89).contains(x) && (28..<52).contains(y)
                let outside = !(29..<91).contains(x) || !(19..<61).contains(y)
                if inBand {
                    worstInside = max(worstInside, abs(red - Self.blurredStripes(x, sigma: 2)))
                } else if outside {
                    worstOutside = max(worstOutside, abs(red - (x % 8 < 4 ? 255 : 0)))
                }
            }
        }
        #expect(worstInside <= 2, "inside: largest error \(worstInside)/255")
        #expect(worstOutside == 0, "outside: largest error \(worstOutside)/255")
        // Pixel (32, 20) lies in the panel's box but outside its radius-8 corner: a sharp white stripe.
        OffscreenPassPixelTests.expect(frame, 32, 20, (255, 255, 255, 255), tolerance: 0, "outside the corner")
    }

    /// Damage reaches the panel: a stripe changing colour under it (on a 240×160 display, so the
    /// damage stays under half of it), drawn only where the frame changed into a target holding the
    /// previous frame, gives the full redraw to the byte (the panel's blurred image does not change as
    /// an instance; its backdrop does).
    @Test func aChangeUnderThePanelRedrawsThePanel() throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let partial = try renderer.makeTarget(width: 240, height: 160)
            let full = try renderer.makeTarget(width: 240, height: 160)
            let (ops, children) = Self.scene(radius: 3)
            var tree = try RenderTree().applying(
                RendererTests.layer(1, frame: CGRect(x: 0, y: 0, width: 240, height: 160), color: nil) + ops
                    + [.setSublayers(1, children), .setRoot(display: 0, layer: 1)], displayCount: 1)
            var tracker = DamageTracker()
            for step in 0..<3 {
                if step > 0 {
                    // One stripe under the panel's middle changes colour.
                    let grey = RGBAColor(red: 0.5, green: 0.5, blue: 0.5 * Double(step), alpha: 1)
                    tree = try tree.applying([.set(17, .backgroundColor(grey))], displayCount: 1)
                }
                var list = DisplayListBuilder.build(trees: [tree], display: 0, width: 240, height: 160)
                list.damage = tracker.damage(of: list)
                if step > 0 {
                    let damage = try #require(list.damage)
                    // The whole panel is damage, not only the stripe (x 56..<60).
                    #expect(damage.contains { $0.x <= 30 && $0.maxX >= 90 && $0.y <= 20 && $0.maxY >= 60 }, "\(damage)")
                }
                try renderer.render(list, into: partial)
                var whole = list
                whole.damage = nil
                try renderer.render(whole, into: full)
                let a = try renderer.readPixels(partial)
                let b = try renderer.readPixels(full)
                #expect(zip(a.pixels, b.pixels).filter { $0 != $1 }.isEmpty, "step \(step)")
            }
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }
}

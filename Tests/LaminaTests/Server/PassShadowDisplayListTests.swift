// Shadows through passes as display-list data: the passes they spend, their order (the drawing's pass,
// then the blur passes, then the image drawn under the layer), and their bounds under hostile scenes.
import Foundation
import LaminaCore
import LaminaProtocol
import Testing

@testable import LaminaServer

@Suite struct PassShadowDisplayListTests {
    static let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)

    /// `count` layers 20×20 on a 1280×720 display, each white with a 10×10 sublayer sticking out of its
    /// corner (so its drawing is not its bounds) and a shadow of opacity 1 with radius `radius`.
    static func build(count: Int, radius: CGFloat) throws -> DisplayList {
        var ops: [LayerOperation] = [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 1280, height: 720))),
            .set(1, .position(CGPoint(x: 640, y: 360))),
        ]
        var children: [LayerID] = []
        for i in 0..<count {
            let id = LayerID(10 + 2 * i)
            children.append(id)
            ops += [
                .createLayer(id), .set(id, .bounds(CGRect(x: 0, y: 0, width: 20, height: 20))),
                .set(id, .position(CGPoint(x: 20 + Double(i % 30) * 40, y: 20 + Double(i / 30) * 40))),
                .set(id, .backgroundColor(white)), .set(id, .shadowOpacity(1)), .set(id, .shadowRadius(radius)),
                .createLayer(id + 1), .set(id + 1, .bounds(CGRect(x: 0, y: 0, width: 10, height: 10))),
                .set(id + 1, .position(CGPoint(x: 20, y: 20))), .set(id + 1, .backgroundColor(white)),
                .setSublayers(id, [id + 1]),
            ]
        }
        ops += [.setSublayers(1, children), .setRoot(display: 0, layer: 1)]
        let tree = try RenderTree().applying(ops, displayCount: 1)
        return DisplayListBuilder.build(trees: [tree], display: 0, width: 1280, height: 720)
    }

    /// One such layer: no closed-form shadow; three passes (the drawing, the horizontal and the vertical
    /// blur), the vertical one tinted; the blurred image drawn first in the display's pass, under the
    /// layer's background.
    @Test func oneLayerSpendsThreePasses() throws {
        let list = try Self.build(count: 1, radius: 3)
        #expect(list.instances(of: .shadow, as: ShadowInstance.self).isEmpty)
        #expect(list.passes.count == 3)
        #expect(list.passes[1].batches.map(\.kind) == [DrawKind.blur.id])
        let blurs = list.instances(of: .blur, as: BlurInstance.self)
        #expect(blurs.map(\.params) == [SIMD4(1, 0, 3, 9), SIMD4(0, 1, 3, 9)])
        #expect(blurs.map(\.limit.z) == [0, 1], "only the vertical pass tints")
        #expect(blurs[1].tint == SIMD4(0, 0, 0, 1), "opaque black")
        #expect(list.batches.first?.texture?.image == .offscreenPass(2))
    }

    /// A client with many such layers, or with an enormous radius, spends bounded passes: at most
    /// `maxPasses` a list, six a shadow, σ at most 64 device pixels.
    @Test func passesAreBounded() throws {
        let many = try Self.build(count: 300, radius: 3)
        #expect(many.passes.count <= DisplayListBuilder.maxPasses)
        #expect(many.passes.count >= 3 * 40, "the first shadows are drawn: \(many.passes.count)")
        // Each shadow takes 3 passes and is drawn while 6 more fit under 128: 3n + 6 <= 128 gives 41
        // shadows through passes; the other 259 stand in as closed forms of their bounds, not dropped.
        #expect(many.passes.count == 123)
        #expect(many.passShadowsApproximated == 259)
        #expect(many.instances(of: .shadow, as: ShadowInstance.self).count == 259)
        let wide = try Self.build(count: 1, radius: 10_000)
        #expect(wide.passes.count == 6, "the drawing, three halvings, two blur passes")
        #expect(wide.instances(of: .blur, as: BlurInstance.self).allSatisfy { $0.params.w <= 24 })
    }
}

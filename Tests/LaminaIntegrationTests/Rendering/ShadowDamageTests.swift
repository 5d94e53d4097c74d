import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import Testing

/// Damage around shadows (docs/rendering.md, "Damage"): a shadow's margin is damage too. A shadowed
/// layer that moves damages the old and the new reach of its shadow and nothing more: the rectangle the
/// geometry predicts, computed here from the layer's frame, `shadowOffset` and `shadowRadius`. Display
/// lists only, no renderer (`ShadowPixelTests.damageCoversTheBlur` draws the partial frames).
///
/// Apple, `CALayer.shadowRadius`: "The blur radius (in points) used to render the layer's shadow",
/// default 3; `shadowOffset` default (0, −3).
@Suite struct ShadowDamageTests {
    /// The damage of the second of two frames of a 400×200 display: a root holding layer 2 (40×40,
    /// white, shadowRadius 10, shadowOpacity 1, the default offset) at `from`, then at `to`.
    static func damage(from: CGPoint, to: CGPoint, extra: [LayerProperty] = [], sublayers: [LayerOperation] = [])
        throws -> [DamageRect]?
    {
        let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
        let layer: [LayerOperation] =
            [
                .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 400, height: 200))),
                .set(1, .position(CGPoint(x: 200, y: 100))), .createLayer(2),
                .set(2, .bounds(CGRect(x: 0, y: 0, width: 40, height: 40))), .set(2, .position(from)),
                .set(2, .backgroundColor(white)), .set(2, .shadowOpacity(1)), .set(2, .shadowRadius(10)),
            ] + extra.map { .set(2, $0) } + sublayers
            + [.setSublayers(1, [2]), .setRoot(display: 0, layer: 1)]
        var tree = try RenderTree().applying(layer, displayCount: 1)
        var tracker = DamageTracker()
        _ = tracker.damage(of: DisplayListBuilder.build(trees: [tree], display: 0, width: 400, height: 200))
        tree = try tree.applying([.set(2, .position(to))], displayCount: 1)
        return tracker.damage(of: DisplayListBuilder.build(trees: [tree], display: 0, width: 400, height: 200))
    }

    /// The device pixels a closed-form shadow of the 40×40 layer centred at `centre` may touch: its
    /// frame moved by the offset (0, −3), grown by 3σ + 1 (σ = the radius, 10, at scale 1: the shadow
    /// instance's quad) and by the one pixel every instance's damage adds for anti-aliased edges
    /// (`DamageRect(covering:width:height:)`), rounded out.
    static func shadowReach(_ centre: CGPoint) -> DamageRect {
        let rect = CGRect(x: centre.x - 20, y: centre.y - 20 - 3, width: 40, height: 40).insetBy(dx: -32, dy: -32)
        let x0 = Int(rect.minX.rounded(.down)), y0 = Int(rect.minY.rounded(.down))
        return DamageRect(
            x: x0, y: y0, width: Int(rect.maxX.rounded(.up)) - x0, height: Int(rect.maxY.rounded(.up)) - y0)
    }

    /// A move by 30 pixels: one rectangle, the old and new shadow reach together (they overlap), the
    /// layer's own pixels lying inside them.
    @Test func movingAShadowedLayerDamagesTheOldAndNewShadowReach() throws {
        let from = CGPoint(x: 70, y: 70), to = CGPoint(x: 100, y: 70)
        let damage = try #require(try Self.damage(from: from, to: to))
        #expect(damage == [Self.shadowReach(from).union(Self.shadowReach(to))])
    }

    /// A move far enough that the reaches are apart: two rectangles, each the shadow's reach.
    @Test func aFarMoveDamagesTwoShadowReaches() throws {
        let from = CGPoint(x: 70, y: 70), to = CGPoint(x: 300, y: 70)
        let damage = try #require(try Self.damage(from: from, to: to))
        #expect(Set(damage) == [Self.shadowReach(from), Self.shadowReach(to)])
    }

    /// A shadow blurred through offscreen passes (no background: the shadow is the alpha of a sublayer
    /// sticking out): the damage holds the old and the new blur reach, 3σ around the moved drawing, and
    /// reaches beyond them by no more than the downsampling step the blur's rectangles are aligned to
    /// (σ = 10 is blurred at half resolution: 2 pixels) plus one for the image's edge.
    @Test func movingAPassShadowDamagesItsBlurReach() throws {
        let sub: [LayerOperation] = [
            .createLayer(3), .set(3, .bounds(CGRect(x: 0, y: 0, width: 20, height: 20))),
            .set(3, .position(CGPoint(x: 40, y: 40))),
            .set(3, .backgroundColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))), .setSublayers(2, [3]),
        ]
        let from = CGPoint(x: 70, y: 70), to = CGPoint(x: 100, y: 70)
        let damage = try #require(
            try Self.damage(from: from, to: to, extra: [.backgroundColor(nil)], sublayers: sub))
        #expect(damage.count == 1)
        // The sublayer spans (30...50) of the layer, so the drawing is (from.x + 10...from.x + 30) and
        // (from.y + 10 − 3...from.y + 30 − 3) with the offset; the blur reaches 3σ = 30 beyond.
        func reach(_ c: CGPoint) -> DamageRect {
            DamageRect(x: Int(c.x) + 10 - 30, y: Int(c.y) + 7 - 30, width: 80, height: 80)
        }
        let predicted = reach(from).union(reach(to))
        let got = try #require(damage.first)
        #expect(
            got.x <= predicted.x && got.y <= predicted.y && got.maxX >= predicted.maxX && got.maxY >= predicted.maxY,
            "\(got) holds \(predicted)")
        let slack = 3
        #expect(got.x >= predicted.x - slack && got.y >= predicted.y - slack, "\(got) within \(predicted)")
        #expect(got.maxX <= predicted.maxX + slack && got.maxY <= predicted.maxY + slack, "\(got) within \(predicted)")
    }
}

import Foundation
import Testing

@testable import Lamina

/// `render(in:)` of a replicator layer draws its copies as the server does: E16's reflection (spec
/// §3.4) with the copy mirrored 2 points below at alpha 0.4, and a count of 0 drawing no sublayer. As
/// for every `render(in:)` into an unflipped bitmap context, the layer's y = 0 is the context's bottom
/// row (`RenderedLayer.pixel` counts y from the bottom).
@Suite("Display: render(in:) of replicator layers")
struct RenderReplicatorInContextTests {
    static func reflection(count: Int) -> CAReplicatorLayer {
        let layer = CAReplicatorLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        layer.instanceCount = count
        layer.instanceTransform = CATransform3DScale(CATransform3DMakeTranslation(0, 22, 0), 1, -1, 0)
        layer.instanceAlphaOffset = -0.6
        let top = CALayer()
        top.frame = CGRect(x: 0, y: 0, width: 40, height: 10)
        top.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        let bottom = CALayer()
        bottom.frame = CGRect(x: 0, y: 10, width: 40, height: 10)
        bottom.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        layer.addSublayer(top)
        layer.addSublayer(bottom)
        return layer
    }

    @Test func theReflectionIsDrawnMirroredBelowAtAlphaPointFour() {
        let drawn = RenderedLayer(Self.reflection(count: 2))
        #expect(drawn.pixel(20, 5) == [0, 255, 0, 255])
        #expect(drawn.pixel(20, 15) == [0, 0, 255, 255])
        #expect(!drawn.painted(20, 20) && !drawn.painted(20, 21), "the 2-point gap")
        // The copy: blue mirrored to 22..<32, green to 32..<42, at alpha 0.4 (102 on 8-bit steps).
        #expect(drawn.pixel(20, 25) == [0, 0, 102, 102])
        #expect(drawn.pixel(20, 38) == [0, 102, 0, 102])
        #expect(!drawn.painted(20, 42))
        #expect(drawn.paintedCount == 40 * 40)
    }

    @Test func aCountBelowOneDrawsNoSublayer() {
        #expect(RenderedLayer(Self.reflection(count: 0)).paintedCount == 0)
        #expect(RenderedLayer(Self.reflection(count: -3)).paintedCount == 0)
        #expect(RenderedLayer(Self.reflection(count: 1)).paintedCount == 40 * 20)
    }
}

import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// What the server-level pixel suites share: a client's operations drawn through the shared Vulkan
/// device and read back (asserting no validation message), the operations that create a layer with a
/// frame, a pixel as `[r, g, b, a]` and a comparison within a tolerance.
protocol PixelTestSuite {}

extension PixelTestSuite {
    /// Draws `ops` at media time `time` on a `width`×`height` display cleared to `clear`.
    static func renderOperations(
        _ ops: [LayerOperation], width: Int, height: Int, clear: SIMD4<Float>, time: Double = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Bitmap {
        let tree = try RenderTree().applying(ops, displayCount: 1)
        return try SharedVulkanDevice.withRenderer { renderer, validation in
            let list = DisplayListBuilder.build(
                trees: [tree], display: 0, width: width, height: height, clearColor: clear, time: time)
            let target = try renderer.makeTarget(width: width, height: height)
            try renderer.render(list, into: target)
            let bitmap = try renderer.readPixels(target)
            #expect(validation.messages.isEmpty, "\(validation.messages)", sourceLocation: sourceLocation)
            return bitmap
        }
    }

    /// Operations that create layer `id` of `layerClass` with `frame` (anchor in the middle) and `extra`.
    static func layer(
        _ id: LayerID, _ layerClass: LayerClass = .layer, frame: CGRect, _ extra: [LayerProperty] = []
    ) -> [LayerOperation] {
        [
            .createLayer(id, layerClass), .set(id, .bounds(CGRect(origin: .zero, size: frame.size))),
            .set(id, .position(CGPoint(x: frame.midX, y: frame.midY))),
        ] + extra.map { .set(id, $0) }
    }

    /// The pixel at (x, y) as `[r, g, b, a]`.
    static func pixel(_ b: Bitmap, _ x: Int, _ y: Int) -> [Int] {
        let p = b.rgba(x: x, y: y)
        return [Int(p.0), Int(p.1), Int(p.2), Int(p.3)]
    }

    /// Expects `got` within `tolerance` of `want` in every channel.
    static func expectClose(
        _ got: [Int], _ want: [Int], _ note: String, tolerance: Int = 2,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            zip(got, want).allSatisfy { abs($0 - $1) <= tolerance }, "\(note): \(got) vs \(want)",
            sourceLocation: sourceLocation)
    }
}

import Foundation
import Lamina
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// Renders render trees directly with the Vulkan renderer (no socket), with validation on, on the
/// process's shared device (`SharedVulkanDevice`).
@Suite(.serialized) struct RendererTests {
    static func render(_ ops: [LayerOperation], width: Int = 200, height: Int = 200) throws -> (Bitmap, [String]) {
        let tree = try RenderTree().applying(ops, displayCount: 1)
        let list = DisplayListBuilder.build(
            trees: [tree], display: 0, width: width, height: height,
            clearColor: SIMD4(0, 0, 0, 1))
        return try SharedVulkanDevice.withRenderer { renderer, validation in
            let target = try renderer.makeTarget(width: width, height: height)
            try renderer.render(list, into: target)
            let bitmap = try renderer.readPixels(target)
            return (bitmap, validation.messages)
        }
    }

    static func layer(_ id: LayerID, frame: CGRect, color: RGBAColor?, _ extra: [LayerProperty] = [])
        -> [LayerOperation]
    {
        [
            .createLayer(id), .set(id, .bounds(CGRect(origin: .zero, size: frame.size))),
            .set(id, .position(CGPoint(x: frame.midX, y: frame.midY))), .set(id, .backgroundColor(color)),
        ]
            + extra.map { .set(id, $0) }
    }

    @Test func smoke() throws {
        var ops = Self.layer(
            1, frame: CGRect(x: 0, y: 0, width: 200, height: 200), color: RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
        )
        ops += Self.layer(
            2, frame: CGRect(x: 20, y: 20, width: 100, height: 80),
            color: RGBAColor(red: 1, green: 0, blue: 0, alpha: 1),
            [.cornerRadius(16), .borderWidth(4), .borderColor(RGBAColor(red: 0, green: 0, blue: 1, alpha: 1))])
        ops += Self.layer(
            3, frame: CGRect(x: 80, y: 60, width: 100, height: 100),
            color: RGBAColor(red: 0, green: 1, blue: 0, alpha: 0.5),
            [.transform(CATransform3DMakeRotation(.pi / 8, 0, 0, 1))])
        ops += [.setSublayers(1, [2, 3]), .setRoot(display: 0, layer: 1)]
        let (bitmap, messages) = try Self.render(ops)
        #expect(messages.isEmpty, "\(messages)")
        let image = CGImage(
            width: bitmap.width, height: bitmap.height, stride: bitmap.stride,
            premultipliedBGRA: bitmap.pixels)!
        try image.writePNG(to: "/tmp/lamina-smoke.png")
        let inside = bitmap.rgba(x: 60, y: 60)
        #expect(inside == (255, 0, 0, 255))
    }
}

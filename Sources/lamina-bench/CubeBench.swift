import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan

/// E29's cube sorted and split per frame (issue 22, `CATransformLayer`): a transform layer under a
/// container with perspective holds the cube's six 200×200 faces (each with a rounded button
/// flattened into it) and a 320×120 plane through the cube's centre that crosses four of them, so
/// the BSP sort splits faces every frame and the split faces go through offscreen passes; the
/// transform layer turns about y on the clock, so every frame sorts anew. At the run's display size
/// (1280×720 by default); display-list build (collection, sort, split, passes, rows) and Vulkan
/// render are timed apart, as the other rows.
enum CubeBench {
    static func scene() throws -> RenderTree {
        let (width, height) = (Double(BenchSize.width), Double(BenchSize.height))
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        let view = CATransform3DRotate(CATransform3DRotate(perspective, -.pi / 4, 1, 0, 0), -.pi / 4, 0, 1, 0)
        let turn = AnimationRecord(
            timing: MediaTiming(duration: 8, repeatCount: .infinity),
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath("transform.rotation.y")!),
                BasicValues(from: .number(0), to: .number(2 * .pi))))
        func layer(_ id: LayerID, _ layerClass: LayerClass = .layer, frame: CGRect) -> [LayerOperation] {
            [
                .createLayer(id, layerClass), .set(id, .bounds(CGRect(origin: .zero, size: frame.size))),
                .set(id, .position(CGPoint(x: frame.midX, y: frame.midY))),
            ]
        }
        let faces: [CATransform3D] = [
            CATransform3DMakeTranslation(0, 0, 100),
            CATransform3DRotate(CATransform3DMakeTranslation(100, 0, 0), .pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, -100, 0), .pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 100, 0), -.pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(-100, 0, 0), -.pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -100), .pi, 0, 1, 0),
        ]
        var ops = layer(1, frame: CGRect(x: 0, y: 0, width: width, height: height))
        ops += [
            .set(1, .sublayerTransform(view)),
            .set(1, .backgroundColor(RGBAColor(red: 0.1, green: 0.1, blue: 0.12, alpha: 1))),
        ]
        ops += layer(2, .transform, frame: CGRect(x: width / 2 - 200, y: height / 2 - 200, width: 400, height: 400))
        ops += [.addAnimation(2, AttachedAnimation(id: 1, key: "turn", record: turn))]
        var ids: [LayerID] = []
        for (i, transform) in faces.enumerated() {
            let face = LayerID(10 + i), button = LayerID(20 + i)
            ids.append(face)
            ops += layer(face, frame: CGRect(x: 100, y: 100, width: 200, height: 200))
            ops += [
                .set(face, .transform(transform)),
                .set(face, .backgroundColor(RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.85))),
                .set(face, .borderWidth(1)),
                .set(face, .borderColor(RGBAColor(red: 0.5, green: 0.5, blue: 0.55, alpha: 1))),
            ]
            ops += layer(button, frame: CGRect(x: 50, y: 50, width: 100, height: 100))
            ops += [
                .set(button, .cornerRadius(10)),
                .set(button, .backgroundColor(RGBAColor(red: 0.15, green: 0.4, blue: 0.9, alpha: 1))),
                .setSublayers(face, [button]),
            ]
        }
        // The plane through the centre, turned 30° about x and 20° about y: it crosses four faces.
        ops += layer(30, frame: CGRect(x: 40, y: 140, width: 320, height: 120))
        ops += [
            .set(30, .transform(CATransform3DRotate(CATransform3DMakeRotation(0.52, 1, 0, 0), 0.35, 0, 1, 0))),
            .set(30, .backgroundColor(RGBAColor(red: 0.95, green: 0.35, blue: 0.2, alpha: 0.9))),
        ]
        ids.append(30)
        ops += [.setSublayers(2, ids), .setSublayers(1, [2]), .setRoot(display: 0, layer: 1)]
        return try RenderTree().applying(ops, displayCount: 1)
    }

    static func rows(renderer: VulkanRenderer, iterations: Int, imageFolder: String, row: (String, String) -> Void)
        throws
    {
        let target = try renderer.makeTarget(width: BenchSize.width, height: BenchSize.height)
        let tree = try scene()
        let (list, _, build, render) = SceneFrameBench.measure(
            tree, renderer: renderer, target: target, iterations: iterations)
        let name = "cube sort and split per frame (E29's six faces with buttons and a plane through them, turning)"
        row("\(name): offscreen passes (split faces) in the last frame", "\(list.passes.count)")
        row("\(name): instances drawn", "\(list.instanceCount)")
        row("\(name): display list build", String(format: "%.2f ms", build))
        row("\(name): Vulkan render (\(renderer.deviceName))", String(format: "%.2f ms", render))
        row("\(name): frame (build + render)", String(format: "%.2f ms", build + render))
        try Bench.save(try renderer.readPixels(target).pixels, "\(imageFolder)/cube.png")
    }
}

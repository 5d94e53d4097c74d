import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan

/// A replicator of 1,000 copies per frame (issue 22): one 12×12 rounded, bordered square repeated by
/// a `CAReplicatorLayer` whose instance transform turns and moves each copy a little further (so every
/// copy is a rotated shape instance), its colour offsets and instance delay set, and the square's
/// opacity animated, so every copy evaluates the animation at its own time. At the run's display size
/// (1280×720 by default); display-list build and Vulkan render are timed apart, as the other rows.
enum ReplicatorBench {
    /// The replicator scene: a plain root holding the replicator, which holds the square.
    static func scene(count: Int) throws -> RenderTree {
        let (width, height) = (Double(BenchSize.width), Double(BenchSize.height))
        let fade = AnimationRecord(
            timing: MediaTiming(duration: 1.2, repeatCount: .infinity),
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath("opacity")!), BasicValues(from: .number(1), to: .number(0.2))))
        let ops: [LayerOperation] = [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: width, height: height))),
            .set(1, .position(CGPoint(x: width / 2, y: height / 2))),
            .createLayer(2, .replicator), .set(2, .bounds(CGRect(x: 0, y: 0, width: width, height: height))),
            .set(2, .position(CGPoint(x: width / 2, y: height / 2))), .set(2, .instanceCount(Double(count))),
            .set(
                2,
                .instanceTransform(
                    CATransform3DConcat(
                        CATransform3DMakeRotation(0.0314, 0, 0, 1), CATransform3DMakeScale(0.9985, 0.9985, 1)))),
            .set(2, .instanceDelay(0.002)), .set(2, .instanceColor(RGBAColor(red: 1, green: 1, blue: 1, alpha: 1))),
            .set(2, .instanceRedOffset(-0.0008)), .set(2, .instanceBlueOffset(-0.0005)),
            .createLayer(3), .set(3, .bounds(CGRect(x: 0, y: 0, width: 12, height: 12))),
            .set(3, .position(CGPoint(x: width / 2, y: height / 2 - min(width, height) * 0.45))),
            .set(3, .backgroundColor(RGBAColor(red: 1, green: 0.6, blue: 0.2, alpha: 1))), .set(3, .cornerRadius(3)),
            .set(3, .borderWidth(1)), .set(3, .borderColor(RGBAColor(red: 0.2, green: 0.2, blue: 0.2, alpha: 1))),
            .addAnimation(3, AttachedAnimation(id: 1, key: "fade", record: fade)),
            .setSublayers(2, [3]), .setSublayers(1, [2]), .setRoot(display: 0, layer: 1),
        ]
        return try RenderTree().applying(ops, displayCount: 1)
    }

    static func rows(renderer: VulkanRenderer, iterations: Int, imageFolder: String, row: (String, String) -> Void)
        throws
    {
        let target = try renderer.makeTarget(width: BenchSize.width, height: BenchSize.height)
        let tree = try scene(count: 1000)
        let (list, _, build, render) = SceneFrameBench.measure(
            tree, renderer: renderer, target: target, iterations: iterations)
        let name = "replicator of 1,000 instances (a rotated, bordered square; opacity animated, delayed per copy)"
        row("\(name): instances drawn", "\(list.instanceCount)")
        row("\(name): display list build", String(format: "%.2f ms", build))
        row("\(name): Vulkan render (\(renderer.deviceName))", String(format: "%.2f ms", render))
        row("\(name): frame (build + render)", String(format: "%.2f ms", build + render))
        try Bench.save(try renderer.readPixels(target).pixels, "\(imageFolder)/replicator-1000.png")
    }
}

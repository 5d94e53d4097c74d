import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan

/// Shape and gradient layers per frame (issue 20): 100 progress rings whose strokeEnd animates (each
/// frame rasterizes every ring with Cairo and imports it), the same rings still (the rasters are
/// cached), and 100 gradient layers (axial, radial and conic, four stops each) drawn by the gradient
/// kind, at the run's display size (1280×720 by default).
enum ShapeBench {
    /// 100 rings of 64×64 on a 10×10 grid, stroked 8 wide with round caps, over a plain root; with
    /// `animated`, each runs a strokeEnd animation of its own phase.
    static func rings(animated: Bool) throws -> RenderTree {
        var ops: [LayerOperation] = [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: BenchSize.width, height: BenchSize.height))),
            .set(1, .position(CGPoint(x: Double(BenchSize.width) / 2, y: Double(BenchSize.height) / 2))),
        ]
        let circle = CGPath(ellipseIn: CGRect(x: 6, y: 6, width: 52, height: 52))
        var children: [LayerID] = []
        for i in 0..<100 {
            let id = LayerID(2 + i)
            children.append(id)
            ops += [
                .createLayer(id, .shape), .set(id, .bounds(CGRect(x: 0, y: 0, width: 64, height: 64))),
                .set(id, .position(CGPoint(x: 80 + Double(i % 10) * 112, y: 60 + Double(i / 10) * 68))),
                .set(id, .path(circle)), .set(id, .fillColor(nil)),
                .set(id, .strokeColor(RGBAColor(red: 0, green: 0.4, blue: 1, alpha: 1))), .set(id, .lineWidth(8)),
                .set(id, .lineCap(.round)), .set(id, .strokeEnd(0.7)),
            ]
            if animated {
                let record = AnimationRecord(
                    timing: MediaTiming(beginTime: Double(i) / 100, duration: 2, repeatCount: .infinity),
                    content: .basic(
                        PropertyTarget(keyPath: LayerKeyPath("strokeEnd")!),
                        BasicValues(from: .number(0), to: .number(1))))
                ops.append(.addAnimation(id, AttachedAnimation(id: UInt64(i + 1), key: "progress", record: record)))
            }
        }
        ops += [.setSublayers(1, children), .setRoot(display: 0, layer: 1)]
        return try RenderTree().applying(ops, displayCount: 1)
    }

    /// 100 gradient layers of 100×60 with four stops, a third each axial, radial and conic.
    static func gradients() throws -> RenderTree {
        var ops: [LayerOperation] = [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: BenchSize.width, height: BenchSize.height))),
            .set(1, .position(CGPoint(x: Double(BenchSize.width) / 2, y: Double(BenchSize.height) / 2))),
        ]
        let colors = [
            RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 1), RGBAColor(red: 0.5, green: 0, blue: 1, alpha: 1),
            RGBAColor(red: 0, green: 0.8, blue: 0.6, alpha: 1), RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.5),
        ]
        var children: [LayerID] = []
        for i in 0..<100 {
            let id = LayerID(2 + i)
            children.append(id)
            let type: CAGradientLayerType = [.axial, .radial, .conic][i % 3]
            ops += [
                .createLayer(id, .gradient), .set(id, .bounds(CGRect(x: 0, y: 0, width: 100, height: 60))),
                .set(id, .position(CGPoint(x: 70 + Double(i % 10) * 115, y: 45 + Double(i / 10) * 70))),
                .set(id, .colors(colors)), .set(id, .gradientType(type)), .set(id, .cornerRadius(12)),
                .set(id, .startPoint(CGPoint(x: 0.5, y: 0.5))), .set(id, .endPoint(CGPoint(x: 1, y: 1))),
            ]
        }
        ops += [.setSublayers(1, children), .setRoot(display: 0, layer: 1)]
        return try RenderTree().applying(ops, displayCount: 1)
    }

    /// Medians of the display-list build (shape rasterization included) and of the render, over
    /// `iterations` frames 1/60 s apart.
    static func frame(
        _ tree: RenderTree, renderer: VulkanRenderer, target: any RenderTarget, cache: ShapeRasterCache,
        iterations: Int
    ) -> (build: Double, render: Double) {
        var list = DisplayList(width: 0, height: 0)
        var frame = 0
        let build = SoftwareReference.medianMilliseconds(iterations: iterations) {
            frame += 1
            list = DisplayListBuilder.build(
                trees: [tree], display: 0, width: BenchSize.width, height: BenchSize.height, clearColor: .zero,
                time: 100 + Double(frame) / 60, shapes: cache)
            cache.endFrame()
        }
        let render = SoftwareReference.medianMilliseconds(iterations: iterations) {
            try! renderer.render(list, into: target)
            try! renderer.waitForAllFrames()
        }
        return (build, render)
    }

    static func rows(renderer: VulkanRenderer, iterations: Int, row: (String, String) -> Void) throws {
        let target = try renderer.makeTarget(width: BenchSize.width, height: BenchSize.height)
        let cache = ShapeRasterCache(renderer: renderer)
        for (name, tree) in [
            ("100 shape layers, strokeEnd animated (100 rasterizations a frame)", try rings(animated: true)),
            ("100 shape layers, still (rasters cached)", try rings(animated: false)),
            ("100 gradient layers (4 stops; axial, radial, conic)", try gradients()),
        ] {
            let before = cache.rasterizations
            let (build, render) = frame(tree, renderer: renderer, target: target, cache: cache, iterations: iterations)
            row("\(name): display list build", String(format: "%.2f ms", build))
            row("\(name): Vulkan render", String(format: "%.2f ms", render))
            row("\(name): frame (build + render)", String(format: "%.2f ms", build + render))
            if name.hasPrefix("100 shape") {
                row("\(name): rasterizations over \(iterations) frames", "\(cache.rasterizations - before)")
            }
        }
        cache.removeAll()
    }
}

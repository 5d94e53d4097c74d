import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan

/// 5,000 live particles per frame (issue 22): one `CAEmitterLayer` whose cell is born 5,000 times a
/// second and lives 1 s, thrown in every direction from the display's centre with a range of speeds,
/// spins and colours, so each frame simulates the 5,000 live particles from the seed and the time
/// and draws each as a turned, tinted 8×8 image (`imageShape` instances), blended additively. At the
/// run's display size (1280×720 by default); display-list build (the simulation included) and Vulkan
/// render are timed apart, as the other rows.
enum EmitterBench {
    /// The emitter scene: a plain root holding the emitter layer, its sprite imported into `renderer`.
    static func scene(renderer: VulkanRenderer) throws -> RenderTree {
        let (width, height) = (Double(BenchSize.width), Double(BenchSize.height))
        var cell = EmitterCellState()
        cell.birthRate = 5000
        cell.lifetime = 1
        cell.velocity = 200
        cell.velocityRange = 150
        cell.emissionRange = 2 * .pi
        cell.yAcceleration = 120
        cell.spinRange = 6
        cell.scaleSpeed = -0.5
        cell.color = RGBAColor(red: 1, green: 0.6, blue: 0.2, alpha: 0.8)
        cell.colorRange = SIMD4(0.2, 0.3, 0.3, 0)
        cell.colorSpeed = SIMD4(0, 0, 0, -0.6)
        cell.contents = 1
        var tree = RenderTree()
        tree.liveImages = [1]
        tree = try tree.applying(
            [
                .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: width, height: height))),
                .set(1, .position(CGPoint(x: width / 2, y: height / 2))),
                .createLayer(2, .emitter), .set(2, .bounds(CGRect(x: 0, y: 0, width: width, height: height))),
                .set(2, .position(CGPoint(x: width / 2, y: height / 2))),
                .set(2, .emitterPosition(CGPoint(x: width / 2, y: height / 2))), .set(2, .renderMode("additive")),
                .set(2, .emitterSeed(7)), .setEmitterCells(2, [cell]), .setSublayers(1, [2]),
                .setRoot(display: 0, layer: 1),
            ], displayCount: 1)
        var bytes: [UInt8] = []
        for y in 0..<8 {
            for x in 0..<8 {
                let d = hypot(Double(x) - 3.5, Double(y) - 3.5) / 4
                let a = UInt8((max(0, 1 - d * d) * 255).rounded())
                bytes += [a, a, a, a]
            }
        }
        let id = try renderer.importImage(
            ImagePixels(width: 8, height: 8, stride: 32, source: .host(bytes)), filtering: .mipmapped)
        tree.contentsImages[1] = ContentsImage(
            image: id, width: 8, height: 8, mipmapped: try renderer.mipLevels(of: id) > 1)
        return tree
    }

    static func rows(renderer: VulkanRenderer, iterations: Int, imageFolder: String, row: (String, String) -> Void)
        throws
    {
        let target = try renderer.makeTarget(width: BenchSize.width, height: BenchSize.height)
        let tree = try scene(renderer: renderer)
        let (list, time, build, render) = SceneFrameBench.measure(
            tree, renderer: renderer, target: target, iterations: iterations)
        let live = ParticleSystem.particles(of: tree.layers[2]!.state.emitter, at: time).count
        let name = "5,000 live particles per frame (one cell, turned, tinted, additive)"
        row("\(name): live particles", "\(live)")
        row("\(name): instances drawn", "\(list.instanceCount)")
        row("\(name): display list build (simulation included)", String(format: "%.2f ms", build))
        row("\(name): Vulkan render (\(renderer.deviceName))", String(format: "%.2f ms", render))
        row("\(name): frame (build + render)", String(format: "%.2f ms", build + render))
        try Bench.save(try renderer.readPixels(target).pixels, "\(imageFolder)/particles-5000.png")
    }
}

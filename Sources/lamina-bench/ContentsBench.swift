import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import LaminaVulkan

/// The contents benchmark: 1,000 layers of 100×100 points, each showing one of four 100×100 images
/// at 1:1 on whole pixels, over the run's display size (1280×720 by default), drawn by the Vulkan renderer and by pixman.
enum ContentsBench {
    /// The scene's size.
    static var width: Int { BenchSize.width }
    static var height: Int { BenchSize.height }
    static let layerCount = 1000
    static let side = 100

    /// Four premultiplied BGRA images: gradients in different colours, one of them translucent.
    static func images() -> [(width: Int, height: Int, bytes: [UInt8])] {
        (0..<4).map { k in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(side * side * 4)
            for y in 0..<side {
                for x in 0..<side {
                    let alpha = k == 3 ? 0.75 : 1.0
                    let r = Double((x * 255) / side) / 255, g = Double((y * 255) / side) / 255
                    let b = Double(k * 60) / 255
                    let straight = [b, g, r].map { UInt8(($0 * alpha * 255).rounded()) }
                    bytes += straight + [UInt8((alpha * 255).rounded())]
                }
            }
            return (side, side, bytes)
        }
    }

    /// Where each layer goes: a seeded random top-left corner in whole pixels, and its image.
    static func placements() -> [(image: Int, x: Int, y: Int)] {
        var random = SplitMix64(seed: 11)
        return (0..<layerCount).map { i in
            (i % 4, Int(random.next() % UInt64(width - side)), Int(random.next() % UInt64(height - side)))
        }
    }

    /// The render tree: a root over the whole display, one sublayer per placement whose `contents`
    /// names client image `image + 1`, imported into `renderer`.
    static func tree(renderer: VulkanRenderer) throws -> RenderTree {
        let placements = placements()
        var ops: [LayerOperation] = [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: width, height: height))),
            .set(1, .position(CGPoint(x: width / 2, y: height / 2))),
        ]
        for (i, p) in placements.enumerated() {
            let id = LayerID(i + 2)
            ops += [
                .createLayer(id), .set(id, .bounds(CGRect(x: 0, y: 0, width: side, height: side))),
                .set(id, .position(CGPoint(x: p.x + side / 2, y: p.y + side / 2))),
            ]
        }
        ops += [.setSublayers(1, placements.indices.map { LayerID($0 + 2) }), .setRoot(display: 0, layer: 1)]
        var tree = try RenderTree().applying(ops, displayCount: 1)
        for (k, image) in images().enumerated() {
            let id = try renderer.importImage(
                ImagePixels(
                    width: image.width, height: image.height, stride: image.width * 4, source: .host(image.bytes)),
                filtering: .mipmapped)
            tree.contentsImages[UInt64(k + 1)] = ContentsImage(
                image: id, width: image.width, height: image.height, mipmapped: try renderer.mipLevels(of: id) > 1)
        }
        for (i, p) in placements.enumerated() { tree.layers[LayerID(i + 2)]!.state.contents = UInt64(p.image + 1) }
        return tree
    }

    /// Times the scene: display-list build, Vulkan render, and pixman; adds a row for each, and
    /// writes both images to `imageFolder` (`lamina-textured-1000.png`, `pixman-textured-1000.png`).
    static func rows(
        renderer: VulkanRenderer, iterations: Int, imageFolder: String, row: (String, String) -> Void
    ) throws {
        let target = try renderer.makeTarget(width: width, height: height)
        let tree = try tree(renderer: renderer)
        var list = DisplayList(width: 0, height: 0)
        let build = SoftwareReference.medianMilliseconds(iterations: iterations) {
            list = DisplayListBuilder.build(trees: [tree], display: 0, width: width, height: height, clearColor: .zero)
        }
        let render = SoftwareReference.medianMilliseconds(iterations: iterations) {
            try! renderer.render(list, into: target)
            try! renderer.waitForAllFrames()
        }
        let laminaPixels = try renderer.readPixels(target).pixels
        let images = images()
        let placements = placements()
        var pixmanPixels: [UInt8] = []
        let pixman = SoftwareReference.medianMilliseconds(iterations: iterations) {
            pixmanPixels = SoftwareReference.compositePixman(
                images: images, placements: placements, width: width, height: height)
        }
        // CPU time as well as wall time: on a shared machine the wall time mostly measures the load.
        let renderCPU = cpuMilliseconds(iterations: iterations) {
            try! renderer.render(list, into: target)
            try! renderer.waitForAllFrames()
        }
        let pixmanCPU = cpuMilliseconds(iterations: iterations) {
            _ = SoftwareReference.compositePixman(
                images: images, placements: placements, width: width, height: height)
        }
        row("1,000 textured layers: display list build", String(format: "%.2f ms", build))
        row("1,000 textured layers: Vulkan render (\(renderer.deviceName))", String(format: "%.2f ms", render))
        row(
            "1,000 textured layers: instances / batches",
            "\(list.instances[DrawKind.plainImage.id].count) plain image instances in \(list.batches.count) batches")
        row("1,000 textured layers: frame (build + render)", String(format: "%.2f ms", build + render))
        row("1,000 textured layers: pixman OVER", String(format: "%.2f ms", pixman))
        row("1,000 textured layers: Lamina frame ÷ pixman", String(format: "%.2f×", (build + render) / pixman))
        row(
            "1,000 textured layers: process CPU time, Vulkan render / pixman (all threads)",
            String(format: "%.2f ms / %.2f ms", renderCPU, pixmanCPU))
        let (maxDiff, over8) = Bench.difference(laminaPixels, pixmanPixels)
        row(
            "1,000 textured layers: Lamina vs pixman image",
            "max channel difference \(maxDiff), \(over8) pixels differ by more than 8")
        try Bench.save(laminaPixels, "\(imageFolder)/lamina-textured-1000.png")
        try Bench.save(pixmanPixels, "\(imageFolder)/pixman-textured-1000.png")
    }

    /// The median process CPU time (every thread, `CLOCK_PROCESS_CPUTIME_ID`) of `body` over
    /// `iterations` runs after one warm-up, in milliseconds.
    static func cpuMilliseconds(iterations: Int, _ body: () -> Void) -> Double {
        func now() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) * 1e-6
        }
        body()
        var samples: [Double] = []
        for _ in 0..<max(iterations, 1) {
            let start = now()
            body()
            samples.append(now() - start)
        }
        samples.sort()
        return samples[samples.count / 2]
    }
}

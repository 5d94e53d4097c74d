import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan

/// Offscreen passes per frame (issue 21): 200 rounded 80×50 cards at 1280×720, plain, each masked by
/// a circle-ish half-size layer (two passes each, `DisplayListBuilder.maxPasses` allowing 64 masked
/// cards, so 50 are masked), and faded groups of overlapping children at opacity 0.5 with group
/// opacity on (one pass each) and off (none); then a blur-radius sweep (`blurRows`).
enum EffectsBench {
    enum Variant: String, CaseIterable {
        case plain = "200 cards, no effects"
        case masked = "200 cards, 50 of them masked (100 passes)"
        case grouped = "200 faded cards with an overlapping child, group opacity (up to 128 passes)"
        case perPiece = "200 faded cards with an overlapping child, allowsGroupOpacity false (no pass)"
    }

    static func cards(_ variant: Variant) throws -> RenderTree {
        var ops: [LayerOperation] = [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 1280, height: 720))),
            .set(1, .position(CGPoint(x: 640, y: 360))),
            .set(1, .backgroundColor(RGBAColor(red: 0.93, green: 0.93, blue: 0.93, alpha: 1))),
        ]
        var children: [LayerID] = []
        for i in 0..<200 {
            let id = LayerID(10 + 3 * i)
            children.append(id)
            ops += [
                .createLayer(id), .set(id, .bounds(CGRect(x: 0, y: 0, width: 80, height: 50))),
                .set(id, .position(CGPoint(x: 60 + Double(i % 20) * 58, y: 50 + Double(i / 20) * 64))),
                .set(id, .backgroundColor(RGBAColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1))),
                .set(id, .cornerRadius(10)),
            ]
            switch variant {
            case .plain: break
            case .masked:
                guard i % 4 == 0 else { continue }
                ops += [
                    .createLayer(id + 1), .set(id + 1, .bounds(CGRect(x: 0, y: 0, width: 40, height: 50))),
                    .set(id + 1, .position(CGPoint(x: 40, y: 25))), .set(id + 1, .cornerRadius(20)),
                    .set(id + 1, .backgroundColor(RGBAColor(red: 1, green: 1, blue: 1, alpha: 1))),
                    .setMask(id, mask: id + 1),
                ]
            case .grouped, .perPiece:
                ops += [
                    .set(id, .opacity(0.5)), .set(id, .allowsGroupOpacity(variant == .grouped)),
                    .createLayer(id + 2), .set(id + 2, .bounds(CGRect(x: 0, y: 0, width: 30, height: 30))),
                    .set(id + 2, .position(CGPoint(x: 40, y: 25))),
                    .set(id + 2, .backgroundColor(RGBAColor(red: 1, green: 0.8, blue: 0.1, alpha: 1))),
                    .setSublayers(id, [id + 2]),
                ]
            }
        }
        ops += [.setSublayers(1, children), .setRoot(display: 0, layer: 1)]
        return try RenderTree().applying(ops, displayCount: 1)
    }

    static func rows(renderer: VulkanRenderer, iterations: Int, row: (String, String) -> Void) throws {
        (BenchSize.width, BenchSize.height) = (1280, 720)
        let target = try renderer.makeTarget(width: 1280, height: 720)
        let cache = ShapeRasterCache(renderer: renderer)
        for variant in Variant.allCases {
            let tree = try cards(variant)
            let passes = DisplayListBuilder.build(trees: [tree], display: 0, width: 1280, height: 720).passes.count
            let (build, render) = ShapeBench.frame(
                tree, renderer: renderer, target: target, cache: cache, iterations: iterations)
            row("\(variant.rawValue): offscreen passes", "\(passes)")
            row("\(variant.rawValue): display list build", String(format: "%.2f ms", build))
            row("\(variant.rawValue): Vulkan render", String(format: "%.2f ms", render))
        }
        try blurRows(renderer: renderer, target: target, cache: cache, iterations: iterations, row: row)
        try rasterRows(renderer: renderer, target: target, cache: cache, iterations: iterations, row: row)
        cache.removeAll()
    }

    /// The same 400×300 layer with its sticking-out sublayer and a σ 8 shadow, drawn directly and with
    /// `shouldRasterize` (its subtree kept as an image after the first frame): the render time, the
    /// raster cache's hits over the frames, and the server memory the pass images take.
    static func rasterRows(
        renderer: VulkanRenderer, target: any RenderTarget, cache: ShapeRasterCache, iterations: Int,
        row: (String, String) -> Void
    ) throws {
        for rasterized in [false, true] {
            var tree = try blurTree(sigma: 8)
            tree.layers[2]!.state.shouldRasterize = rasterized
            let name = "400×300 layer with a σ 8 shadow, \(rasterized ? "shouldRasterize" : "drawn directly")"
            let (_, render) = ShapeBench.frame(
                tree, renderer: renderer, target: target, cache: cache, iterations: iterations)
            row("\(name): Vulkan render", String(format: "%.2f ms", render))
            row("\(name): raster hits in the last frame", "\(renderer.lastRenderCounters.rasterHits)")
            row("\(name): pass images held by the server", "\(renderer.passImageBytes / 1024) KiB")
        }
    }

    /// One 400×300 layer whose drawing is not its bounds (a sublayer sticks out by a point), so its
    /// shadow is its drawing's alpha blurred through passes: its display list, the Vulkan render of the
    /// frame and the passes it spends, for shadow radii (σ) 2, 8 and 32, against the same layer
    /// without a shadow.
    static func blurTree(sigma: Double?) throws -> RenderTree {
        var ops: [LayerOperation] = [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 1280, height: 720))),
            .set(1, .position(CGPoint(x: 640, y: 360))),
            .set(1, .backgroundColor(RGBAColor(red: 0.93, green: 0.93, blue: 0.93, alpha: 1))),
            .createLayer(2), .set(2, .bounds(CGRect(x: 0, y: 0, width: 400, height: 300))),
            .set(2, .position(CGPoint(x: 640, y: 360))),
            .set(2, .backgroundColor(RGBAColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1))),
            .createLayer(3), .set(3, .bounds(CGRect(x: 0, y: 0, width: 40, height: 40))),
            .set(3, .position(CGPoint(x: 400, y: 150))),
            .set(3, .backgroundColor(RGBAColor(red: 1, green: 0.8, blue: 0.1, alpha: 1))),
            .setSublayers(2, [3]), .setSublayers(1, [2]), .setRoot(display: 0, layer: 1),
        ]
        if let sigma {
            ops += [
                .set(2, .shadowOpacity(0.5)), .set(2, .shadowRadius(CGFloat(sigma))),
                .set(2, .shadowOffset(CGSize(width: 0, height: 8))),
            ]
        }
        return try RenderTree().applying(ops, displayCount: 1)
    }

    /// The blur-radius sweep (`blurTree`).
    static func blurRows(
        renderer: VulkanRenderer, target: any RenderTarget, cache: ShapeRasterCache, iterations: Int,
        row: (String, String) -> Void
    ) throws {
        for sigma in [nil, 2.0, 8.0, 32.0] {
            let tree = try blurTree(sigma: sigma)
            let name =
                sigma.map { "400×300 layer, shadow through passes, σ = \(Int($0))" } ?? "400×300 layer, no shadow"
            let passes = DisplayListBuilder.build(trees: [tree], display: 0, width: 1280, height: 720).passes.count
            let (build, render) = ShapeBench.frame(
                tree, renderer: renderer, target: target, cache: cache, iterations: iterations)
            row("\(name): offscreen passes", "\(passes)")
            row("\(name): display list build", String(format: "%.2f ms", build))
            row("\(name): Vulkan render", String(format: "%.2f ms", render))
        }
    }
}

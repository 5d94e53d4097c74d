import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan

/// Shadows per frame (issue 21): 200 rounded 80×50 cards at 1280×720, without shadows, with shadows
/// from their rounded bounds (no `shadowPath`), with a rounded-rectangle `shadowPath` (both in closed
/// form), with a `shadowPath` the closed form does not recognise (Cairo raster and CPU blur, cached),
/// and that last with `shadowRadius` animated (blurred again each frame); then 200 cards that clip
/// (`masksToBounds`) a strip that covers only their lower part and have no background, so their
/// drawing's alpha is not their rounded bounds: without a `shadowPath` the shadow is that alpha
/// blurred through offscreen passes, with one it is the closed form again.
enum ShadowBench {
    enum Variant: String, CaseIterable {
        case none = "200 rounded cards, no shadows"
        case bounds = "200 rounded cards, shadows from their bounds (no shadowPath)"
        case roundedPath = "200 rounded cards, rounded-rectangle shadowPath"
        case rasterPath = "200 rounded cards, shadowPath without a closed form (raster, cached)"
        case rasterAnimated = "200 rounded cards, raster shadowPath, shadowRadius animated"
        case clippedDrawing = "200 rounded clipping cards with a blue strip, no shadowPath (shadow from the drawing)"
        case clippedPath = "200 rounded clipping cards with a blue strip, rounded-rectangle shadowPath"
    }

    /// The 80×50 box with an extra point on its top side: a path the closed form does not recognise.
    static let pointedBox: CGPath = {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: 40, y: 0))
        path.addLine(to: CGPoint(x: 80, y: 0))
        path.addLine(to: CGPoint(x: 80, y: 50))
        path.addLine(to: CGPoint(x: 0, y: 50))
        path.closeSubpath()
        return path
    }()

    static func cards(_ variant: Variant) throws -> RenderTree {
        var ops: [LayerOperation] = [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 1280, height: 720))),
            .set(1, .position(CGPoint(x: 640, y: 360))),
            .set(1, .backgroundColor(RGBAColor(red: 0.93, green: 0.93, blue: 0.93, alpha: 1))),
        ]
        var children: [LayerID] = []
        let clipping = variant == .clippedDrawing || variant == .clippedPath
        for i in 0..<200 {
            let id = LayerID(2 + i)
            children.append(id)
            ops += [
                .createLayer(id), .set(id, .bounds(CGRect(x: 0, y: 0, width: 80, height: 50))),
                .set(id, .position(CGPoint(x: 60 + Double(i % 20) * 58, y: 50 + Double(i / 20) * 64))),
                .set(id, .cornerRadius(10)),
            ]
            if clipping {
                // A strip wider than the card over its lower 30 points, cut by the card's rounded clip.
                let strip = LayerID(1_000 + i)
                ops += [
                    .set(id, .masksToBounds(true)), .createLayer(strip),
                    .set(strip, .bounds(CGRect(x: 0, y: 0, width: 100, height: 30))),
                    .set(strip, .position(CGPoint(x: 40, y: 35))),
                    .set(strip, .backgroundColor(RGBAColor(red: 0.2, green: 0.45, blue: 0.8, alpha: 1))),
                    .setSublayers(id, [strip]),
                ]
            } else {
                ops.append(.set(id, .backgroundColor(RGBAColor(red: 1, green: 1, blue: 1, alpha: 1))))
            }
            guard variant != .none else { continue }
            ops += [
                .set(id, .shadowOpacity(0.3)), .set(id, .shadowRadius(6)),
                .set(id, .shadowOffset(CGSize(width: 0, height: 4))),
            ]
            switch variant {
            case .roundedPath, .clippedPath:
                ops.append(
                    .set(
                        id,
                        .shadowPath(
                            CGPath(
                                roundedRect: CGRect(x: 0, y: 0, width: 80, height: 50), cornerWidth: 10,
                                cornerHeight: 10, transform: nil))))
            case .rasterPath, .rasterAnimated:
                ops.append(.set(id, .shadowPath(pointedBox)))
            default: break
            }
            if variant == .rasterAnimated {
                let record = AnimationRecord(
                    timing: MediaTiming(beginTime: 0, duration: 2, repeatCount: .infinity),
                    content: .basic(
                        PropertyTarget(keyPath: LayerKeyPath("shadowRadius")!),
                        BasicValues(from: .number(2), to: .number(12))))
                ops.append(.addAnimation(id, AttachedAnimation(id: UInt64(i + 1), key: "blur", record: record)))
            }
        }
        ops += [.setSublayers(1, children), .setRoot(display: 0, layer: 1)]
        return try RenderTree().applying(ops, displayCount: 1)
    }

    static func rows(renderer: VulkanRenderer, iterations: Int, row: (String, String) -> Void) throws {
        let target = try renderer.makeTarget(width: 1280, height: 720)
        let cache = ShapeRasterCache(renderer: renderer)
        for variant in Variant.allCases {
            let before = cache.rasterizations
            let (build, render) = ShapeBench.frame(
                try cards(variant), renderer: renderer, target: target, cache: cache, iterations: iterations)
            row("\(variant.rawValue): display list build", String(format: "%.2f ms", build))
            row("\(variant.rawValue): Vulkan render", String(format: "%.2f ms", render))
            let list = DisplayListBuilder.build(
                trees: [try cards(variant)], display: 0, width: 1280, height: 720, clearColor: .zero, time: 200,
                shapes: cache)
            cache.endFrame()
            row("\(variant.rawValue): offscreen passes a frame", "\(list.passes.count)")
            if variant == .clippedDrawing || variant == .clippedPath {
                row("\(variant.rawValue): shadows approximated past the pass budget", "\(list.passShadowsApproximated)")
            }
            if variant == .rasterPath || variant == .rasterAnimated {
                row(
                    "\(variant.rawValue): rasterizations over \(iterations) frames",
                    "\(cache.rasterizations - before)")
            }
        }
        cache.removeAll()
    }
}

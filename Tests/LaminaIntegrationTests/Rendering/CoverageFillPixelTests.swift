import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import LaminaVulkan
import Testing

/// A moving plain layer is one `coverageFill` instance, whose shader finds each pixel's coverage,
/// where a still one at the same place is cut into up to nine fills carrying it
/// (`DisplayListBuilder.spans`). Both must draw the same bytes, so that a layer looks the same
/// whether or not it moves, and the retained list can write a moving layer over in place wherever it
/// is. The layer is made "moving" by an animation that changes nothing (opacity from 1 to 1).
@Suite(.serialized) struct CoverageFillPixelTests {
    static let size = 48

    /// A display of one root and, inside it, a plain layer of `frame` and `color` over a blue layer
    /// that covers the display, moving (animated) or not; in an offscreen pass when `inPass` (its
    /// superlayer fades a group of two overlapping layers, which takes a pass).
    static func list(frame: CGRect, color: RGBAColor, moving: Bool, inPass: Bool) throws -> DisplayList {
        let side = Double(size)
        let blue = RGBAColor(red: 0.1, green: 0.2, blue: 0.8, alpha: 1)
        var ops: [LayerOperation] = [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: side, height: side))),
            .set(1, .position(CGPoint(x: side / 2, y: side / 2))),
            .createLayer(2), .set(2, .bounds(CGRect(x: 0, y: 0, width: side, height: side))),
            .set(2, .position(CGPoint(x: side / 2, y: side / 2))),
            .createLayer(3), .set(3, .bounds(CGRect(x: 0, y: 0, width: side, height: side))),
            .set(3, .position(CGPoint(x: side / 2, y: side / 2))), .set(3, .backgroundColor(blue)),
            .createLayer(4), .set(4, .bounds(CGRect(origin: .zero, size: frame.size))),
            .set(4, .position(CGPoint(x: frame.midX, y: frame.midY))), .set(4, .backgroundColor(color)),
            .setSublayers(2, [3, 4]), .setSublayers(1, [2]), .setRoot(display: 0, layer: 1),
        ]
        if inPass { ops.append(.set(2, .opacity(0.75))) }
        if moving {
            let still = AnimationRecord(
                timing: MediaTiming(duration: 10),
                content: .basic(
                    PropertyTarget(keyPath: LayerKeyPath("opacity")!), BasicValues(from: .number(1), to: .number(1))))
            ops.append(.addAnimation(4, AttachedAnimation(id: 1, key: "still", record: still)))
        }
        let tree = try RenderTree().applying(ops, displayCount: 1)
        return DisplayListBuilder.build(trees: [tree], display: 0, width: size, height: size, time: 1)
    }

    /// Random frames with fractional edges (and some whole, some thinner than a pixel) and colours,
    /// opaque and translucent, drawn still and moving, on the display and in a pass: the same bytes.
    @Test(arguments: [false, true])
    func aMovingLayerDrawsTheBytesOfTheSameLayerStill(inPass: Bool) throws {
        var random = SplitMix64(seed: inPass ? 7 : 3)
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let target = try renderer.makeTarget(width: Self.size, height: Self.size)
            for case_ in 0..<24 {
                func coordinate(_ range: ClosedRange<Double>) -> Double {
                    // One in four whole, the rest at a fraction (some of them halves and quarters).
                    let v = Double.random(in: range, using: &random)
                    switch case_ % 4 {
                    case 0: return v.rounded()
                    case 1: return (v * 4).rounded() / 4
                    default: return v
                    }
                }
                let x = coordinate(2...30), y = coordinate(2...30)
                let width = case_ % 6 == 5 ? Double.random(in: 0.1...0.9, using: &random) : coordinate(0.5...14)
                let height = coordinate(0.5...14)
                let color = RGBAColor(
                    red: Double.random(in: 0...1, using: &random), green: Double.random(in: 0...1, using: &random),
                    blue: Double.random(in: 0...1, using: &random),
                    alpha: case_ % 3 == 0 ? 1 : Double.random(in: 0.2...1, using: &random))
                let frame = CGRect(x: x, y: y, width: width, height: height)
                let still = try Self.list(frame: frame, color: color, moving: false, inPass: inPass)
                let moving = try Self.list(frame: frame, color: color, moving: true, inPass: inPass)
                #expect(still.instances[DrawKind.coverageFill.id].count == 0)
                #expect(moving.instances[DrawKind.coverageFill.id].count == 1, "\(frame)")
                try renderer.render(still, into: target)
                let a = try renderer.readPixels(target)
                try renderer.render(moving, into: target)
                let b = try renderer.readPixels(target)
                var differing: [String] = []
                for py in 0..<Self.size {
                    for px in 0..<Self.size where a.rgba(x: px, y: py) != b.rgba(x: px, y: py) {
                        differing.append(
                            "(\(px), \(py)): \(a.rgba(x: px, y: py)) still, \(b.rgba(x: px, y: py)) moving")
                    }
                }
                #expect(differing.isEmpty, "\(frame) \(color): \(differing.prefix(4))")
            }
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }
}

import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import LaminaVulkan
import Testing

/// GeometryPixelTests: random overlapping scenes against a CPU reference, and their batches.
extension GeometryPixelTests {
    // MARK: 11. Random overlapping scene against a CPU reference

    struct RandomLayer {
        var frame: CGRect
        var radius: Double
        var fill: RGBAColor
        var borderWidth: Double
        var border: RGBAColor?
        var z: CGFloat
    }

    static func randomLayers(seed: UInt64, count: Int) -> [RandomLayer] {
        var rng = SplitMix64(seed: seed)
        func color(opaqueChance: Double) -> RGBAColor {
            let alpha =
                Double.random(in: 0...1, using: &rng) < opaqueChance ? 1 : Double.random(in: 0.15...1, using: &rng)
            return RGBAColor(
                red: .random(in: 0...1, using: &rng), green: .random(in: 0...1, using: &rng),
                blue: .random(in: 0...1, using: &rng), alpha: alpha)
        }
        return (0..<count).map { _ in
            let w = Double.random(in: 3...50, using: &rng), h = Double.random(in: 3...40, using: &rng)
            let frame = CGRect(
                x: .random(in: -10...150, using: &rng), y: .random(in: -10...110, using: &rng),
                width: w, height: h)
            let half = min(w, h) / 2
            let radius = Bool.random(using: &rng) ? 0 : Double.random(in: 0...half, using: &rng)
            let hasBorder = Double.random(in: 0...1, using: &rng) < 0.25
            let borderWidth = hasBorder ? min(Double.random(in: 0.5...4, using: &rng), half) : 0
            let z: CGFloat =
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: 1;
                case 1: -1;
                default: 0
                }
            return RandomLayer(
                frame: frame, radius: radius, fill: color(opaqueChance: 0.3), borderWidth: borderWidth,
                border: hasBorder ? color(opaqueChance: 0.5) : nil, z: z)
        }
    }

    static func randomScene(_ layers: [RandomLayer], width: Int, height: Int) -> [LayerOperation] {
        var ops: [LayerOperation] = []
        for (i, l) in layers.enumerated() {
            var extra: [LayerProperty] = [.cornerRadius(l.radius), .zPosition(l.z)]
            if let border = l.border { extra += [.borderWidth(l.borderWidth), .borderColor(border)] }
            ops += RendererTests.layer(LayerID(2 + i), frame: l.frame, color: l.fill, extra)
        }
        return scene(width: width, height: height, children: (0..<layers.count).map { LayerID(2 + $0) }, ops)
    }

    /// Back-to-front "over" compositing at pixel centres, 8-bit quantised after every layer as the
    /// blender is; nil where a pixel centre is within 1.5 px of any edge (anti-aliasing not modelled).
    static func reference(_ layers: [RandomLayer], width: Int, height: Int) -> [SIMD4<Double>?] {
        let order = layers.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }.map(\.element)
        func quantise(_ v: SIMD4<Double>) -> SIMD4<Double> { (v * 255).rounded(.toNearestOrEven) / 255 }
        func premultiplied(_ c: RGBAColor) -> SIMD4<Double> {
            SIMD4(c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
        }
        var out: [SIMD4<Double>?] = []
        out.reserveCapacity(width * height)
        for py in 0..<height {
            for px in 0..<width {
                let x = Double(px) + 0.5, y = Double(py) + 0.5
                var dst = SIMD4<Double>(0, 0, 0, 1)
                var ambiguous = false
                for l in order {
                    let d = roundedDistance(x, y, l.frame, radius: l.radius)
                    if abs(d) < 1.5 { ambiguous = true; break }
                    guard d < 0 else { continue }
                    let f = premultiplied(l.fill)
                    dst = quantise(f + dst * (1 - f.w))
                    if let border = l.border {
                        let inner = l.frame.insetBy(dx: l.borderWidth, dy: l.borderWidth)
                        let di = roundedDistance(x, y, inner, radius: max(l.radius - l.borderWidth, 0))
                        if abs(di) < 1.5 { ambiguous = true; break }
                        if di > 0 {
                            let bc = premultiplied(border)
                            dst = quantise(bc + dst * (1 - bc.w))
                        }
                    }
                }
                out.append(ambiguous ? nil : dst)
            }
        }
        return out
    }

    @Test(arguments: [1, 2, 3, 42] as [UInt64])
    func randomOverlappingLayersMatchReference(seed: UInt64) throws {
        let (w, h) = (160, 120)
        let layers = Self.randomLayers(seed: seed, count: 200)
        let b = try Self.draw(Self.randomScene(layers, width: w, height: h), width: w, height: h)
        let expected = Self.reference(layers, width: w, height: h)
        var compared = 0
        var bad: [String] = []
        for y in 0..<h {
            for x in 0..<w {
                guard let e = expected[y * w + x] else { continue }
                compared += 1
                let ep: Pixel = (
                    Int((e.x * 255).rounded()), Int((e.y * 255).rounded()), Int((e.z * 255).rounded()),
                    Int((e.w * 255).rounded())
                )
                let got = Self.px(b, x, y)
                if !Self.close(got, ep, 2) { bad.append("(\(x),\(y)) expected \(ep) got \(got)") }
            }
        }
        #expect(compared >= 800, "only \(compared) pixels far from every edge")
        #expect(bad.isEmpty, "seed \(seed): \(bad.count) of \(compared) pixels differ, first: \(bad.prefix(12))")
    }

    /// The display list of the random scene is well formed: every instance is drawn exactly once, by a
    /// batch of its own kind, and no batch is empty.
    @Test(arguments: [1, 42] as [UInt64])
    func randomSceneBatchesCoverEveryInstanceOnce(seed: UInt64) throws {
        let tree = try RenderTree().applying(
            Self.randomScene(
                Self.randomLayers(seed: seed, count: 200),
                width: 160, height: 120), displayCount: 1)
        let list = DisplayListBuilder.build(
            trees: [tree], display: 0, width: 160, height: 120,
            clearColor: SIMD4(0, 0, 0, 1))
        // Draws per instance, by kind.
        var draws = list.instances.map { [Int](repeating: 0, count: $0.count) }
        let fills =
            list.instances(of: .opaqueFill, as: FillInstance.self)
            + list.instances(of: .blendedFill, as: FillInstance.self)
        for batch in list.batches {
            #expect(!batch.instances.isEmpty)
            for i in batch.instances.map(Int.init) {
                draws[batch.kind][i] += 1
                if batch.kind == DrawKind.opaqueFill.id || batch.kind == DrawKind.blendedFill.id {
                    let fill = list.instances[batch.kind].instance(i, as: FillInstance.self)
                    #expect(
                        (batch.kind == DrawKind.opaqueFill.id) == (fill.color.w >= 1),
                        "fill \(i) in a \(DrawKind.all[batch.kind].name) batch")
                }
            }
        }
        #expect(draws.allSatisfy { $0.allSatisfy { $0 == 1 } })
        #expect(fills.count > 200 && list.instances[DrawKind.corner.id].count > 0, "scene exercises fills and corners")
        #expect(list.batches.count < list.instanceCount / 4, "batching groups instances")
    }
}

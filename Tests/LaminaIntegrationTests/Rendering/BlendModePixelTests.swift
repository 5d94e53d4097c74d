import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import Testing

/// `compositingFilter` with the separable blend modes (spec §2.8, line 208: how the layer's drawing
/// and what lies behind it are combined), given as Core Image's `CI…BlendMode` filters, whose
/// reference cites the formulas of W3C Compositing and Blending Level 1, §9.1 (separable blend modes)
/// and §5 (the general formula). Each mode drawn by the Vulkan renderer with validation on over an
/// opaque backdrop, for two colour pairs, one with a partly transparent source, compared with the W3C
/// formula computed here from the bytes the server starts from: within 2/255.
@Suite(.serialized) struct BlendModePixelTests {
    /// W3C §9.1's B(Cb, Cs), written from the specification's text.
    static func blend(_ mode: LayerBlendMode, _ cb: Double, _ cs: Double) -> Double {
        func hardLight(_ cb: Double, _ cs: Double) -> Double {
            cs <= 0.5 ? cb * (2 * cs) : cb + (2 * cs - 1) - cb * (2 * cs - 1)
        }
        switch mode {
        case .normal: return cs
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return hardLight(cs, cb)
        case .darken: return min(cb, cs)
        case .lighten: return max(cb, cs)
        case .colorDodge: return cb == 0 ? 0 : cs == 1 ? 1 : min(1, cb / (1 - cs))
        case .colorBurn: return cb == 1 ? 1 : cs == 0 ? 0 : 1 - min(1, (1 - cb) / cs)
        case .hardLight: return hardLight(cb, cs)
        case .softLight:
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (d - cb)
        case .difference: return abs(cb - cs)
        case .exclusion: return cb + cs - 2 * cb * cs
        }
    }

    /// W3C §5 with an opaque backdrop: co = cs(1 − αb) + αs·αb·B(Cb, Cs) + cb(1 − αs), premultiplied,
    /// from the 8-bit bytes of the colours (as `premultipliedOnEightBitSteps` gives them).
    static func expected(_ mode: LayerBlendMode, backdrop: RGBAColor, source: RGBAColor) -> [Int] {
        func q(_ v: Double) -> Double { (v * 255).rounded() / 255 }
        let alpha = q(source.alpha)
        let b = [backdrop.red, backdrop.green, backdrop.blue].map(q)
        let s = [source.red, source.green, source.blue].map { q($0 * source.alpha) }
        return (0..<3).map { c in
            let cs = alpha > 0 ? s[c] / alpha : 0
            let co = alpha * blend(mode, b[c], min(cs, 1)) + b[c] * (1 - alpha)
            return Int((255 * co).rounded())
        }
    }

    static let pairs: [(backdrop: RGBAColor, source: RGBAColor)] = [
        (RGBAColor(red: 0.2, green: 0.5, blue: 0.8, alpha: 1), RGBAColor(red: 0.7, green: 0.3, blue: 0.1, alpha: 1)),
        (RGBAColor(red: 0.9, green: 0.1, blue: 0.6, alpha: 1), RGBAColor(red: 0.4, green: 0.9, blue: 0.55, alpha: 0.6)),
    ]

    /// Backdrop layer 3 (60×40, opaque) under layer 4 (20×20 at (20, 10)) with the mode: inside the
    /// square every pixel is the formula's colour within 2/255; outside it the backdrop is untouched.
    @Test(arguments: LayerBlendMode.allCases.filter { $0 != .normal })
    func blendModeMatchesTheW3CFormula(mode: LayerBlendMode) throws {
        for (index, pair) in Self.pairs.enumerated() {
            let ops =
                RendererTests.layer(3, frame: CGRect(x: 0, y: 0, width: 60, height: 40), color: pair.backdrop)
                + RendererTests.layer(
                    4, frame: CGRect(x: 20, y: 10, width: 20, height: 20), color: pair.source,
                    [.compositingFilter(Double(mode.rawValue))])
            let frame = try OffscreenPassPixelTests.draw(
                ops, children: [3, 4], png: "blend-\(mode)-\(index).png")
            #expect(frame.list.passes.count == 3, "the drawing's, the backdrop's and the pair's passes")
            let rgb = Self.expected(mode, backdrop: pair.backdrop, source: pair.source)
            var worst = 0
            for y in 10..<30 {
                for x in 20..<40 {
                    let i = y * frame.bitmap.stride + x * 4
                    let got = [
                        Int(frame.bitmap.pixels[i + 2]), Int(frame.bitmap.pixels[i + 1]), Int(frame.bitmap.pixels[i]),
                    ]
                    for c in 0..<3 { worst = max(worst, abs(got[c] - rgb[c])) }
                    #expect(frame.bitmap.pixels[i + 3] == 255)
                }
            }
            #expect(worst <= 2, "\(mode), pair \(index): largest error \(worst)/255, expected \(rgb)")
            let b = pair.backdrop
            OffscreenPassPixelTests.expect(
                frame, 5, 5,
                (Int((b.red * 255).rounded()), Int((b.green * 255).rounded()), Int((b.blue * 255).rounded()), 255),
                "\(mode): the backdrop outside the layer")
        }
    }
}

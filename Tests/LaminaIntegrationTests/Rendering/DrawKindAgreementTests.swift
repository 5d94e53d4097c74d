import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// Every draw kind turns the same premultiplied colour at full coverage into the same bytes, so that
/// neighbouring pieces of one uniform area drawn by different kinds show no seam.
@Suite(.serialized) struct DrawKindAgreementTests {
    /// Side of the square each kind fills.
    static let side = 16

    /// A display list with one square per kind, left to right, each filled with `color`
    /// (premultiplied) over a target cleared to `clear`. Opaque fills only take opaque colours. The
    /// textured kinds draw `image`, a 1×1 image of `color` on 8-bit steps, at opacity 1. The gradient
    /// takes unpremultiplied 8-bit colours, whose premultiplication lands on the same step only for
    /// opaque colours, so it draws only those (two stops of the colour). The additive kinds add to what
    /// is under them by design (an emitter's `additive` render mode: EmitterPixelTests), so they are
    /// not among the kinds that must agree.
    static func list(color: SIMD4<Float>, clear: SIMD4<Float>, image: RenderImageID) -> (DisplayList, [DrawKind]) {
        // `maskIn` draws no colour: it multiplies the target by a mask's alpha (OffscreenPassPixelTests);
        // `blur` reads a pass of its own rectangle texel by texel (BlurPixelTests); `blendImage` reads a
        // pass holding a backdrop and a drawing side by side (BlendModePixelTests); `video` reads the two
        // planes of a YCbCr surface (NV12SurfaceTests).
        let kinds = DrawKind.all.filter {
            $0.blend != .additive && (color.w >= 1 || $0.blend != .off)
                && (color.w >= 1 || $0.id != DrawKind.gradient.id) && $0.blend != .destinationIn
                && $0.id != DrawKind.blur.id && $0.id != DrawKind.blendImage.id && $0.id != DrawKind.video.id
        }
        var list = DisplayList(width: side * kinds.count, height: side, clearColor: clear)
        for (slot, kind) in kinds.enumerated() {
            let x0 = Float(slot * side), x1 = Float((slot + 1) * side), y1 = Float(side)
            let rect = SIMD4<Float>(x0, 0, x1, y1)
            // A shape far larger than the square, so every pixel is fully inside it.
            let big = SIMD4<Float>(-1000, -1000, 1000, 1000)
            let index: Int
            var texture: TextureSampling?
            switch kind.id {
            case DrawKind.plainImage.id, DrawKind.image.id:
                index = list.append(ImageInstance(rect: rect, uv: SIMD4(0, 0, 1, 1), opacity: 1), kind: kind.id)
                texture = TextureSampling(image: image, filter: .nearest)
            case DrawKind.imageShape.id:
                index = list.append(
                    ImageShapeInstance(
                        row1: SIMD4(1, 0, 0, 0), row2: SIMD4(0, 1, 0, 0), row4: SIMD4(0, 0, 0, 1), rect: rect,
                        grow: .zero, uvTransform: SIMD4(0, 0, 0.5, 0.5), params: SIMD4(1, 0, 0, 0),
                        deviceClip: big, clipA: .none, clipB: .none), kind: kind.id)
                texture = TextureSampling(image: image, filter: .linear)
            case DrawKind.opaqueFill.id, DrawKind.blendedFill.id:
                index = list.append(FillInstance(rect: rect, color: color), kind: kind.id)
            case DrawKind.coverageFill.id:
                index = list.append(
                    CoverageFillInstance(
                        pixels: rect, edges: SIMD4(1, 1, 1, 1), corners: SIMD4(1, 1, 1, 1), color: color),
                    kind: kind.id)
            case DrawKind.gradient.id:
                let steps = FillInstance.onEightBitSteps(color) * 255
                let bytes = [steps.x, steps.y, steps.z, steps.w].map { UInt32($0.rounded()) }
                let word = bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24
                index = list.append(
                    GradientInstance(
                        row1: SIMD4(1, 0, 0, 0), row2: SIMD4(0, 1, 0, 0), row4: SIMD4(0, 0, 0, 1), piece: rect,
                        rect: big, params: .zero, points: SIMD4(0, 0, 0, 0.01), deviceClip: big, clip: .none,
                        range: SIMD4(-.greatestFiniteMagnitude, .greatestFiniteMagnitude, 1, 2),
                        locations: SIMD4(0x3C00_0000, 0, 0, 0), colorsLow: SIMD4(word, word, 0, 0), colorsHigh: .zero),
                    kind: kind.id)
            case DrawKind.shadow.id:
                // A box far larger than the square with a small blur: the Gaussian's mass is 1 inside.
                index = list.append(
                    ShadowInstance(
                        row1: SIMD4(1, 0, 0, 0), row2: SIMD4(0, 1, 0, 0), row4: SIMD4(0, 0, 0, 1), piece: rect,
                        rect: big, params: SIMD4(0, 0, 0.5, 0), color: color, deviceClip: big, clip: .none,
                        flags: SIMD4(0, 4, 0, 0)),
                    kind: kind.id)
            case DrawKind.corner.id, DrawKind.continuousCorner.id:
                index = list.append(
                    CornerInstance(
                        rect: rect, shape: SIMD4(0, 0, 1000, 1000), params: SIMD4(0, 0, 0, 1),
                        fill: color, border: .zero), kind: kind.id)
            default:
                index = list.append(
                    ShapeInstance(
                        row1: SIMD4(1, 0, 0, 0), row2: SIMD4(0, 1, 0, 0),
                        row4: SIMD4(0, 0, 0, 1), piece: rect, shapeRect: big,
                        shapeParams: .zero, color: color, deviceClip: big,
                        clipA: .none, clipB: .none), kind: kind.id)
            }
            list.batches.append(DrawBatch(kind: kind.id, instances: [Int32(index)], texture: texture))
        }
        return (list, kinds)
    }

    /// Premultiplied test colours: the seam's (0.9, 0.95, 0.93), values just off an 8-bit step on either
    /// side and halfway between steps, opaque and translucent.
    static let colors: [SIMD4<Float>] = {
        let straight: [(SIMD3<Float>, Float)] = [
            (SIMD3(0.9, 0.95, 0.93), 1), (SIMD3(0.9, 0.95, 0.93), 0.6), (SIMD3(0.2, 0.5, 0.9), 1),
            (SIMD3(0.2, 0.5, 0.9), 0.35), (SIMD3(180.3 / 255, 250.7 / 255, 3.5 / 255), 1),
            (SIMD3(180.3 / 255, 250.7 / 255, 3.5 / 255), 0.8), (SIMD3(1, 1, 1), 0.5), (SIMD3(0, 0, 0), 0.25),
            (SIMD3(100.5 / 255, 0.7, 0.01), 1),
        ]
        return straight.map { rgb, alpha in SIMD4(rgb * alpha, alpha) }
    }()

    @Test(arguments: colors)
    func everyKindGivesTheSameBytes(color: SIMD4<Float>) throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            // The textured kinds' image: the colour on 8-bit steps as one BGRA texel.
            let steps = FillInstance.onEightBitSteps(color) * 255
            let texel = [steps.z, steps.y, steps.x, steps.w].map { UInt8($0.rounded()) }
            let image = try renderer.importImage(
                ImagePixels(width: 1, height: 1, stride: 4, source: .host(texel)), filtering: .nearest)
            // The clear colour lies off the 8-bit steps too, so translucent blending is exercised.
            for clear in [SIMD4<Float>(0.2, 0.4, 0.6, 1), SIMD4<Float>(0.93, 0.07, 0.501, 1)] {
                let (list, kinds) = Self.list(color: color, clear: clear, image: image)
                let target = try renderer.makeTarget(width: list.width, height: list.height)
                try renderer.render(list, into: target)
                let bitmap = try renderer.readPixels(target)
                // Opaque colours at full coverage come out as the colour rounded to the nearest step.
                let expected = color.w >= 1 ? Self.bytes(FillInstance.onEightBitSteps(color) * 255) : nil
                for (slot, kind) in kinds.enumerated() {
                    for (x, y) in [(0, 0), (7, 9), (15, 15)] {
                        let got = bitmap.rgba(x: slot * Self.side + x, y: y)
                        let first = bitmap.rgba(x: x, y: y)
                        #expect(got == first, "\(kind.name) at (\(x), \(y)): \(got), \(kinds[0].name): \(first)")
                        if let expected {
                            #expect(got == expected, "\(kind.name): \(got), expected \(expected)")
                        }
                    }
                }
            }
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }

    /// Premultiplied RGBA in 0...255 as the (r, g, b, a) bytes `Bitmap.rgba` returns.
    static func bytes(_ v: SIMD4<Float>) -> (UInt8, UInt8, UInt8, UInt8) {
        (UInt8(v.x.rounded()), UInt8(v.y.rounded()), UInt8(v.z.rounded()), UInt8(v.w.rounded()))
    }

    /// The seam itself: a rounded background of (0.9, 0.95, 0.93) is drawn as fills (bands) and corner
    /// pieces (the 8×8 corner boxes). Every pixel well inside the shape has the same bytes, e6f2ed, in
    /// the bands and in the corner boxes alike (they used to differ: e6f3ee in the bands).
    @Test func roundedBackgroundHasNoSeam() throws {
        let color = RGBAColor(red: 0.9, green: 0.95, blue: 0.93, alpha: 1)
        var ops = RendererTests.layer(1, frame: CGRect(x: 0, y: 0, width: 64, height: 64), color: nil)
        ops += RendererTests.layer(
            2, frame: CGRect(x: 4, y: 4, width: 56, height: 56), color: color,
            [.cornerRadius(8)])
        ops += [.setSublayers(1, [2]), .setRoot(display: 0, layer: 1)]
        let (bitmap, messages) = try RendererTests.render(ops, width: 64, height: 64)
        #expect(messages.isEmpty, "\(messages)")
        // Corner boxes span 4..<12 and 52..<60; pixels farther than 3 px from the rounded edge are fully
        // inside (the corner arc is centred on (12, 12) with radius 8: (9, 9) lies 3.8 px inside it).
        var differing: [String] = []
        for y in 9..<55 {
            for x in 9..<55 {
                let got = bitmap.rgba(x: x, y: y)
                if got != (230, 242, 237, 255) { differing.append("(\(x), \(y)): \(got)") }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) pixels differ, first: \(differing.prefix(8))")
    }
}

import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// Layer shadows drawn by the `shadow` draw kind through the Vulkan renderer, checked against the
/// Gaussian computed in the test: a box's shadow is the product of two erf differences (exact), a
/// rounded rectangle's and an ellipse's the integral over their rows of an erf difference, summed
/// here on 4,000 rows. Stated tolerance: ±1 of 255 at every pixel (the 8-bit rounding of both sides;
/// the shader's strips for rounded corners and ellipses stay within it). The shadow lies under the layer (App. A), moves by
/// `shadowOffset`, has alpha `shadowOpacity` × colour alpha × inherited opacity, is clipped by the
/// layer's own `masksToBounds` and by a superlayer's (spec §2.5, E09), takes `shadowPath` (E10).
@Suite struct ShadowPixelTests {
    static let width = 240
    static let height = 120
    static let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)

    /// The Gaussian's mass between `a` and `b` seen from `p`.
    static func band(_ p: Double, _ a: Double, _ b: Double, _ sigma: Double) -> Double {
        let k = 1 / (sigma * 2.0.squareRoot())
        return 0.5 * (erf((p - a) * k) - erf((p - b) * k))
    }

    /// The blurred box `r` at (`x`, `y`).
    static func boxShadow(_ x: Double, _ y: Double, _ r: CGRect, _ sigma: Double) -> Double {
        band(x, r.minX, r.maxX, sigma) * band(y, r.minY, r.maxY, sigma)
    }

    /// The blurred shape whose row at height `t` spans `span(t)`, for `t` in `rows`, at (`x`, `y`).
    static func shapeShadow(
        _ x: Double, _ y: Double, rows: ClosedRange<Double>, sigma: Double, span: (Double) -> (Double, Double)
    ) -> Double {
        let n = 4000
        let step = (rows.upperBound - rows.lowerBound) / Double(n)
        var sum = 0.0
        for i in 0..<n {
            let t0 = rows.lowerBound + Double(i) * step
            let weight = band(y, t0, t0 + step, sigma)
            if weight < 1e-9 { continue }
            let (l, r) = span(t0 + step / 2)
            sum += weight * band(x, l, r, sigma)
        }
        return sum
    }

    /// The row spans of `rect` rounded by `radius` at every corner.
    static func roundedSpan(_ rect: CGRect, _ radius: Double) -> (Double) -> (Double, Double) {
        { t in
            let d = max(rect.minY + radius - t, t - (rect.maxY - radius), 0)
            let inset = radius - (max(radius * radius - d * d, 0)).squareRoot()
            return (rect.minX + inset, rect.maxX - inset)
        }
    }

    /// The row spans of the ellipse inscribed in `rect`.
    static func ellipseSpan(_ rect: CGRect) -> (Double) -> (Double, Double) {
        { t in
            let v = (t - rect.midY) / (rect.height / 2)
            let half = rect.width / 2 * (max(1 - v * v, 0)).squareRoot()
            return (rect.midX - half, rect.midX + half)
        }
    }

    /// A transparent 240×120 root (id 1) holding `layers`.
    static func scene(_ layers: [[LayerOperation]], sublayers: [LayerID]) -> [LayerOperation] {
        [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: width, height: height))),
            .set(1, .position(CGPoint(x: width / 2, y: height / 2))),
        ] + layers.flatMap { $0 } + [.setSublayers(1, sublayers), .setRoot(display: 0, layer: 1)]
    }

    /// A white 60×60 card (id `id`) whose frame is (20.5, 30.5, 60, 60), with a black shadow of opacity
    /// 1 and radius 4 moved 120 to the right (so it lies on clear pixels), then `extra`.
    static func card(_ id: LayerID = 2, _ extra: [LayerProperty] = []) -> [LayerOperation] {
        [
            .createLayer(id), .set(id, .bounds(CGRect(x: 0, y: 0, width: 60, height: 60))),
            .set(id, .position(CGPoint(x: 50.5, y: 60.5))), .set(id, .backgroundColor(white)),
            .set(id, .shadowOpacity(1)), .set(id, .shadowRadius(4)),
            .set(id, .shadowOffset(CGSize(width: 120, height: 0))),
        ] + extra.map { .set(id, $0) }
    }

    static func render(_ ops: [LayerOperation]) throws -> Bitmap {
        try GradientPixelTests.render(ops, width: width, height: height)
    }

    static func alpha(_ b: Bitmap, _ x: Int, _ y: Int) -> Int { Int(b.rgba(x: x, y: y).3) }

    /// Every pixel of `region` against `predict` at the pixel's centre: the largest difference (in
    /// 1/255) and where.
    static func worst(
        _ b: Bitmap, _ region: (x: Range<Int>, y: Range<Int>), _ predict: (Double, Double) -> Double
    ) -> (difference: Int, x: Int, y: Int) {
        var worst = (difference: 0, x: -1, y: -1)
        for y in region.y {
            for x in region.x {
                let want = Int((predict(Double(x) + 0.5, Double(y) + 0.5) * 255).rounded())
                let d = abs(alpha(b, x, y) - want)
                if d > worst.difference { worst = (d, x, y) }
            }
        }
        return worst
    }

    /// A box's shadow is the product of two erf differences at every pixel: half the opacity on a
    /// straight edge, 0.841 one standard deviation inside, 0.159 one outside, 0.023 two outside.
    @Test func aBoxShadowIsTheErfProduct() throws {
        let bitmap = try Self.render(Self.scene([Self.card()], sublayers: [2]))
        let shadow = CGRect(x: 140.5, y: 30.5, width: 60, height: 60)
        let worst = Self.worst(bitmap, (100..<240, 0..<120)) { Self.boxShadow($0, $1, shadow, 4) }
        #expect(worst.difference <= 1, "\(worst)")
        // Pixel 140's centre is the left edge; 144 and 136 lie one standard deviation in and out.
        #expect(abs(Self.alpha(bitmap, 140, 60) - 128) <= 1)
        #expect(abs(Self.alpha(bitmap, 144, 60) - 215) <= 1)
        #expect(abs(Self.alpha(bitmap, 136, 60) - 40) <= 1)
        #expect(abs(Self.alpha(bitmap, 132, 60) - 6) <= 1)
        // Beyond three standard deviations and a pixel, nothing; the colour is black.
        #expect(Self.alpha(bitmap, 127, 60) == 0)
        #expect(bitmap.rgba(x: 170, y: 60) == (0, 0, 0, 255))
        // The card itself is white, the clear pixels between card and shadow clear.
        #expect(bitmap.rgba(x: 50, y: 60) == (255, 255, 255, 255))
        #expect(bitmap.rgba(x: 110, y: 60) == (0, 0, 0, 0))
    }

    /// `shadowOffset` moves the shadow in the layer's space (y down): (120, 10) puts its top edge at
    /// 40.5, its half-opacity row.
    @Test func theOffsetMovesTheShadow() throws {
        let bitmap = try Self.render(
            Self.scene([Self.card(2, [.shadowOffset(CGSize(width: 120, height: 10))])], sublayers: [2]))
        let shadow = CGRect(x: 140.5, y: 40.5, width: 60, height: 60)
        let worst = Self.worst(bitmap, (100..<240, 0..<120)) { Self.boxShadow($0, $1, shadow, 4) }
        #expect(worst.difference <= 1, "\(worst)")
        #expect(abs(Self.alpha(bitmap, 170, 40) - 128) <= 1)
        #expect(abs(Self.alpha(bitmap, 170, 100) - 128) <= 1)
    }

    /// The shadow is drawn under the layer: with a small offset the opaque card hides the part beneath
    /// it and the rest shows beside it.
    @Test func theShadowIsUnderTheLayer() throws {
        let bitmap = try Self.render(
            Self.scene([Self.card(2, [.shadowOffset(CGSize(width: 6, height: 6))])], sublayers: [2]))
        #expect(bitmap.rgba(x: 79, y: 89) == (255, 255, 255, 255))
        let shadow = CGRect(x: 26.5, y: 36.5, width: 60, height: 60)
        #expect(abs(Self.alpha(bitmap, 82, 60) - Int((Self.boxShadow(82.5, 60.5, shadow, 4) * 255).rounded())) <= 1)
        #expect(Self.alpha(bitmap, 82, 60) > 100)
    }

    /// Without a `shadowPath`, a background-only layer with rounded corners casts its rounded bounds'
    /// shadow; the corner follows the integral of the rounded shape.
    @Test func aRoundedBackgroundCastsARoundedShadow() throws {
        let bitmap = try Self.render(Self.scene([Self.card(2, [.cornerRadius(16)])], sublayers: [2]))
        let shadow = CGRect(x: 140.5, y: 30.5, width: 60, height: 60)
        let span = Self.roundedSpan(shadow, 16)
        let worst = Self.worst(bitmap, (124..<216, 14..<106)) {
            Self.shapeShadow($0, $1, rows: 30.5...90.5, sigma: 4, span: span)
        }
        #expect(worst.difference <= 1, "\(worst)")
        // The rounded corner is darker inside than the box's: (146, 36) lies in the box's corner but
        // 6.5 points from the rounded edge's centre line.
        #expect(Self.alpha(bitmap, 146, 36) < Int(Self.boxShadow(146.5, 36.5, shadow, 4) * 255) - 20)
    }

    /// E10: a rectangular `shadowPath` gives a square shadow under a rounded layer, an elliptical one a
    /// round shadow, whatever the content.
    @Test func shadowPathsOfARectangleAndAnEllipse() throws {
        let square = Self.card(
            2, [.cornerRadius(20), .shadowPath(CGPath(rect: CGRect(x: 0, y: 0, width: 60, height: 60)))])
        let round = Self.card(
            2, [.shadowPath(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 60, height: 60))), .shadowRadius(3)])
        let boxBitmap = try Self.render(Self.scene([square], sublayers: [2]))
        let shadow = CGRect(x: 140.5, y: 30.5, width: 60, height: 60)
        let boxWorst = Self.worst(boxBitmap, (100..<240, 0..<120)) { Self.boxShadow($0, $1, shadow, 4) }
        #expect(boxWorst.difference <= 1, "\(boxWorst)")
        let ellipseBitmap = try Self.render(Self.scene([round], sublayers: [2]))
        let span = Self.ellipseSpan(shadow)
        let worst = Self.worst(ellipseBitmap, (124..<216, 14..<106)) {
            Self.shapeShadow($0, $1, rows: 30.5...90.5, sigma: 3, span: span)
        }
        #expect(worst.difference <= 1, "\(worst)")
        // The box's corner is empty for the ellipse.
        #expect(Self.alpha(ellipseBitmap, 142, 32) <= 2)
        #expect(Self.alpha(ellipseBitmap, 170, 60) == 255)
    }

    /// A `shadowRadius` of 0 gives a hard edge (anti-aliased over about a pixel).
    @Test func aZeroRadiusGivesAHardEdge() throws {
        let bitmap = try Self.render(Self.scene([Self.card(2, [.shadowRadius(0)])], sublayers: [2]))
        #expect(Self.alpha(bitmap, 138, 60) == 0)
        #expect(abs(Self.alpha(bitmap, 140, 60) - 128) <= 1)
        #expect(Self.alpha(bitmap, 142, 60) == 255)
    }

    /// The shadow's alpha is `shadowOpacity` × the colour's alpha × the inherited opacity:
    /// 0.8 × 0.5 × 0.5 = 0.2 (51 of 255) in the middle, red premultiplied to 51.
    @Test func opacitiesMultiply() throws {
        let ops = Self.scene(
            [
                Self.card(
                    2,
                    [
                        .shadowOpacity(0.8), .shadowColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 0.5)),
                        .opacity(0.5),
                    ])
            ], sublayers: [2])
        let bitmap = try Self.render(ops)
        let p = bitmap.rgba(x: 170, y: 60)
        #expect(abs(Int(p.0) - 51) <= 1 && p.1 == 0 && p.2 == 0 && abs(Int(p.3) - 51) <= 1, "\(p)")
        // A background of alpha 0.5 on a layer that draws nothing else halves its shadow again.
        let translucent = Self.scene(
            [Self.card(2, [.backgroundColor(RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.5))])], sublayers: [2])
        #expect(abs(Self.alpha(try Self.render(translucent), 170, 60) - 128) <= 1)
    }

    /// Spec §2.5 and E09: `masksToBounds` on the layer clips its own shadow to its rounded bounds (on
    /// an opaque card nothing of it shows); the remedy is an outer layer that casts the shadow and an
    /// inner one that clips.
    @Test func theLayersOwnMasksToBoundsClipsItsShadow() throws {
        let clipped = try Self.render(Self.scene([Self.card(2, [.masksToBounds(true)])], sublayers: [2]))
        for x in stride(from: 84, to: 240, by: 4) {
            for y in stride(from: 0, to: 120, by: 4) { #expect(Self.alpha(clipped, x, y) == 0, "(\(x), \(y))") }
        }
        // The two-layer remedy: an outer layer with a rounded shadowPath casts the shadow, an inner
        // sublayer clips its content to the rounded bounds.
        let outer: [LayerOperation] = [
            .createLayer(2), .set(2, .bounds(CGRect(x: 0, y: 0, width: 60, height: 60))),
            .set(2, .position(CGPoint(x: 50.5, y: 60.5))), .set(2, .shadowOpacity(1)), .set(2, .shadowRadius(4)),
            .set(2, .shadowOffset(CGSize(width: 120, height: 0))),
            .set(
                2,
                .shadowPath(
                    CGPath(
                        roundedRect: CGRect(x: 0, y: 0, width: 60, height: 60), cornerWidth: 16, cornerHeight: 16,
                        transform: nil))),
            .createLayer(3), .set(3, .bounds(CGRect(x: 0, y: 0, width: 60, height: 60))),
            .set(3, .position(CGPoint(x: 30, y: 30))), .set(3, .backgroundColor(Self.white)),
            .set(3, .cornerRadius(16)), .set(3, .masksToBounds(true)), .setSublayers(2, [3]),
        ]
        let remedy = try Self.render(Self.scene([outer], sublayers: [2]))
        let shadow = CGRect(x: 140.5, y: 30.5, width: 60, height: 60)
        let worst = Self.worst(remedy, (124..<216, 14..<106)) {
            Self.shapeShadow($0, $1, rows: 30.5...90.5, sigma: 4, span: Self.roundedSpan(shadow, 16))
        }
        #expect(worst.difference <= 1, "\(worst)")
        #expect(remedy.rgba(x: 21, y: 31).3 < 128, "the inner layer's rounded corner")
    }

    /// A superlayer's `masksToBounds` cuts the shadow like any content: a 150-wide clipping parent
    /// keeps the shadow's first ten columns.
    @Test func aSuperlayersClipCutsTheShadow() throws {
        let clipper: [LayerOperation] = [
            .createLayer(3), .set(3, .bounds(CGRect(x: 0, y: 0, width: 150, height: 120))),
            .set(3, .position(CGPoint(x: 75, y: 60))), .set(3, .masksToBounds(true)),
        ]
        let bitmap = try Self.render(Self.scene([clipper, Self.card(), [.setSublayers(3, [2])]], sublayers: [3]))
        let shadow = CGRect(x: 140.5, y: 30.5, width: 60, height: 60)
        let worst = Self.worst(bitmap, (120..<150, 0..<120)) { Self.boxShadow($0, $1, shadow, 4) }
        #expect(worst.difference <= 1, "\(worst)")
        for y in stride(from: 0, to: 120, by: 2) {
            for x in 150..<240 { #expect(Self.alpha(bitmap, x, y) == 0, "(\(x), \(y))") }
        }
    }

    /// Hostile but valid values (huge radii, offsets, bounds and paths) draw without trapping the
    /// builder and without a validation message; a huge blur is flat and nearly transparent.
    @Test func hostileValuesNeitherTrapNorDraw() throws {
        let huge = CGRect(x: -1e300, y: -1e300, width: 1e300, height: 1e300)
        for extra: [LayerProperty] in [
            [.shadowRadius(1e300)], [.shadowRadius(.greatestFiniteMagnitude)],
            [.shadowOffset(CGSize(width: 1e300, height: -1e300))], [.shadowPath(CGPath(ellipseIn: huge))],
            [.shadowPath(CGPath(roundedRect: huge, cornerWidth: 1e299, cornerHeight: 1e299, transform: nil))],
            [.bounds(CGRect(x: 0, y: 0, width: 1e300, height: 1e300)), .cornerRadius(1e300)],
        ] {
            let bitmap = try Self.render(Self.scene([Self.card(2, extra)], sublayers: [2]))
            if extra.count == 1 { #expect(Self.alpha(bitmap, 200, 100) <= 1, "\(extra)") }
        }
    }

    /// Animated shadows on the server's clock: `shadowRadius` from 2 to 10 and `shadowOffset` from
    /// (120, 0) to (120, 20), linear over one second from media time 0, captured at 0.25 and 0.5:
    /// every pixel is the erf product for σ = 4 and 6 and the box moved 5 and 10 down.
    @Test func animatedShadowsAtChosenTimes() throws {
        func linear(_ id: UInt64, _ key: String, _ from: AnimationValue, _ to: AnimationValue) -> LayerOperation {
            let record = AnimationRecord(
                timing: MediaTiming(beginTime: 0, duration: 1), timingFunction: TimingCurve(0, 0, 1, 1),
                content: .basic(PropertyTarget(keyPath: LayerKeyPath(key)!), BasicValues(from: from, to: to)))
            return .addAnimation(2, AttachedAnimation(id: id, key: key, record: record))
        }
        let ops =
            Self.scene([Self.card()], sublayers: [2]) + [
                linear(1, "shadowRadius", .number(2), .number(10)),
                linear(2, "shadowOffset", .size(CGSize(width: 120, height: 0)), .size(CGSize(width: 120, height: 20))),
            ]
        let tree = try RenderTree().applying(ops, displayCount: 1)
        for (time, sigma, down) in [(0.25, 4.0, 5.0), (0.5, 6.0, 10.0)] {
            let bitmap = try SharedVulkanDevice.withRenderer { renderer, validation in
                let list = DisplayListBuilder.build(
                    trees: [tree], display: 0, width: Self.width, height: Self.height, clearColor: .zero, time: time)
                let target = try renderer.makeTarget(width: Self.width, height: Self.height)
                try renderer.render(list, into: target)
                #expect(validation.messages.isEmpty, "\(validation.messages)")
                return try renderer.readPixels(target)
            }
            let shadow = CGRect(x: 140.5, y: 30.5 + down, width: 60, height: 60)
            let worst = Self.worst(bitmap, (100..<240, 0..<120)) { Self.boxShadow($0, $1, shadow, sigma) }
            #expect(worst.difference <= 1, "at \(time): \(worst)")
        }
    }

    /// A layer without a `shadowPath` whose shadow would be its contents' alpha (here: no background)
    /// needs an offscreen pass, which Lamina does not have yet: no shadow (docs/apple-differences.md).
    @Test func aLayerWithoutAClosedFormShapeDrawsNoShadowYet() throws {
        let bare = try Self.render(Self.scene([Self.card(2, [.backgroundColor(nil)])], sublayers: [2]))
        for x in stride(from: 100, to: 240, by: 3) {
            for y in stride(from: 0, to: 120, by: 3) { #expect(Self.alpha(bare, x, y) == 0, "(\(x), \(y))") }
        }
    }

    /// Damage covers the shadow's blur: a shadowed card moving (on a 480×240 display, so its damage
    /// stays under half of it), drawn only where the frame changed into a target holding the previous
    /// frame, is the full redraw to the byte.
    @Test func damageCoversTheBlur() throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let partial = try renderer.makeTarget(width: 480, height: 240)
            let full = try renderer.makeTarget(width: 480, height: 240)
            var tree = try RenderTree().applying(
                Self.scene(
                    [Self.card(2, [.shadowOffset(CGSize(width: 4, height: 6)), .shadowRadius(6)])], sublayers: [2]),
                displayCount: 1)
            var tracker = DamageTracker()
            for frame in 0..<6 {
                if frame > 0 {
                    let moves: [LayerProperty] = [
                        .position(CGPoint(x: 50.5 + Double(frame) * 23, y: 60.5)), .shadowRadius(6 + Double(frame)),
                    ]
                    tree = try tree.applying(moves.map { .set(2, $0) }, displayCount: 1)
                }
                var list = DisplayListBuilder.build(
                    trees: [tree], display: 0, width: 480, height: 240, clearColor: .zero)
                list.damage = tracker.damage(of: list)
                if frame > 0 {
                    // The damage reaches three standard deviations beyond the shadow's box.
                    let damage = try #require(list.damage)
                    let right = damage.map(\.maxX).max() ?? 0
                    let sigma = 6 + Double(frame)
                    #expect(Double(right) >= 50.5 + Double(frame) * 23 + 30 + 4 + 3 * sigma, "\(damage)")
                }
                try renderer.render(list, into: partial)
                var whole = list
                whole.damage = nil
                try renderer.render(whole, into: full)
                let a = try renderer.readPixels(partial)
                let b = try renderer.readPixels(full)
                #expect(zip(a.pixels, b.pixels).filter { $0 != $1 }.isEmpty, "frame \(frame)")
            }
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }
}

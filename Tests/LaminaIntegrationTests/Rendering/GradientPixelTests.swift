import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// CAGradientLayer drawn by the `gradient` draw kind through the Vulkan renderer: colours checked
/// against the gradient's colour computed in the test at each pixel's centre (±2 per channel), and the
/// behaviours GNUstep's tests measured on Apple (PR #100, run on a macOS runner; notes T32–T39).
@Suite struct GradientPixelTests: PixelTestSuite {
    static let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)

    /// Draws `ops` on an 80×60 display cleared to transparent (with a shape cache); `prepare` may edit
    /// the tree with the renderer at hand (to import contents).
    static func render(
        _ ops: [LayerOperation], width: Int = 80, height: Int = 60,
        prepare: (VulkanRenderer, inout RenderTree) throws -> Void = { _, _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Bitmap {
        var tree = try RenderTree().applying(ops, displayCount: 1)
        return try SharedVulkanDevice.withRenderer { renderer, validation in
            try prepare(renderer, &tree)
            let list = DisplayListBuilder.build(
                trees: [tree], display: 0, width: width, height: height, clearColor: .zero)
            let target = try renderer.makeTarget(width: width, height: height)
            try renderer.render(list, into: target)
            let bitmap = try renderer.readPixels(target)
            #expect(validation.messages.isEmpty, "\(validation.messages)", sourceLocation: sourceLocation)
            return bitmap
        }
    }

    /// An 80×60 gradient layer as the root, with `extra` set.
    static func gradient(_ extra: [LayerProperty], size: CGSize = CGSize(width: 80, height: 60)) -> [LayerOperation] {
        [
            .createLayer(1, .gradient), .set(1, .bounds(CGRect(origin: .zero, size: size))),
            .set(1, .position(CGPoint(x: size.width / 2, y: size.height / 2))),
        ] + extra.map { .set(1, $0) } + [.setRoot(display: 0, layer: 1)]
    }

    /// The premultiplied 8-bit colour of two stops mixed at `t` (clamped), unpremultiplied
    /// interpolation as Apple's.
    static func expected(_ a: RGBAColor, _ b: RGBAColor, _ t: Double) -> [Int] {
        let k = min(max(t, 0), 1)
        let c = [a.red, a.green, a.blue, a.alpha].enumerated().map {
            $1 + ([b.red, b.green, b.blue, b.alpha][$0] - $1) * k
        }
        return [c[0] * c[3], c[1] * c[3], c[2] * c[3], c[3]].map { Int(($0 * 255).rounded()) }
    }

    /// Apple-run: red to blue with the default points covers every pixel of the bounds, red at the top,
    /// blue at the bottom, changing monotonically down (notes T32).
    @Test func theDefaultAxialGradientRunsTopToBottom() throws {
        let bitmap = try Self.render(Self.gradient([.colors([Self.red, Self.blue])]))
        var previousBlue = -1
        for y in 0..<60 {
            let t = (Double(y) + 0.5) / 60
            Self.expectClose(Self.pixel(bitmap, 40, y), Self.expected(Self.red, Self.blue, t), "row \(y)")
            let blue = Self.pixel(bitmap, 40, y)[2]
            #expect(blue >= previousBlue)
            previousBlue = blue
            for x in [0, 79] { #expect(Self.pixel(bitmap, x, y)[3] == 255) }
        }
    }

    /// Apple-run: with the points at a quarter and three quarters, the end colours continue flat
    /// beyond them (notes T33).
    @Test func endColoursExtendPastThePoints() throws {
        let bitmap = try Self.render(
            Self.gradient([
                .colors([Self.red, Self.blue]), .startPoint(CGPoint(x: 0.5, y: 0.25)),
                .endPoint(CGPoint(x: 0.5, y: 0.75)),
            ]))
        for y in 0..<15 { #expect(Self.pixel(bitmap, 10, y) == [255, 0, 0, 255], "row \(y)") }
        for y in 45..<60 { #expect(Self.pixel(bitmap, 10, y) == [0, 0, 255, 255], "row \(y)") }
        Self.expectClose(Self.pixel(bitmap, 10, 30), Self.expected(Self.red, Self.blue, (30.5 - 15) / 30), "middle")
    }

    /// A diagonal gradient from the top-left corner to the bottom-right one: t is the projection on
    /// the diagonal, in layer points.
    @Test func aDiagonalAxialGradientMatchesItsProjection() throws {
        let bitmap = try Self.render(
            Self.gradient([.colors([Self.red, Self.blue]), .startPoint(.zero), .endPoint(CGPoint(x: 1, y: 1))]))
        for (x, y) in [(0, 0), (10, 50), (40, 30), (70, 5), (79, 59)] {
            let px = Double(x) + 0.5, py = Double(y) + 0.5
            let t = (px * 80 + py * 60) / (80 * 80 + 60 * 60)
            Self.expectClose(Self.pixel(bitmap, x, y), Self.expected(Self.red, Self.blue, t), "(\(x), \(y))")
        }
    }

    /// Apple-run: two stops at the same location make a hard edge, flat on each side (notes T34).
    @Test func twoStopsAtOneLocationMakeAHardEdge() throws {
        let bitmap = try Self.render(
            Self.gradient([.colors([Self.red, Self.red, Self.blue, Self.blue]), .locations([0, 0.5, 0.5, 1])]))
        for y in 0..<30 { #expect(Self.pixel(bitmap, 40, y) == [255, 0, 0, 255], "row \(y)") }
        for y in 30..<60 { #expect(Self.pixel(bitmap, 40, y) == [0, 0, 255, 255], "row \(y)") }
    }

    /// Colours interpolate unpremultiplied: white to clear (transparent black) over white shows a grey
    /// band, 0.75 (191) halfway, as on Apple (notes T35).
    @Test func whiteToClearShowsAGreyBand() throws {
        let ops: [LayerOperation] = [
            .createLayer(9), .set(9, .bounds(CGRect(x: 0, y: 0, width: 80, height: 60))),
            .set(9, .position(CGPoint(x: 40, y: 30))), .set(9, .backgroundColor(Self.white)),
            .createLayer(1, .gradient), .set(1, .bounds(CGRect(x: 0, y: 0, width: 80, height: 60))),
            .set(1, .position(CGPoint(x: 40, y: 30))), .set(1, .colors([Self.white, .clear])),
            .setSublayers(9, [1]), .setRoot(display: 0, layer: 9),
        ]
        let bitmap = try Self.render(ops)
        for y in [0, 15, 29, 30, 45, 59] {
            let t = (Double(y) + 0.5) / 60
            let grey = Int((((1 - t) * (1 - t) + t) * 255).rounded())
            Self.expectClose(Self.pixel(bitmap, 40, y), [grey, grey, grey, 255], "row \(y)")
        }
        #expect(abs(Self.pixel(bitmap, 40, 29)[0] - 191) <= 2)
    }

    /// Apple-run: the gradient is rounded by cornerRadius even without masksToBounds (notes T36).
    @Test func cornerRadiusShapesTheGradient() throws {
        let bitmap = try Self.render(Self.gradient([.colors([Self.red, Self.blue]), .cornerRadius(20)]))
        #expect(Self.pixel(bitmap, 0, 0)[3] == 0)
        #expect(Self.pixel(bitmap, 79, 59)[3] == 0)
        var painted = 0
        for y in 0..<60 { for x in 0..<80 where Self.pixel(bitmap, x, y)[3] > 0 { painted += 1 } }
        #expect(Double(painted) > 0.9 * 4800)
        #expect(Double(painted) < 4800 - 4 * 60)
    }

    /// Apple-run: drawn over the background colour and under the contents (notes T37).
    @Test func theGradientLiesBetweenBackgroundAndContents() throws {
        let green: [UInt8] = [0, 255, 0, 255]  // BGRA
        let bitmap = try Self.render(
            Self.gradient([
                .colors([Self.red, Self.red]), .backgroundColor(Self.blue), .contentsGravity(.center),
            ])
        ) { renderer, tree in
            let image = try renderer.importImage(
                ImagePixels(
                    width: 20, height: 20, stride: 80, source: .host(Array((0..<400).map { _ in green }.joined()))),
                filtering: .linear)
            tree.contentsImages[5] = ContentsImage(image: image, width: 20, height: 20, isOpaque: true)
            tree.layers[1]!.state.contents = 5
        }
        #expect(Self.pixel(bitmap, 40, 30) == [0, 255, 0, 255])
        #expect(Self.pixel(bitmap, 5, 5) == [255, 0, 0, 255])
    }

    /// Radial: the first colour at the centre, the last one on the ellipse whose half axes reach the end
    /// point and beyond it, to the corners (notes T38); t is the elliptical distance.
    @Test func aRadialGradientGrowsFromTheStartPoint() throws {
        let bitmap = try Self.render(
            Self.gradient([
                .colors([Self.red, Self.blue]), .gradientType(.radial), .startPoint(CGPoint(x: 0.5, y: 0.5)),
                .endPoint(CGPoint(x: 1, y: 1)),
            ]))
        for (x, y) in [(40, 30), (50, 30), (40, 45), (60, 40), (70, 10), (0, 0), (79, 59)] {
            let dx = (Double(x) + 0.5 - 40) / 40, dy = (Double(y) + 0.5 - 30) / 30
            let t = (dx * dx + dy * dy).squareRoot()
            Self.expectClose(Self.pixel(bitmap, x, y), Self.expected(Self.red, Self.blue, t), "(\(x), \(y))")
        }
        #expect(Self.pixel(bitmap, 0, 0) == [0, 0, 255, 255])
    }

    /// Conic: centred on the start point, starting in the direction of the end point, the angle growing
    /// from +x towards +y (clockwise on a y-down screen): red just below the +x axis, blue just above
    /// (notes T39).
    @Test func aConicGradientTurnsClockwise() throws {
        let bitmap = try Self.render(
            Self.gradient([
                .colors([Self.red, Self.blue]), .gradientType(.conic), .startPoint(CGPoint(x: 0.5, y: 0.5)),
                .endPoint(CGPoint(x: 1, y: 0.5)),
            ]))
        #expect(Self.pixel(bitmap, 70, 30)[0] > 240)
        #expect(Self.pixel(bitmap, 70, 29)[2] > 240)
        for (x, y) in [(40, 50), (10, 30), (40, 5), (60, 45), (20, 10)] {
            var t = atan2(Double(y) + 0.5 - 30, Double(x) + 0.5 - 40) / (2 * Double.pi)
            if t < 0 { t += 1 }
            Self.expectClose(Self.pixel(bitmap, x, y), Self.expected(Self.red, Self.blue, t), "(\(x), \(y))")
        }
    }

    /// Drawn in a shader at the device's resolution: scaled ×3 by the transform, every pixel still has
    /// the colour of its own centre (no stretched bitmap).
    @Test func aScaledGradientIsExactAtEveryPixel() throws {
        // A 20×20 layer at the centre of the display, scaled 3× about its centre: device 30...90.
        let ops: [LayerOperation] = [
            .createLayer(1, .gradient), .set(1, .bounds(CGRect(x: 0, y: 0, width: 20, height: 20))),
            .set(1, .position(CGPoint(x: 60, y: 60))), .set(1, .transform(CATransform3DMakeScale(3, 3, 1))),
            .set(1, .colors([Self.red, Self.blue])), .setRoot(display: 0, layer: 1),
        ]
        let bitmap = try Self.render(ops, width: 120, height: 120)
        for y in stride(from: 31, to: 90, by: 7) {
            let t = (Double(y) + 0.5 - 30) / 60
            Self.expectClose(Self.pixel(bitmap, 60, y), Self.expected(Self.red, Self.blue, t), "row \(y)")
        }
    }

    /// A gradient of more stops than one instance carries is drawn by several, seamlessly.
    @Test func tenStopsAreDrawnAcrossInstances() throws {
        let colors = (0..<10).map { RGBAColor(red: $0 % 2 == 0 ? 1 : 0, green: 0, blue: $0 % 2 == 0 ? 0 : 1, alpha: 1) }
        let bitmap = try Self.render(Self.gradient([.colors(colors)]))
        for y in 0..<60 {
            let s = (Double(y) + 0.5) / 60 * 9
            let i = min(Int(s), 8)
            let (a, b) = (colors[i], colors[i + 1])
            Self.expectClose(Self.pixel(bitmap, 40, y), Self.expected(a, b, s - Double(i)), "row \(y)")
        }
    }
}

extension GradientPixelTests {
    /// Locations outside 0...1 place stops beyond the points (a shimmer slides them from below 0 to
    /// above 1): with red at −0.5 and blue at 0.5, the top row is already halfway.
    @Test func locationsOutsideTheUnitRangeAreKept() throws {
        let bitmap = try Self.render(Self.gradient([.colors([Self.red, Self.blue]), .locations([-0.5, 0.5])]))
        for y in [0, 10, 20, 29, 45] {
            let t = (Double(y) + 0.5) / 60
            Self.expectClose(Self.pixel(bitmap, 40, y), Self.expected(Self.red, Self.blue, t + 0.5), "row \(y)")
        }
    }
}

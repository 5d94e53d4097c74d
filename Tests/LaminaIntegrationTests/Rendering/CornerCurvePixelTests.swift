import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import LaminaVulkan
import Testing

/// Pixel checks of `cornerCurve` and `isGeometryFlipped` as the server draws them (issue 10, point 2).
///
/// Every render runs in-process with Vulkan validation on and must report no validation message.
/// Pixel (x, y) has its centre at (x + 0.5, y + 0.5); the clear colour is opaque black. The scene is
/// a white 100 × 100 layer at (50, 50) with `cornerRadius` 20, so its top-left corner is studied:
/// the circular corner is a quarter circle about (70, 70); the continuous one (Apple's
/// `cornerCurveExpansionFactor(.continuous)` = 1.528665) starts 20 × 1.528665 = 30.5733 from the corner
/// along each edge and follows |x|^n + |y|^n = 30.5733^n about (80.5733, 80.5733), with n = 3.2588
/// chosen so that it crosses the diagonal where the circle does.
@Suite(.serialized) struct CornerCurvePixelTests {
    typealias Pixel = GeometryPixelTests.Pixel

    static let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)

    /// The white rounded square (layer 2) under root layer 1, with `extra` properties.
    static func square(_ extra: [LayerProperty]) -> [LayerOperation] {
        GeometryPixelTests.scene(
            width: 200, height: 200, children: [2],
            RendererTests.layer(
                2, frame: CGRect(x: 50, y: 50, width: 100, height: 100), color: white, [.cornerRadius(20)] + extra))
    }

    /// The red channel of pixel (x, y).
    static func red(_ b: Bitmap, _ x: Int, _ y: Int) -> Int { GeometryPixelTests.px(b, x, y).r }

    /// Coverage the continuous corner predicts at the centre of pixel (x, y) of the top-left corner,
    /// computed as the shaders define it (implicit superellipse over its gradient, one pixel of
    /// anti-aliasing), in double precision.
    static func continuousCoverage(_ x: Int, _ y: Int) -> Double {
        let r = 20.0
        let reach = r * 1.528665
        let n = -log(2.0) / log(1 - (1 - 1 / 2.0.squareRoot()) * r / reach)
        let qx = max(50 + reach - (Double(x) + 0.5), 0)
        let qy = max(50 + reach - (Double(y) + 0.5), 0)
        let m = max(qx, qy)
        guard m > 0 else { return 1 }
        let ux = qx / m, uy = qy / m
        let s = pow(ux, n) + pow(uy, n)
        let norm = m * pow(s, 1 / n)
        let gx = pow(ux * pow(s, -1 / n), n - 1), gy = pow(uy * pow(s, -1 / n), n - 1)
        let distance = (norm - reach) / hypot(gx, gy)
        return min(max(0.5 - distance, 0), 1)
    }

    @Test func continuousCornerLiesInsideTheCircularOneNearTheTangentPoints() throws {
        let circular = try GeometryPixelTests.draw(Self.square([]), width: 200, height: 200)
        let continuous = try GeometryPixelTests.draw(
            Self.square([.cornerCurve(.continuous)]), width: 200, height: 200)
        // Pixel (70, 50), just past the circle's tangent point (70, 50): the circular corner has
        // already become the straight top edge (full coverage), while the continuous curve is still
        // 0.25 below the edge there: distance −0.245, coverage 0.745, byte 190.
        #expect(Self.red(circular, 70, 50) == 255)
        #expect(abs(Self.red(continuous, 70, 50) - 190) <= 3, "got \(Self.red(continuous, 70, 50))")
        // The same on the left edge, by symmetry.
        #expect(Self.red(circular, 50, 70) == 255)
        #expect(abs(Self.red(continuous, 50, 70) - 190) <= 3)
        // Pixel (65, 50): the circle passes 0.0125 from its centre (coverage 0.4875, byte 124); the
        // continuous curve passes lower, at y = 50.97 (distance 0.46, coverage 0.04, byte 10).
        #expect(abs(Self.red(circular, 65, 50) - 124) <= 3, "got \(Self.red(circular, 65, 50))")
        #expect(abs(Self.red(continuous, 65, 50) - 10) <= 3, "got \(Self.red(continuous, 65, 50))")
        // On the diagonal both corners cross at the same point, (55.86, 55.86): pixel (56, 56) is
        // inside both (distances −0.91 and −0.91), pixel (54, 54) outside both.
        #expect(Self.red(circular, 56, 56) == 255 && Self.red(continuous, 56, 56) == 255)
        #expect(Self.red(circular, 54, 54) == 0 && Self.red(continuous, 54, 54) == 0)
        // Beyond the continuous corner's reach (30.57 from the corner) the edges are straight again.
        #expect(Self.red(continuous, 82, 50) == 255)
        // The other three corners are mirrors: (129, 50), (50, 129) and (129, 129) match (70, 50),
        // (50, 70) and the bottom-right counterpart of (65, 50).
        #expect(abs(Self.red(continuous, 129, 50) - Self.red(continuous, 70, 50)) <= 1)
        #expect(abs(Self.red(continuous, 129, 149) - Self.red(continuous, 70, 50)) <= 1)
        #expect(abs(Self.red(continuous, 134, 149) - Self.red(continuous, 65, 50)) <= 1)
    }

    @Test func continuousCornerMatchesItsPredictedCoverageWithAntiAliasedEdges() throws {
        let continuous = try GeometryPixelTests.draw(
            Self.square([.cornerCurve(.continuous)]), width: 200, height: 200)
        // Every pixel of the corner box (50…82 on both axes) against the predicted coverage; the edge
        // pixels (partly covered) are anti-aliased, strictly between 0 and 255.
        var edgePixels = 0
        for y in 50..<82 {
            for x in 50..<82 {
                let expected = Int((Self.continuousCoverage(x, y) * 255).rounded())
                let got = Self.red(continuous, x, y)
                #expect(abs(got - expected) <= 3, "pixel (\(x), \(y)): got \(got), expected \(expected)")
                if expected > 8 && expected < 247 {
                    edgePixels += 1
                    #expect(got > 0 && got < 255, "edge pixel (\(x), \(y)) = \(got)")
                }
            }
        }
        // The curve is about 42 pixels long in the box, so about that many pixels are partly covered.
        #expect(edgePixels > 25)
    }

    @Test func continuousBorderAndClipFollowTheSameCurve() throws {
        // A leaf with only a 2-wide red border: its outer edge is the continuous curve, so pixel
        // (70, 50) carries the border colour at the curve's coverage (red 190).
        let bordered = try GeometryPixelTests.draw(
            GeometryPixelTests.scene(
                width: 200, height: 200, children: [2],
                RendererTests.layer(
                    2, frame: CGRect(x: 50, y: 50, width: 100, height: 100), color: nil,
                    [
                        .cornerRadius(20), .cornerCurve(.continuous), .borderWidth(2),
                        .borderColor(GeometryPixelTests.red),
                    ])),
            width: 200, height: 200)
        let p = GeometryPixelTests.px(bordered, 70, 50)
        #expect(abs(p.r - 190) <= 3 && p.g <= 3 && p.b <= 3, "got \(p)")
        // masksToBounds with the continuous curve clips a white sublayer that fills the square (the
        // square itself has no background): the clip is drawn by the shape shader with screen-space
        // derivatives, and gives the same coverage as the corner shader.
        let clipped = try GeometryPixelTests.draw(
            GeometryPixelTests.scene(
                width: 200, height: 200, children: [2],
                RendererTests.layer(
                    2, frame: CGRect(x: 50, y: 50, width: 100, height: 100), color: nil,
                    [.cornerRadius(20), .cornerCurve(.continuous), .masksToBounds(true)])
                    + RendererTests.layer(3, frame: CGRect(x: 0, y: 0, width: 100, height: 100), color: Self.white)
                    + [.setSublayers(2, [3])]), width: 200, height: 200)
        #expect(abs(Self.red(clipped, 70, 50) - 190) <= 4, "got \(Self.red(clipped, 70, 50))")
        #expect(abs(Self.red(clipped, 65, 50) - 10) <= 4, "got \(Self.red(clipped, 65, 50))")
        #expect(Self.red(clipped, 100, 100) == 255)
    }

    @Test func rotatedContinuousSquareIsDrawnByTheShapeKindWithTheSameCoverage() throws {
        // A quarter turn from CATransform3DMakeRotation is not exactly axis-aligned (cos π/2 ≈ 6e-17),
        // so the square goes through the shape kind (screen-space derivatives); a square with four
        // equal corners looks the same turned, so the pixels predicted above hold: (70, 50) byte 190,
        // (65, 50) byte 10, and the inside is white.
        let turned = try GeometryPixelTests.draw(
            Self.square([.cornerCurve(.continuous), .transform(CATransform3DMakeRotation(.pi / 2, 0, 0, 1))]),
            width: 200, height: 200)
        #expect(abs(Self.red(turned, 70, 50) - 190) <= 4, "got \(Self.red(turned, 70, 50))")
        #expect(abs(Self.red(turned, 65, 50) - 10) <= 4, "got \(Self.red(turned, 65, 50))")
        #expect(abs(Self.red(turned, 50, 70) - 190) <= 4, "got \(Self.red(turned, 50, 70))")
        #expect(Self.red(turned, 100, 100) == 255)
        #expect(Self.red(turned, 54, 54) == 0)
    }

    @Test func flippedLayerDrawsASublayerAtYZeroAtTheBottom() throws {
        // CALayer.h: geometryFlipped flips the layer's sublayer geometry vertically. Layer 2 fills
        // (0, 0, 100, 100); its red sublayer has frame (10, 0, 30, 20): unflipped it covers rows 0…19,
        // flipped rows 80…99.
        func ops(flipped: Bool) -> [LayerOperation] {
            GeometryPixelTests.scene(
                width: 100, height: 100, children: [2],
                RendererTests.layer(
                    2, frame: CGRect(x: 0, y: 0, width: 100, height: 100), color: nil,
                    [.isGeometryFlipped(flipped)])
                    + RendererTests.layer(
                        3, frame: CGRect(x: 10, y: 0, width: 30, height: 20), color: GeometryPixelTests.red)
                    + [.setSublayers(2, [3])])
        }
        let flipped = try GeometryPixelTests.draw(ops(flipped: true), width: 100, height: 100)
        GeometryPixelTests.expectPixel(flipped, 20, 90, (255, 0, 0, 255))
        GeometryPixelTests.expectPixel(flipped, 20, 80, (255, 0, 0, 255))
        GeometryPixelTests.expectPixel(flipped, 20, 79, GeometryPixelTests.black)
        GeometryPixelTests.expectPixel(flipped, 20, 10, GeometryPixelTests.black)
        let plain = try GeometryPixelTests.draw(ops(flipped: false), width: 100, height: 100)
        GeometryPixelTests.expectPixel(plain, 20, 10, (255, 0, 0, 255))
        GeometryPixelTests.expectPixel(plain, 20, 90, GeometryPixelTests.black)
    }
}

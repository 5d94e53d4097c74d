import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// Shadows of `shadowPath`s without a closed form: the path filled with Cairo, its alpha blurred on
/// the CPU (`ShadowBlur`), drawn as an image. Checked against the closed form on a shape both draw
/// (a rectangle given with an extra point on one side, which the closed form does not recognise) and
/// against the Gaussian computed in the test. Stated tolerance: 3/255 where the raster is drawn at
/// the device's scale, 6/255 where a large blur is drawn smaller and magnified.
@Suite struct ShadowRasterPixelTests {
    /// The 60×60 box at (0, 0) with an extra point halfway along its top side.
    static let pointedBox: CGPath = {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: 30, y: 0))
        path.addLine(to: CGPoint(x: 60, y: 0))
        path.addLine(to: CGPoint(x: 60, y: 60))
        path.addLine(to: CGPoint(x: 0, y: 60))
        path.closeSubpath()
        return path
    }()

    static func render(_ ops: [LayerOperation]) throws -> Bitmap {
        try ShapePixelTests.render(ops, width: ShadowPixelTests.width, height: ShadowPixelTests.height)
    }

    @Test func theRasterAgreesWithTheClosedForm() throws {
        let raster = try Self.render(
            ShadowPixelTests.scene([ShadowPixelTests.card(2, [.shadowPath(Self.pointedBox)])], sublayers: [2]))
        let closed = try Self.render(
            ShadowPixelTests.scene(
                [ShadowPixelTests.card(2, [.shadowPath(CGPath(rect: CGRect(x: 0, y: 0, width: 60, height: 60)))])],
                sublayers: [2]))
        var worst = (difference: 0, x: 0, y: 0)
        for y in 0..<ShadowPixelTests.height {
            for x in 100..<ShadowPixelTests.width {
                let d = abs(ShadowPixelTests.alpha(raster, x, y) - ShadowPixelTests.alpha(closed, x, y))
                if d > worst.difference { worst = (d, x, y) }
            }
        }
        #expect(worst.difference <= 3, "\(worst)")
        let shadow = CGRect(x: 140.5, y: 30.5, width: 60, height: 60)
        let predicted = ShadowPixelTests.worst(raster, (100..<240, 0..<120)) {
            ShadowPixelTests.boxShadow($0, $1, shadow, 4)
        }
        #expect(predicted.difference <= 3, "\(predicted)")
    }

    /// A large blur (σ = 12) is drawn at a third of the scale and magnified; it stays near the Gaussian.
    @Test func aLargeBlurIsDrawnSmallAndStaysNearTheGaussian() throws {
        let bitmap = try Self.render(
            ShadowPixelTests.scene(
                [
                    ShadowPixelTests.card(
                        2,
                        [.shadowPath(Self.pointedBox), .shadowRadius(12), .shadowOffset(CGSize(width: 130, height: 0))])
                ], sublayers: [2]))
        let shadow = CGRect(x: 150.5, y: 30.5, width: 60, height: 60)
        let worst = ShadowPixelTests.worst(bitmap, (100..<240, 0..<120)) {
            ShadowPixelTests.boxShadow($0, $1, shadow, 12)
        }
        #expect(worst.difference <= 6, "\(worst)")
    }

    /// A star's shadow: dark inside the star, clear between its points and far away, the colour the
    /// shadow's; hidden under the opaque card where they overlap.
    @Test func aStarCastsAStarShapedShadow() throws {
        let star = CGMutablePath()
        for i in 0..<10 {
            let angle = -Double.pi / 2 + Double(i) * .pi / 5
            let r = i % 2 == 0 ? 30.0 : 12.0
            let p = CGPoint(x: 30 + r * cos(angle), y: 30 + r * sin(angle))
            if i == 0 { star.move(to: p) } else { star.addLine(to: p) }
        }
        star.closeSubpath()
        let bitmap = try Self.render(
            ShadowPixelTests.scene(
                [
                    ShadowPixelTests.card(
                        2,
                        [
                            .shadowPath(star), .shadowRadius(1.5),
                            .shadowColor(RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)),
                        ])
                ], sublayers: [2]))
        // The star's centre, moved 120 right: (170.5, 60.5).
        #expect(bitmap.rgba(x: 170, y: 60) == (0, 0, 255, 255))
        // Its top point, tip at (170.5, 30.5), is dark 12 below the tip; the box's corner is clear.
        #expect(ShadowPixelTests.alpha(bitmap, 170, 42) > 200)
        #expect(ShadowPixelTests.alpha(bitmap, 142, 32) == 0)
        // Between two points, on the ray at angle −54° (between the top and the upper-right point).
        #expect(ShadowPixelTests.alpha(bitmap, 170 + 20, 60 - 26) < 10)
        #expect(ShadowPixelTests.alpha(bitmap, 230, 60) == 0)
        // The card itself is white.
        #expect(bitmap.rgba(x: 50, y: 60) == (255, 255, 255, 255))
    }
}

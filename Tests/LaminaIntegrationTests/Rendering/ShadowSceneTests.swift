import Foundation
import Lamina
import LaminaTesting
import Testing

/// End to end: cards with shadows set up by a client as Apple code would (E09, E10), drawn by a real
/// laminad, checked against the pixels the Gaussian predicts and against a reviewed golden image
/// (Golden/shadows.png).
@Suite(.serialized) final class ShadowSceneTests {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 320, height: 200)
    }

    deinit {
        server.stop()
    }

    static func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor {
        CGColor(red: r, green: g, blue: b, alpha: a)
    }

    static func layer(_ frame: CGRect, _ background: CGColor?) -> CALayer {
        let layer = CALayer()
        layer.frame = frame
        layer.backgroundColor = background
        return layer
    }

    /// On light grey: a white card with rounded corners and a soft shadow below it (no shadowPath);
    /// a round avatar whose shadow is an elliptical shadowPath; E09's two layers (a bordered rounded
    /// layer casting its own shadow, and a clipping layer whose shadow comes from an outer layer);
    /// a rotated tag with a red rectangular shadowPath.
    static func makeScene() -> CALayer {
        let root = layer(CGRect(x: 0, y: 0, width: 320, height: 200), color(0.93, 0.93, 0.93))

        let card = layer(CGRect(x: 20, y: 20, width: 120, height: 80), color(1, 1, 1))
        card.cornerRadius = 14
        card.shadowOpacity = 0.35
        card.shadowRadius = 8
        card.shadowOffset = CGSize(width: 0, height: 6)
        let line = layer(CGRect(x: 16, y: 20, width: 70, height: 8), color(0.8, 0.82, 0.86))
        line.cornerRadius = 4
        card.addSublayer(line)
        root.addSublayer(card)

        let avatar = layer(CGRect(x: 180, y: 30, width: 56, height: 56), color(0.2, 0.45, 0.9))
        avatar.cornerRadius = 28
        avatar.shadowPath = CGPath(ellipseIn: avatar.bounds, transform: nil)
        avatar.shadowOpacity = 0.5
        avatar.shadowRadius = 4
        avatar.shadowOffset = CGSize(width: 0, height: 3)
        root.addSublayer(avatar)

        // E09 layer 1: cornerRadius 20, borderWidth 5, the shadow on the layer itself, no clipping.
        let bordered = layer(CGRect(x: 20, y: 120, width: 100, height: 60), color(1, 0.95, 0.8))
        bordered.cornerRadius = 20
        bordered.borderWidth = 5
        bordered.borderColor = color(0.9, 0.6, 0.1)
        bordered.shadowOpacity = 0.5
        bordered.shadowOffset = CGSize(width: 0, height: 5)
        bordered.shadowRadius = 5
        root.addSublayer(bordered)

        // E09 layer 2: the content clips (masksToBounds), so the shadow comes from an outer layer.
        let outer = layer(CGRect(x: 150, y: 120, width: 100, height: 60), nil)
        outer.shadowPath = CGPath(
            roundedRect: outer.bounds, cornerWidth: 20, cornerHeight: 20, transform: nil)
        outer.shadowOpacity = 0.5
        outer.shadowOffset = CGSize(width: 0, height: 5)
        outer.shadowRadius = 5
        let inner = layer(outer.bounds, color(0.85, 0.95, 1))
        inner.cornerRadius = 20
        inner.borderWidth = 5
        inner.borderColor = color(0.1, 0.5, 0.8)
        inner.masksToBounds = true
        let stripe = layer(CGRect(x: -20, y: 24, width: 140, height: 12), color(0.1, 0.5, 0.8))
        inner.addSublayer(stripe)
        outer.addSublayer(inner)
        root.addSublayer(outer)

        let tag = layer(CGRect(x: 262, y: 40, width: 40, height: 100), color(0.98, 0.98, 0.98))
        tag.setAffineTransform(CGAffineTransform(rotationAngle: 0.15))
        tag.shadowPath = CGPath(rect: tag.bounds, transform: nil)
        tag.shadowColor = color(0.8, 0, 0)
        tag.shadowOpacity = 0.6
        tag.shadowRadius = 6
        tag.shadowOffset = CGSize(width: 4, height: 4)
        root.addSublayer(tag)
        return root
    }

    /// The Gaussian's mass between `a` and `b` seen from `p`.
    static func band(_ p: Double, _ a: Double, _ b: Double, _ sigma: Double) -> Double {
        let k = 1 / (sigma * 2.0.squareRoot())
        return 0.5 * (erf((p - a) * k) - erf((p - b) * k))
    }

    @Test func sceneMatchesGeometryAndGolden() throws {
        let context = try server.connect(name: "shadows")
        context.layer = Self.makeScene()
        let image = try context.capture()
        try image.writePNG(to: server.directory.appendingPathComponent("shadows.png").path)

        // Below the card's bottom edge (y = 100) in its middle column: grey under black at
        // 0.35 × the Gaussian of the card's box moved 6 down, (20, 26)-(140, 106), σ = 8.
        let grey = 237.0  // 0.93 on the 8-bit steps
        for y in [100, 104, 106, 110] {
            let alpha = 0.35 * Self.band(80.5, 20, 140, 8) * Self.band(Double(y) + 0.5, 26, 106, 8)
            let v = Int((grey * (1 - (alpha * 255).rounded() / 255)).rounded())
            expectPixel(image, 80, y, (v, v, v), tolerance: 2, "under the card, row \(y)")
        }
        // The card and its line are drawn over their shadow.
        expectPixel(image, 80, 90, (255, 255, 255), tolerance: 0, "the card")
        // Far from everything: the background.
        expectPixel(image, 160, 105, (237, 237, 237), tolerance: 0, "background")
        // The avatar's shadow is round: beside its box's bottom corner there is none, below its centre
        // there is (the ellipse moved 3 down, σ = 4).
        expectPixel(image, 182, 88, (237, 237, 237), tolerance: 1, "outside the round shadow")
        let below = 0.5 * Self.band(89.5, 33, 89, 4) * 0.9999
        let v = Int((grey * (1 - (below * 255).rounded() / 255)).rounded())
        expectPixel(image, 208, 89, (v, v, v), tolerance: 4, "below the avatar")
        // E09: the outer layer's shadow shows below the clipped layer; the stripe is cut at the rounded
        // bounds (its left end at x = 150 lies outside the rounded corner's reach only at y 144..156).
        expectPixel(image, 151, 150, (26, 128, 204), tolerance: 1, "the stripe reaches the edge")
        let e09 = 0.5 * Self.band(200.5, 150, 250, 5) * Self.band(185.5, 125, 185, 5)
        let w = Int((grey * (1 - (e09 * 255).rounded() / 255)).rounded())
        expectPixel(image, 200, 185, (w, w, w), tolerance: 2, "the outer layer's shadow")

        let result = try ImageComparison(channelTolerance: 4, maxDifferingPixels: 0)
            .compare(image, goldenPath: SceneTests.golden.appendingPathComponent("shadows.png").path)
        #expect(result.matches, "against Golden/shadows.png: \(result)")

        let report = server.stop()
        #expect(report.validationMessages.isEmpty, "validation: \(report.validationMessages)")
        #expect(report.exitStatus == 0, "laminad exit status \(report.exitStatus)\n\(report.log)")
    }
}

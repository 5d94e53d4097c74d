import Foundation
import Lamina
import LaminaTesting
import Testing

/// End to end: CAShapeLayer and CAGradientLayer set up by a client as Apple code would, drawn by a
/// real laminad, checked against the pixels the geometry predicts and against a reviewed golden image
/// (Golden/shapes-gradients.png).
@Suite(.serialized) final class ShapeGradientSceneTests {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 320, height: 240)
    }

    deinit {
        server.stop()
    }

    static func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor {
        CGColor(red: r, green: g, blue: b, alpha: a)
    }

    /// A five-pointed star of outer radius `r` about (`cx`, `cy`), its first point straight up.
    static func star(cx: CGFloat, cy: CGFloat, r: CGFloat) -> CGPath {
        let path = CGMutablePath()
        for i in 0..<10 {
            let angle = -CGFloat.pi / 2 + CGFloat(i) * .pi / 5
            let radius = i % 2 == 0 ? r : r * 0.45
            let p = CGPoint(x: cx + radius * cos(angle), y: cy + radius * sin(angle))
            if i == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        path.closeSubpath()
        return path
    }

    /// A progress ring (a grey track and a blue arc, strokeEnd 0.7, round caps), a dashed star, a
    /// rotated square, and axial (rounded), radial and conic gradients, on white.
    static func makeScene() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
        root.backgroundColor = color(1, 1, 1)

        let circle = CGPath(ellipseIn: CGRect(x: 10, y: 10, width: 80, height: 80))
        let track = CAShapeLayer()
        track.frame = CGRect(x: 20, y: 20, width: 100, height: 100)
        track.path = circle
        track.fillColor = nil
        track.strokeColor = color(0.85, 0.85, 0.85)
        track.lineWidth = 10
        root.addSublayer(track)
        let ring = CAShapeLayer()
        ring.frame = track.frame
        ring.path = circle
        ring.fillColor = nil
        ring.strokeColor = color(0, 0.4, 1)
        ring.lineWidth = 10
        ring.lineCap = .round
        ring.strokeEnd = 0.7
        root.addSublayer(ring)

        let star = CAShapeLayer()
        star.frame = CGRect(x: 130, y: 20, width: 100, height: 100)
        star.path = Self.star(cx: 50, cy: 52, r: 45)
        star.fillColor = color(1, 0.8, 0)
        star.strokeColor = color(0, 0, 0)
        star.lineWidth = 2
        star.lineJoin = .round
        star.lineDashPattern = [6, 3]
        root.addSublayer(star)

        let square = CAShapeLayer()
        square.frame = CGRect(x: 245, y: 30, width: 60, height: 60)
        square.path = CGPath(rect: CGRect(x: 10, y: 10, width: 40, height: 40))
        square.fillColor = color(0.9, 0.1, 0.2)
        square.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 6))
        root.addSublayer(square)

        let axial = CAGradientLayer()
        axial.frame = CGRect(x: 20, y: 140, width: 120, height: 80)
        axial.colors = [color(1, 0.5, 0), color(0.5, 0, 1)]
        axial.startPoint = CGPoint(x: 0, y: 0.5)
        axial.endPoint = CGPoint(x: 1, y: 0.5)
        axial.cornerRadius = 16
        root.addSublayer(axial)

        let radial = CAGradientLayer()
        radial.frame = CGRect(x: 150, y: 140, width: 80, height: 80)
        radial.type = .radial
        radial.colors = [color(1, 1, 1), color(0, 0.3, 0.8)]
        radial.startPoint = CGPoint(x: 0.5, y: 0.5)
        radial.endPoint = CGPoint(x: 1, y: 1)
        root.addSublayer(radial)

        let conic = CAGradientLayer()
        conic.frame = CGRect(x: 240, y: 145, width: 70, height: 70)
        conic.type = .conic
        conic.colors = [
            color(1, 0, 0), color(1, 1, 0), color(0, 1, 0), color(0, 1, 1), color(0, 0, 1), color(1, 0, 1),
            color(1, 0, 0),
        ]
        conic.startPoint = CGPoint(x: 0.5, y: 0.5)
        conic.endPoint = CGPoint(x: 1, y: 0.5)
        conic.cornerRadius = 35
        root.addSublayer(conic)
        return root
    }

    @Test func sceneMatchesGeometryAndGolden() throws {
        let context = try server.connect(name: "shapes")
        context.layer = Self.makeScene()
        let image = try context.capture()
        try image.writePNG(to: server.directory.appendingPathComponent("shapes-gradients.png").path)

        let white = (255, 255, 255, 255)
        // The ring's arc starts at 3 o'clock (layer (90, 50), device (110, 70)) and runs clockwise on
        // screen to 0.7 of the turn: 6 and 9 o'clock are blue, 12 o'clock shows the grey track.
        expectPixel(image, 110, 70, (0, 102, 255, 255), tolerance: 0, "ring at 3 o'clock")
        expectPixel(image, 70, 110, (0, 102, 255, 255), tolerance: 0, "ring at 6 o'clock")
        expectPixel(image, 30, 70, (0, 102, 255, 255), tolerance: 0, "ring at 9 o'clock")
        expectPixel(image, 70, 30, (217, 217, 217, 255), tolerance: 0, "track at 12 o'clock")
        expectPixel(image, 70, 70, white, tolerance: 0, "inside the ring")
        // The star's middle is filled yellow.
        expectPixel(image, 180, 72, (255, 204, 0, 255), tolerance: 0, "star fill")
        // The rotated square: its centre (275, 60) is filled, its unrotated corner (256, 41) is not.
        expectPixel(image, 275, 60, (230, 26, 51, 255), tolerance: 1, "square centre")
        expectPixel(image, 257, 42, white, tolerance: 0, "square's unrotated corner")
        // Axial orange → purple, left to right; the rounded corner cuts (20, 140).
        let t = (80.5 - 20) / 120
        expectPixel(
            image, 80, 180,
            (Int((255 * (1 - t * 0.5)).rounded()), Int((127.5 * (1 - t)).rounded()), Int((255 * t).rounded()), 255),
            tolerance: 2, "axial middle")
        expectPixel(image, 20, 140, white, tolerance: 0, "axial's rounded corner")
        // Radial: white at the centre (190, 180).
        expectPixel(image, 190, 180, white, tolerance: 6, "radial centre (t = 0.018 at the pixel's centre)")
        // Conic about (275, 180): red just below the +x axis.
        expectPixel(image, 300, 181, (255, 0, 0, 255), tolerance: 40, "conic start")

        let result = try ImageComparison(channelTolerance: 4, maxDifferingPixels: 0)
            .compare(image, goldenPath: SceneTests.golden.appendingPathComponent("shapes-gradients.png").path)
        #expect(result.matches, "against Golden/shapes-gradients.png: \(result)")

        let report = server.stop()
        #expect(report.validationMessages.isEmpty, "validation: \(report.validationMessages)")
        #expect(report.exitStatus == 0, "laminad exit status \(report.exitStatus)\n\(report.log)")
    }
}

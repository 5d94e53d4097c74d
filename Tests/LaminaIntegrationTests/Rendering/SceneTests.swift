import Foundation
import Lamina
import LaminaTesting
import Testing

/// End to end: a client commits a scene to a real laminad on a temporary socket, captures it, and the
/// pixels are checked against what the geometry predicts and against a reviewed golden image.
@Suite(.serialized) final class SceneTests {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 320, height: 240)
    }

    deinit {
        server.stop()
    }

    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor {
        CGColor(red: r, green: g, blue: b, alpha: a)
    }

    /// White root; rounded red layer with a blue border; half-transparent green over it; a yellow square
    /// rotated 45°; a rounded clipping layer with an oversized magenta child; a rotated clipping layer
    /// with an oversized cyan child.
    static func makeScene() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
        root.backgroundColor = color(1, 1, 1)

        let red = CALayer()
        red.name = "red"
        red.frame = CGRect(x: 20, y: 20, width: 120, height: 80)
        red.backgroundColor = color(1, 0, 0)
        red.cornerRadius = 20
        red.borderWidth = 4
        red.borderColor = color(0, 0, 1)
        root.addSublayer(red)

        let green = CALayer()
        green.name = "green"
        green.frame = CGRect(x: 100, y: 60, width: 100, height: 80)
        green.backgroundColor = color(0, 1, 0)
        green.opacity = 0.5
        root.addSublayer(green)

        let yellow = CALayer()
        yellow.name = "yellow"
        yellow.frame = CGRect(x: 220, y: 20, width: 60, height: 60)
        yellow.backgroundColor = color(1, 1, 0)
        yellow.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        root.addSublayer(yellow)

        let clip = CALayer()
        clip.name = "clip"
        clip.frame = CGRect(x: 20, y: 130, width: 120, height: 90)
        clip.cornerRadius = 16
        clip.masksToBounds = true
        root.addSublayer(clip)
        let magenta = CALayer()
        magenta.frame = CGRect(x: -20, y: -20, width: 200, height: 200)
        magenta.backgroundColor = color(1, 0, 1)
        clip.addSublayer(magenta)

        let rotatedClip = CALayer()
        rotatedClip.name = "rotatedClip"
        rotatedClip.frame = CGRect(x: 200, y: 140, width: 80, height: 60)
        rotatedClip.masksToBounds = true
        rotatedClip.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 6))
        root.addSublayer(rotatedClip)
        let cyan = CALayer()
        cyan.frame = CGRect(x: -40, y: -40, width: 160, height: 140)
        cyan.backgroundColor = color(0, 1, 1)
        rotatedClip.addSublayer(cyan)
        return root
    }

    @Test func sceneMatchesGeometryAndGolden() throws {
        let context = try server.connect(name: "scene")
        context.layer = Self.makeScene()
        let image = try context.capture()
        try image.writePNG(to: server.directory.appendingPathComponent("scene.png").path)

        let white = (255, 255, 255, 255)
        // The rounded, bordered red layer.
        expectPixel(image, 70, 50, (255, 0, 0, 255), tolerance: 0, "inside red")
        expectPixel(image, 21, 60, (0, 0, 255, 255), tolerance: 0, "red's left border (x 20..<24)")
        expectPixel(image, 70, 98, (0, 0, 255, 255), tolerance: 0, "red's bottom border (y 96..<100)")
        expectPixel(image, 25, 60, (255, 0, 0, 255), tolerance: 0, "just inside the border")
        // The corner circle is centred at (40, 40) with radius 20: (22, 22) is 25.5 px from it.
        expectPixel(image, 22, 22, white, tolerance: 0, "just outside red's rounded corner")
        expectPixel(image, 19, 60, white, tolerance: 0, "just left of red")
        // Green at opacity 0.5 over red, and over white.
        expectPixel(image, 120, 80, (128, 128, 0, 255), "50 % green over red")
        expectPixel(image, 170, 120, (128, 255, 128, 255), "50 % green over white")
        // The yellow square rotated 45° about its centre (250, 50): a diamond reaching 42.4 px out.
        expectPixel(image, 250, 50, (255, 255, 0, 255), tolerance: 0, "yellow centre")
        expectPixel(image, 250, 12, (255, 255, 0, 255), tolerance: 0, "yellow top tip (the diamond reaches y 7.6)")
        expectPixel(image, 222, 22, white, tolerance: 0, "unrotated corner of yellow is uncovered")
        // Rounded clip: magenta fills the clip rect except its rounded corners.
        expectPixel(image, 80, 175, (255, 0, 255, 255), tolerance: 0, "magenta inside the clip")
        expectPixel(image, 21, 131, white, tolerance: 0, "magenta cut by the clip's rounded corner")
        expectPixel(image, 145, 175, white, tolerance: 0, "magenta cut by the clip's right edge")
        expectPixel(image, 80, 125, white, tolerance: 0, "magenta cut by the clip's top edge")
        // Rotated clip (30° about (240, 170)): cyan only inside the rotated rectangle.
        expectPixel(image, 240, 170, (0, 255, 255, 255), tolerance: 0, "cyan at the rotated clip's centre")
        // The unrotated clip's top-left corner (200, 140) lies outside the rotated rectangle.
        expectPixel(image, 202, 142, white, tolerance: 0, "cyan cut by the rotated clip")

        let result = try ImageComparison(channelTolerance: 4, maxDifferingPixels: 0)
            .compare(image, goldenPath: Self.golden.appendingPathComponent("scene.png").path)
        #expect(result.matches, "against Golden/scene.png: \(result)")

        let report = server.stop()
        #expect(report.validationMessages.isEmpty, "validation: \(report.validationMessages)")
        #expect(report.exitStatus == 0, "laminad exit status \(report.exitStatus)\n\(report.log)")
    }
}

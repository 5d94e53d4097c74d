import Foundation
import Lamina
import LaminaTesting
import Testing

/// End to end: CAReplicatorLayer set up by a client as Apple code would (E16's reflection and an
/// activity spinner), drawn by a real laminad and captured at chosen media times, checked against the
/// pixels the geometry and the timing model predict.
@Suite(.serialized) final class ReplicatorSceneTests {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 200, height: 120)
    }

    deinit {
        server.stop()
    }

    static func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor {
        CGColor(red: r, green: g, blue: b, alpha: a)
    }

    @Test func reflectionAndSpinnerFromTheClient() throws {
        let context = try server.connect(name: "replicators")
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 120)
        root.backgroundColor = Self.color(1, 1, 1)

        // E16: a 40×20 picture (green over blue) and its reflection 2 points below at alpha 0.4.
        let reflection = CAReplicatorLayer()
        reflection.frame = CGRect(x: 10, y: 10, width: 40, height: 20)
        reflection.instanceCount = 2
        reflection.instanceTransform = CATransform3DScale(CATransform3DMakeTranslation(0, 20 + 2, 0), 1, -1, 0)
        reflection.instanceAlphaOffset = -0.6
        let top = CALayer()
        top.frame = CGRect(x: 0, y: 0, width: 40, height: 10)
        top.backgroundColor = Self.color(0, 1, 0)
        let bottom = CALayer()
        bottom.frame = CGRect(x: 0, y: 10, width: 40, height: 10)
        bottom.backgroundColor = Self.color(0, 0, 1)
        reflection.addSublayer(top)
        reflection.addSublayer(bottom)
        root.addSublayer(reflection)

        // The spinner: 12 black bars about (150, 60), each fading 1 → 0 over 1.2 s, 0.1 s apart.
        let spinner = CAReplicatorLayer()
        spinner.frame = CGRect(x: 100, y: 10, width: 100, height: 100)
        spinner.instanceCount = 12
        spinner.instanceTransform = CATransform3DMakeRotation(2 * .pi / 12, 0, 0, 1)
        spinner.instanceDelay = 0.1
        let bar = CALayer()
        bar.frame = CGRect(x: 46, y: 5, width: 8, height: 20)
        bar.backgroundColor = Self.color(0, 0, 0)
        spinner.addSublayer(bar)
        root.addSublayer(spinner)
        context.layer = root
        try context.synchronize()

        let begin = CACurrentMediaTime() + 10
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0
        fade.duration = 1.2
        fade.repeatCount = .infinity
        fade.beginTime = begin
        fade.timingFunction = CAMediaTimingFunction(name: .linear)
        bar.add(fade, forKey: "fade")
        try context.synchronize()

        let time = begin + 5.03
        let image = try context.capture(at: time)
        try image.writePNG(to: server.directory.appendingPathComponent("replicators.png").path)

        // The reflection: green 10..<20, blue 20..<30, white 30..<32, faded blue 32..<42 and faded
        // green 42..<52 (0.4 of the colour over white: 255 − 102 = 153 where the colour is 0).
        expectPixel(image, 30, 15, (0, 255, 0), tolerance: 1, "picture's green")
        expectPixel(image, 30, 25, (0, 0, 255), tolerance: 1, "picture's blue")
        expectPixel(image, 30, 31, (255, 255, 255), tolerance: 1, "the 2-point gap")
        expectPixel(image, 30, 36, (153, 153, 255), tolerance: 2, "reflected blue")
        expectPixel(image, 30, 47, (153, 255, 153), tolerance: 2, "reflected green")
        expectPixel(image, 30, 53, (255, 255, 255), tolerance: 1, "below the reflection")

        // Bar k at 35 points from the spinner's centre (150, 60), turned k·30° clockwise, shows the
        // animation 0.1·k s behind: black at opacity 1 − ((5.03 − 0.1·k) mod 1.2) / 1.2 over white.
        for k in 0..<12 {
            let phase = (5.03 - 0.1 * Double(k)).truncatingRemainder(dividingBy: 1.2)
            let opacity = 1 - phase / 1.2
            let angle = 2 * Double.pi * Double(k) / 12
            let x = Int((150 + 35 * sin(angle)).rounded(.down))
            let y = Int((60 - 35 * cos(angle)).rounded(.down))
            let value = Int((255 * (1 - opacity)).rounded())
            expectPixel(image, x, y, (value, value, value), tolerance: 3, "bar \(k)")
        }

        let report = server.stop()
        #expect(report.validationMessages.isEmpty, "validation: \(report.validationMessages)")
        #expect(report.exitStatus == 0, "laminad exit status \(report.exitStatus)\n\(report.log)")
    }
}

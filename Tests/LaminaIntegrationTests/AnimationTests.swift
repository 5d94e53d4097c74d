import Foundation
import Lamina
import LaminaTesting
import Testing

/// Animations end to end: a client adds animations, the real laminad evaluates them at capture
/// times passed in (no sleeps), and the pixels show the values the timing model predicts.
@Suite(.serialized) final class AnimationTests {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 200, height: 100)
    }

    deinit {
        server.stop()
    }

    static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// A white 200×100 root with a red 40×40 box at (20, 30), committed.
    func makeScene(_ context: CAContext) throws -> (root: CALayer, box: CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = Self.white
        let box = CALayer()
        box.frame = CGRect(x: 20, y: 30, width: 40, height: 40)
        box.backgroundColor = Self.red
        root.addSublayer(box)
        context.layer = root
        try context.synchronize()
        return (root, box)
    }

    func red(_ image: CGImage, _ x: Int, _ y: Int) -> Int { Int(image.pixel(x: x, y: y).red) }
    func green(_ image: CGImage, _ x: Int, _ y: Int) -> Int { Int(image.pixel(x: x, y: y).green) }

    func finish() {
        let report = server.stop()
        #expect(report.validationMessages.isEmpty, "validation: \(report.validationMessages)")
        #expect(report.exitStatus == 0, "laminad exit status \(report.exitStatus)\n\(report.log)")
    }

    /// E33: a 1 s explicit fade from 1 to 0, then the model set to 0: half-way the red box is half
    /// transparent over white; after the end it stays invisible.
    @Test func explicitFadeE33() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        let t0 = CACurrentMediaTime() + 10
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 1
        fade.beginTime = t0
        box.add(fade, forKey: "opacity")
        box.opacity = 0
        try context.synchronize()

        // Before the begin time (no backwards fill) the model value, 0, shows: white.
        #expect(green(try context.capture(at: t0 - 0.5), 40, 50) == 255)
        // At t0 + 0.25 opacity is 0.75: green = 255 × 0.25.
        #expect(abs(green(try context.capture(at: t0 + 0.25), 40, 50) - 64) <= 1)
        #expect(abs(green(try context.capture(at: t0 + 0.5), 40, 50) - 128) <= 1)
        // After the end, the model value 0: white.
        #expect(green(try context.capture(at: t0 + 1.5), 40, 50) == 255)
        // The client's presentation layer computes the same value.
        let presented = try #require(box.presentation(at: t0 + 0.25))
        #expect(abs(presented.opacity - 0.75) < 1e-6)
        finish()
    }

    /// E32: an implicit fade on a committed standalone layer: the model reads 0 at once, the screen
    /// fades over 0.25 s with the default timing function from the commit.
    @Test func implicitFadeE32() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        box.opacity = 0
        #expect(box.opacity == 0)
        let keys = box.animationKeys()
        #expect(keys == ["opacity"])
        let animation = try #require(box.animation(forKey: "opacity") as? CABasicAnimation)
        #expect(animation.duration == 0.25)
        CATransaction.flush()
        let presented = try #require(box.presentation())
        // Right after the commit the layer is still (nearly) opaque.
        #expect(presented.opacity > 0.5)
        try context.synchronize()
        let start = try #require(box.animation(forKey: "opacity")).beginTime
        #expect(start > 0)
        // At start + 0.25 × 0.5 the default curve (0.25, 0.1, 0.25, 1) has progressed to 0.802...
        let eased = CAMediaTimingFunction(name: .default).evaluate(0.5)
        let image = try context.capture(at: start + 0.125)
        let expected = Int((255 * eased).rounded())
        #expect(abs(green(image, 40, 50) - expected) <= 1, "got \(green(image, 40, 50)), expected \(expected)")
        finish()
    }
}

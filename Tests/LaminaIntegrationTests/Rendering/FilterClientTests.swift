import Foundation
import Lamina
import LaminaTesting
import Testing

/// Layer filters from the client through `laminad`: a `CIGaussianBlur` in `filters` (Core Image's
/// `inputRadius`, the Gaussian's standard deviation in points), its radius animated through
/// `filters.blur.inputRadius` and captured at chosen media times, a filter the server does not draw
/// (`CIPixellate`) ignored, and a `compositingFilter` given as Core Animation's string
/// `"multiplyBlendMode"`. Every value is compared with the formula computed here.
@Suite final class FilterClientTests: AnimationSuite {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 200, height: 100)
    }

    deinit {
        server.stop()
    }

    /// The green channel at (x, 50) of a red 40×40 box at (20, 30) on white, blurred with `sigma`:
    /// 255 × (1 − the blurred coverage).
    static func blurredGreen(_ x: Int, sigma: Double) -> Int {
        let c =
            BlurPixelTests.coverage(Double(x) + 0.5, 20, 60, sigma: sigma)
            * BlurPixelTests.coverage(50.5, 30, 70, sigma: sigma)
        return Int((255 * (1 - c)).rounded())
    }

    @Test func blurAnimatedRadiusIgnoredFilterAndBlendMode() throws {
        let context = try server.connect()
        let box = CALayer()
        box.frame = CGRect(x: 20, y: 30, width: 40, height: 40)
        box.backgroundColor = Self.red
        let blur = try #require(CIFilter(name: "CIGaussianBlur"))
        blur.name = "blur"
        blur.setValue(4, forKey: kCIInputRadiusKey)
        box.filters = [blur]
        let other = CALayer()
        other.frame = CGRect(x: 120, y: 30, width: 40, height: 40)
        other.backgroundColor = Self.blue
        other.filters = [try #require(CIFilter(name: "CIPixellate"))]
        let tint = CALayer()
        tint.frame = CGRect(x: 130, y: 40, width: 20, height: 20)
        tint.backgroundColor = CGColor(red: 0.5, green: 1, blue: 0.5, alpha: 1)
        tint.compositingFilter = "multiplyBlendMode"
        try makeScene(context, [box, other, tint])
        let still = try context.capture()
        try still.writePNG(to: NSTemporaryDirectory() + "filter-client.png")
        for x in [14, 17, 20, 23] {
            #expect(abs(green(still, x, 50) - Self.blurredGreen(x, sigma: 4)) <= 2, "x \(x), σ 4")
        }
        // CIPixellate is not drawn: the blue box's edges stay sharp.
        #expect(rgb(still, 119, 35) == (255, 255, 255))
        #expect(rgb(still, 120, 35) == (0, 0, 255))
        // Multiply: (0.5, 1, 0.5) × blue (0, 0, 1) = (0, 0, 0.5); the normal composite would be the tint.
        let multiplied = rgb(still, 140, 50)
        #expect(multiplied.r <= 1 && multiplied.g <= 1 && abs(multiplied.b - 128) <= 2, "\(multiplied)")

        // The radius from 2 to 10, linear over one second: σ = 4 at a quarter, 6 at a half.
        let grow = CABasicAnimation(keyPath: "filters.blur.inputRadius")
        grow.fromValue = 2
        grow.toValue = 10
        grow.duration = 1
        grow.timingFunction = CAMediaTimingFunction(name: .linear)
        grow.beginTime = CACurrentMediaTime() + 10
        box.add(grow, forKey: "grow")
        try context.synchronize()
        for (fraction, sigma) in [(0.25, 4.0), (0.5, 6.0)] {
            let frame = try context.capture(at: grow.beginTime + fraction)
            for x in [12, 17, 22] {
                #expect(abs(green(frame, x, 50) - Self.blurredGreen(x, sigma: sigma)) <= 2, "x \(x), σ \(sigma)")
            }
        }
        // The model keeps the radius it was given.
        #expect((box.value(forKeyPath: "filters.blur.inputRadius") as? NSNumber)?.doubleValue == 4)

        let report = server.stop()
        #expect(report.validationMessages.isEmpty, "validation: \(report.validationMessages)")
        #expect(report.exitStatus == 0, "laminad exit status \(report.exitStatus)\n\(report.log)")
    }
}

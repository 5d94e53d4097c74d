import Foundation
import Lamina
import LaminaTesting
import Testing

/// KeyframeExampleTests E38, E39: paced animation groups.
extension KeyframeExampleTests {
    // MARK: - E38, E39: paced groups

    /// E38: `borderWidth` values [1, 10, 5, 30, 0.5, 15, 2, 50, 0] and `borderColor` values
    /// [green, red, blue], both paced, in a group (colour first) of duration 5, key
    /// "BorderChanges". Paced width: the steps are 9, 5, 25, 29.5, 14.5, 13, 48, 50, total 194,
    /// cumulative 0, 9, 14, 39, 68.5, 83, 96, 144, 194; at constant speed 194/5 = 38.8 per second:
    /// - 0.25 s → 9.7: 0.7 into 10 → 5, width 9.3;
    /// - 1.25 s → 48.5: 9.5 into 30 → 0.5, width 20.5;
    /// - 2.5 s → 97: 1 into 2 → 50, width 3;
    /// - 3.75 s → 145.5: 1.5 into 50 → 0, width 48.5.
    /// Paced colour: green→red and red→blue are equally far (√2), so red comes at 2.5 s; at
    /// 1.25 s the colour is (0.5, 0.5, 0), at 3.75 s (0.5, 0, 0.5).
    @Test func borderGroupE38() throws {
        let context = try server.connect()
        // 120×110 with no background, over white: the border is drawn inside the bounds.
        let frame = CGRect(x: 100, y: 60, width: 120, height: 110)
        let layer = Self.box(frame, nil)
        try makeScene(context, [layer])
        let t0 = CACurrentMediaTime() + 10
        let width = CAKeyframeAnimation(keyPath: "borderWidth")
        width.values = [1.0, 10.0, 5.0, 30.0, 0.5, 15.0, 2.0, 50.0, 0.0]
        width.calculationMode = .paced
        let colour = CAKeyframeAnimation(keyPath: "borderColor")
        colour.values = [Self.green, Self.red, Self.blue]
        colour.calculationMode = .paced
        let group = CAAnimationGroup()
        group.animations = [colour, width]
        group.duration = 5.0
        group.beginTime = t0
        layer.add(group, forKey: "BorderChanges")
        try context.synchronize()
        #expect(layer.animationKeys() == ["BorderChanges"])

        for (time, expected) in [(0.0, 1.0), (0.25, 9.3), (1.25, 20.5), (2.5, 3.0), (3.75, 48.5)] {
            let w = try #require(layer.presentation(at: t0 + time)).borderWidth
            #expect(abs(Double(w) - expected) < 1e-6, "borderWidth \(w) at \(time) s, expected \(expected)")
        }
        expectColor(layer.presentation(at: t0)?.borderColor, [0, 1, 0, 1])
        expectColor(layer.presentation(at: t0 + 1.25)?.borderColor, [0.5, 0.5, 0, 1])
        expectColor(layer.presentation(at: t0 + 2.5)?.borderColor, [1, 0, 0, 1])
        expectColor(layer.presentation(at: t0 + 3.75)?.borderColor, [0.5, 0, 0.5, 1])
        // After the group: the model, no border.
        #expect(try #require(layer.presentation(at: t0 + 5.5)).borderWidth == 0)

        // Pixels along row 115 (the middle; the inner hole is at least 13 pt tall there).
        // 2.5 s: a 3 pt red border: columns 100–102 and 217–219 red, 103 and 216 white.
        let a = try context.capture(at: t0 + 2.5)
        for x in [100, 102, 217, 219] { expectPixel(a, x, 115, (255, 0, 0)) }
        for x in [99, 103, 160, 216, 220] { expectPixel(a, x, 115, (255, 255, 255)) }
        // 1.25 s: 20.5 pt of (0.5, 0.5, 0): columns 100–119 olive, 121 white.
        let b = try context.capture(at: t0 + 1.25)
        for x in [100, 110, 119, 200, 219] { expectPixel(b, x, 115, (128, 128, 0)) }
        for x in [121, 160, 198] { expectPixel(b, x, 115, (255, 255, 255)) }
        // 3.75 s: 48.5 pt of (0.5, 0, 0.5): columns 100–147 purple, the hole 148.5…171.5.
        let c = try context.capture(at: t0 + 3.75)
        for x in [100, 147, 172, 219] { expectPixel(c, x, 115, (128, 0, 128)) }
        for x in [149, 160, 170] { expectPixel(c, x, 115, (255, 255, 255)) }
        // Before the begin and after the end: no border at all.
        for time in [-1.0, 5.5] {
            let image = try context.capture(at: t0 + time)
            expectPixel(image, 100, 115, (255, 255, 255))
            expectPixel(image, 160, 60, (255, 255, 255))
        }
        finish()
    }

    /// E39: position along E36's path (scaled by 0.3 as in `keyframePathSwiftE36`, one segment,
    /// linear) plus paced `backgroundColor` keyframes [red, yellow, cyan], group duration 5, key
    /// "group"; both children take the group's duration. Paced colour: red→yellow is 1 apart,
    /// yellow→cyan √2 (Euclidean RGBA distance), so yellow comes at fraction 1/(1 + √2) = √2 − 1.
    /// - 1.25 s (fraction 0.25): (0.25/(√2 − 1)) = 0.60355 of red→yellow: (1, 0.60355, 0); the
    ///   position is B(0.25) = (43.59375, 23.90625);
    /// - 2.5 s (fraction 0.5): the distance travelled is 0.5(1 + √2) = 1.20711, 0.20711 of √2 past
    ///   yellow, i.e. 0.146447 of yellow→cyan: (0.853553, 1, 0.146447); position (78.75, 67.5);
    /// - 5·√2/2 s (fraction √2/2): distance (1 + √2)·√2/2 = 1 + √2/2, half-way to cyan:
    ///   (0.5, 1, 0.5).
    @Test func positionAndColourGroupE39() throws {
        let context = try server.connect()
        let layer = Self.box(CGRect(x: 250, y: 180, width: 20, height: 20), Self.blue)
        try makeScene(context, [layer])
        let t0 = CACurrentMediaTime() + 10
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addCurve(to: CGPoint(x: 90, y: 180), control1: CGPoint(x: 60, y: 15), control2: CGPoint(x: 120, y: 105))
        let position = CAKeyframeAnimation(keyPath: "position")
        position.path = path
        let colour = CAKeyframeAnimation(keyPath: "backgroundColor")
        colour.values = [Self.red, Self.yellow, Self.cyan]
        colour.calculationMode = .paced
        let group = CAAnimationGroup()
        group.animations = [position, colour]
        group.duration = 5.0
        group.beginTime = t0
        layer.add(group, forKey: "group")
        try context.synchronize()
        #expect(layer.animationKeys() == ["group"])

        let a = try #require(layer.presentation(at: t0 + 1.25))
        expectPoint(a.position, CGPoint(x: 43.59375, y: 23.90625))
        expectColor(a.backgroundColor, [1, 0.25 / (2.0.squareRoot() - 1), 0, 1])
        let b = try #require(layer.presentation(at: t0 + 2.5))
        expectPoint(b.position, CGPoint(x: 78.75, y: 67.5))
        let past = (0.5 * (1 + 2.0.squareRoot()) - 1) / 2.0.squareRoot()
        expectColor(b.backgroundColor, [1 - past, 1, past, 1])
        let late = t0 + 5 * 2.0.squareRoot() / 2
        let c = try #require(layer.presentation(at: late))
        expectColor(c.backgroundColor, [0.5, 1, 0.5, 1])
        let cPoint = Self.bezier(
            CGPoint(x: 0, y: 0), CGPoint(x: 60, y: 15), CGPoint(x: 120, y: 105),
            CGPoint(x: 90, y: 180), 2.0.squareRoot() / 2)
        expectPoint(c.position, cPoint)

        // Pixels: at 1.25 s the 20×20 box (no blue in (1, 0.60355, 0)) is centred on the curve, and
        // its centre pixel is (255, 154, 0).
        let image = try context.capture(at: t0 + 1.25)
        expectInkCentre(image, CGPoint(x: 43.59375, y: 23.90625), area: 400, blue: true)
        expectPixel(image, 43, 23, (255, 154, 0))
        let lateImage = try context.capture(at: late)
        expectPixel(lateImage, Int(cPoint.x), Int(cPoint.y), (128, 255, 128))
        // Model after the end: blue at (260, 190).
        expectPixel(try context.capture(at: t0 + 6), 260, 190, (0, 0, 255))
        finish()
    }
}

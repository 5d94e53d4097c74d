import Foundation
import Lamina
import LaminaTesting
import Testing

/// The keyframe, path and group examples E35–E43 of the spec (§9.4), end to end: a client builds
/// each animation with the public API as the example does, commits it to a real laminad, and the
/// test checks the client's presentation values at chosen media times and the pixels the server
/// renders at the same times (captures take the time, so nothing sleeps).
///
/// Expected numbers are derived by hand in the comments. A cubic Bézier is
/// B(t) = (1−t)³P0 + 3(1−t)²t P1 + 3(1−t)t² P2 + t³P3, so B(0.5) = (P0 + 3P1 + 3P2 + P3)/8 and
/// B(0.25) = (27P0 + 27P1 + 9P2 + P3)/64; its tangent is
/// B'(t) = 3(1−t)²(P1−P0) + 6(1−t)t(P2−P1) + 3t²(P3−P2). Layer geometry is y-down, and a rotation
/// by θ has m11 = cos θ, m12 = sin θ (Apple's row-vector matrices, decisions.md A1), which turns
/// the x axis towards +y, i.e. clockwise on screen.
@Suite(.serialized) final class KeyframeExampleTests: AnimationSuite {
    let server: TestServer
    /// The display's size: 320×240.
    static let displaySize = CGSize(width: 320, height: 240)

    init() throws {
        server = try TestServer(width: 320, height: 240)
    }

    deinit {
        server.stop()
    }

    static let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    static let yellow = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
    static let cyan = CGColor(red: 0, green: 1, blue: 1, alpha: 1)

    // MARK: - Helpers

    static func box(_ frame: CGRect, _ color: CGColor?) -> CALayer {
        let layer = CALayer()
        layer.frame = frame
        layer.backgroundColor = color
        return layer
    }

    /// The cubic Bézier from `p0` to `p3` with control points `p1`, `p2` at parameter `t`.
    static func bezier(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, _ t: Double) -> CGPoint {
        let a = (1 - t) * (1 - t) * (1 - t), b = 3 * (1 - t) * (1 - t) * t, c = 3 * (1 - t) * t * t, d = t * t * t
        return CGPoint(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }

    /// A timing curve through (0,0), (x1,y1), (x2,y2), (1,1) at time fraction `x`, solved by plain
    /// bisection on the curve parameter: an independent check of `CAMediaTimingFunction`.
    static func ease(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double) -> Double {
        func coordinate(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<80 {
            let mid = (lo + hi) / 2
            if coordinate(x1, x2, mid) < x { lo = mid } else { hi = mid }
        }
        return coordinate(y1, y2, (lo + hi) / 2)
    }

    /// The ink-weighted centre of the image and the total ink (in pixels of full coverage), where a
    /// pixel's ink is `(255 − channel)/255` of one channel that is 255 on the white background and
    /// 0 in the box. The renderer covers axis-aligned rectangles exactly, so this is the box's
    /// centre to a small fraction of a pixel.
    func inkCentre(_ image: CGImage, blue: Bool = false) -> (x: Double, y: Double, ink: Double) {
        var sum = 0.0, sx = 0.0, sy = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                let ink = Double(255 - Int(blue ? p.blue : p.green)) / 255
                guard ink > 0 else { continue }
                sum += ink
                sx += ink * (Double(x) + 0.5)
                sy += ink * (Double(y) + 0.5)
            }
        }
        return sum > 0 ? (sx / sum, sy / sum, sum) : (.nan, .nan, 0)
    }

    func expectInkCentre(
        _ image: CGImage, _ expected: CGPoint, area: Double,
        blue: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let c = inkCentre(image, blue: blue)
        #expect(
            abs(c.x - expected.x) < 0.15 && abs(c.y - expected.y) < 0.15,
            "box centre (\(c.x), \(c.y)), expected \(expected)", sourceLocation: sourceLocation)
        #expect(abs(c.ink - area) < 1.5, "ink \(c.ink), expected \(area)", sourceLocation: sourceLocation)
    }

    func expectPoint(
        _ p: CGPoint?, _ expected: CGPoint, tolerance: Double = 1e-6,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let p else {
            Issue.record("no presentation layer", sourceLocation: sourceLocation)
            return
        }
        #expect(
            abs(p.x - expected.x) < tolerance && abs(p.y - expected.y) < tolerance,
            "\(p), expected \(expected)", sourceLocation: sourceLocation)
    }

    /// The z rotation of a transform that is a pure rotation about z: atan2(m12, m11).
    static func zAngle(_ t: CATransform3D) -> Double { atan2(Double(t.m12), Double(t.m11)) }

    /// Whether `t` is the identity up to `tolerance` in every field.
    static func isIdentity(_ t: CATransform3D, tolerance: Double = 1e-9) -> Bool {
        let a = [
            t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43,
            t.m44,
        ]
        let i: [CGFloat] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        return zip(a, i).allSatisfy { abs(Double($0 - $1)) < tolerance }
    }

    /// The RGBA components of a colour as Doubles.
    static func components(_ color: CGColor?) -> [Double] {
        (color?.components ?? []).map { Double($0) }
    }

    func expectColor(
        _ color: CGColor?, _ expected: [Double], tolerance: Double = 1e-6,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let got = Self.components(color)
        let ok = got.count == expected.count && zip(got, expected).allSatisfy { abs($0 - $1) < tolerance }
        #expect(ok, "colour \(got), expected \(expected)", sourceLocation: sourceLocation)
    }

    /// Checks a thin bar centred at `centre` and turned by `angle`: pixels on its axis at ±`reach`
    /// are red, pixels at ±`reach` along the other candidate direction `wrong` are white.
    func expectBar(
        _ image: CGImage, centre: CGPoint, angle: Double, wrong: Double, reach: [Double] = [-20, 20],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for d in reach {
            let on = (Int((centre.x + d * cos(angle)).rounded(.down)), Int((centre.y + d * sin(angle)).rounded(.down)))
            let off = (Int((centre.x + d * cos(wrong)).rounded(.down)), Int((centre.y + d * sin(wrong)).rounded(.down)))
            let a = rgb(image, on.0, on.1)
            let b = rgb(image, off.0, off.1)
            #expect(
                a.r > 240 && a.g < 40 && a.b < 40, "on the bar's axis at \(on): \(a)", sourceLocation: sourceLocation)
            #expect(b.r > 240 && b.g > 240 && b.b > 240, "off the bar at \(off): \(b)", sourceLocation: sourceLocation)
        }
    }

    /// Records delegate callbacks.
    final class Recorder: CAAnimationDelegate, @unchecked Sendable {
        let lock = NSLock()
        var events: [String] = []
        var snapshot: [String] { lock.withLock { events } }
        func animationDidStart(_ anim: CAAnimation) {
            lock.withLock { events.append("start \(anim.value(forKey: "tag") ?? "?")") }
        }
        func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
            lock.withLock { events.append("stop \(anim.value(forKey: "tag") ?? "?") \(flag)") }
        }
    }

    // MARK: - E35, E36: positions along paths

    /// E35, scaled by 1/2 to fit 320×240: from (37,37), a cubic with controls (37,250), (160,250)
    /// to (160,37), then one with controls (160,250), (283,250) to (283,37); duration 5, key
    /// "position". Lamina times each path element as one keyframe segment (linear mode, even key
    /// times; docs/animation.md, `PathTimeline.swift`), so the first arch takes
    /// 0…2.5 s and its midpoint (t = 0.5) comes at 1.25 s:
    /// x = (37 + 3·37 + 3·160 + 160)/8 = 788/8 = 98.5, y = (37 + 3·250 + 3·250 + 37)/8 = 196.75
    /// (the spec's 393.5, halved). The second arch's midpoint at 3.75 s:
    /// x = (160 + 3·160 + 3·283 + 283)/8 = 1772/8 = 221.5, y = 196.75.
    @Test func bounceAlongPathE35() throws {
        let context = try server.connect()
        let ball = Self.box(CGRect(x: 290, y: 200, width: 10, height: 10), Self.red)
        try makeScene(context, [ball])
        let t0 = CACurrentMediaTime() + 10
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 37, y: 37))
        path.addCurve(to: CGPoint(x: 160, y: 37), control1: CGPoint(x: 37, y: 250), control2: CGPoint(x: 160, y: 250))
        path.addCurve(to: CGPoint(x: 283, y: 37), control1: CGPoint(x: 160, y: 250), control2: CGPoint(x: 283, y: 250))
        let bounce = CAKeyframeAnimation(keyPath: "position")
        bounce.path = path
        bounce.duration = 5
        bounce.beginTime = t0
        ball.add(bounce, forKey: "position")
        try context.synchronize()
        #expect(ball.animationKeys() == ["position"])

        // Presentation: the start, both arches' lowest points, the top between them, the end.
        expectPoint(ball.presentation(at: t0)?.position, CGPoint(x: 37, y: 37))
        expectPoint(ball.presentation(at: t0 + 1.25)?.position, CGPoint(x: 98.5, y: 196.75))
        expectPoint(ball.presentation(at: t0 + 2.5)?.position, CGPoint(x: 160, y: 37))
        expectPoint(ball.presentation(at: t0 + 3.75)?.position, CGPoint(x: 221.5, y: 196.75))
        // A quarter into the first arch (t = 0.25 at 0.625 s): x = (27·37 + 27·37 + 9·160 + 160)/64
        // = 3598/64 = 56.21875, y = (27·37 + 27·250 + 9·250 + 37)/64 = 10036/64 = 156.8125.
        expectPoint(ball.presentation(at: t0 + 0.625)?.position, CGPoint(x: 56.21875, y: 156.8125))
        // No rotationMode: the transform stays identity.
        #expect(Self.isIdentity(try #require(ball.presentation(at: t0 + 1.25)).transform))
        // After the end (fill removed) the model position (295, 205) is back.
        expectPoint(ball.presentation(at: t0 + 6)?.position, CGPoint(x: 295, y: 205))

        // Pixels: the 10×10 red ball's centre (ink = 255 − green, 100 pixels of it).
        expectInkCentre(try context.capture(at: t0 + 1.25), CGPoint(x: 98.5, y: 196.75), area: 100)
        expectInkCentre(try context.capture(at: t0 + 2.5), CGPoint(x: 160, y: 37), area: 100)
        expectInkCentre(try context.capture(at: t0 + 3.75), CGPoint(x: 221.5, y: 196.75), area: 100)
        // Edges at the first arch's bottom: x 93.5…103.5, y 191.75…201.75. Pixel 94 is fully red,
        // pixel 93 half (green 255 × 0.5), pixel 191 a quarter (green 255 × 0.75 ≈ 191).
        let image = try context.capture(at: t0 + 1.25)
        expectPixel(image, 94, 196, (255, 0, 0))
        expectPixel(image, 93, 196, (255, 128, 128))
        expectPixel(image, 98, 191, (255, 191, 191))
        expectPixel(image, 92, 196, (255, 255, 255))
        expectInkCentre(try context.capture(at: t0 + 6), CGPoint(x: 295, y: 205), area: 100)
        finish()
    }

    /// E36, scaled by 0.3: from (0,0) a cubic with controls (60,15), (120,105) to (90,180)
    /// (the spec's (200,50), (400,350), (300,600) × 0.3); duration 2, key "position". One segment,
    /// so the curve parameter is the time fraction: at 0.5 s (t = 0.25)
    /// x = (27·0 + 27·60 + 9·120 + 90)/64 = 2790/64 = 43.59375,
    /// y = (27·0 + 27·15 + 9·105 + 180)/64 = 1530/64 = 23.90625; at 1 s (t = 0.5)
    /// x = (0 + 180 + 360 + 90)/8 = 78.75, y = (0 + 45 + 315 + 180)/8 = 67.5.
    @Test func keyframePathSwiftE36() throws {
        let context = try server.connect()
        let dot = Self.box(CGRect(x: 250, y: 180, width: 10, height: 10), Self.red)
        try makeScene(context, [dot])
        let t0 = CACurrentMediaTime() + 10
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addCurve(to: CGPoint(x: 90, y: 180), control1: CGPoint(x: 60, y: 15), control2: CGPoint(x: 120, y: 105))
        let animation = CAKeyframeAnimation(keyPath: "position")
        animation.path = path
        animation.duration = 2.0
        animation.beginTime = t0
        dot.add(animation, forKey: "position")
        try context.synchronize()

        expectPoint(dot.presentation(at: t0 + 0.5)?.position, CGPoint(x: 43.59375, y: 23.90625))
        expectPoint(dot.presentation(at: t0 + 1)?.position, CGPoint(x: 78.75, y: 67.5))
        // t = 0.75 at 1.5 s: x = (0 + 9·60 + 27·120 + 27·90)/64 = 6210/64 = 97.03125,
        // y = (0 + 9·15 + 27·105 + 27·180)/64 = 7830/64 = 122.34375.
        expectPoint(dot.presentation(at: t0 + 1.5)?.position, CGPoint(x: 97.03125, y: 122.34375))
        // Before the begin (no backwards fill) and after the end: the model position (255, 185).
        expectPoint(dot.presentation(at: t0 - 1)?.position, CGPoint(x: 255, y: 185))
        expectPoint(dot.presentation(at: t0 + 3)?.position, CGPoint(x: 255, y: 185))

        expectInkCentre(try context.capture(at: t0 + 0.5), CGPoint(x: 43.59375, y: 23.90625), area: 100)
        expectInkCentre(try context.capture(at: t0 + 1), CGPoint(x: 78.75, y: 67.5), area: 100)
        expectInkCentre(try context.capture(at: t0 + 1.5), CGPoint(x: 97.03125, y: 122.34375), area: 100)
        expectInkCentre(try context.capture(at: t0 + 3), CGPoint(x: 255, y: 185), area: 100)
        finish()
    }

    // MARK: - E37, E40: auto-rotation

    /// E37's path (fits the display unscaled): from (0,150) a cubic with controls (75,0),
    /// (225,300) to (300,150).
    static func shipPath() -> CGMutablePath {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 150))
        path.addCurve(to: CGPoint(x: 300, y: 150), control1: CGPoint(x: 75, y: 0), control2: CGPoint(x: 225, y: 300))
        return path
    }

    /// Along E37's path: at t = 0.5 the point is ((0 + 225 + 675 + 300)/8, (150 + 0 + 900 + 150)/8)
    /// = (150, 150) and the tangent 3/4·(75,−150) + 6/4·(150,300) + 3/4·(75,−150) = (337.5, 225),
    /// heading atan(2/3) ≈ 0.5880 (cos = 3/√13, sin = 2/√13). At t = 0.25: the point
    /// ((27·75 + 9·225 + 300)/64, (27·150 + 9·300 + 150)/64) = (67.96875, 107.8125) and the
    /// tangent 30/16·(75,−150) + 18/16·(150,300) = (309.375, 56.25), heading atan(2/11) ≈ 0.1799.
    static let shipMid = (point: CGPoint(x: 150, y: 150), angle: atan(2.0 / 3.0))
    static let shipQuarter = (point: CGPoint(x: 67.96875, y: 107.8125), angle: atan(2.0 / 11.0))

    static func shipAnimation(rotateAuto: Bool) -> CAKeyframeAnimation {
        let ship = CAKeyframeAnimation(keyPath: "position")
        ship.path = shipPath()
        ship.duration = 4.0
        if rotateAuto { ship.rotationMode = .rotateAuto }
        return ship
    }

    /// E37: a 60×6 red "ship" along the path over 4 s. With rotateAuto its rotation is the
    /// tangent's heading (at 2 s, t = 0.5: atan(2/3); at 1 s, t = 0.25: atan(2/11)); without it the
    /// transform stays identity and the ship keeps pointing right.
    @Test(arguments: [true, false]) func shipAlongPathE37(rotateAuto: Bool) throws {
        let context = try server.connect()
        let ship = Self.box(CGRect(x: 10, y: 10, width: 60, height: 6), Self.red)
        try makeScene(context, [ship])
        let t0 = CACurrentMediaTime() + 10
        let animation = Self.shipAnimation(rotateAuto: rotateAuto)
        animation.beginTime = t0
        ship.add(animation, forKey: "ship")
        try context.synchronize()

        for (time, expected) in [(2.0, Self.shipMid), (1.0, Self.shipQuarter)] {
            let presented = try #require(ship.presentation(at: t0 + time))
            expectPoint(presented.position, expected.point)
            if rotateAuto {
                let t = presented.transform
                #expect(abs(Double(t.m11) - cos(expected.angle)) < 1e-6, "m11 \(t.m11) at \(time) s")
                #expect(abs(Double(t.m12) - sin(expected.angle)) < 1e-6, "m12 \(t.m12) at \(time) s")
                #expect(abs(Double(t.m21) + sin(expected.angle)) < 1e-6, "m21 \(t.m21) at \(time) s")
                #expect(abs(Double(t.m22) - cos(expected.angle)) < 1e-6, "m22 \(t.m22) at \(time) s")
            } else {
                #expect(Self.isIdentity(presented.transform), "\(presented.transform) at \(time) s")
            }
        }
        // 2 s: sin = 2/√13 exactly.
        if rotateAuto {
            let t = try #require(ship.presentation(at: t0 + 2)).transform
            #expect(abs(Double(t.m12) - 2 / 13.0.squareRoot()) < 1e-6)
        }
        // After the end the model transform (identity) and position come back.
        let after = try #require(ship.presentation(at: t0 + 5))
        #expect(Self.isIdentity(after.transform))
        expectPoint(after.position, CGPoint(x: 40, y: 13))

        // Pixels at 2 s: along the heading (or along x without rotation) the bar is red, 20 pt out
        // along the other direction (11.1 pt off the true axis, the bar is 3 pt half-thick) white.
        let image = try context.capture(at: t0 + 2)
        let (heading, other) = rotateAuto ? (Self.shipMid.angle, 0.0) : (0.0, Self.shipMid.angle)
        expectBar(image, centre: Self.shipMid.point, angle: heading, wrong: other)
        let quarter = try context.capture(at: t0 + 1)
        let (h1, o1) =
            rotateAuto ? (Self.shipQuarter.angle, -Self.shipQuarter.angle) : (0.0, 2 * Self.shipQuarter.angle)
        expectBar(quarter, centre: Self.shipQuarter.point, angle: h1, wrong: o1, reach: [-25, 25])
        finish()
    }

    /// E40: the E37 keyframe (rotateAuto) plus a basic `backgroundColor` animation to red, in a
    /// group of duration 4 added with a nil key. The model colour is blue, so at 2 s (half-way)
    /// the colour is (0.5, 0, 0.5); the ship is at (150, 150) turned by atan(2/3).
    @Test func shipPlusColourGroupE40() throws {
        let context = try server.connect()
        let ship = Self.box(CGRect(x: 10, y: 10, width: 60, height: 6), Self.blue)
        try makeScene(context, [ship])
        let t0 = CACurrentMediaTime() + 10
        let colour = CABasicAnimation(keyPath: "backgroundColor")
        colour.toValue = Self.red
        let group = CAAnimationGroup()
        group.animations = [Self.shipAnimation(rotateAuto: true), colour]
        group.duration = 4.0
        group.beginTime = t0
        ship.add(group, forKey: nil)
        try context.synchronize()
        // A nil key: the animation runs but has no key.
        #expect(ship.animationKeys() == nil)

        let mid = try #require(ship.presentation(at: t0 + 2))
        expectPoint(mid.position, Self.shipMid.point)
        #expect(abs(Self.zAngle(mid.transform) - Self.shipMid.angle) < 1e-6)
        expectColor(mid.backgroundColor, [0.5, 0, 0.5, 1])
        // At 1 s: a quarter of the way from blue to red, on the quarter point of the path.
        let quarter = try #require(ship.presentation(at: t0 + 1))
        expectPoint(quarter.position, Self.shipQuarter.point)
        #expect(abs(Self.zAngle(quarter.transform) - Self.shipQuarter.angle) < 1e-6)
        expectColor(quarter.backgroundColor, [0.25, 0, 0.75, 1])
        // After the group: the model (blue, identity, at (40, 13)).
        let after = try #require(ship.presentation(at: t0 + 4.5))
        expectColor(after.backgroundColor, [0, 0, 1, 1])
        #expect(Self.isIdentity(after.transform))

        let image = try context.capture(at: t0 + 2)
        expectPixel(image, 150, 150, (128, 0, 128))
        // Along the heading the bar is purple, off it white.
        for d in [-20.0, 20.0] {
            let a = Self.shipMid.angle
            expectPixel(
                image, Int((150 + d * cos(a)).rounded(.down)), Int((150 + d * sin(a)).rounded(.down)), (128, 0, 128))
            expectPixel(image, Int(150 + d), 150, (255, 255, 255))
        }
        let end = try context.capture(at: t0 + 4.5)
        expectPixel(end, 40, 13, (0, 0, 255))
        expectPixel(end, 150, 150, (255, 255, 255))
        finish()
    }

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

    // MARK: - E41: a full turn with a virtual key path

    /// E41: `transform.rotation` by 2π over 2 s turns a layer once: π/2 at 0.5 s (m11 = 0,
    /// m12 = 1), π at 1 s, 3π/2 at 1.5 s. The 80×80 blue dial at (120,80) has a red 20×20 corner
    /// at its top left, centred (−30,−30) from the dial's centre (160,120), i.e. at (130,90) at
    /// rest. Turning by θ maps (x,y) to (x cos θ − y sin θ, x sin θ + y cos θ): π/2 puts the
    /// corner at (+30,−30) → (190,90) (clockwise, top right), π at (190,150), 3π/2 at (130,150).
    /// Then the same with `transform` matrices from identity to a 2π rotation: nothing moves.
    @Test func fullTurnVirtualKeyPathE41() throws {
        let context = try server.connect()
        let dial = Self.box(CGRect(x: 120, y: 80, width: 80, height: 80), Self.blue)
        dial.addSublayer(Self.box(CGRect(x: 0, y: 0, width: 20, height: 20), Self.red))
        try makeScene(context, [dial])
        let t0 = CACurrentMediaTime() + 10
        let turn = CABasicAnimation(keyPath: "transform.rotation")
        turn.byValue = 2 * Double.pi
        turn.duration = 2.0
        turn.beginTime = t0
        dial.add(turn, forKey: "spin")
        try context.synchronize()

        // (time, cos, sin, where the red corner is)
        let quarters: [(Double, Double, Double, (Int, Int))] = [
            (0, 1, 0, (130, 90)), (0.5, 0, 1, (190, 90)), (1, -1, 0, (190, 150)), (1.5, 0, -1, (130, 150)),
        ]
        let corners = [(130, 90), (190, 90), (190, 150), (130, 150)]
        for (time, c, s, corner) in quarters {
            let t = try #require(dial.presentation(at: t0 + time)).transform
            #expect(
                abs(Double(t.m11) - c) < 1e-7 && abs(Double(t.m12) - s) < 1e-7,
                "at \(time) s: m11 \(t.m11), m12 \(t.m12), expected \(c), \(s)")
            #expect(abs(Double(t.m21) + s) < 1e-7 && abs(Double(t.m22) - c) < 1e-7)
            let image = try context.capture(at: t0 + time)
            for other in corners {
                expectPixel(image, other.0, other.1, other == corner ? (255, 0, 0) : (0, 0, 255))
            }
            expectPixel(image, 160, 120, (0, 0, 255))
        }
        // 0.25 s: π/4, the corner's centre on the vertical through the dial's centre:
        // (−30·cos45° + 30·sin45°, −30·sin45° − 30·cos45°) = (0, −42.43) → (160, 77.6), which is
        // outside the unturned dial (top edge 80).
        let eighth = try #require(dial.presentation(at: t0 + 0.25)).transform
        #expect(abs(Self.zAngle(eighth) - Double.pi / 4) < 1e-7)
        expectPixel(try context.capture(at: t0 + 0.25), 160, 77, (255, 0, 0))
        // After the turn: the model (unturned).
        #expect(Self.isIdentity(try #require(dial.presentation(at: t0 + 3)).transform))

        // The same turn with whole matrices: identity → rotation(2π) interpolates between two
        // (numerically) identical matrices, so nothing moves.
        let matrices = CABasicAnimation(keyPath: "transform")
        matrices.fromValue = CATransform3DIdentity
        matrices.toValue = CATransform3DMakeRotation(2 * .pi, 0, 0, 1)
        matrices.duration = 2.0
        matrices.beginTime = t0
        dial.add(matrices, forKey: "spin")
        try context.synchronize()
        #expect(dial.animationKeys() == ["spin"])
        for time in [0.5, 1.0, 1.5] {
            let t = try #require(dial.presentation(at: t0 + time)).transform
            #expect(Self.isIdentity(t, tolerance: 1e-6), "at \(time) s: \(t)")
            let image = try context.capture(at: t0 + time)
            expectPixel(image, 130, 90, (255, 0, 0))
            expectPixel(image, 190, 150, (0, 0, 255))
        }
        finish()
    }

    // MARK: - E42: colour keyframes with per-segment easing

    /// E42: `backgroundColor` values [blue, red, green, blue] over 2 s with timingFunctions
    /// [easeIn ×3]. Key times are even (0, 1/3, 2/3, 1); in segment i at local fraction f the
    /// colour is the lerp at easeIn(f), easeIn being the curve (0.42, 0, 1, 1):
    /// - 0.5 s: fraction 0.25, segment 0, f = 0.75, e = easeIn(0.75) ≈ 0.62186: (e, 0, 1 − e);
    /// - 1.0 s: fraction 0.5, segment 1, f = 0.5, e ≈ 0.31536: (1 − e, e, 0);
    /// - 1.75 s: fraction 0.875, segment 2, f = 0.625, e ≈ 0.45947: (0, 1 − e, e).
    @Test func colourKeyframesEaseInE42() throws {
        let context = try server.connect()
        let layer = Self.box(CGRect(x: 140, y: 100, width: 40, height: 40), Self.blue)
        try makeScene(context, [layer])
        let t0 = CACurrentMediaTime() + 10
        let animation = CAKeyframeAnimation(keyPath: "backgroundColor")
        animation.values = [Self.blue, Self.red, Self.green, Self.blue]
        animation.duration = 2.0
        let easeIn = CAMediaTimingFunction(name: .easeIn)
        animation.timingFunctions = [easeIn, easeIn, easeIn]
        animation.beginTime = t0
        layer.add(animation, forKey: "backgroundColor")
        try context.synchronize()

        // The public curve agrees with an independent bisection, and with the rounded values above.
        for f in [0.75, 0.5, 0.625] {
            #expect(abs(easeIn.evaluate(f) - Self.ease(0.42, 0, 1, 1, f)) < 1e-6)
        }
        #expect(abs(Self.ease(0.42, 0, 1, 1, 0.75) - 0.62186) < 1e-5)
        #expect(abs(Self.ease(0.42, 0, 1, 1, 0.5) - 0.31536) < 1e-5)
        #expect(abs(Self.ease(0.42, 0, 1, 1, 0.625) - 0.45947) < 1e-5)

        let e0 = Self.ease(0.42, 0, 1, 1, 0.75)
        let e1 = Self.ease(0.42, 0, 1, 1, 0.5)
        let e2 = Self.ease(0.42, 0, 1, 1, 0.625)
        let cases: [(Double, [Double])] = [
            (0, [0, 0, 1, 1]), (0.5, [e0, 0, 1 - e0, 1]), (2.0 / 3, [1, 0, 0, 1]), (1.0, [1 - e1, e1, 0, 1]),
            (4.0 / 3, [0, 1, 0, 1]), (1.75, [0, 1 - e2, e2, 1]),
        ]
        for (time, expected) in cases {
            expectColor(layer.presentation(at: t0 + time)?.backgroundColor, expected)
            let image = try context.capture(at: t0 + time)
            let rgb = expected.prefix(3).map { Int((255 * $0).rounded()) }
            expectPixel(image, 160, 120, (rgb[0], rgb[1], rgb[2]), tolerance: 1)
        }
        // Not eased linearly: at 0.5 s a linear segment would give (0.75, 0, 0.25) = 191 red.
        #expect(abs(Int(try context.capture(at: t0 + 0.5).pixel(x: 160, y: 120).red) - 191) > 20)
        finish()
    }

    // MARK: - E43: custom Bézier easing on a transform

    /// E43: `transform` from the presentation layer's current transform (identity) to a z rotation
    /// by π/2, duration 0.5, timing function (1, 0, 0.75, 1), with a delegate; then the model
    /// transform is set to the same rotation. At time fraction x the angle is π/2 · c(x), c being
    /// the custom curve: c(0.25) ≈ 0.024777, c(0.5) ≈ 0.125754, c(0.75) ≈ 0.425048 (a strong
    /// ease-in). The 100×6 red bar centred at (160,120) shows the angle.
    @Test func customBezierEasingE43() throws {
        let context = try server.connect()
        let hand = Self.box(CGRect(x: 110, y: 117, width: 100, height: 6), Self.red)
        try makeScene(context, [hand])
        let angle = Double.pi / 2
        let rotation = CATransform3DMakeRotation(angle, 0, 0, 1)
        let recorder = Recorder()
        let t0 = CACurrentMediaTime() + 10

        func makeAnimation(begin: Double, tag: String) throws -> CABasicAnimation {
            let anim = CABasicAnimation(keyPath: "transform")
            // Boxed in NSValue, as the example does.
            anim.fromValue = NSValue(caTransform3D: try #require(hand.presentation()).transform)
            anim.toValue = NSValue(caTransform3D: rotation)
            anim.duration = 0.5
            anim.timingFunction = CAMediaTimingFunction(controlPoints: 1, 0, 0.75, 1)
            anim.delegate = recorder
            anim.setValue(tag, forKey: "tag")
            anim.beginTime = begin
            return anim
        }
        hand.add(try makeAnimation(begin: t0, tag: "future"), forKey: "transform")
        hand.transform = rotation
        try context.synchronize()
        // The explicit animation wins over the implicit one the model change would add.
        #expect(hand.animationKeys() == ["transform"])
        #expect(hand.animation(forKey: "transform")?.duration == 0.5)
        #expect(Self.zAngle(hand.transform) == Self.zAngle(rotation))

        let curve = CAMediaTimingFunction(controlPoints: 1, 0, 0.75, 1)
        let rounded: [Double: Double] = [0.25: 0.024777, 0.5: 0.125754, 0.75: 0.425048]
        for x in [0.25, 0.5, 0.75] {
            let c = Self.ease(1, 0, 0.75, 1, x)
            #expect(abs(c - rounded[x]!) < 1e-6)
            #expect(abs(curve.evaluate(x) - c) < 1e-6)
            let t = try #require(hand.presentation(at: t0 + 0.5 * x)).transform
            #expect(abs(Self.zAngle(t) - angle * c) < 1e-6, "at x = \(x): \(Self.zAngle(t)), expected \(angle * c)")
            #expect(abs(Double(t.m11) - cos(angle * c)) < 1e-6 && abs(Double(t.m33) - 1) < 1e-9)
        }
        // Before the begin (no backwards fill) and after the end: the model rotation.
        #expect(abs(Self.zAngle(try #require(hand.presentation(at: t0 - 1)).transform) - angle) < 1e-9)
        #expect(abs(Self.zAngle(try #require(hand.presentation(at: t0 + 1)).transform) - angle) < 1e-9)

        // Pixels at x = 0.75 (0.375 s): the bar is turned by π/2 · 0.425048 ≈ 0.6677 (38.3°); 30 pt
        // out along x (18.6 pt off its axis) is white. At 1 s: upright (the model).
        let turned = angle * Self.ease(1, 0, 0.75, 1, 0.75)
        expectBar(
            try context.capture(at: t0 + 0.375), centre: CGPoint(x: 160, y: 120), angle: turned, wrong: 0,
            reach: [-30, 30])
        expectBar(
            try context.capture(at: t0 + 1), centre: CGPoint(x: 160, y: 120), angle: angle, wrong: 0,
            reach: [-30, 30])
        // At x = 0.25 the bar has barely moved (2.2°): 30 pt out along x it is still red.
        expectBar(
            try context.capture(at: t0 + 0.125), centre: CGPoint(x: 160, y: 120), angle: 0, wrong: angle,
            reach: [-30, 30])

        // The delegate: replacing the pending animation stops it unfinished; one added already
        // over (begun 1 s ago) starts and finishes at the server's next frame.
        hand.add(try makeAnimation(begin: CACurrentMediaTime() - 1, tag: "past"), forKey: "transform")
        try context.synchronize()
        waitFor { recorder.snapshot.contains("stop past true") }
        #expect(recorder.snapshot == ["stop future false", "start past", "stop past true"])
        #expect(hand.animationKeys() == nil)
        // The model rotation stays on screen: the bar is upright.
        expectBar(try context.capture(), centre: CGPoint(x: 160, y: 120), angle: angle, wrong: 0, reach: [-30, 30])
        finish()
    }

    /// `NSValue(caTransform3D:)` boxes a transform (Foundation on Linux cannot box a struct type
    /// encoding, so Lamina's box uses an array of 16 doubles): it round-trips and animates like the
    /// bare value.
    @Test func nsValueTransformBox() throws {
        let rotation = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let box = NSValue(caTransform3D: rotation)
        #expect(abs(Double(box.caTransform3DValue.m12) - 1) < 1e-12)
        let context = try server.connect()
        let hand = Self.box(CGRect(x: 110, y: 117, width: 100, height: 6), Self.red)
        try makeScene(context, [hand])
        let t0 = CACurrentMediaTime() + 10
        let anim = CABasicAnimation(keyPath: "transform")
        anim.fromValue = NSValue(caTransform3D: CATransform3DIdentity)
        anim.toValue = box
        anim.duration = 1
        anim.beginTime = t0
        hand.add(anim, forKey: "transform")
        try context.synchronize()
        #expect(hand.animationKeys() == ["transform"])
        let t = try #require(hand.presentation(at: t0 + 0.5)).transform
        #expect(abs(Self.zAngle(t) - .pi / 4) < 1e-7)
        finish()
    }
}

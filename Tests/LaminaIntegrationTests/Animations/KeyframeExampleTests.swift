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
}

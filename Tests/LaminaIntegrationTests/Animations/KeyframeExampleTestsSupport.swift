import Foundation
import Lamina
import LaminaTesting
import Testing

/// What the KeyframeExampleTests files share: colours, boxes, curves, and checks of ink, points,
/// colours and bars in captures.
extension KeyframeExampleTests {
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
}

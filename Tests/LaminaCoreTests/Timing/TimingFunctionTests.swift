import Foundation
import LaminaCore
import Testing

/// Brute-force reference: y at x = `t` on the curve, found by bisecting the Bernstein form of x(s)
/// until the bracket on s is narrower than 1e-12. Independent of the implementation's power-basis
/// coefficients and Newton iteration.
///
/// Where x(s) is flat (x' = 0 at the root, as in the degenerate curves), rounding makes the
/// computed x(s) equal `t` over a whole range of s, of width up to about (1e-16)^(1/3) ≈ 5e-6.
/// The reference therefore bisects twice, for the first s with x(s) >= t and the last with
/// x(s) <= t, and takes y halfway between; and it answers the curve's end points (0, 0) and
/// (1, 1) directly, as the curve passes through them by definition.
private func referenceY(_ f: CAMediaTimingFunction, at t: Double) -> Double {
    let p = f.controlPoints
    func bernstein(_ s: Double, _ a: Double, _ b: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s
    }
    if t <= 0 { return 0 }
    if t >= 1 { return 1 }
    func bisect(_ below: (Double) -> Bool) -> Double {
        var lo = 0.0
        var hi = 1.0
        while hi - lo > 1e-12 {
            let mid = (lo + hi) / 2
            if below(bernstein(mid, p.c1x, p.c2x)) { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }
    let first = bisect { $0 < t }
    let last = bisect { $0 <= t }
    return bernstein((first + last) / 2, p.c1y, p.c2y)
}

/// 1,000 values of t spread over 0...1, both ends included.
private let thousandTimes: [Double] = (0..<1000).map { Double($0) / 999 }

private func point(_ f: CAMediaTimingFunction, _ index: Int) -> (Float, Float) {
    var values: [Float] = [.nan, .nan]
    f.getControlPoint(at: index, values: &values)
    return (values[0], values[1])
}

struct NamedCase: Sendable, CustomTestStringConvertible {
    let name: CAMediaTimingFunctionName
    let raw: String
    let c1: (Float, Float)
    let c2: (Float, Float)
    var testDescription: String { raw }
}

private let namedCases: [NamedCase] = [
    NamedCase(name: .linear, raw: "linear", c1: (0, 0), c2: (1, 1)),
    NamedCase(name: .easeIn, raw: "easeIn", c1: (0.42, 0), c2: (1, 1)),
    NamedCase(name: .easeOut, raw: "easeOut", c1: (0, 0), c2: (0.58, 1)),
    NamedCase(name: .easeInEaseOut, raw: "easeInEaseOut", c1: (0.42, 0), c2: (0.58, 1)),
    NamedCase(name: .default, raw: "default", c1: (0.25, 0.1), c2: (0.25, 1)),
]

struct Curve: Sendable, CustomTestStringConvertible {
    let points: (Float, Float, Float, Float)
    var function: CAMediaTimingFunction {
        CAMediaTimingFunction(controlPoints: points.0, points.1, points.2, points.3)
    }
    var testDescription: String { "(\(points.0), \(points.1), \(points.2), \(points.3))" }
    init(_ a: Float, _ b: Float, _ c: Float, _ d: Float) { points = (a, b, c, d) }
}

/// Curves whose y never decreases as x grows.
private let monotonicCurves: [Curve] = [
    Curve(0, 0, 1, 1), Curve(0.42, 0, 1, 1), Curve(0, 0, 0.58, 1), Curve(0.42, 0, 0.58, 1),
    Curve(0.25, 0.1, 0.25, 1), Curve(0.9, 0.1, 0.1, 0.9), Curve(1, 0, 0, 1), Curve(0, 1, 1, 0),
    Curve(0.7, 0, 0.84, 0), Curve(0.16, 1, 0.3, 1),
]

/// Curves where x(s) is flat somewhere, so Newton meets a zero slope or converges slowly.
private let degenerateCurves: [Curve] = [
    Curve(0, 0, 0, 0),  // c1 = c2 = (0, 0)
    Curve(1, 1, 1, 1),  // c1 = c2 = (1, 1)
    Curve(0, 1, 0, 1),  // c1x = c2x = 0, steep start
    Curve(0, 3, 0, 1),  // c1x = c2x = 0, steeper start with overshoot
    Curve(1, 0, 0, 1),  // x'(0.5) = 0: triple root in the middle
    Curve(1, 0, 1, 0),  // x flat at the end
    Curve(0, 0, 1, 0),  // x flat at both ends
    Curve(1, 1, 0, 0),  // x flat in the middle, y overshoots
]

@Suite("TimingFunctionTests")
struct TimingFunctionTests {
    // MARK: Names and control points

    @Test(arguments: namedCases)
    func nameRawValues(_ c: NamedCase) {
        #expect(c.name.rawValue == c.raw)
        #expect(CAMediaTimingFunctionName(c.raw) == c.name)
        #expect(CAMediaTimingFunctionName(rawValue: c.raw) == c.name)
    }

    @Test(arguments: namedCases)
    func namedControlPoints(_ c: NamedCase) {
        let f = CAMediaTimingFunction(name: c.name)
        #expect(point(f, 0) == (0, 0))
        #expect(point(f, 1) == c.c1)
        #expect(point(f, 2) == c.c2)
        #expect(point(f, 3) == (1, 1))
        #expect(f.isEqual(CAMediaTimingFunction(controlPoints: c.c1.0, c.c1.1, c.c2.0, c.c2.1)))
        #expect(f.hash == CAMediaTimingFunction(controlPoints: c.c1.0, c.c1.1, c.c2.0, c.c2.1).hash)
    }

    @Test func equalityIsByControlPoints() {
        let a = CAMediaTimingFunction(controlPoints: 0.1, 0.2, 0.3, 0.4)
        let b = CAMediaTimingFunction(controlPoints: 0.1, 0.2, 0.3, 0.4)
        let c = CAMediaTimingFunction(controlPoints: 0.1, 0.2, 0.3, 0.5)
        #expect(a.isEqual(b))
        #expect(a == b)
        #expect(a.hash == b.hash)
        #expect(!a.isEqual(c))
        #expect(!a.isEqual("not a timing function"))
        #expect(!a.isEqual(nil))
        #expect(Set([a, b, c]).count == 2)
    }

    @Test func xIsClampedYIsNot() {
        let f = CAMediaTimingFunction(controlPoints: -1, 0, 2, 1)
        #expect(point(f, 1) == (0, 0))
        #expect(point(f, 2) == (1, 1))
        #expect(f.controlPoints == (0, 0, 1, 1))
        #expect(f.isEqual(CAMediaTimingFunction(name: .linear)))

        let overshoot = CAMediaTimingFunction(controlPoints: 0.5, -0.5, 0.5, 1.5)
        #expect(point(overshoot, 1) == (0.5, -0.5))
        #expect(point(overshoot, 2) == (0.5, 1.5))
    }

    @Test func controlPointsAreWidenedAsWritten() {
        let p = CAMediaTimingFunction(name: .easeInEaseOut).controlPoints
        #expect(p == (0.42, 0, 0.58, 1))
    }

    // MARK: Evaluation

    @Test func linearIsTheIdentity() {
        let f = CAMediaTimingFunction(name: .linear)
        for t in thousandTimes + [1e-9, 1e-6, 0.5, 1 - 1e-9] {
            #expect(abs(f.evaluate(t) - t) <= 1e-12, "t = \(t)")
        }
    }

    @Test(arguments: namedCases)
    func namedMatchReference(_ c: NamedCase) {
        let f = CAMediaTimingFunction(name: c.name)
        var worst = 0.0
        for t in thousandTimes {
            worst = max(worst, abs(f.evaluate(t) - referenceY(f, at: t)))
        }
        #expect(worst <= 1e-6, "worst error \(worst)")
    }

    @Test(arguments: monotonicCurves + degenerateCurves + [Curve(0.5, -0.5, 0.5, 1.5)])
    func endpointsAreExactAndTIsClamped(_ curve: Curve) {
        let f = curve.function
        #expect(f.evaluate(0) == 0)
        #expect(f.evaluate(1) == 1)
        #expect(f.evaluate(-0.5) == 0)
        #expect(f.evaluate(-.infinity) == 0)
        #expect(f.evaluate(1.5) == 1)
        #expect(f.evaluate(.infinity) == 1)
    }

    @Test(arguments: monotonicCurves)
    func monotonicCurvesEvaluateMonotonically(_ curve: Curve) {
        let f = curve.function
        var previous = f.evaluate(0)
        for i in 1...10_000 {
            let y = f.evaluate(Double(i) / 10_000)
            #expect(y >= previous - 1e-12, "t = \(Double(i) / 10_000)")
            previous = y
        }
    }

    @Test func overshootGoesBelowZeroAndAboveOne() {
        let f = CAMediaTimingFunction(controlPoints: 0.5, -0.5, 0.5, 1.5)
        var lowest = Double.infinity
        var highest = -Double.infinity
        var worst = 0.0
        for t in thousandTimes {
            let y = f.evaluate(t)
            lowest = min(lowest, y)
            highest = max(highest, y)
            worst = max(worst, abs(y - referenceY(f, at: t)))
        }
        #expect(lowest < 0)
        #expect(highest > 1)
        #expect(worst <= 1e-6, "worst error \(worst)")
    }

    @Test(arguments: degenerateCurves)
    func degenerateCurvesTerminateAndMatchReference(_ curve: Curve) {
        let f = curve.function
        var worst = 0.0
        let times = thousandTimes + [1e-12, 1e-9, 1e-6, 0.5, 1 - 1e-6, 1 - 1e-9, 1 - 1e-12]
        for t in times {
            let y = f.evaluate(t)
            #expect(y.isFinite, "t = \(t)")
            worst = max(worst, abs(y - referenceY(f, at: t)))
        }
        #expect(worst <= 1e-6, "worst error \(worst)")
    }

    @Test func easeInEaseOutKnownPoints() {
        let f = CAMediaTimingFunction(name: .easeInEaseOut)
        #expect(abs(f.evaluate(0.5) - 0.5) <= 1e-9)
        // Point-symmetric about (0.5, 0.5): y(t) + y(1 - t) == 1.
        for t in stride(from: 0.0, through: 0.5, by: 0.01) {
            #expect(abs(f.evaluate(t) + f.evaluate(1 - t) - 1) <= 1e-9, "t = \(t)")
        }
        // Slow at both ends, fastest in the middle.
        #expect(f.evaluate(0.1) < 0.1)
        #expect(f.evaluate(0.9) > 0.9)
    }

    @Test func nanTimeEvaluatesToZero() {
        #expect(CAMediaTimingFunction(name: .default).evaluate(.nan) == 0)
    }
}

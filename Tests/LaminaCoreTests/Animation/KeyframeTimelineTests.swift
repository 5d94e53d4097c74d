import Foundation
import LaminaCore
import Testing

// MARK: - Helpers

private func numbers(_ v: [Double]) -> [AnimationValue] { v.map { .number($0) } }

/// A timeline over numbers with the given options.
private func timeline(
    _ v: [Double], _ mode: CAAnimationCalculationMode, keyTimes: [Double]? = nil,
    timing: [CAMediaTimingFunction]? = nil, tension: [Double]? = nil, continuity: [Double]? = nil, bias: [Double]? = nil
) -> KeyframeTimeline {
    KeyframeTimeline(
        values: numbers(v), keyTimes: keyTimes, timingFunctions: timing, calculationMode: mode,
        tensionValues: tension, continuityValues: continuity, biasValues: bias)
}

/// The number a timeline gives at `f` (NaN when it is not a number).
private func number(_ t: KeyframeTimeline, _ f: Double) -> Double {
    if case .number(let x)? = t.value(at: f) { return x }
    return .nan
}

/// A curve whose x(s) is s (inner x controls 1/3 and 2/3) and whose y(s) is s³: eases to 0.125 at 0.5.
private let cubeEase = CAMediaTimingFunction(controlPoints: 1.0 / 3, 0, 2.0 / 3, 0)

// MARK: - Scalar keyframes

/// A number timeline sampled at one fraction, with the hand-derived value.
struct ScalarCase: Sendable, CustomTestStringConvertible {
    let name: String
    let timeline: KeyframeTimeline
    let fraction: Double
    let expected: Double
    let tolerance: Double
    var testDescription: String { name }

    init(
        _ name: String, _ timeline: KeyframeTimeline, _ fraction: Double, _ expected: Double, tolerance: Double = 1e-12
    ) {
        self.name = name
        self.timeline = timeline
        self.fraction = fraction
        self.expected = expected
        self.tolerance = tolerance
    }
}

private let linear = timeline([0, 10, 30], .linear)
private let linearTimed = timeline([0, 10, 30], .linear, keyTimes: [0, 0.8, 1])
private let discrete = timeline([1, 2, 3], .discrete)
private let paced = timeline([0, 10, 30], .paced, keyTimes: [0, 0.9, 1], timing: [cubeEase, cubeEase])
private let catmullRom = timeline([0, 10, 30], .cubic)

let scalarCases: [ScalarCase] = [
    ScalarCase("linear, even: start", linear, 0, 0),
    ScalarCase("linear, even: a quarter is half of segment 0", linear, 0.25, 5),
    ScalarCase("linear, even: the middle keyframe", linear, 0.5, 10),
    ScalarCase("linear, even: three quarters", linear, 0.75, 20),
    ScalarCase("linear, even: end", linear, 1, 30),
    ScalarCase("linear, keyTimes [0, 0.8, 1]: 0.4 is half of segment 0", linearTimed, 0.4, 5),
    ScalarCase("linear, keyTimes [0, 0.8, 1]: 0.9 is half of segment 1", linearTimed, 0.9, 20),
    ScalarCase(
        "linear, keyTimes of the wrong count are ignored", timeline([0, 10, 30], .linear, keyTimes: [0, 1]), 0.25, 5),
    ScalarCase(
        "linear, decreasing keyTimes are ignored", timeline([0, 10, 30], .linear, keyTimes: [0, 0.8, 0.5]), 0.25, 5),
    ScalarCase(
        "linear, keyTimes outside 0...1 are ignored", timeline([0, 10, 30], .linear, keyTimes: [0, 0.5, 1.5]), 0.25, 5),
    ScalarCase(
        "linear, before the first key time the first value holds",
        timeline([0, 10], .linear, keyTimes: [0.5, 1]), 0.25, 0),
    ScalarCase(
        "linear, after the last key time the last value holds",
        timeline([0, 10], .linear, keyTimes: [0, 0.5]), 0.75, 10),
    ScalarCase("linear extrapolates above 1", timeline([0, 10], .linear), 1.5, 15),
    ScalarCase("linear extrapolates below 0", timeline([0, 10], .linear), -0.5, -5),
    ScalarCase(
        "linear, equal key times jump: the later keyframe wins",
        timeline([0, 10, 20, 30], .linear, keyTimes: [0, 0.5, 0.5, 1]), 0.5, 20),
    ScalarCase(
        "timing function of segment 0 eases it (s³)",
        timeline([0, 10, 20], .linear, timing: [cubeEase, CAMediaTimingFunction(name: .linear)]), 0.25, 1.25,
        tolerance: 1e-6),
    ScalarCase(
        "timing function of segment 1 is linear",
        timeline([0, 10, 20], .linear, timing: [cubeEase, CAMediaTimingFunction(name: .linear)]), 0.75, 15,
        tolerance: 1e-12),
    ScalarCase(
        "timing functions of the wrong count are ignored", timeline([0, 10, 20], .linear, timing: [cubeEase]), 0.25, 5),
    ScalarCase("discrete [1, 2, 3] at 0", discrete, 0, 1),
    ScalarCase("discrete [1, 2, 3] at 0.33", discrete, 0.33, 1),
    ScalarCase("discrete [1, 2, 3] at 0.34", discrete, 0.34, 2),
    ScalarCase("discrete [1, 2, 3] at 0.4", discrete, 0.4, 2),
    ScalarCase("discrete [1, 2, 3] at 0.7", discrete, 0.7, 3),
    ScalarCase("discrete [1, 2, 3] at 1", discrete, 1, 3),
    ScalarCase(
        "discrete ignores timing functions", timeline([1, 2, 3], .discrete, timing: [cubeEase, cubeEase]), 0.4, 2),
    ScalarCase(
        "discrete with n key times: 0.6 shows value 2", timeline([1, 2, 3], .discrete, keyTimes: [0, 0.5, 0.9]), 0.6, 2),
    ScalarCase(
        "discrete with n key times: 0.95 shows value 3", timeline([1, 2, 3], .discrete, keyTimes: [0, 0.5, 0.9]), 0.95,
        3),
    ScalarCase(
        "discrete with n + 1 key times (Apple's form): 0.3 shows value 2",
        timeline([1, 2, 3], .discrete, keyTimes: [0, 0.25, 0.5, 1]), 0.3, 2),
    ScalarCase(
        "discrete with n + 1 key times: 0.6 shows value 3",
        timeline([1, 2, 3], .discrete, keyTimes: [0, 0.25, 0.5, 1]), 0.6, 3),
    ScalarCase("paced [0, 10, 30] at 0.5 is 15 (keyTimes and timing ignored)", paced, 0.5, 15),
    ScalarCase("paced [0, 10, 30] at 1/3 is 10", paced, 1.0 / 3, 10),
    ScalarCase("paced [0, 10, 30] at 0.25 is 7.5", paced, 0.25, 7.5),
    ScalarCase("paced [0, 30, 0] goes back at the same speed: 0.75 is 15", timeline([0, 30, 0], .paced), 0.75, 15),
    ScalarCase("cubic (Catmull-Rom) [0, 10, 30] at 0.25: 5·h10 + 10·h01 + 15·h11 = 3.75", catmullRom, 0.25, 3.75),
    ScalarCase("cubic [0, 10, 0] at 0.25: 5·0.125 + 10·0.5 = 5.625", timeline([0, 10, 0], .cubic), 0.25, 5.625),
    ScalarCase(
        "cubic with tension 1 at keyframe 1 flattens its tangents: 5.625",
        timeline([0, 10, 30], .cubic, tension: [0, 1, 0]), 0.25, 5.625),
    ScalarCase(
        "cubic with continuity −1 everywhere is straight segments",
        timeline([0, 10, 30], .cubic, continuity: [-1, -1, -1]), 0.75, 20),
    ScalarCase(
        "cubic with bias 1 at keyframe 1 uses only the incoming chord: in = 10, 0.625 + 5 − 1.25",
        timeline([0, 10, 30], .cubic, bias: [0, 1, 0]), 0.25, 4.375),
    ScalarCase(
        "cubic passes through keyframe 1 at its key time",
        timeline([0, 10, 5, 20], .cubic, keyTimes: [0, 0.2, 0.7, 1]), 0.2, 10, tolerance: 0),
    ScalarCase(
        "cubic passes through keyframe 2 at its key time",
        timeline([0, 10, 5, 20], .cubic, keyTimes: [0, 0.2, 0.7, 1]), 0.7, 5, tolerance: 0),
    ScalarCase(
        "cubic passes through the last keyframe", timeline([0, 10, 5, 20], .cubic, keyTimes: [0, 0.2, 0.7, 1]), 1, 20,
        tolerance: 0),
    ScalarCase(
        "cubic with an easing timing function", timeline([0, 10, 0], .cubic, timing: [cubeEase, cubeEase]), 0.25,
        10 * (3 * 0.125 * 0.125 - 2 * 0.125 * 0.125 * 0.125) + 5 * (0.125 * 0.125 * 0.125 - 2 * 0.125 * 0.125 + 0.125),
        tolerance: 1e-5),
    ScalarCase(
        "cubicPaced [0, 10, 30]: keyframe 1 at 1/3", timeline([0, 10, 30], .cubicPaced), 1.0 / 3, 10, tolerance: 1e-9),
    ScalarCase(
        "cubicPaced [0, 10, 30] at 0.5 is 15 (constant speed, sampled)", timeline([0, 10, 30], .cubicPaced), 0.5, 15,
        tolerance: 1e-2),
    ScalarCase("cubicPaced [0, 10, 30] at 1/6 is 5", timeline([0, 10, 30], .cubicPaced), 1.0 / 6, 5, tolerance: 1e-2),
    ScalarCase("a single value is constant", timeline([7], .cubic), 0.3, 7),
]

@Test("Keyframe values over numbers", arguments: scalarCases)
func scalarKeyframes(_ c: ScalarCase) {
    let value = number(c.timeline, c.fraction)
    #expect(abs(value - c.expected) <= c.tolerance, "\(value)")
}

// MARK: - Key times in effect

/// A timeline and the key times it must use.
struct KeyTimesCase: Sendable, CustomTestStringConvertible {
    let name: String
    let timeline: KeyframeTimeline
    let expected: [Double]
    var testDescription: String { name }
}

let keyTimesCases: [KeyTimesCase] = [
    KeyTimesCase(
        name: "linear defaults to i/(n−1)", timeline: timeline([1, 2, 3, 4, 5], .linear),
        expected: [0, 0.25, 0.5, 0.75, 1]),
    KeyTimesCase(
        name: "discrete defaults to i/n", timeline: timeline([1, 2, 3, 4], .discrete), expected: [0, 0.25, 0.5, 0.75]),
    KeyTimesCase(
        name: "valid key times are kept", timeline: timeline([1, 2, 3], .cubic, keyTimes: [0, 0.1, 1]),
        expected: [0, 0.1, 1]),
    KeyTimesCase(
        name: "paced by distance", timeline: timeline([0, 10, 30, 40], .paced), expected: [0, 0.25, 0.75, 1]),
    KeyTimesCase(
        name: "paced, all equal: evenly spaced", timeline: timeline([5, 5, 5], .paced), expected: [0, 0.5, 1]),
    KeyTimesCase(
        name: "paced points by Euclidean distance 5 and 15",
        timeline: KeyframeTimeline(
            values: [.point(.zero), .point(CGPoint(x: 3, y: 4)), .point(CGPoint(x: 3, y: 19))],
            keyTimes: nil, timingFunctions: nil, calculationMode: .paced,
            tensionValues: nil, continuityValues: nil, biasValues: nil),
        expected: [0, 0.25, 1]),
    KeyTimesCase(
        name: "cubicPaced, monotone numbers: by distance", timeline: timeline([0, 10, 30], .cubicPaced),
        expected: [0, 1.0 / 3, 1]),
    KeyTimesCase(
        name: "unknown modes act linear", timeline: timeline([1, 2, 3], CAAnimationCalculationMode("bouncy")),
        expected: [0, 0.5, 1]),
]

@Test("Key times in effect", arguments: keyTimesCases)
func effectiveKeyTimes(_ c: KeyTimesCase) {
    #expect(c.timeline.keyTimes.count == c.expected.count)
    for (a, b) in zip(c.timeline.keyTimes, c.expected) { #expect(abs(a - b) < 1e-12, "\(c.timeline.keyTimes)") }
}

// MARK: - Other kinds

@Test("No values gives nil")
func emptyTimeline() {
    #expect(timeline([], .linear).value(at: 0.5) == nil)
    #expect(timeline([], .discrete).value(at: 0.5) == nil)
}

@Test("Points interpolate linearly and paced, colours component-wise, Booleans discretely")
func otherKinds() {
    let points: [AnimationValue] = [.point(.zero), .point(CGPoint(x: 3, y: 4)), .point(CGPoint(x: 3, y: 19))]
    let pacedPoints = KeyframeTimeline(
        values: points, keyTimes: nil, timingFunctions: nil, calculationMode: .paced,
        tensionValues: nil, continuityValues: nil, biasValues: nil)
    guard case .point(let middle)? = pacedPoints.value(at: 0.5) else {
        Issue.record("not a point")
        return
    }
    #expect(abs(middle.x - 3) < 1e-12 && abs(middle.y - 9) < 1e-12)

    let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    let blue = RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)
    let colours = KeyframeTimeline(
        values: [.color(red), .color(blue)], keyTimes: nil, timingFunctions: nil,
        calculationMode: .linear, tensionValues: nil, continuityValues: nil, biasValues: nil)
    #expect(colours.value(at: 0.25) == .color(RGBAColor(red: 0.75, green: 0, blue: 0.25, alpha: 1)))

    let overshootingColours = KeyframeTimeline(
        values: [.color(red), .color(blue), .color(red)], keyTimes: nil, timingFunctions: nil, calculationMode: .cubic,
        tensionValues: nil, continuityValues: nil, biasValues: nil)
    if case .color(let c?)? = overshootingColours.value(at: 0.1) {
        #expect(c.isValid)
    } else {
        Issue.record("cubic colours did not give a colour")
    }

    let flags = KeyframeTimeline(
        values: [.bool(false), .bool(true), .bool(false)], keyTimes: nil, timingFunctions: nil,
        calculationMode: .cubic, tensionValues: nil, continuityValues: nil, biasValues: nil)
    #expect(flags.value(at: 0.49) == .bool(false))
    #expect(flags.value(at: 0.5) == .bool(true))
    #expect(flags.value(at: 0.99) == .bool(true))
    #expect(flags.value(at: 1) == .bool(false))
}

@Test("Transforms interpolate by decomposition, also in cubic and paced modes")
func transformKeyframes() throws {
    let values: [AnimationValue] = [
        .transform(CATransform3DIdentity), .transform(CATransform3DMakeTranslation(10, 0, 0)),
        .transform(CATransform3DMakeTranslation(30, 0, 0)),
    ]
    for mode in [CAAnimationCalculationMode.paced, .cubicPaced] {
        let t = KeyframeTimeline(
            values: values, keyTimes: nil, timingFunctions: nil, calculationMode: mode,
            tensionValues: nil, continuityValues: nil, biasValues: nil)
        guard case .transform(let m)? = t.value(at: 0.5) else {
            Issue.record("not a transform")
            continue
        }
        #expect(abs(m.m41 - 15) < 1e-9)
    }
    let turn = KeyframeTimeline(
        values: [.transform(CATransform3DIdentity), .transform(CATransform3DMakeRotation(.pi / 2, 0, 0, 1))],
        keyTimes: nil, timingFunctions: nil, calculationMode: .cubic, tensionValues: nil, continuityValues: nil,
        biasValues: nil)
    guard case .transform(let half)? = turn.value(at: 0.5) else {
        Issue.record("not a transform")
        return
    }
    #expect(abs(half.component(.rotationZ) - .pi / 4) < 1e-12)
}

// MARK: - Paths

/// E37: the ship's curve.
let shipPath: CGPath = {
    let p = CGMutablePath()
    p.move(to: CGPoint(x: 0, y: 150))
    p.addCurve(to: CGPoint(x: 300, y: 150), control1: CGPoint(x: 75, y: 0), control2: CGPoint(x: 225, y: 300))
    return p
}()

/// A polyline (0, 0) → (30, 0) → (30, 10), 40 long.
let elbowPath: CGPath = {
    let p = CGMutablePath()
    p.addLines(between: [.zero, CGPoint(x: 30, y: 0), CGPoint(x: 30, y: 10)])
    return p
}()

/// A closed 10 × 10 square: four segments, the last one the close.
let squarePath = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))

/// A point on a path timeline with the hand-derived position.
struct PathPointCase: Sendable, CustomTestStringConvertible {
    let name: String
    let timeline: PathTimeline
    let fraction: Double
    let expected: CGPoint
    let tolerance: Double
    var testDescription: String { name }

    init(_ name: String, _ timeline: PathTimeline, _ fraction: Double, _ expected: CGPoint, tolerance: Double = 1e-9) {
        self.name = name
        self.timeline = timeline
        self.fraction = fraction
        self.expected = expected
        self.tolerance = tolerance
    }
}

private func pathTimeline(
    _ path: CGPath, _ mode: CAAnimationCalculationMode, keyTimes: [Double]? = nil,
    timing: [CAMediaTimingFunction]? = nil
) -> PathTimeline {
    PathTimeline(path: path, keyTimes: keyTimes, timingFunctions: timing, calculationMode: mode)
}

private let bounce = pathTimeline(bouncePath, .linear)
private let circlePath = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 200, height: 200))

let pathPointCases: [PathPointCase] = [
    PathPointCase("E35 at 0 is the start", bounce, 0, CGPoint(x: 74, y: 74)),
    PathPointCase("E35 at 0.25 is the first arch's bottom (197, 393.5)", bounce, 0.25, CGPoint(x: 197, y: 393.5)),
    PathPointCase("E35 at 0.5 is between the arches", bounce, 0.5, CGPoint(x: 320, y: 74)),
    PathPointCase("E35 at 0.75 is the second arch's bottom", bounce, 0.75, CGPoint(x: 443, y: 393.5)),
    PathPointCase("E35 at 1 is the end", bounce, 1, CGPoint(x: 566, y: 74)),
    PathPointCase("E35 beyond 1 holds the end", bounce, 1.2, CGPoint(x: 566, y: 74)),
    PathPointCase(
        "E35 cubic mode moves like linear", pathTimeline(bouncePath, .cubic), 0.25, CGPoint(x: 197, y: 393.5)),
    PathPointCase(
        "E35 with keyTimes [0, 0.2, 1]: 0.1 is the first bottom",
        pathTimeline(bouncePath, .linear, keyTimes: [0, 0.2, 1]), 0.1, CGPoint(x: 197, y: 393.5)),
    PathPointCase(
        "E35 with keyTimes [0, 0.2, 1]: 0.6 is the second bottom",
        pathTimeline(bouncePath, .linear, keyTimes: [0, 0.2, 1]), 0.6, CGPoint(x: 443, y: 393.5)),
    PathPointCase(
        "E35 with keyTimes of the wrong count: even",
        pathTimeline(bouncePath, .linear, keyTimes: [0, 1]), 0.25, CGPoint(x: 197, y: 393.5)),
    PathPointCase(
        "E35 eased per segment: s³ at half time is parameter 0.125",
        pathTimeline(bouncePath, .linear, timing: [cubeEase, cubeEase]), 0.25,
        CGPoint(
            x: 74 + 246 * (3 * 0.125 * 0.125 - 2 * 0.125 * 0.125 * 0.125),
            y: 74 + 426 * 3 * 0.125 * 0.875), tolerance: 1e-4),
    PathPointCase("E37 at 0.5 is (150, 150)", pathTimeline(shipPath, .linear), 0.5, CGPoint(x: 150, y: 150)),
    PathPointCase("elbow, linear: 0.5 is the corner", pathTimeline(elbowPath, .linear), 0.5, CGPoint(x: 30, y: 0)),
    PathPointCase("elbow, paced: 0.5 is 20 along", pathTimeline(elbowPath, .paced), 0.5, CGPoint(x: 20, y: 0)),
    PathPointCase("elbow, paced: 0.875 is 35 along", pathTimeline(elbowPath, .paced), 0.875, CGPoint(x: 30, y: 5)),
    PathPointCase("elbow, cubicPaced is paced", pathTimeline(elbowPath, .cubicPaced), 0.5, CGPoint(x: 20, y: 0)),
    PathPointCase("elbow, discrete: vertex 1 from 1/3", pathTimeline(elbowPath, .discrete), 0.5, CGPoint(x: 30, y: 0)),
    PathPointCase("elbow, discrete: vertex 0 before 1/3", pathTimeline(elbowPath, .discrete), 0.3, .zero),
    PathPointCase(
        "elbow, discrete: the last vertex at 1", pathTimeline(elbowPath, .discrete), 1, CGPoint(x: 30, y: 10)),
    PathPointCase(
        "square: the close is a segment, 0.875 is halfway back up", pathTimeline(squarePath, .linear), 0.875,
        CGPoint(x: 0, y: 5)),
    PathPointCase(
        "circle, paced: a quarter of the way is the bottom (100, 200)", pathTimeline(circlePath, .paced), 0.25,
        CGPoint(x: 100, y: 200), tolerance: 1e-6),
    PathPointCase(
        "circle, paced: an eighth is at 45°", pathTimeline(circlePath, .paced), 0.125,
        CGPoint(x: 100 + 100 / 2.0.squareRoot(), y: 100 + 100 / 2.0.squareRoot()), tolerance: 0.03),
]

@Test("Positions along a path", arguments: pathPointCases)
func pathPoints(_ c: PathPointCase) throws {
    let p = try #require(c.timeline.point(at: c.fraction))
    #expect(abs(p.x - c.expected.x) <= c.tolerance && abs(p.y - c.expected.y) <= c.tolerance, "\(p)")
}

/// A heading on a path timeline with the hand-derived angle.
struct TangentCase: Sendable, CustomTestStringConvertible {
    let name: String
    let timeline: PathTimeline
    let fraction: Double
    let expected: Double
    var testDescription: String { name }
}

private let cusp: CGPath = {
    let p = CGMutablePath()
    p.move(to: .zero)
    p.addCurve(to: CGPoint(x: 100, y: 100), control1: .zero, control2: CGPoint(x: 100, y: 100))
    p.addLine(to: CGPoint(x: 100, y: 100))
    return p
}()

let tangentCases: [TangentCase] = [
    TangentCase(
        name: "E37 at 0: atan2(−150, 75)", timeline: pathTimeline(shipPath, .linear), fraction: 0,
        expected: atan2(-150, 75)),
    TangentCase(
        name: "E37 at 0.5: derivative 3·(112.5, 75)", timeline: pathTimeline(shipPath, .linear), fraction: 0.5,
        expected: atan2(75, 112.5)),
    TangentCase(
        name: "E37 at 1: atan2(−150, 75) again", timeline: pathTimeline(shipPath, .linear), fraction: 1,
        expected: atan2(-150, 75)),
    TangentCase(name: "E35 at the first bottom: heading right", timeline: bounce, fraction: 0.25, expected: 0),
    TangentCase(
        name: "E35 at the start: heading down the screen (+π/2)", timeline: bounce, fraction: 0, expected: .pi / 2),
    TangentCase(
        name: "square: the closing segment heads up (−π/2)", timeline: pathTimeline(squarePath, .linear),
        fraction: 0.875, expected: -.pi / 2),
    TangentCase(
        name: "elbow, paced: the second leg heads down", timeline: pathTimeline(elbowPath, .paced),
        fraction: 0.9, expected: .pi / 2),
    TangentCase(
        name: "controls on the end points: the chord's direction at the start",
        timeline: pathTimeline(cusp, .linear), fraction: 0, expected: .pi / 4),
    TangentCase(
        name: "a zero-length segment borrows its neighbour's heading",
        timeline: pathTimeline(cusp, .linear), fraction: 0.75, expected: .pi / 4),
]

@Test("Headings along a path (rotationMode auto)", arguments: tangentCases)
func pathTangents(_ c: TangentCase) throws {
    let angle = try #require(c.timeline.tangentAngle(at: c.fraction))
    #expect(abs(angle - c.expected) < 1e-9, "\(angle)")
}

@Test("Degenerate paths")
func degeneratePaths() {
    let empty = pathTimeline(CGMutablePath(), .linear)
    #expect(empty.point(at: 0.5) == nil)
    #expect(empty.tangentAngle(at: 0.5) == nil)
    let single = CGMutablePath()
    single.move(to: CGPoint(x: 4, y: 5))
    let still = pathTimeline(single, .paced)
    #expect(still.point(at: 0.5) == CGPoint(x: 4, y: 5))
    #expect(still.tangentAngle(at: 0.5) == nil)
}

@Test("Mode names match Core Animation's")
func modeNames() {
    #expect(CAAnimationCalculationMode.linear.rawValue == "linear")
    #expect(CAAnimationCalculationMode.discrete.rawValue == "discrete")
    #expect(CAAnimationCalculationMode.paced.rawValue == "paced")
    #expect(CAAnimationCalculationMode.cubic.rawValue == "cubic")
    #expect(CAAnimationCalculationMode.cubicPaced.rawValue == "cubicPaced")
    #expect(CAAnimationRotationMode.rotateAuto.rawValue == "auto")
    #expect(CAAnimationRotationMode.rotateAutoReverse.rawValue == "autoReverse")
}

import Foundation
import Testing

@testable import LaminaCore

/// The plan an attached animation keeps (`EvaluationPlan`) against the general path it stands in
/// for: the same fractions, curve values and presentation states, bit for bit, over random records,
/// timings and times; and a plan that follows its record when the record changes.
struct EvaluationPlanTests {
    typealias Generator = AnimationEvaluationTests.Generator

    /// Random timing beyond `DirectWriteTests`': speeds (0, negative, fast), time offsets, repeat
    /// durations, zero and tiny durations, every fill mode.
    static func randomTiming(_ g: inout Generator) -> MediaTiming {
        let fills: [CAMediaTimingFillMode] = [.removed, .forwards, .backwards, .both, CAMediaTimingFillMode("odd")]
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &g)] }
        return MediaTiming(
            beginTime: Double.random(in: -2...2, using: &g), timeOffset: pick([0, 0, 0.3, -0.7]),
            duration: pick([0, 1e-9, 0.25, Double.random(in: 0.1...2, using: &g)]),
            speed: pick([1, 1, 0, -1, 2.5, 0.3]), repeatCount: pick([0, 1, 2.5, 0.75, .infinity]),
            repeatDuration: pick([0, 0, 1.5, .infinity]), autoreverses: Bool.random(using: &g),
            fillMode: pick(fills))
    }

    /// A random timing curve: none, each named curve, linear, overshooting, flat-ended or random.
    static func randomCurve(_ g: inout Generator) -> TimingCurve? {
        func unit() -> Float { Float.random(in: -0.2...1.2, using: &g) }
        let named: [CAMediaTimingFunctionName] = [.easeIn, .easeOut, .easeInEaseOut, .default, .linear]
        switch Int.random(in: 0..<8, using: &g) {
        case 0: return nil
        case 1...4: return TimingCurve(CAMediaTimingFunction(name: named[Int.random(in: 0..<5, using: &g)]))
        case 5: return TimingCurve(0.3, -0.6, 0.7, 1.6)
        case 6: return TimingCurve(1, 0, 0, 1)
        default:
            return TimingCurve(unit(), Float.random(in: -2...2, using: &g), unit(), Float.random(in: -2...2, using: &g))
        }
    }

    @Test func theCurvesPolynomialGivesTheClassesValues() {
        var g = Generator(state: 7)
        for _ in 0..<400 {
            guard let curve = Self.randomCurve(&g) else { continue }
            let polynomial = curve.function.polynomial
            for i in 0..<100 {
                let t = i == 0 ? .nan : i < 5 ? [-1, 0, 1, 2][i - 1] : Double.random(in: 0...1, using: &g)
                #expect(polynomial.evaluate(t).bitPattern == curve.function.evaluate(t).bitPattern, "\(curve) at \(t)")
            }
        }
    }

    @Test func theResolvedTimingGivesMediaTimingsFractions() {
        var g = Generator(state: 11)
        for _ in 0..<2000 {
            let timing = Self.randomTiming(&g)
            let resolved = ResolvedTiming(timing)
            for _ in 0..<20 {
                let t = Double.random(in: -4...8, using: &g)
                let expected = timing.progress(atLocal: timing.localTime(fromParent: t))
                let fraction = resolved.progress(atParent: t)
                #expect(fraction?.bitPattern == expected?.bitPattern, "\(timing) at \(t)")
            }
        }
    }

    @Test(arguments: DirectWriteTests.directPaths.map { $0.0 })
    func thePlanWritesWhatTheGeneralPathWrites(_ path: String) {
        let kind = DirectWriteTests.directPaths.first { $0.0 == path }!.1
        var g = Generator(state: UInt64(path.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) }))
        let model = DirectWriteTests.model
        var planned = 0
        for _ in 0..<300 {
            var record = DirectWriteTests.randomRecord(path, kind, &g)
            record.timing = Self.randomTiming(&g)
            record.timingFunction = Self.randomCurve(&g)
            let plan = EvaluationPlan(record)
            let attached = [AttachedAnimation(id: 1, key: "a", record: record)]
            for _ in 0..<10 {
                let t = Double.random(in: -3...6, using: &g)
                var expected = model
                record.apply(to: &expected, parentTime: t)
                var state = model
                if plan.apply(atParent: t, to: &state) {
                    planned += 1
                    #expect(state == expected, "\(path) \(record) at \(t)")
                } else {
                    #expect(state == model, "\(path): a plan that covers nothing changed the state")
                }
                state = model
                var transitions: [TransitionProgress] = []
                LayerAnimator.apply(attached, to: &state, layerTime: t, transitions: &transitions)
                #expect(state == expected, "\(path) \(record) at \(t) through LayerAnimator")
            }
        }
        let covered = ["cornerRadius", "anchorPoint", "bounds.size", "transform"].contains(path) == false
        #expect(covered ? planned > 300 : planned == 0, "\(path): \(planned) evaluations from the plan")
    }

    /// Every change to an attached animation's record, in place or whole, is seen by the next
    /// evaluation: the plan is made again from the record.
    @Test func thePlanFollowsItsRecord() {
        let model = LayerState()
        var attached = AttachedAnimation(
            id: 1, key: "a",
            record: AnimationRecord(
                timing: MediaTiming(duration: 1),
                content: .basic(
                    PropertyTarget(keyPath: LayerKeyPath("opacity")!), BasicValues(from: .number(0), to: .number(1)))))
        func expectTheRecordsState(_ change: String) {
            for t in [-0.5, 0, 0.25, 0.5, 0.9, 1, 2] {
                var state = model
                var transitions: [TransitionProgress] = []
                LayerAnimator.apply([attached], to: &state, layerTime: t, transitions: &transitions)
                var expected = model
                attached.record.apply(to: &expected, parentTime: t)
                #expect(state == expected, "after \(change), at \(t)")
            }
        }
        expectTheRecordsState("creation")
        attached.record.timing.duration = 4
        expectTheRecordsState("a new duration")
        attached.record.timing.fillMode = .both
        expectTheRecordsState("a new fill mode")
        attached.record.timingFunction = TimingCurve(CAMediaTimingFunction(name: .easeIn))
        expectTheRecordsState("a new timing function")
        attached.record.content = .basic(
            PropertyTarget(keyPath: LayerKeyPath("position")!),
            BasicValues(from: .point(CGPoint(x: 1, y: 2)), to: .point(CGPoint(x: 30, y: -40))))
        expectTheRecordsState("a new key path and values")
        #expect(attached.plan.target != nil)
        attached.record.content = .keyframe(
            PropertyTarget(keyPath: LayerKeyPath("opacity")!), Keyframes(values: [.number(0.2), .number(0.9)]))
        expectTheRecordsState("a keyframe animation")
        #expect(attached.plan.target == nil)
        attached.record = AnimationRecord(
            timing: MediaTiming(beginTime: 0.5, duration: 0.5, fillMode: .forwards),
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath("position.y")!, isAdditive: true),
                BasicValues(from: .number(-3), to: .number(8))))
        expectTheRecordsState("a whole new record")
        #expect(attached.plan.target != nil)
    }
}

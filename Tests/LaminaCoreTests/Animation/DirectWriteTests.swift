import Foundation
import Testing

@testable import LaminaCore

/// The direct path of `LayerAnimator` (`DirectWrite`) against the general path it stands in for:
/// the same presentation state, bit for bit, over random records and times.
struct DirectWriteTests {
    typealias Generator = AnimationEvaluationTests.Generator

    /// Key paths with the kind of their values: those the direct path covers, and some it leaves to
    /// the general path.
    /// The model state the random records animate (every directly written field away from its default).
    static var model: LayerState {
        var model = LayerState()
        model.opacity = 0.6
        model.position = CGPoint(x: -7, y: 9)
        model.bounds = CGRect(x: 1, y: 2, width: 30, height: 40)
        model.backgroundColor = RGBAColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.8)
        model.transform = CATransform3DMakeScale(2, 0.5, 1)
        return model
    }

    static let directPaths: [(String, AnimationValue.Kind)] = [
        ("opacity", .number), ("position", .point), ("position.x", .number), ("position.y", .number),
        ("bounds", .rect), ("backgroundColor", .color), ("transform", .transform), ("transform.rotation.z", .number),
        ("transform.scale", .number), ("transform.translation.y", .number), ("cornerRadius", .number),
        ("anchorPoint", .point), ("bounds.size", .size),
    ]

    /// A random basic animation of `path`: random timing (fill modes, repeats, autoreverse, a start
    /// before or after the times sampled), timing function (none, eased, overshooting), additive,
    /// now and then cumulative, a nil `fromValue` or values of the wrong kind.
    static func randomRecord(_ path: String, _ kind: AnimationValue.Kind, _ g: inout Generator) -> AnimationRecord {
        func value() -> AnimationValue {
            if kind == .transform {
                return .transform(
                    CATransform3DTranslate(
                        CATransform3DMakeRotation(Double.random(in: -4...4, using: &g), 0.3, 1, 0.2),
                        Double.random(in: -50...50, using: &g), 3, 0))
            }
            if kind == .number { return .number(Double.random(in: -3...3, using: &g)) }
            return AnimationEvaluationTests.value(kind, &g)
        }
        let fills: [CAMediaTimingFillMode] = [.removed, .forwards, .backwards, .both]
        let timing = MediaTiming(
            beginTime: Double.random(in: -1...1, using: &g), duration: Double.random(in: 0.1...1, using: &g),
            speed: 1, repeatCount: [1, 2.5, .infinity][Int.random(in: 0..<3, using: &g)],
            autoreverses: Bool.random(using: &g), fillMode: fills[Int.random(in: 0..<4, using: &g)])
        let curves: [TimingCurve?] = [
            nil, TimingCurve(CAMediaTimingFunction(name: .easeInEaseOut)), TimingCurve(0.3, -0.6, 0.7, 1.6),
        ]
        let variant = Int.random(in: 0..<12, using: &g)
        let from: AnimationValue? = variant == 0 ? nil : (variant == 1 ? .bool(true) : value())
        let target = PropertyTarget(
            keyPath: LayerKeyPath(path)!, isAdditive: Bool.random(using: &g), isCumulative: variant == 2)
        return AnimationRecord(
            timing: timing, timingFunction: curves[Int.random(in: 0..<3, using: &g)],
            content: .basic(target, BasicValues(from: from, to: value())))
    }

    @Test(arguments: directPaths.map { $0.0 })
    func theDirectPathWritesWhatTheGeneralPathWrites(_ path: String) {
        let kind = Self.directPaths.first { $0.0 == path }!.1
        var g = Generator(state: UInt64(path.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        let model = Self.model
        var direct = 0
        for _ in 0..<300 {
            let record = Self.randomRecord(path, kind, &g)
            let attached = [AttachedAnimation(id: 1, key: "a", record: record)]
            for _ in 0..<10 {
                let t = Double.random(in: -1.5...4, using: &g)
                if case .general = record.directWrite(atParent: t) {} else { direct += 1 }
                var transitions: [TransitionProgress] = []
                let state = LayerAnimator.presentation(
                    of: model, animations: attached, layerTime: t, transitions: &transitions)
                var expected = model
                record.apply(to: &expected, parentTime: t)
                #expect(state == expected, "\(path) \(record) at \(t)")
            }
        }
        let covered = ["cornerRadius", "anchorPoint", "bounds.size"].contains(path) == false
        #expect(covered ? direct > 300 : direct == 0, "\(path): \(direct) evaluations on the direct path")
    }
}

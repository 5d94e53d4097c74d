import Foundation
import Testing

@testable import LaminaCore

/// The evaluation fast paths against the general formulas they replace: the component-wise
/// arithmetic of fixed-size values against the arrays of `components`, and presentation values
/// through `LayerAnimator` against the timing model and the timing function worked by hand.
struct AnimationEvaluationTests {
    /// A small seeded generator (SplitMix64), so every run samples the same values.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A value of `kind` with numbers in -500...500 (colours in 0...1, sometimes nil; rects of
    /// negative size too, whose `width` reads differently from `size.width`).
    static func value(_ kind: AnimationValue.Kind, _ g: inout Generator) -> AnimationValue {
        func n() -> Double { Double.random(in: -500...500, using: &g) }
        func unit() -> Double { Double.random(in: 0...1, using: &g) }
        switch kind {
        case .number: return .number(n())
        case .point: return .point(CGPoint(x: n(), y: n()))
        case .size: return .size(CGSize(width: n(), height: n()))
        case .rect: return .rect(CGRect(x: n(), y: n(), width: n(), height: n()))
        case .vector: return .vector(SIMD3(n(), n(), n()))
        default:
            if Int.random(in: 0..<5, using: &g) == 0 { return .color(nil) }
            return .color(RGBAColor(red: unit(), green: unit(), blue: unit(), alpha: unit()))
        }
    }

    /// `make(kind, zip(a.components, b.components).map(f))`: the arithmetic before the fast path.
    static func reference(
        _ a: AnimationValue, _ b: AnimationValue, _ f: (Double, Double) -> Double
    ) -> AnimationValue {
        AnimationValue.make(a.kind, zip(a.components, b.components).map(f))!
    }

    @Test(arguments: [AnimationValue.Kind.number, .point, .size, .rect, .color, .vector])
    func componentwiseArithmeticEqualsTheComponentArrays(_ kind: AnimationValue.Kind) {
        var g = Generator(state: UInt64(kind.rawValue))
        for _ in 0..<2000 {
            let a = Self.value(kind, &g)
            let b = Self.value(kind, &g)
            let t = Double.random(in: -0.5...1.5, using: &g)
            let k = Double.random(in: -3...3, using: &g)
            #expect(AnimationValue.add(a, b) == Self.reference(a, b, +))
            #expect(AnimationValue.subtract(a, b) == Self.reference(a, b, -))
            #expect(AnimationValue.scale(a, by: k) == Self.reference(a, a) { x, _ in x * k })
            let interpolated = AnimationValue.interpolate(a, b, t)
            if case .color(nil) = a, case .color(nil) = b {
                #expect(interpolated == .color(nil))
            } else if kind == .color {
                #expect(interpolated == Self.reference(a, b) { min(max($0 + ($1 - $0) * t, 0), 1) })
            } else {
                #expect(interpolated == Self.reference(a, b) { $0 + ($1 - $0) * t })
            }
        }
    }

    /// A basic animation of `path` from `from` to `to`, repeating with autoreverse and eased.
    static func eased(
        _ path: String, _ from: AnimationValue, _ to: AnimationValue, cumulative: Bool = false
    ) -> AttachedAnimation {
        let timing =
            cumulative
            ? MediaTiming(beginTime: 0.3, duration: 0.7, repeatCount: 4)
            : MediaTiming(beginTime: 0.3, duration: 0.7, repeatCount: .infinity, autoreverses: true)
        let record = AnimationRecord(
            timing: timing, timingFunction: TimingCurve(CAMediaTimingFunction(name: .easeInEaseOut)),
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath(path)!, isCumulative: cumulative),
                BasicValues(from: from, to: to)))
        return AttachedAnimation(id: 1, key: "a", record: record)
    }

    /// The eased fraction and the iteration at layer time `t`, worked from the timing model.
    static func expected(
        _ animation: AttachedAnimation, at t: Double
    ) -> (fraction: Double, iteration: Double)? {
        let timing = animation.record.timing
        let local = timing.localTime(fromParent: t)
        guard let linear = timing.progress(atLocal: local) else { return nil }
        let fraction = CAMediaTimingFunction(name: .easeInEaseOut).evaluate(linear)
        return (fraction, (local / timing.iterationDuration).rounded(.down))
    }

    @Test(arguments: [false, true])
    func presentationValuesAreTheFormulasAtManyTimes(cumulative: Bool) {
        var model = LayerState()
        model.opacity = 0.25
        model.position = CGPoint(x: -7, y: 9)
        let fade = Self.eased("opacity", .number(0.9), .number(0.1), cumulative: cumulative)
        let move = Self.eased(
            "position", .point(CGPoint(x: 10, y: 20)), .point(CGPoint(x: 300, y: -40)), cumulative: cumulative)
        var evaluated = 0
        for i in 0..<3000 {
            let t = Double(i) * 0.000_97
            var transitions: [TransitionProgress] = []
            let state = LayerAnimator.presentation(
                of: model, animations: [fade, move], layerTime: t, transitions: &transitions)
            guard let (f, iteration) = Self.expected(fade, at: t) else {
                #expect(state.opacity == model.opacity && state.position == model.position, "t = \(t)")
                continue
            }
            evaluated += 1
            let k = cumulative ? iteration : 0
            let opacity = 0.9 + (0.1 - 0.9) * f + (0.1 - 0.9) * k
            #expect(state.opacity == min(max(Float(opacity), 0), 1), "t = \(t)")
            let x = 10 + (300 - 10) * f + (300 - 10) * k
            let y = 20 + (-40 - 20) * f + (-40 - 20) * k
            #expect(state.position == CGPoint(x: x, y: y), "t = \(t)")
        }
        #expect(evaluated > 2000)
    }
}

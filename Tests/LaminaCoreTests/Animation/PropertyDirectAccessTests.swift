import Foundation
import Testing

@testable import LaminaCore

/// The direct reads and writes of the common animated key paths (`PropertyTarget.value(at:in:)`,
/// `PropertyTarget.set(_:at:in:)`) against the generic `LayerKeyPath.value(in:)` and
/// `LayerKeyPath.set(_:in:)` they stand in for: the same values and the same states, over random
/// states and values (out-of-range opacities, negative sizes and values of the wrong kind included).
struct PropertyDirectAccessTests {
    static let paths = [
        "opacity", "position", "position.x", "position.y", "bounds", "backgroundColor", "transform",
        "transform.rotation.z", "transform.rotation.x", "transform.scale", "transform.scale.y",
        "transform.translation.x", "transform.translation", "bounds.size.width", "cornerRadius", "anchorPoint",
        "zPosition", "sublayerTransform",
    ]

    static func state(_ g: inout AnimationEvaluationTests.Generator) -> LayerState {
        func n() -> Double { Double.random(in: -500...500, using: &g) }
        var state = LayerState()
        state.opacity = Float.random(in: 0...1, using: &g)
        state.position = CGPoint(x: n(), y: n())
        state.bounds = CGRect(x: n(), y: n(), width: abs(n()), height: abs(n()))
        state.backgroundColor =
            Bool.random(using: &g)
            ? nil : RGBAColor(red: 0.1, green: 0.5, blue: Double.random(in: 0...1, using: &g), alpha: 1)
        state.transform = CATransform3DRotate(
            CATransform3DMakeScale(n() / 100, n() / 100, 1), n(), n(), n(), n())
        state.cornerRadius = abs(n())
        return state
    }

    /// A value of `kind`, or now and then of another kind (which both setters refuse).
    static func value(_ kind: AnimationValue.Kind, _ g: inout AnimationEvaluationTests.Generator) -> AnimationValue {
        if Int.random(in: 0..<10, using: &g) == 0 {
            return kind == .number ? .point(CGPoint(x: 1, y: 2)) : .number(3)
        }
        switch kind {
        case .number: return .number(Double.random(in: -2...3, using: &g))
        case .transform:
            return .transform(CATransform3DMakeRotation(Double.random(in: -4...4, using: &g), 0.2, 1, 0.5))
        default: return AnimationEvaluationTests.value(kind, &g)
        }
    }

    @Test(arguments: paths)
    func directAccessEqualsTheGenericKeyPath(_ path: String) {
        let keyPath = LayerKeyPath(path)!
        var g = AnimationEvaluationTests.Generator(state: UInt64(path.utf8.count) * 31 + 5)
        for _ in 0..<1000 {
            let state = Self.state(&g)
            let read = PropertyTarget.value(at: keyPath, in: state)
            let generic = keyPath.value(in: state)
            #expect(read == generic, "\(path)")
            let value = Self.value(keyPath.kind, &g)
            var direct = state
            PropertyTarget.set(value, at: keyPath, in: &direct)
            var expected = state
            keyPath.set(value, in: &expected)
            #expect(direct == expected, "\(path) = \(value)")
        }
    }
}

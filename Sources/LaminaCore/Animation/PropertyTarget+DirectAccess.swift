import Foundation

extension PropertyTarget {
    /// `keyPath.value(in: state)`, read straight from the stored field for the key paths animations
    /// drive most often (`opacity`, `position` and its `x` and `y`, `bounds`, `backgroundColor`,
    /// `transform` and its virtual components); the general reader for every other path.
    ///
    /// The generic reader goes through `LayerState`'s property subscript and a `LayerValue`; the
    /// result is the same value (`AnimationEvaluationTests` compares the two over random states).
    @inline(__always)
    static func value(at keyPath: LayerKeyPath, in state: LayerState) -> AnimationValue {
        switch (keyPath.property, keyPath.component) {
        case (.opacity, nil): .number(Double(state.opacity))
        case (.position, nil): .point(state.position)
        case (.position, .pointX): .number(state.position.x)
        case (.position, .pointY): .number(state.position.y)
        case (.bounds, nil): .rect(state.bounds)
        case (.backgroundColor, nil): .color(state.backgroundColor)
        case (.transform, nil): .transform(state.transform)
        case (.transform, .transform(let c)): .number(state.transform.component(c))
        default: keyPath.value(in: state)
        }
    }

    /// `keyPath.set(value, in: &state)`, written straight into the stored field for the key paths
    /// `value(at:in:)` reads directly; the general setter for every other path.
    ///
    /// The result is the generic setter's: the kind must match (a value of another kind changes
    /// nothing), opacity is clamped to 0...1 in `Float` and a bounds size to non-negative (the
    /// properties' constraints), and a virtual transform component is set by
    /// `CATransform3D.setting(_:to:)`. `AnimationEvaluationTests` compares the two over random values.
    @inline(__always)
    static func set(_ value: AnimationValue, at keyPath: LayerKeyPath, in state: inout LayerState) {
        switch (keyPath.property, keyPath.component, value) {
        case (.opacity, nil, .number(let v)): state.opacity = min(max(Float(v), 0), 1)
        case (.position, nil, .point(let p)): state.position = p
        case (.position, .pointX, .number(let v)): state.position.x = v
        case (.position, .pointY, .number(let v)): state.position.y = v
        case (.bounds, nil, .rect(let r)):
            state.bounds = CGRect(x: r.origin.x, y: r.origin.y, width: max(r.width, 0), height: max(r.height, 0))
        case (.backgroundColor, nil, .color(let c)): state.backgroundColor = c
        case (.transform, nil, .transform(let t)): state.transform = t
        case (.transform, .transform(let c), .number(let v)): state.transform = state.transform.setting(c, to: v)
        default: keyPath.set(value, in: &state)
        }
    }
}

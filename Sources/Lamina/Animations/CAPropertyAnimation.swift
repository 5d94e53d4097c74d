import Foundation
import LaminaProtocol

/// An animation of one key path of a layer (Apple's `CAPropertyAnimation`).
open class CAPropertyAnimation: CAAnimation, @unchecked Sendable {
    /// The animated key path (`"opacity"`, `"position.x"`, `"transform.rotation.z"`, ...).
    open var keyPath: String? {
        willSet { willChangeValue(forKey: "keyPath") }
        didSet { didChangeValue(forKey: "keyPath") }
    }
    /// Whether the animated value is added to the layer's current value.
    open var isAdditive = false {
        willSet { willChangeValue(forKey: "additive") }
        didSet { didChangeValue(forKey: "additive") }
    }
    /// Whether each repeat continues from where the previous one ended.
    open var isCumulative = false {
        willSet { willChangeValue(forKey: "cumulative") }
        didSet { didChangeValue(forKey: "cumulative") }
    }
    /// Maps scalar values to a transform for a transform key path.
    open var valueFunction: CAValueFunction? {
        willSet { willChangeValue(forKey: "valueFunction") }
        didSet { didChangeValue(forKey: "valueFunction") }
    }

    /// Creates an animation of `path` (Apple's `init(keyPath:)`).
    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    override func copyProperties(from other: CAAnimation) {
        super.copyProperties(from: other)
        guard let other = other as? CAPropertyAnimation else { return }
        keyPath = other.keyPath
        isAdditive = other.isAdditive
        isCumulative = other.isCumulative
        valueFunction = other.valueFunction
        customKindHint = other.customKindHint
    }

    /// The kind of a custom key's values when the animation's own values do not say: the kind of
    /// the layer's model value for the key, set when the animation is added.
    var customKindHint: AnimationValue.Kind?

    /// The kind of the first of the animation's own values; nil when it has none.
    var ownValueKind: AnimationValue.Kind? { nil }

    /// The parsed key path and combination settings. A key path may start with sublayer names
    /// (`"sublayers.dot.opacity"`): the animation then drives the first sublayer named `dot`. A key
    /// that names no layer property is a custom key (`CALayer.isCustomKey(_:)`), evaluated by the
    /// client (`PropertyTarget.customKey`). `emitterCells.NAME.KEY` drives a cell's value of an
    /// emitter layer (`PropertyTarget.cell`).
    func target() throws(AnimationValueError) -> PropertyTarget {
        guard let keyPath else { throw AnimationValueError(description: "\(type(of: self)) has no keyPath") }
        guard let (names, rest) = PropertyTarget.splitSublayerPath(keyPath) else {
            throw AnimationValueError(description: "Lamina has no animatable property at key path '\(keyPath)'")
        }
        if rest.hasPrefix("emitterCells.") {
            // A cell's value of an emitter layer, by the cells' names (CAEmitterLayer's key paths).
            guard let cell = EmitterCellKeyPath(rest), valueFunction == nil else {
                throw AnimationValueError(
                    description: "Lamina has no animatable emitter cell value at key path '\(keyPath)'")
            }
            return PropertyTarget(
                keyPath: cell.standIn, isAdditive: isAdditive, isCumulative: isCumulative, sublayerPath: names,
                cell: cell)
        }
        guard let parsed = LayerKeyPath(rest) else {
            guard names.isEmpty, CALayer.isCustomKey(rest) else {
                throw AnimationValueError(description: "Lamina has no animatable property at key path '\(keyPath)'")
            }
            return try customTarget(rest)
        }
        let target = PropertyTarget(
            keyPath: parsed, isAdditive: isAdditive, isCumulative: isCumulative,
            valueFunction: valueFunction?.name, sublayerPath: names)
        if let f = target.valueFunction {
            guard CAValueFunctionName.known.contains(f) else {
                throw AnimationValueError(description: "unknown value function '\(f.rawValue)'")
            }
            guard parsed.kind == .transform else {
                throw AnimationValueError(description: "a value function needs a transform key path, not '\(keyPath)'")
            }
        }
        return target
    }

    /// The target of custom key `key`, typed by the animation's values or by the layer's model value.
    private func customTarget(_ key: String) throws(AnimationValueError) -> PropertyTarget {
        guard key.utf8.count <= WireLimits.maxKeyBytes else {
            throw AnimationValueError(description: "the custom key '\(key.prefix(64))…' is longer than 1024 bytes")
        }
        guard valueFunction == nil else {
            throw AnimationValueError(description: "the custom key '\(key)' cannot take a valueFunction")
        }
        guard let kind = ownValueKind ?? customKindHint, let standIn = LayerKeyPath.customStandIn(for: kind) else {
            throw AnimationValueError(
                description: "the animation of the custom key '\(key)' has no value, and the layer has none for it, "
                    + "to give its values a type")
        }
        return PropertyTarget(
            keyPath: standIn, isAdditive: isAdditive, isCumulative: isCumulative, customKey: key)
    }

    /// Converts one of the animation's values for `target`.
    func unbox(_ any: Any?, _ what: String, _ target: PropertyTarget) throws(AnimationValueError) -> AnimationValue? {
        guard let any else { return nil }
        let value = try AnimationValue.unbox(
            any, as: target.valueKind, what: "\(what) of the '\(target.keyPathString)' animation")
        guard value.isValid else {
            throw AnimationValueError(
                description: "\(what) of the '\(target.keyPathString)' animation has a NaN or infinite component")
        }
        return value
    }
}

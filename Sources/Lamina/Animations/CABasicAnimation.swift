import Foundation

/// Interpolates one key path between two values (Apple's `CABasicAnimation`).
open class CABasicAnimation: CAPropertyAnimation, @unchecked Sendable {
    /// The start value; nil starts from the current value.
    open var fromValue: Any? {
        willSet { willChangeValue(forKey: "fromValue") }
        didSet { didChangeValue(forKey: "fromValue") }
    }
    /// The end value; nil ends at the current value.
    open var toValue: Any? {
        willSet { willChangeValue(forKey: "toValue") }
        didSet { didChangeValue(forKey: "toValue") }
    }
    /// A relative change.
    open var byValue: Any? {
        willSet { willChangeValue(forKey: "byValue") }
        didSet { didChangeValue(forKey: "byValue") }
    }
    /// A start value already converted (implicit animations start from the previous value).
    var resolvedFrom: AnimationValue?

    override func copyProperties(from other: CAAnimation) {
        super.copyProperties(from: other)
        guard let other = other as? CABasicAnimation else { return }
        fromValue = other.fromValue
        toValue = other.toValue
        byValue = other.byValue
        resolvedFrom = other.resolvedFrom
    }

    override var ownValueKind: AnimationValue.Kind? {
        [fromValue, toValue, byValue].lazy.compactMap { $0.flatMap(AnimationValue.kind(of:)) }.first
    }

    func values(_ target: PropertyTarget) throws(AnimationValueError) -> BasicValues {
        var from = resolvedFrom
        if from == nil { from = try unbox(fromValue, "fromValue", target) }
        return BasicValues(
            from: from, to: try unbox(toValue, "toValue", target),
            by: try unbox(byValue, "byValue", target))
    }

    override func makeContent(duration: Double) throws(AnimationValueError) -> AnimationRecord.Content {
        let target = try target()
        return .basic(target, try values(target))
    }
}

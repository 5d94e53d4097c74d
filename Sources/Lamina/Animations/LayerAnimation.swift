import Foundation

/// An animation attached to a client layer: the copy that was added (or what it is made from), its
/// record, and what has happened to it. Guarded by the transaction lock.
final class LayerAnimation: @unchecked Sendable {
    let id: UInt64
    let key: String
    /// True when the animation was added with a nil key (it has no key to look it up by).
    let isAnonymous: Bool
    /// The attached copy, once there is one: from the start for an added animation; for a built-in
    /// implicit animation, the first time something asks for it (`animation`).
    private var madeAnimation: CAAnimation?
    /// What a built-in implicit animation's object is made from, until it is made.
    private let implicit: ImplicitAnimationSource?
    var record: AnimationRecord
    /// True once a commit has stamped its begin time and sent it.
    var committed = false
    var started = false
    var ended = false
    let completionGroups: [CompletionGroup]
    weak var layer: CALayer?

    init(
        id: UInt64, key: String, isAnonymous: Bool, animation: CAAnimation, record: AnimationRecord,
        completionGroups: [CompletionGroup], layer: CALayer
    ) {
        self.id = id
        self.key = key
        self.isAnonymous = isAnonymous
        self.madeAnimation = animation
        self.implicit = nil
        self.record = record
        self.completionGroups = completionGroups
        self.layer = layer
    }

    /// A built-in implicit animation, attached under its property's key without its object: the
    /// object (`animation`) is made, equal field for field to the one the action search would have
    /// added, only when something asks for it.
    init(
        id: UInt64, implicit: ImplicitAnimationSource, record: AnimationRecord, completionGroups: [CompletionGroup],
        layer: CALayer
    ) {
        self.id = id
        self.key = implicit.key
        self.isAnonymous = false
        self.madeAnimation = nil
        self.implicit = implicit
        self.record = record
        self.completionGroups = completionGroups
        self.layer = layer
    }

    /// The attached copy (what `animation(forKey:)` returns, and what its delegate is told about).
    /// Caller holds the transaction lock.
    var animation: CAAnimation {
        if let madeAnimation { return madeAnimation }
        let made = implicit!.make(beginTime: record.timing.beginTime)
        madeAnimation = made
        return made
    }

    /// Whether the animation object exists (an implicit animation's is made when first asked for).
    var hasMadeAnimation: Bool { madeAnimation != nil }

    /// The key path of the attached property animation (nil for other animations), read without
    /// making an implicit animation's object.
    var propertyKeyPath: String? {
        if let madeAnimation { return (madeAnimation as? CAPropertyAnimation)?.keyPath }
        return implicit?.key
    }

    /// Stamps the begin time a commit gives an animation whose `beginTime` was 0: in the record the
    /// server receives and in the attached copy (which reads it back, as on Apple platforms).
    func stampBeginTime(_ time: Double) {
        record.timing.beginTime = time
        madeAnimation?.beginTime = time
    }

    nonisolated(unsafe) static var registry: [UInt64: LayerAnimation] = [:]
    nonisolated(unsafe) static var nextID: UInt64 = 0

    /// Reports the end of the animation once: the delegate's `animationDidStop(_:finished:)` and the
    /// completion blocks waiting for it, on the main thread. Caller holds the transaction lock. An
    /// implicit animation whose object was never made has no delegate: only its completion groups
    /// hear of the end (nothing is posted when it has none).
    func end(finished: Bool) {
        guard !ended else { return }
        ended = true
        Self.registry[id] = nil
        let animation = madeAnimation
        let groups = completionGroups
        guard animation != nil || !groups.isEmpty else { return }
        MainThreadDispatcher.post {
            if let animation { animation.delegate?.animationDidStop(animation, finished: finished) }
            for group in groups { group.animationEnded() }
        }
    }

    /// Reports the start once, on the main thread. Caller holds the transaction lock. An implicit
    /// animation whose object was never made has no delegate to tell.
    func start() {
        guard !started, !ended else { return }
        started = true
        guard let animation = madeAnimation else { return }
        MainThreadDispatcher.post { animation.delegate?.animationDidStart(animation) }
    }
}

/// What a built-in implicit animation is made of (CALayer+ImplicitAction.swift): the
/// `CABasicAnimation` of the property's key that `action(forKey:)` returns, with the transaction's
/// duration and timing function, added from the value before the change.
struct ImplicitAnimationSource {
    let property: LayerPropertyName
    /// The animation's own `duration`: the transaction's, 0 included (the record then takes the
    /// transaction's default, as `add(_:forKey:)` gives an animation of duration 0).
    let duration: Double
    let timingFunction: CAMediaTimingFunction
    let from: AnimationValue

    var key: String { property.key }

    /// The animation object: what `implicitAction(forKey:)` makes, copied by `add(_:forKey:)`, whose
    /// from value `attachAnimation` sets, with the begin time the commit stamped (0 before it).
    func make(beginTime: Double) -> CABasicAnimation {
        let animation = action()
        animation.resolvedFrom = from
        animation.fromValue = from.boxed(for: LayerKeyPath(property))
        animation.beginTime = beginTime
        return animation
    }

    /// The action object `implicitAction(forKey:)` returns for the property with these settings.
    func action() -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: key)
        animation.duration = duration
        animation.timingFunction = timingFunction
        return animation
    }
}

import Foundation

extension CAAnimationDelegate {
    /// Does nothing by default; conformers override it to learn that `anim` started.
    public func animationDidStart(_ anim: CAAnimation) {}
    /// Does nothing by default; conformers override it to learn that `anim` stopped.
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// The abstract base of every animation (Apple's `CAAnimation`): timing, a timing function, a
/// delegate, removal on completion, and a dictionary of arbitrary values.
///
/// A layer stores a copy of the animation added to it, so changing the original afterwards has no
/// effect on the running animation.
open class CAAnimation: NSObject, NSCopying, NSSecureCoding, CAMediaTiming, CAAction, @unchecked Sendable {
    open var beginTime: CFTimeInterval = 0 {
        willSet { willChangeValue(forKey: "beginTime") }
        didSet { didChangeValue(forKey: "beginTime") }
    }
    open var duration: CFTimeInterval = 0 {
        willSet { willChangeValue(forKey: "duration") }
        didSet { didChangeValue(forKey: "duration") }
    }
    open var speed: Float = 1 {
        willSet { willChangeValue(forKey: "speed") }
        didSet { didChangeValue(forKey: "speed") }
    }
    open var timeOffset: CFTimeInterval = 0 {
        willSet { willChangeValue(forKey: "timeOffset") }
        didSet { didChangeValue(forKey: "timeOffset") }
    }
    open var repeatCount: Float = 0 {
        willSet { willChangeValue(forKey: "repeatCount") }
        didSet { didChangeValue(forKey: "repeatCount") }
    }
    open var repeatDuration: CFTimeInterval = 0 {
        willSet { willChangeValue(forKey: "repeatDuration") }
        didSet { didChangeValue(forKey: "repeatDuration") }
    }
    open var autoreverses = false {
        willSet { willChangeValue(forKey: "autoreverses") }
        didSet { didChangeValue(forKey: "autoreverses") }
    }
    open var fillMode: CAMediaTimingFillMode = .removed {
        willSet { willChangeValue(forKey: "fillMode") }
        didSet { didChangeValue(forKey: "fillMode") }
    }
    /// The curve applied to the animation's progress; nil is linear.
    open var timingFunction: CAMediaTimingFunction? {
        willSet { willChangeValue(forKey: "timingFunction") }
        didSet { didChangeValue(forKey: "timingFunction") }
    }
    /// Told when the animation starts and stops. Held strongly, as on Apple platforms.
    open var delegate: (any CAAnimationDelegate)? {
        willSet { willChangeValue(forKey: "delegate") }
        didSet { didChangeValue(forKey: "delegate") }
    }
    /// Whether the animation is removed from its layer when it finishes (default true).
    open var isRemovedOnCompletion = true {
        willSet { willChangeValue(forKey: "removedOnCompletion") }
        didSet { didChangeValue(forKey: "removedOnCompletion") }
    }
    /// Values stored with `setValue(_:forKey:)`.
    var storage: [String: Any] = [:]
    /// The key-value observers, once one was registered (CAAnimation+KeyValueObserving.swift).
    var keyValueObservers: KeyValueObserverList?

    /// Creates an animation with default values.
    public required override init() {
        super.init()
    }

    /// Creates an animation from an archive written by `encode(with:)`; nil when the archive is damaged.
    /// The delegate is not archived.
    public required init?(coder: NSCoder) {
        super.init()
        guard decodeAnimation(from: coder) else { return nil }
    }

    /// Whether the class decodes safely from a secure archive: true for every animation class.
    open class var supportsSecureCoding: Bool { true }

    /// Archives every property whose `shouldArchiveValue(forKey:)` is true (not the delegate).
    open func encode(with coder: NSCoder) { encodeAnimation(to: coder) }

    /// Creates an animation (Apple's `+animation`).
    public class func animation() -> Self { Self() }

    /// The value a key has when none was set: Core Animation's default for the class's built-in keys
    /// (`duration` 0, `speed` 1, `fillMode` removed, ...), nil for others. Subclasses override it.
    open class func defaultValue(forKey key: String) -> Any? { builtInDefaultValue(forKey: key) }

    /// Whether `encode(with:)` archives the value for `key`; true here, subclasses may say otherwise.
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    /// Stores any value under any key, as Core Animation's animations allow; observers of the key
    /// hear the change.
    open func setValue(_ value: Any?, forKey key: String) {
        willChangeValue(forKey: key)
        storage[key] = value
        didChangeValue(forKey: key)
    }

    /// The value stored under `key`, or the class's default for it.
    open func value(forKey key: String) -> Any? {
        storage[key] ?? Self.defaultValue(forKey: key)
    }

    /// A copy with the same settings, delegate and stored values.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = Self()
        copy.copyProperties(from: self)
        return copy
    }

    /// Copies the settings of `other` into this animation; subclasses extend it.
    func copyProperties(from other: CAAnimation) {
        beginTime = other.beginTime
        duration = other.duration
        speed = other.speed
        timeOffset = other.timeOffset
        repeatCount = other.repeatCount
        repeatDuration = other.repeatDuration
        autoreverses = other.autoreverses
        fillMode = other.fillMode
        timingFunction = other.timingFunction
        delegate = other.delegate
        isRemovedOnCompletion = other.isRemovedOnCompletion
        storage = other.storage
    }

    /// Adds the animation to the layer under `event` (what running an animation as an action does).
    open func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        guard let layer = anObject as? CALayer else { return }
        if let property = self as? CAPropertyAnimation, property.keyPath == nil {
            // A property animation with no key path, used as an action, animates the action's key.
            let keyed = property.copy() as! CAPropertyAnimation
            keyed.keyPath = event
            layer.add(keyed, forKey: event)
            return
        }
        layer.add(self, forKey: event)
    }

    /// The record the render server receives. `defaultDuration` replaces a `duration` of 0 (0.25 s
    /// for animations added to a layer, the group's duration for a group's children).
    func makeRecord(defaultDuration: Double) throws(AnimationValueError) -> AnimationRecord {
        var timing = mediaTiming
        if timing.duration == 0 { timing.duration = defaultDuration }
        guard timing.duration.isFinite, timing.duration >= 0 else {
            throw AnimationValueError(description: "duration \(timing.duration) is not a finite non-negative number")
        }
        return AnimationRecord(
            timing: timing, timingFunction: timingFunction.map(TimingCurve.init),
            isRemovedOnCompletion: isRemovedOnCompletion,
            content: try makeContent(duration: timing.duration))
    }

    /// What the animation does; abstract here.
    func makeContent(duration: Double) throws(AnimationValueError) -> AnimationRecord.Content {
        throw AnimationValueError(description: "\(type(of: self)) is abstract and cannot be added to a layer")
    }
}

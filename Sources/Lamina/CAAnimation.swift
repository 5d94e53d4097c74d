import Foundation

/// Methods an animation's delegate may implement (Apple's `CAAnimationDelegate`); both default to
/// doing nothing. They are called on the main thread, from the main run loop.
public protocol CAAnimationDelegate: AnyObject {
    /// The animation's begin time was reached on the render server.
    func animationDidStart(_ anim: CAAnimation)
    /// The animation ended: `flag` is true when it ran to the end of its active duration, false when
    /// it was removed early (by key, by `removeAllAnimations()`, by a replacement under its key, or
    /// because its layer left the tree).
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

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
open class CAAnimation: NSObject, NSCopying, CAMediaTiming, CAAction, @unchecked Sendable {
    open var beginTime: CFTimeInterval = 0
    open var duration: CFTimeInterval = 0
    open var speed: Float = 1
    open var timeOffset: CFTimeInterval = 0
    open var repeatCount: Float = 0
    open var repeatDuration: CFTimeInterval = 0
    open var autoreverses = false
    open var fillMode: CAMediaTimingFillMode = .removed
    /// The curve applied to the animation's progress; nil is linear.
    open var timingFunction: CAMediaTimingFunction?
    /// Told when the animation starts and stops. Held strongly, as on Apple platforms.
    open var delegate: (any CAAnimationDelegate)?
    /// Whether the animation is removed from its layer when it finishes (default true).
    open var isRemovedOnCompletion = true
    /// Values stored with `setValue(_:forKey:)`.
    var storage: [String: Any] = [:]

    /// Creates an animation with default values.
    public required override init() {
        super.init()
    }

    /// Creates an animation (Apple's `+animation`).
    public class func animation() -> Self { Self() }

    /// The value a key has when none was set (nil unless a subclass says otherwise).
    open class func defaultValue(forKey key: String) -> Any? { nil }

    /// Whether the value for `key` would be archived (always true; archiving is not implemented).
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    /// Stores any value under any key, as Core Animation's animations allow.
    open func setValue(_ value: Any?, forKey key: String) {
        storage[key] = value
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

/// An animation of one key path of a layer (Apple's `CAPropertyAnimation`).
open class CAPropertyAnimation: CAAnimation, @unchecked Sendable {
    /// The animated key path (`"opacity"`, `"position.x"`, `"transform.rotation.z"`, ...).
    open var keyPath: String?
    /// Whether the animated value is added to the layer's current value.
    open var isAdditive = false
    /// Whether each repeat continues from where the previous one ended.
    open var isCumulative = false
    /// Maps scalar values to a transform for a transform key path.
    open var valueFunction: CAValueFunction?

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
    }

    /// The parsed key path and combination settings.
    func target() throws(AnimationValueError) -> PropertyTarget {
        guard let keyPath else { throw AnimationValueError(description: "\(type(of: self)) has no keyPath") }
        guard let parsed = LayerKeyPath(keyPath) else {
            throw AnimationValueError(description: "Lamina has no animatable property at key path '\(keyPath)'")
        }
        let target = PropertyTarget(
            keyPath: parsed, isAdditive: isAdditive, isCumulative: isCumulative,
            valueFunction: valueFunction?.name)
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

    /// Converts one of the animation's values for `target`.
    func unbox(_ any: Any?, _ what: String, _ target: PropertyTarget) throws(AnimationValueError) -> AnimationValue? {
        guard let any else { return nil }
        let value = try AnimationValue.unbox(
            any, as: target.valueKind, what: "\(what) of the '\(target.keyPath)' animation")
        guard value.isValid else {
            throw AnimationValueError(
                description: "\(what) of the '\(target.keyPath)' animation has a NaN or infinite component")
        }
        return value
    }
}

/// A function that maps an animated value to a transform (Apple's `CAValueFunction`): one number,
/// or three (an array) for `scale` and `translate`.
open class CAValueFunction: NSObject, @unchecked Sendable {
    /// The function's name.
    open private(set) var name: CAValueFunctionName

    /// The function with the given name.
    public init?(name: CAValueFunctionName) {
        self.name = name
        super.init()
    }
}

/// Interpolates one key path between two values (Apple's `CABasicAnimation`).
open class CABasicAnimation: CAPropertyAnimation, @unchecked Sendable {
    /// The start value; nil starts from the current value.
    open var fromValue: Any?
    /// The end value; nil ends at the current value.
    open var toValue: Any?
    /// A relative change.
    open var byValue: Any?
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

/// A basic animation driven by a damped spring (Apple's `CASpringAnimation`).
open class CASpringAnimation: CABasicAnimation, @unchecked Sendable {
    /// The mass on the spring (default 1).
    open var mass: CGFloat = 1
    /// The spring's stiffness (default 100).
    open var stiffness: CGFloat = 100
    /// The friction (default 10).
    open var damping: CGFloat = 10
    /// The initial velocity, in units of the whole distance per second (default 0).
    open var initialVelocity: CGFloat = 0

    /// The time the spring needs to come to rest with the current parameters.
    open var settlingDuration: CFTimeInterval { parameters.settlingDuration }

    var parameters: SpringParameters {
        SpringParameters(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
    }

    override func copyProperties(from other: CAAnimation) {
        super.copyProperties(from: other)
        guard let other = other as? CASpringAnimation else { return }
        mass = other.mass
        stiffness = other.stiffness
        damping = other.damping
        initialVelocity = other.initialVelocity
    }

    override func makeContent(duration: Double) throws(AnimationValueError) -> AnimationRecord.Content {
        let target = try target()
        let p = parameters
        guard [p.mass, p.stiffness, p.damping, p.initialVelocity].allSatisfy(\.isFinite), p.mass > 0,
            p.stiffness > 0, p.damping >= 0
        else {
            throw AnimationValueError(
                description: "spring needs finite parameters, mass and stiffness > 0, damping ≥ 0")
        }
        return .spring(target, try values(target), p)
    }
}

/// Steps a key path through a sequence of values or along a path (Apple's `CAKeyframeAnimation`).
open class CAKeyframeAnimation: CAPropertyAnimation, @unchecked Sendable {
    /// The keyframe values.
    open var values: [Any]?
    /// A path for point key paths; when set it wins over `values`.
    open var path: CGPath?
    /// When each keyframe is reached, as fractions of the duration.
    open var keyTimes: [NSNumber]?
    /// One timing function per segment (values − 1 of them).
    open var timingFunctions: [CAMediaTimingFunction]?
    /// How values between keyframes are computed (default linear).
    open var calculationMode: CAAnimationCalculationMode = .linear
    /// Whether a layer moving along `path` turns to follow it.
    open var rotationMode: CAAnimationRotationMode?
    /// Kochanek–Bartels tension per keyframe (cubic modes).
    open var tensionValues: [NSNumber]?
    /// Kochanek–Bartels continuity per keyframe (cubic modes).
    open var continuityValues: [NSNumber]?
    /// Kochanek–Bartels bias per keyframe (cubic modes).
    open var biasValues: [NSNumber]?

    override func copyProperties(from other: CAAnimation) {
        super.copyProperties(from: other)
        guard let other = other as? CAKeyframeAnimation else { return }
        values = other.values
        path = other.path
        keyTimes = other.keyTimes
        timingFunctions = other.timingFunctions
        calculationMode = other.calculationMode
        rotationMode = other.rotationMode
        tensionValues = other.tensionValues
        continuityValues = other.continuityValues
        biasValues = other.biasValues
    }

    override func makeContent(duration: Double) throws(AnimationValueError) -> AnimationRecord.Content {
        let target = try target()
        var converted: [AnimationValue] = []
        for (i, v) in (values ?? []).enumerated() {
            if let value = try unbox(v, "values[\(i)]", target) { converted.append(value) }
        }
        if path != nil && target.keyPath.kind != .point {
            throw AnimationValueError(
                description: "a keyframe path animates a CGPoint key path, not '\(target.keyPath)'")
        }
        func doubles(_ list: [NSNumber]?, _ what: String) throws(AnimationValueError) -> [Double]? {
            guard let list else { return nil }
            let out = list.map(\.doubleValue)
            if out.contains(where: { !$0.isFinite }) {
                throw AnimationValueError(
                    description: "\(what) of the '\(target.keyPath)' animation has a NaN or infinite entry")
            }
            return out
        }
        let times = try doubles(keyTimes, "keyTimes")
        if let times, times.contains(where: { $0 < 0 || $0 > 1 }) {
            throw AnimationValueError(description: "keyTimes of the '\(target.keyPath)' animation must lie in 0...1")
        }
        return .keyframe(
            target,
            Keyframes(
                values: converted, path: path, keyTimes: times, timingFunctions: timingFunctions?.map(TimingCurve.init),
                calculationMode: calculationMode, rotationMode: rotationMode,
                tensionValues: try doubles(tensionValues, "tensionValues"),
                continuityValues: try doubles(continuityValues, "continuityValues"),
                biasValues: try doubles(biasValues, "biasValues")))
    }
}

/// Runs several animations together on one layer (Apple's `CAAnimationGroup`).
///
/// The children run in the group's time: a child whose `duration` is 0 takes the group's, a
/// child's `beginTime` counts from the group's start, and the group's duration cuts them off.
open class CAAnimationGroup: CAAnimation, @unchecked Sendable {
    /// The child animations.
    open var animations: [CAAnimation]?

    override func copyProperties(from other: CAAnimation) {
        super.copyProperties(from: other)
        guard let other = other as? CAAnimationGroup else { return }
        animations = other.animations?.map { $0.copy() as! CAAnimation }
    }

    override func makeContent(duration: Double) throws(AnimationValueError) -> AnimationRecord.Content {
        var children: [AnimationRecord] = []
        for child in animations ?? [] {
            if child is CATransition {
                throw AnimationValueError(description: "a CATransition cannot be part of a CAAnimationGroup in Lamina")
            }
            children.append(try child.makeRecord(defaultDuration: duration))
        }
        return .group(children)
    }
}

/// Animates a change of a layer's whole appearance from snapshots of before and after (Apple's
/// `CATransition`).
///
/// Add it to a layer, then change the layer or its sublayers in the same transaction; the render
/// server draws the old subtree going and the new one coming.
open class CATransition: CAAnimation, @unchecked Sendable {
    /// The effect (default fade).
    open var type: CATransitionType = .fade
    /// The direction for move-in, push and reveal.
    open var subtype: CATransitionSubtype?
    /// Where in the transition to start, 0...1.
    open var startProgress: Float = 0
    /// Where in the transition to end, 0...1.
    open var endProgress: Float = 1
    /// A filter for the transition (accepted and ignored in Lamina, as filters are on iOS).
    open var filter: Any?

    override func copyProperties(from other: CAAnimation) {
        super.copyProperties(from: other)
        guard let other = other as? CATransition else { return }
        type = other.type
        subtype = other.subtype
        startProgress = other.startProgress
        endProgress = other.endProgress
        filter = other.filter
    }

    override func makeContent(duration: Double) throws(AnimationValueError) -> AnimationRecord.Content {
        guard CATransitionType.known.contains(type) else {
            throw AnimationValueError(description: "unknown transition type '\(type.rawValue)'")
        }
        guard (0...1).contains(startProgress), (0...1).contains(endProgress) else {
            throw AnimationValueError(description: "transition progress must lie in 0...1")
        }
        return .transition(
            TransitionParameters(
                type: type, subtype: subtype, startProgress: Double(startProgress),
                endProgress: Double(endProgress)))
    }
}

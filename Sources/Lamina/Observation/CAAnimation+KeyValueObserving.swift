import Foundation

// Key-value observing of animations: every property of the animation classes posts a change when
// it is set, as does every key stored with `setValue(_:forKey:)`. Changes are sent synchronously on
// the setting thread, after the value is stored.

extension CAAnimation: LaminaKeyValueObserving {
    /// The animation's observer list, made on first use.
    var observerList: KeyValueObserverList {
        if let list = keyValueObservers { return list }
        let list = KeyValueObserverList()
        keyValueObservers = list
        return list
    }

    /// Registers `observer` to be sent changes of the value at `keyPath` (Foundation's
    /// `addObserver(_:forKeyPath:options:context:)`). The observer conforms to `NSKeyValueObserving`
    /// and is held weakly; the change dictionary holds numbers as `NSNumber`s and other values as
    /// the properties return them.
    public func addObserver(
        _ observer: NSObject, forKeyPath keyPath: String, options: NSKeyValueObservingOptions = [],
        context: UnsafeMutableRawPointer?
    ) {
        observerList.add(observer, keyPath: keyPath, of: self, options: options, context: context) {
            [weak self] in self?.observedValue(forKey: keyPath)
        }
    }

    /// Removes the most recent registration of `observer` for `keyPath` (Foundation's
    /// `removeObserver(_:forKeyPath:)`); nothing happens when there is none (Apple raises).
    public func removeObserver(_ observer: NSObject, forKeyPath keyPath: String) {
        keyValueObservers?.remove(observer: observer, key: keyPath, context: nil, matchingContext: false)
    }

    /// Removes the most recent registration of `observer` for `keyPath` with `context` (Foundation's
    /// `removeObserver(_:forKeyPath:context:)`).
    public func removeObserver(_ observer: NSObject, forKeyPath keyPath: String, context: UnsafeMutableRawPointer?) {
        keyValueObservers?.remove(observer: observer, key: keyPath, context: context, matchingContext: true)
    }

    /// Tells the observers of `key` that its value is about to change (Foundation's manual
    /// notification); pair it with `didChangeValue(forKey:)`.
    public func willChangeValue(forKey key: String) {
        keyValueObservers?.willChange(key)
    }

    /// Tells the observers of `key` that its value changed, after `willChangeValue(forKey:)`.
    public func didChangeValue(forKey key: String) {
        keyValueObservers?.didChange(key)
    }

    /// The value of `key` as a change dictionary carries it: a property's value (numbers boxed as
    /// `NSNumber`), else what `value(forKey:)` returns.
    func observedValue(forKey key: String) -> Any? {
        switch key {
        case "beginTime": return NSNumber(value: beginTime)
        case "duration": return NSNumber(value: duration)
        case "speed": return NSNumber(value: speed)
        case "timeOffset": return NSNumber(value: timeOffset)
        case "repeatCount": return NSNumber(value: repeatCount)
        case "repeatDuration": return NSNumber(value: repeatDuration)
        case "autoreverses": return NSNumber(value: autoreverses)
        case "fillMode": return fillMode.rawValue
        case "timingFunction": return timingFunction
        case "delegate": return delegate
        case "removedOnCompletion": return NSNumber(value: isRemovedOnCompletion)
        default: return subclassObservedValue(forKey: key) ?? value(forKey: key)
        }
    }

    /// The value of a key of one of the subclasses, or nil.
    private func subclassObservedValue(forKey key: String) -> Any?? {
        if let property = self as? CAPropertyAnimation {
            switch key {
            case "keyPath": return .some(property.keyPath)
            case "additive": return .some(NSNumber(value: property.isAdditive))
            case "cumulative": return .some(NSNumber(value: property.isCumulative))
            case "valueFunction": return .some(property.valueFunction)
            default: break
            }
        }
        if let basic = self as? CABasicAnimation {
            switch key {
            case "fromValue": return .some(basic.fromValue)
            case "toValue": return .some(basic.toValue)
            case "byValue": return .some(basic.byValue)
            default: break
            }
        }
        if let spring = self as? CASpringAnimation {
            switch key {
            case "mass": return .some(NSNumber(value: Double(spring.mass)))
            case "stiffness": return .some(NSNumber(value: Double(spring.stiffness)))
            case "damping": return .some(NSNumber(value: Double(spring.damping)))
            case "initialVelocity": return .some(NSNumber(value: Double(spring.initialVelocity)))
            default: break
            }
        }
        if let keyframes = self as? CAKeyframeAnimation {
            switch key {
            case "values": return .some(keyframes.values)
            case "path": return .some(keyframes.path)
            case "keyTimes": return .some(keyframes.keyTimes)
            case "timingFunctions": return .some(keyframes.timingFunctions)
            case "calculationMode": return .some(keyframes.calculationMode.rawValue)
            case "rotationMode": return .some(keyframes.rotationMode?.rawValue)
            case "tensionValues": return .some(keyframes.tensionValues)
            case "continuityValues": return .some(keyframes.continuityValues)
            case "biasValues": return .some(keyframes.biasValues)
            default: break
            }
        }
        if let transition = self as? CATransition {
            switch key {
            case "type": return .some(transition.type.rawValue)
            case "subtype": return .some(transition.subtype?.rawValue)
            case "startProgress": return .some(NSNumber(value: transition.startProgress))
            case "endProgress": return .some(NSNumber(value: transition.endProgress))
            case "filter": return .some(transition.filter)
            default: break
            }
        }
        if let group = self as? CAAnimationGroup, key == "animations" { return .some(group.animations) }
        return nil
    }
}

extension LaminaKeyValueObserving where Self: CAAnimation {
    /// Observes the property at `keyPath`: `changeHandler` is called with the animation and the
    /// change each time the property is set, synchronously on the setting thread (Foundation's
    /// `observe(_:options:changeHandler:)`). Keep the returned observation; releasing it, or calling
    /// `invalidate()`, ends it.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        observeAnimation(keyPath, in: Self.animationKeys(), options: options, changeHandler: changeHandler)
    }

    /// The key each `CAAnimation` property's Swift key path names.
    static func animationKeys() -> [AnyKeyPath: String] {
        [
            \Self.beginTime: "beginTime", \Self.duration: "duration", \Self.speed: "speed",
            \Self.timeOffset: "timeOffset", \Self.repeatCount: "repeatCount", \Self.repeatDuration: "repeatDuration",
            \Self.autoreverses: "autoreverses", \Self.fillMode: "fillMode", \Self.timingFunction: "timingFunction",
            \Self.isRemovedOnCompletion: "removedOnCompletion",
        ]
    }

    /// Registers a typed observation under the key `table` gives `keyPath`.
    func observeAnimation<Value>(
        _ keyPath: KeyPath<Self, Value>, in table: [AnyKeyPath: String], options: NSKeyValueObservingOptions,
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        observerList.observe(
            self, keyPath, key: Self.observedKey(keyPath, in: table), options: options, handler: changeHandler)
    }
}

extension LaminaKeyValueObserving where Self: CAPropertyAnimation {
    /// Observes the property at `keyPath` of a property animation, as `CAAnimation`'s `observe` does.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        observeAnimation(keyPath, in: Self.propertyAnimationKeys(), options: options, changeHandler: changeHandler)
    }

    /// The keys of `CAPropertyAnimation`'s properties and its superclass's.
    static func propertyAnimationKeys() -> [AnyKeyPath: String] {
        animationKeys().merging(
            [
                \Self.keyPath: "keyPath", \Self.isAdditive: "additive", \Self.isCumulative: "cumulative",
                \Self.valueFunction: "valueFunction",
            ]
        ) { $1 }
    }
}

extension LaminaKeyValueObserving where Self: CABasicAnimation {
    /// Observes the property at `keyPath` of a basic animation, as `CAAnimation`'s `observe` does.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        observeAnimation(keyPath, in: Self.basicAnimationKeys(), options: options, changeHandler: changeHandler)
    }

    /// The keys of `CABasicAnimation`'s properties and its superclasses'.
    static func basicAnimationKeys() -> [AnyKeyPath: String] {
        propertyAnimationKeys().merging(
            [\Self.fromValue: "fromValue", \Self.toValue: "toValue", \Self.byValue: "byValue"]
        ) { $1 }
    }
}

extension LaminaKeyValueObserving where Self: CASpringAnimation {
    /// Observes the property at `keyPath` of a spring animation, as `CAAnimation`'s `observe` does.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let keys = Self.basicAnimationKeys().merging(
            [
                \Self.mass: "mass", \Self.stiffness: "stiffness", \Self.damping: "damping",
                \Self.initialVelocity: "initialVelocity",
            ]
        ) { $1 }
        return observeAnimation(keyPath, in: keys, options: options, changeHandler: changeHandler)
    }
}

extension LaminaKeyValueObserving where Self: CAKeyframeAnimation {
    /// Observes the property at `keyPath` of a keyframe animation, as `CAAnimation`'s `observe` does.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let keys = Self.propertyAnimationKeys().merging(
            [
                \Self.values: "values", \Self.path: "path", \Self.keyTimes: "keyTimes",
                \Self.timingFunctions: "timingFunctions", \Self.calculationMode: "calculationMode",
                \Self.rotationMode: "rotationMode", \Self.tensionValues: "tensionValues",
                \Self.continuityValues: "continuityValues", \Self.biasValues: "biasValues",
            ]
        ) { $1 }
        return observeAnimation(keyPath, in: keys, options: options, changeHandler: changeHandler)
    }
}

extension LaminaKeyValueObserving where Self: CATransition {
    /// Observes the property at `keyPath` of a transition, as `CAAnimation`'s `observe` does.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let keys = Self.animationKeys().merging(
            [
                \Self.type: "type", \Self.subtype: "subtype", \Self.startProgress: "startProgress",
                \Self.endProgress: "endProgress",
            ]
        ) { $1 }
        return observeAnimation(keyPath, in: keys, options: options, changeHandler: changeHandler)
    }
}

extension LaminaKeyValueObserving where Self: CAAnimationGroup {
    /// Observes the property at `keyPath` of a group, as `CAAnimation`'s `observe` does.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let keys = Self.animationKeys().merging([\Self.animations: "animations"]) { $1 }
        return observeAnimation(keyPath, in: keys, options: options, changeHandler: changeHandler)
    }
}

import Foundation

extension NSCoder {
    /// The archived value under `key` as Lamina's API takes it; nil when absent or damaged.
    ///
    /// Every decoding helper looks for the key first: swift-corelibs Foundation fails the whole
    /// archive when a secure decode asks for an absent key.
    func decodeArchivedValue(forKey key: String) -> Any? {
        guard containsValue(forKey: key) else { return nil }
        return (decodeObject(of: [ArchivedValue.self], forKey: key) as? ArchivedValue)?.value
    }

    /// Archives `value` under `key` when Lamina can box it (see `ArchivedValue`); nil writes nothing.
    func encodeArchivedValue(_ value: Any?, forKey key: String) {
        guard let value, let box = ArchivedValue(value) else { return }
        encode(box, forKey: key)
    }

    /// The array of objects of class `cls` under `key`, or nil when absent or of another type.
    func decodeArray<T: NSObject>(of cls: T.Type, forKey key: String, also: [AnyClass] = []) -> [T]? {
        guard containsValue(forKey: key) else { return nil }
        return decodeObject(of: [NSArray.self, cls] + also, forKey: key) as? [T]
    }

    /// The string under `key`, or nil.
    func decodeString(forKey key: String) -> String? {
        guard containsValue(forKey: key) else { return nil }
        return decodeObject(of: [NSString.self], forKey: key) as? String
    }

    /// Archives the values stored under custom keys that Lamina can box, as two parallel arrays.
    func encodeStoredValues(_ storage: [String: Any], prefix: String, archiving: (String) -> Bool) {
        var keys: [NSString] = []
        var values: [ArchivedValue] = []
        for (key, value) in storage.sorted(by: { $0.key < $1.key }) where archiving(key) {
            guard let box = ArchivedValue(value) else { continue }
            keys.append(NSString(string: key))
            values.append(box)
        }
        guard !keys.isEmpty else { return }
        encode(NSArray(array: keys), forKey: "\(prefix)Keys")
        encode(NSArray(array: values), forKey: "\(prefix)Values")
    }

    /// The values `encodeStoredValues` wrote.
    func decodeStoredValues(prefix: String) -> [String: Any] {
        guard let keys = decodeArray(of: NSString.self, forKey: "\(prefix)Keys")?.map({ $0 as String }),
            let values = decodeArray(of: ArchivedValue.self, forKey: "\(prefix)Values"), keys.count == values.count
        else { return [:] }
        var out: [String: Any] = [:]
        for (key, box) in zip(keys, values) { out[key] = box.value }
        return out
    }
}

extension CAAnimation {
    /// Every animation class, for decoding groups' children.
    static let archivableClasses: [AnyClass] = [
        CAAnimation.self, CAPropertyAnimation.self, CABasicAnimation.self, CASpringAnimation.self,
        CAKeyframeAnimation.self, CAAnimationGroup.self, CATransition.self,
    ]

    /// Writes every archived property of the animation and of its class's ancestors, under Core
    /// Animation's keys; a key for which `shouldArchiveValue(forKey:)` is false is left out. The
    /// delegate is not archived, as on Apple platforms.
    func encodeAnimation(to coder: NSCoder) {
        func put(_ key: String, _ write: () -> Void) { if shouldArchiveValue(forKey: key) { write() } }
        put("beginTime") { coder.encode(beginTime, forKey: "beginTime") }
        put("duration") { coder.encode(duration, forKey: "duration") }
        put("speed") { coder.encode(speed, forKey: "speed") }
        put("timeOffset") { coder.encode(timeOffset, forKey: "timeOffset") }
        put("repeatCount") { coder.encode(repeatCount, forKey: "repeatCount") }
        put("repeatDuration") { coder.encode(repeatDuration, forKey: "repeatDuration") }
        put("autoreverses") { coder.encode(autoreverses, forKey: "autoreverses") }
        put("fillMode") { coder.encode(NSString(string: fillMode.rawValue), forKey: "fillMode") }
        put("removedOnCompletion") { coder.encode(isRemovedOnCompletion, forKey: "removedOnCompletion") }
        if let timingFunction { put("timingFunction") { coder.encode(timingFunction, forKey: "timingFunction") } }
        coder.encodeStoredValues(storage, prefix: "lamina.stored", archiving: shouldArchiveValue(forKey:))
        if let property = self as? CAPropertyAnimation { property.encodeProperty(to: coder, put) }
        if let basic = self as? CABasicAnimation {
            put("fromValue") { coder.encodeArchivedValue(basic.fromValue, forKey: "fromValue") }
            put("toValue") { coder.encodeArchivedValue(basic.toValue, forKey: "toValue") }
            put("byValue") { coder.encodeArchivedValue(basic.byValue, forKey: "byValue") }
        }
        if let spring = self as? CASpringAnimation {
            put("mass") { coder.encode(Double(spring.mass), forKey: "mass") }
            put("stiffness") { coder.encode(Double(spring.stiffness), forKey: "stiffness") }
            put("damping") { coder.encode(Double(spring.damping), forKey: "damping") }
            put("initialVelocity") { coder.encode(Double(spring.initialVelocity), forKey: "initialVelocity") }
        }
        if let keyframe = self as? CAKeyframeAnimation { keyframe.encodeKeyframes(to: coder, put) }
        if let group = self as? CAAnimationGroup, let children = group.animations {
            put("animations") { coder.encode(NSArray(array: children), forKey: "animations") }
        }
        if let transition = self as? CATransition {
            put("type") { coder.encode(NSString(string: transition.type.rawValue), forKey: "type") }
            if let subtype = transition.subtype {
                put("subtype") { coder.encode(NSString(string: subtype.rawValue), forKey: "subtype") }
            }
            put("startProgress") { coder.encode(transition.startProgress, forKey: "startProgress") }
            put("endProgress") { coder.encode(transition.endProgress, forKey: "endProgress") }
        }
    }

    /// Reads what `encodeAnimation(to:)` wrote; absent keys keep their defaults. False when the
    /// archive is damaged.
    func decodeAnimation(from coder: NSCoder) -> Bool {
        func has(_ key: String) -> Bool { coder.containsValue(forKey: key) }
        if has("beginTime") { beginTime = coder.decodeDouble(forKey: "beginTime") }
        if has("duration") { duration = coder.decodeDouble(forKey: "duration") }
        if has("speed") { speed = coder.decodeFloat(forKey: "speed") }
        if has("timeOffset") { timeOffset = coder.decodeDouble(forKey: "timeOffset") }
        if has("repeatCount") { repeatCount = coder.decodeFloat(forKey: "repeatCount") }
        if has("repeatDuration") { repeatDuration = coder.decodeDouble(forKey: "repeatDuration") }
        if has("autoreverses") { autoreverses = coder.decodeBool(forKey: "autoreverses") }
        if let mode = coder.decodeString(forKey: "fillMode") { fillMode = CAMediaTimingFillMode(rawValue: mode) }
        if has("removedOnCompletion") { isRemovedOnCompletion = coder.decodeBool(forKey: "removedOnCompletion") }
        if has("timingFunction") {
            guard let f = coder.decodeObject(of: CAMediaTimingFunction.self, forKey: "timingFunction") else {
                return false
            }
            timingFunction = f
        }
        storage = coder.decodeStoredValues(prefix: "lamina.stored")
        if let property = self as? CAPropertyAnimation, !property.decodeProperty(from: coder) { return false }
        if let basic = self as? CABasicAnimation {
            basic.fromValue = coder.decodeArchivedValue(forKey: "fromValue")
            basic.toValue = coder.decodeArchivedValue(forKey: "toValue")
            basic.byValue = coder.decodeArchivedValue(forKey: "byValue")
        }
        if let spring = self as? CASpringAnimation {
            if has("mass") { spring.mass = coder.decodeDouble(forKey: "mass") }
            if has("stiffness") { spring.stiffness = coder.decodeDouble(forKey: "stiffness") }
            if has("damping") { spring.damping = coder.decodeDouble(forKey: "damping") }
            if has("initialVelocity") { spring.initialVelocity = coder.decodeDouble(forKey: "initialVelocity") }
        }
        if let keyframe = self as? CAKeyframeAnimation, !keyframe.decodeKeyframes(from: coder) { return false }
        if let group = self as? CAAnimationGroup, has("animations") {
            guard
                let children = coder.decodeArray(
                    of: CAAnimation.self, forKey: "animations", also: CAAnimation.archivableClasses)
            else { return false }
            group.animations = children
        }
        if let transition = self as? CATransition {
            if let type = coder.decodeString(forKey: "type") { transition.type = CATransitionType(rawValue: type) }
            if let sub = coder.decodeString(forKey: "subtype") {
                transition.subtype = CATransitionSubtype(rawValue: sub)
            }
            if has("startProgress") { transition.startProgress = coder.decodeFloat(forKey: "startProgress") }
            if has("endProgress") { transition.endProgress = coder.decodeFloat(forKey: "endProgress") }
        }
        return true
    }
}

extension CAPropertyAnimation {
    func encodeProperty(to coder: NSCoder, _ put: (String, () -> Void) -> Void) {
        if let keyPath { put("keyPath") { coder.encode(NSString(string: keyPath), forKey: "keyPath") } }
        put("additive") { coder.encode(isAdditive, forKey: "additive") }
        put("cumulative") { coder.encode(isCumulative, forKey: "cumulative") }
        if let valueFunction { put("valueFunction") { coder.encode(valueFunction, forKey: "valueFunction") } }
    }

    func decodeProperty(from coder: NSCoder) -> Bool {
        keyPath = coder.decodeString(forKey: "keyPath")
        isAdditive = coder.decodeBool(forKey: "additive")
        isCumulative = coder.decodeBool(forKey: "cumulative")
        if coder.containsValue(forKey: "valueFunction") {
            guard let f = coder.decodeObject(of: CAValueFunction.self, forKey: "valueFunction") else { return false }
            valueFunction = f
        }
        return true
    }
}

extension CAKeyframeAnimation {
    func encodeKeyframes(to coder: NSCoder, _ put: (String, () -> Void) -> Void) {
        if let values { put("values") { coder.encodeArchivedValue(values, forKey: "values") } }
        if let path { put("path") { coder.encodeArchivedValue(path, forKey: "path") } }
        if let keyTimes { put("keyTimes") { coder.encode(NSArray(array: keyTimes), forKey: "keyTimes") } }
        if let timingFunctions {
            put("timingFunctions") { coder.encode(NSArray(array: timingFunctions), forKey: "timingFunctions") }
        }
        put("calculationMode") { coder.encode(NSString(string: calculationMode.rawValue), forKey: "calculationMode") }
        if let rotationMode {
            put("rotationMode") { coder.encode(NSString(string: rotationMode.rawValue), forKey: "rotationMode") }
        }
        for (key, list) in [("tensionValues", tensionValues), ("continuityValues", continuityValues)]
            + [("biasValues", biasValues)]
        {
            if let list { put(key) { coder.encode(NSArray(array: list), forKey: key) } }
        }
    }

    func decodeKeyframes(from coder: NSCoder) -> Bool {
        func numbers(_ key: String) -> [NSNumber]? { coder.decodeArray(of: NSNumber.self, forKey: key) }
        if coder.containsValue(forKey: "values") {
            guard let list = coder.decodeArchivedValue(forKey: "values") as? [Any] else { return false }
            values = list
        }
        if coder.containsValue(forKey: "path") {
            guard let p = coder.decodeArchivedValue(forKey: "path") as? CGPath else { return false }
            path = p
        }
        keyTimes = numbers("keyTimes")
        timingFunctions = coder.decodeArray(of: CAMediaTimingFunction.self, forKey: "timingFunctions")
        if let mode = coder.decodeString(forKey: "calculationMode") {
            calculationMode = CAAnimationCalculationMode(rawValue: mode)
        }
        rotationMode = coder.decodeString(forKey: "rotationMode").map(CAAnimationRotationMode.init(rawValue:))
        tensionValues = numbers("tensionValues")
        continuityValues = numbers("continuityValues")
        biasValues = numbers("biasValues")
        return true
    }
}

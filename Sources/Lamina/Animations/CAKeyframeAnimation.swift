import Foundation

/// Steps a key path through a sequence of values or along a path (Apple's `CAKeyframeAnimation`).
open class CAKeyframeAnimation: CAPropertyAnimation, @unchecked Sendable {
    /// The keyframe values.
    open var values: [Any]? {
        willSet { willChangeValue(forKey: "values") }
        didSet { didChangeValue(forKey: "values") }
    }
    /// A path for point key paths; when set it wins over `values`.
    open var path: CGPath? {
        willSet { willChangeValue(forKey: "path") }
        didSet { didChangeValue(forKey: "path") }
    }
    /// When each keyframe is reached, as fractions of the duration.
    open var keyTimes: [NSNumber]? {
        willSet { willChangeValue(forKey: "keyTimes") }
        didSet { didChangeValue(forKey: "keyTimes") }
    }
    /// One timing function per segment (values − 1 of them).
    open var timingFunctions: [CAMediaTimingFunction]? {
        willSet { willChangeValue(forKey: "timingFunctions") }
        didSet { didChangeValue(forKey: "timingFunctions") }
    }
    /// How values between keyframes are computed (default linear).
    open var calculationMode: CAAnimationCalculationMode = .linear {
        willSet { willChangeValue(forKey: "calculationMode") }
        didSet { didChangeValue(forKey: "calculationMode") }
    }
    /// Whether a layer moving along `path` turns to follow it.
    open var rotationMode: CAAnimationRotationMode? {
        willSet { willChangeValue(forKey: "rotationMode") }
        didSet { didChangeValue(forKey: "rotationMode") }
    }
    /// Kochanek–Bartels tension per keyframe (cubic modes).
    open var tensionValues: [NSNumber]? {
        willSet { willChangeValue(forKey: "tensionValues") }
        didSet { didChangeValue(forKey: "tensionValues") }
    }
    /// Kochanek–Bartels continuity per keyframe (cubic modes).
    open var continuityValues: [NSNumber]? {
        willSet { willChangeValue(forKey: "continuityValues") }
        didSet { didChangeValue(forKey: "continuityValues") }
    }
    /// Kochanek–Bartels bias per keyframe (cubic modes).
    open var biasValues: [NSNumber]? {
        willSet { willChangeValue(forKey: "biasValues") }
        didSet { didChangeValue(forKey: "biasValues") }
    }

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

    override var ownValueKind: AnimationValue.Kind? {
        if path != nil { return .point }
        return (values ?? []).lazy.compactMap(AnimationValue.kind(of:)).first
    }

    override func makeContent(duration: Double) throws(AnimationValueError) -> AnimationRecord.Content {
        let target = try target()
        var converted: [AnimationValue] = []
        for (i, v) in (values ?? []).enumerated() {
            if let value = try unbox(v, "values[\(i)]", target) { converted.append(value) }
        }
        if path != nil && target.keyPath.kind != .point {
            throw AnimationValueError(
                description: "a keyframe path animates a CGPoint key path, not '\(target.keyPathString)'")
        }
        func doubles(_ list: [NSNumber]?, _ what: String) throws(AnimationValueError) -> [Double]? {
            guard let list else { return nil }
            let out = list.map(\.doubleValue)
            if out.contains(where: { !$0.isFinite }) {
                throw AnimationValueError(
                    description: "\(what) of the '\(target.keyPathString)' animation has a NaN or infinite entry")
            }
            return out
        }
        let times = try doubles(keyTimes, "keyTimes")
        if let times, times.contains(where: { $0 < 0 || $0 > 1 }) {
            throw AnimationValueError(
                description: "keyTimes of the '\(target.keyPathString)' animation must lie in 0...1")
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

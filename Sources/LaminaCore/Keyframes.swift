import Foundation

/// The parameters of a keyframe animation, with their evaluators built once.
public struct Keyframes: Sendable, Hashable {
    public let values: [AnimationValue]
    public let path: CGPath?
    public let keyTimes: [Double]?
    public let timingFunctions: [TimingCurve]?
    public let calculationMode: CAAnimationCalculationMode
    public let rotationMode: CAAnimationRotationMode?
    public let tensionValues: [Double]?
    public let continuityValues: [Double]?
    public let biasValues: [Double]?
    let valueTimeline: KeyframeTimeline?
    let pathTimeline: PathTimeline?

    /// Creates keyframe parameters; a non-empty `path` wins over `values`, as on Apple platforms.
    public init(values: [AnimationValue], path: CGPath? = nil, keyTimes: [Double]? = nil,
                timingFunctions: [TimingCurve]? = nil, calculationMode: CAAnimationCalculationMode = .linear,
                rotationMode: CAAnimationRotationMode? = nil, tensionValues: [Double]? = nil,
                continuityValues: [Double]? = nil, biasValues: [Double]? = nil) {
        self.values = values
        self.path = path
        self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions
        self.calculationMode = calculationMode
        self.rotationMode = rotationMode
        self.tensionValues = tensionValues
        self.continuityValues = continuityValues
        self.biasValues = biasValues
        let functions = timingFunctions?.map(\.function)
        if let path, !path.isEmpty {
            pathTimeline = PathTimeline(path: path, keyTimes: keyTimes, timingFunctions: functions,
                                        calculationMode: calculationMode)
            valueTimeline = nil
        } else {
            pathTimeline = nil
            valueTimeline = KeyframeTimeline(
                values: values, keyTimes: keyTimes, timingFunctions: functions, calculationMode: calculationMode,
                tensionValues: tensionValues, continuityValues: continuityValues, biasValues: biasValues)
        }
    }

    public static func == (a: Keyframes, b: Keyframes) -> Bool {
        a.values == b.values && a.path == b.path && a.keyTimes == b.keyTimes && a.timingFunctions == b.timingFunctions
            && a.calculationMode == b.calculationMode && a.rotationMode == b.rotationMode
            && a.tensionValues == b.tensionValues && a.continuityValues == b.continuityValues
            && a.biasValues == b.biasValues
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
        hasher.combine(keyTimes)
        hasher.combine(calculationMode)
    }
}

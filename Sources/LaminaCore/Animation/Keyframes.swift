import Foundation

/// The parameters of a keyframe animation, with their evaluators built once.
public struct Keyframes: Sendable, Hashable {
    /// The keyframe values (`values`), used when there is no path.
    public let values: [AnimationValue]
    /// The path a point property follows (`path`); a non-empty path wins over `values`.
    public let path: CGPath?
    /// The time fraction of each keyframe (`keyTimes`); nil spaces them evenly.
    public let keyTimes: [Double]?
    /// The curve of each segment between keyframes (`timingFunctions`).
    public let timingFunctions: [TimingCurve]?
    /// How values between keyframes are computed (`calculationMode`).
    public let calculationMode: CAAnimationCalculationMode
    /// Whether a layer moving along `path` turns to follow it (`rotationMode`).
    public let rotationMode: CAAnimationRotationMode?
    /// Per-keyframe tension of the cubic modes (`tensionValues`).
    public let tensionValues: [Double]?
    /// Per-keyframe continuity of the cubic modes (`continuityValues`).
    public let continuityValues: [Double]?
    /// Per-keyframe bias of the cubic modes (`biasValues`).
    public let biasValues: [Double]?
    let valueTimeline: KeyframeTimeline?
    let pathTimeline: PathTimeline?

    /// Creates keyframe parameters; a non-empty `path` wins over `values`, as on Apple platforms.
    public init(
        values: [AnimationValue], path: CGPath? = nil, keyTimes: [Double]? = nil,
        timingFunctions: [TimingCurve]? = nil, calculationMode: CAAnimationCalculationMode = .linear,
        rotationMode: CAAnimationRotationMode? = nil, tensionValues: [Double]? = nil,
        continuityValues: [Double]? = nil, biasValues: [Double]? = nil
    ) {
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
            pathTimeline = PathTimeline(
                path: path, keyTimes: keyTimes, timingFunctions: functions,
                calculationMode: calculationMode)
            valueTimeline = nil
        } else {
            pathTimeline = nil
            valueTimeline = KeyframeTimeline(
                values: values, keyTimes: keyTimes, timingFunctions: functions, calculationMode: calculationMode,
                tensionValues: tensionValues, continuityValues: continuityValues, biasValues: biasValues)
        }
    }

    /// Equal when every parameter is equal (the evaluators follow from them).
    public static func == (a: Keyframes, b: Keyframes) -> Bool {
        a.values == b.values && a.path == b.path && a.keyTimes == b.keyTimes && a.timingFunctions == b.timingFunctions
            && a.calculationMode == b.calculationMode && a.rotationMode == b.rotationMode
            && a.tensionValues == b.tensionValues && a.continuityValues == b.continuityValues
            && a.biasValues == b.biasValues
    }

    /// Hashes the values, key times and calculation mode.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
        hasher.combine(keyTimes)
        hasher.combine(calculationMode)
    }
}

import Foundation

/// The plain-value form of a `CAAnimation`: what the client commits, what the render server keeps
/// on its render-tree layer, and what both evaluate with `apply(to:parentTime:transitions:)`.
///
/// Records are built by the client when an animation is committed: `beginTime` 0 is already
/// replaced by the layer's local time of the commit, a `duration` of 0 by 0.25 s, and every value
/// checked against its key path's kind. The server validates records again (`invalidReason`).
public struct AnimationRecord: Sendable, Hashable {
    /// The animation's `CAMediaTiming`; `beginTime` is in its layer's local time space.
    public var timing: MediaTiming
    /// The curve applied to the animation's progress; nil is linear.
    public var timingFunction: TimingCurve?
    /// Whether the animation is removed from its layer once its active duration is over.
    public var isRemovedOnCompletion: Bool
    /// What the animation does.
    public var content: Content

    /// The kinds of animation, with their parameters.
    public indirect enum Content: Sendable, Hashable {
        /// `CABasicAnimation`: from/to/by interpolation of one key path.
        case basic(PropertyTarget, BasicValues)
        /// `CASpringAnimation`: a basic animation driven by a damped spring.
        case spring(PropertyTarget, BasicValues, SpringParameters)
        /// `CAKeyframeAnimation`: a sequence of values or a path.
        case keyframe(PropertyTarget, Keyframes)
        /// `CAAnimationGroup`: child animations run in the group's time.
        case group([AnimationRecord])
        /// `CATransition`: a whole-layer change rendered from before and after snapshots.
        case transition(TransitionParameters)
    }

    /// Creates a record.
    public init(timing: MediaTiming, timingFunction: TimingCurve? = nil, isRemovedOnCompletion: Bool = true,
                content: Content) {
        self.timing = timing
        self.timingFunction = timingFunction
        self.isRemovedOnCompletion = isRemovedOnCompletion
        self.content = content
    }
}

/// A `CAMediaTimingFunction` held by value: equal when the control points are equal.
public struct TimingCurve: Sendable, Hashable {
    /// The timing function.
    public let function: CAMediaTimingFunction

    /// Wraps a timing function.
    public init(_ function: CAMediaTimingFunction) {
        self.function = function
    }

    /// A curve with the given inner control points.
    public init(_ c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        function = CAMediaTimingFunction(controlPoints: c1x, c1y, c2x, c2y)
    }

    /// The inner control points as `Float`s (what goes on the wire).
    public var controlPoints: [Float] {
        var p1 = [Float](repeating: 0, count: 2), p2 = [Float](repeating: 0, count: 2)
        function.getControlPoint(at: 1, values: &p1)
        function.getControlPoint(at: 2, values: &p2)
        return [p1[0], p1[1], p2[0], p2[1]]
    }

    public static func == (a: TimingCurve, b: TimingCurve) -> Bool { a.controlPoints == b.controlPoints }
    public func hash(into hasher: inout Hasher) { hasher.combine(controlPoints) }
}

/// The key path a property animation drives, and how its value combines with the layer's.
public struct PropertyTarget: Sendable, Hashable {
    /// The animated key path.
    public var keyPath: LayerKeyPath
    /// When true the animated value is added to the underlying value (`isAdditive`).
    public var isAdditive: Bool
    /// When true each repeat builds on the previous one's end (`isCumulative`).
    public var isCumulative: Bool
    /// Maps a scalar animated value to a transform (`valueFunction`); the key path is then a
    /// whole transform property.
    public var valueFunction: CAValueFunctionName?

    /// Creates a target.
    public init(keyPath: LayerKeyPath, isAdditive: Bool = false, isCumulative: Bool = false,
                valueFunction: CAValueFunctionName? = nil) {
        self.keyPath = keyPath
        self.isAdditive = isAdditive
        self.isCumulative = isCumulative
        self.valueFunction = valueFunction
    }

    /// The kind the animation's values must have: the key path's, or the value function's input.
    public var valueKind: AnimationValue.Kind {
        valueFunction?.inputKind ?? keyPath.kind
    }
}

/// `fromValue`, `toValue` and `byValue` of a basic or spring animation.
public struct BasicValues: Sendable, Hashable {
    public var from: AnimationValue?
    public var to: AnimationValue?
    public var by: AnimationValue?

    /// Creates the values.
    public init(from: AnimationValue? = nil, to: AnimationValue? = nil, by: AnimationValue? = nil) {
        self.from = from
        self.to = to
        self.by = by
    }

    /// The start and end values given the current underlying value (Core Animation's table):
    /// from+to, from+by (from → from+by), by+to (to−by → to), from (→ current), to (current →),
    /// by (current → current+by), none (current → current). All three set behaves as from+to.
    public func resolved(current: AnimationValue) -> (AnimationValue, AnimationValue) {
        switch (from, to, by) {
        case (let f?, let t?, _): (f, t)
        case (let f?, nil, let b?): (f, AnimationValue.add(f, b))
        case (nil, let t?, let b?): (AnimationValue.subtract(t, b), t)
        case (let f?, nil, nil): (f, current)
        case (nil, let t?, nil): (current, t)
        case (nil, nil, let b?): (current, AnimationValue.add(current, b))
        case (nil, nil, nil): (current, current)
        }
    }

    /// The values that are set.
    public var all: [AnimationValue] { [from, to, by].compactMap { $0 } }
}

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

/// The parameters of a `CATransition`.
public struct TransitionParameters: Sendable, Hashable {
    public var type: CATransitionType
    public var subtype: CATransitionSubtype?
    public var startProgress: Double
    public var endProgress: Double

    /// Creates transition parameters.
    public init(type: CATransitionType = .fade, subtype: CATransitionSubtype? = nil, startProgress: Double = 0,
                endProgress: Double = 1) {
        self.type = type
        self.subtype = subtype
        self.startProgress = startProgress
        self.endProgress = endProgress
    }
}

/// The kind of a `CATransition` (Apple's `CATransitionType`).
public struct CATransitionType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// The new content fades in over the old.
    public static let fade = CATransitionType("fade")
    /// The new content slides in over the old.
    public static let moveIn = CATransitionType("moveIn")
    /// The new content pushes the old content out.
    public static let push = CATransitionType("push")
    /// The old content slides out, revealing the new.
    public static let reveal = CATransitionType("reveal")

    /// Every type Lamina draws.
    public static let known: [CATransitionType] = [.fade, .moveIn, .push, .reveal]
}

/// The direction of a `CATransition` (Apple's `CATransitionSubtype`).
public struct CATransitionSubtype: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Motion from the right edge towards the left.
    public static let fromRight = CATransitionSubtype("fromRight")
    /// Motion from the left edge towards the right.
    public static let fromLeft = CATransitionSubtype("fromLeft")
    /// Motion from the top edge downwards.
    public static let fromTop = CATransitionSubtype("fromTop")
    /// Motion from the bottom edge upwards.
    public static let fromBottom = CATransitionSubtype("fromBottom")
}

/// The name of a function that maps an animated value to a transform (Apple's
/// `CAValueFunctionName`): one number, or three for `scale` and `translate`.
public struct CAValueFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let rotateX = CAValueFunctionName("rotateX")
    public static let rotateY = CAValueFunctionName("rotateY")
    public static let rotateZ = CAValueFunctionName("rotateZ")
    /// Scale by three numbers (x, y, z).
    public static let scale = CAValueFunctionName("scale")
    public static let scaleX = CAValueFunctionName("scaleX")
    public static let scaleY = CAValueFunctionName("scaleY")
    public static let scaleZ = CAValueFunctionName("scaleZ")
    /// Translation by three numbers (x, y, z).
    public static let translate = CAValueFunctionName("translate")
    public static let translateX = CAValueFunctionName("translateX")
    public static let translateY = CAValueFunctionName("translateY")
    public static let translateZ = CAValueFunctionName("translateZ")

    /// Every name Lamina implements.
    public static let known: [CAValueFunctionName] = [
        .rotateX, .rotateY, .rotateZ, .scale, .scaleX, .scaleY, .scaleZ, .translate, .translateX, .translateY,
        .translateZ,
    ]

    /// The kind of value the function takes: three numbers for `scale` and `translate`, one
    /// otherwise.
    public var inputKind: AnimationValue.Kind {
        self == .scale || self == .translate ? .vector : .number
    }

    /// The transform for `value`; nil for an unknown name or a value of the wrong kind.
    public func transform(_ value: AnimationValue) -> CATransform3D? {
        if case .vector(let v) = value {
            switch self {
            case .scale: return CATransform3DMakeScale(v.x, v.y, v.z)
            case .translate: return CATransform3DMakeTranslation(v.x, v.y, v.z)
            default: return nil
            }
        }
        guard inputKind == .number, case .number(let v) = value else { return nil }
        return switch self {
        case .rotateX: CATransform3DMakeRotation(v, 1, 0, 0)
        case .rotateY: CATransform3DMakeRotation(v, 0, 1, 0)
        case .rotateZ: CATransform3DMakeRotation(v, 0, 0, 1)
        case .scaleX: CATransform3DMakeScale(v, 1, 1)
        case .scaleY: CATransform3DMakeScale(1, v, 1)
        case .scaleZ: CATransform3DMakeScale(1, 1, v)
        case .translateX: CATransform3DMakeTranslation(v, 0, 0)
        case .translateY: CATransform3DMakeTranslation(0, v, 0)
        case .translateZ: CATransform3DMakeTranslation(0, 0, v)
        default: nil
        }
    }

    /// The input that gives the identity transform (1 for scales, 0 otherwise).
    var neutral: AnimationValue {
        switch self {
        case .scale: .vector(SIMD3(1, 1, 1))
        case .translate: .vector(SIMD3(0, 0, 0))
        case .scaleX, .scaleY, .scaleZ: .number(1)
        default: .number(0)
        }
    }
}

/// An animation attached to a layer under a key, with the id the client gave it.
public struct AttachedAnimation: Sendable, Hashable {
    /// Chosen by the client, unique within its connection; events name it.
    public var id: UInt64
    /// The key it was added under (generated by the client for a nil key).
    public var key: String
    /// The animation.
    public var record: AnimationRecord

    /// Creates an attachment.
    public init(id: UInt64, key: String, record: AnimationRecord) {
        self.id = id
        self.key = key
        self.record = record
    }
}

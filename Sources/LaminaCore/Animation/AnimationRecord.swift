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
    public init(
        timing: MediaTiming, timingFunction: TimingCurve? = nil, isRemovedOnCompletion: Bool = true,
        content: Content
    ) {
        self.timing = timing
        self.timingFunction = timingFunction
        self.isRemovedOnCompletion = isRemovedOnCompletion
        self.content = content
    }
}

import Foundation

/// Runs several animations together on one layer (Apple's `CAAnimationGroup`).
///
/// The children run in the group's time: a child whose `duration` is 0 takes the group's, a
/// child's `beginTime` counts from the group's start, and the group's duration cuts them off.
open class CAAnimationGroup: CAAnimation, @unchecked Sendable {
    /// The child animations.
    open var animations: [CAAnimation]? {
        willSet { willChangeValue(forKey: "animations") }
        didSet { didChangeValue(forKey: "animations") }
    }

    override func copyProperties(from other: CAAnimation) {
        super.copyProperties(from: other)
        guard let other = other as? CAAnimationGroup else { return }
        // Apple's copy is shallow here: the copy holds the same child animation objects.
        animations = other.animations
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

import Foundation

/// Animates a change of a layer's whole appearance from snapshots of before and after (Apple's
/// `CATransition`).
///
/// Add it to a layer, then change the layer or its sublayers in the same transaction; the render
/// server draws the old subtree going and the new one coming.
open class CATransition: CAAnimation, @unchecked Sendable {
    /// The effect (default fade).
    open var type: CATransitionType = .fade {
        willSet { willChangeValue(forKey: "type") }
        didSet { didChangeValue(forKey: "type") }
    }
    /// The direction for move-in, push and reveal.
    open var subtype: CATransitionSubtype? {
        willSet { willChangeValue(forKey: "subtype") }
        didSet { didChangeValue(forKey: "subtype") }
    }
    /// Where in the transition to start, 0...1.
    open var startProgress: Float = 0 {
        willSet { willChangeValue(forKey: "startProgress") }
        didSet { didChangeValue(forKey: "startProgress") }
    }
    /// Where in the transition to end, 0...1.
    open var endProgress: Float = 1 {
        willSet { willChangeValue(forKey: "endProgress") }
        didSet { didChangeValue(forKey: "endProgress") }
    }
    /// A filter for the transition (accepted and ignored in Lamina, as filters are on iOS).
    open var filter: Any? {
        willSet { willChangeValue(forKey: "filter") }
        didSet { didChangeValue(forKey: "filter") }
    }

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

import Foundation

/// A basic animation driven by a damped spring (Apple's `CASpringAnimation`).
open class CASpringAnimation: CABasicAnimation, @unchecked Sendable {
    /// The mass on the spring (default 1).
    open var mass: CGFloat = 1 {
        willSet { willChangeValue(forKey: "mass") }
        didSet { didChangeValue(forKey: "mass") }
    }
    /// The spring's stiffness (default 100).
    open var stiffness: CGFloat = 100 {
        willSet { willChangeValue(forKey: "stiffness") }
        didSet { didChangeValue(forKey: "stiffness") }
    }
    /// The friction (default 10).
    open var damping: CGFloat = 10 {
        willSet { willChangeValue(forKey: "damping") }
        didSet { didChangeValue(forKey: "damping") }
    }
    /// The initial velocity, in units of the whole distance per second (default 0).
    open var initialVelocity: CGFloat = 0 {
        willSet { willChangeValue(forKey: "initialVelocity") }
        didSet { didChangeValue(forKey: "initialVelocity") }
    }

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

import Foundation
import LaminaCore
import Testing

// MARK: - Reference integration

/// `x(t)` by classic fourth-order Runge–Kutta on `m·x'' = −k(x − 1) − c·x'` with step `h`.
private func integrate(_ s: SpringParameters, until t: Double, step h: Double = 1e-4) -> Double {
    func acceleration(_ x: Double, _ v: Double) -> Double {
        (-s.stiffness * (x - 1) - s.damping * v) / s.mass
    }
    var x = 0.0
    var v = s.initialVelocity
    let steps = Int((t / h).rounded())
    for _ in 0..<steps {
        let k1x = v
        let k1v = acceleration(x, v)
        let k2x = v + h / 2 * k1v
        let k2v = acceleration(x + h / 2 * k1x, v + h / 2 * k1v)
        let k3x = v + h / 2 * k2v
        let k3v = acceleration(x + h / 2 * k2x, v + h / 2 * k2v)
        let k4x = v + h * k3v
        let k4v = acceleration(x + h * k3x, v + h * k3v)
        x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
        v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
    }
    return x
}

/// Named spring parameters for parameterised tests.
struct SpringCase: Sendable, CustomTestStringConvertible {
    let name: String
    let spring: SpringParameters
    var testDescription: String { name }
}

let springCases: [SpringCase] = [
    SpringCase(name: "defaults (ζ = 0.5)", spring: SpringParameters()),
    SpringCase(name: "critical: m 1, k 100, c 20", spring: SpringParameters(mass: 1, stiffness: 100, damping: 20)),
    SpringCase(
        name: "critical with velocity: m 2, k 50, c 20, v 3",
        spring: SpringParameters(mass: 2, stiffness: 50, damping: 20, initialVelocity: 3)),
    SpringCase(
        name: "critical, fast start overshoots once: v 40",
        spring: SpringParameters(mass: 1, stiffness: 100, damping: 20, initialVelocity: 40)),
    SpringCase(
        name: "over-damped: c 50, v −2",
        spring: SpringParameters(mass: 1, stiffness: 100, damping: 50, initialVelocity: -2)),
    SpringCase(
        name: "over-damped, fast start overshoots once: c 30, v 60",
        spring: SpringParameters(mass: 1, stiffness: 100, damping: 30, initialVelocity: 60)),
    SpringCase(
        name: "lightly damped: m 0.5, k 200, c 1, v 5",
        spring: SpringParameters(mass: 0.5, stiffness: 200, damping: 1, initialVelocity: 5)),
]

@Test("Closed form matches RK4 integration (h = 1e-4) within 1e-6", arguments: springCases)
func springMatchesIntegration(_ c: SpringCase) {
    for t in [0.05, 0.1, 0.3, 0.7, 1.5] {
        let closed = c.spring.fraction(at: t)
        let reference = integrate(c.spring, until: t)
        #expect(abs(closed - reference) < 1e-6, "t = \(t): \(closed) vs \(reference)")
    }
}

/// A time and the critically damped closed form `1 − e^(−10t)(1 + 10t)` there (m 1, k 100, c 20).
let criticalValues: [(Double, Double)] = [
    (0.1, 1 - exp(-1.0) * 2),
    (0.2, 1 - exp(-2.0) * 3),
    (0.5, 1 - exp(-5.0) * 6),
]

@Test("Critically damped closed form by hand: 1 − e^(−ω₀t)(1 + ω₀t)", arguments: criticalValues)
func criticalByHand(_ sample: (Double, Double)) {
    let spring = SpringParameters(mass: 1, stiffness: 100, damping: 20)
    #expect(abs(spring.fraction(at: sample.0) - sample.1) < 1e-12)
}

@Test("Defaults overshoot: the first peak is 1 + e^(−π/√3) at t = π/ω_d")
func defaultOvershoot() {
    let spring = SpringParameters()
    let peakTime = Double.pi / (10 * 0.75.squareRoot())
    #expect(abs(spring.fraction(at: peakTime) - (1 + exp(-Double.pi / 3.0.squareRoot()))) < 1e-12)
    #expect(spring.fraction(at: peakTime) > 1.16)
    let samples = stride(from: 0.0, through: 2.0, by: 0.001).map { spring.fraction(at: $0) }
    #expect(abs(samples.max()! - spring.fraction(at: peakTime)) < 1e-5)
}

@Test("Start, end and invalid times")
func springEnds() {
    let spring = SpringParameters()
    #expect(spring.fraction(at: 0) == 0)
    #expect(spring.fraction(at: -1) == 0)
    #expect(spring.fraction(at: .nan) == 0)
    #expect(abs(spring.fraction(at: 20) - 1) < 1e-12)
    #expect(spring.fraction(at: .infinity) == 1)
}

@Test(
    "Invalid parameters act as the defaults",
    arguments: [
        SpringParameters(mass: 0, stiffness: -5, damping: -1, initialVelocity: .nan),
        SpringParameters(mass: -2, stiffness: .infinity, damping: .nan),
        SpringParameters(mass: .nan, stiffness: 0, damping: -10),
    ])
func springValidation(_ spring: SpringParameters) {
    for t in [0.1, 0.4, 1] {
        #expect(spring.fraction(at: t) == SpringParameters().fraction(at: t))
    }
    #expect(spring.settlingDuration == SpringParameters().settlingDuration)
}

@Test("settlingDuration: within 0.001 of 1 from then on, and not just before", arguments: springCases)
func settling(_ c: SpringCase) {
    let spring = c.spring
    let settle = spring.settlingDuration
    #expect(settle.isFinite && settle > 0)
    for k in 0...20_000 {
        let t = settle + Double(k) * 2e-4
        #expect(abs(spring.fraction(at: t) - 1) < SpringParameters.settlingTolerance, "t = \(t)")
        if abs(spring.fraction(at: t) - 1) >= SpringParameters.settlingTolerance { break }
    }
    #expect(abs(spring.fraction(at: settle - 1e-6) - 1) > SpringParameters.settlingTolerance)
}

@Test("settlingDuration of the defaults lies below the envelope bound ln(1000·2/√3)/5")
func defaultSettling() {
    let settle = SpringParameters().settlingDuration
    let envelope = log(1000 * 2 / 3.0.squareRoot()) / 5
    #expect(settle > 1 && settle < envelope)
    #expect(abs(settle - 1.270165) < 1e-5)
}

@Test("An undamped spring never settles")
func undamped() {
    let spring = SpringParameters(damping: 0)
    #expect(spring.settlingDuration == .infinity)
    #expect(abs(spring.fraction(at: .pi / 10) - 2) < 1e-12)
}

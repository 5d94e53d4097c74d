import Foundation

/// The physical parameters of a `CASpringAnimation` and the damped harmonic motion they produce.
///
/// The animation's progress `x(t)` is the position of a mass on a spring that starts at 0 and
/// comes to rest at 1:
///
///     m·x'' = −k·(x − 1) − c·x',   x(0) = 0,   x'(0) = initialVelocity
///
/// with `m = mass`, `k = stiffness`, `c = damping`. A positive `initialVelocity` moves towards the
/// rest position, as Apple documents. Motion is evaluated in closed form (under-, critically and
/// over-damped), never by integration, so client and server agree exactly.
///
/// Invalid parameters never trap: a mass or stiffness that is not positive and finite, a
/// negative or non-finite damping and a non-finite velocity are replaced by the default
/// (1, 100, 10, 0) in every computation. The stored properties keep what was given.
public struct SpringParameters: Sendable, Hashable {
    /// The mass of the object attached to the spring. Default 1.
    public var mass: Double
    /// The spring's stiffness coefficient. Default 100.
    public var stiffness: Double
    /// The damping coefficient (friction proportional to velocity). Default 10; 0 never settles.
    public var damping: Double
    /// The velocity at time 0, in units of the whole animation's distance per second. Default 0.
    public var initialVelocity: Double

    /// How close to 1 the progress must stay for the spring to count as settled: 0.001.
    public static let settlingTolerance = 0.001

    /// Creates spring parameters; every default is Core Animation's.
    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
    }

    /// The progress at `t` seconds after the start: 0 for `t ≤ 0` (and NaN), approaching 1.
    ///
    /// Under-damped springs overshoot 1 and oscillate around it; critically and over-damped ones
    /// overshoot at most once (only with a large initial velocity).
    public func fraction(at t: Double) -> Double {
        guard t > 0 else { return 0 }
        guard t.isFinite else { return 1 }
        return 1 + motion.offset(at: t)
    }

    /// The time in seconds after which the progress stays within `settlingTolerance` (0.001) of 1.
    ///
    /// Computed exactly from the closed form, not just bounded: the exponential envelope gives a
    /// time beyond which the spring is surely settled, and the last moment where `|x − 1|` equals
    /// 0.001 is then found between the last extremum of `x − 1` still that large and the next
    /// point where `|x − 1|` is 0 or the envelope, by bisection to full precision. So
    /// `|x(t) − 1| < 0.001` for every later `t`, and not just before. Infinite without damping.
    /// For the defaults it is about 1.27 s (the envelope alone would give 1.41 s).
    public var settlingDuration: Double {
        let epsilon = Self.settlingTolerance
        let motion = self.motion
        guard motion.decays else { return .infinity }
        func excess(_ t: Double) -> Double { abs((1 + motion.offset(at: t)) - 1) - epsilon }

        var lower: Double
        var upper: Double
        switch motion {
        case .underdamped(let sigma, let omega, let a, let b):
            let amplitude = (a * a + b * b).squareRoot()
            let phase = atan2(b, a)
            let natural = (sigma * sigma + omega * omega).squareRoot()
            let peakLimit = log(amplitude * omega / (natural * epsilon)) / sigma
            let base = phase - atan(sigma / omega)
            var k = ((peakLimit * omega - base) / Double.pi).rounded(.down)
            lower = 0
            while k.isFinite {
                let extremum = (base + k * Double.pi) / omega
                if extremum < 0 { break }
                if excess(extremum) >= 0 {
                    lower = extremum
                    break
                }
                k -= 1
            }
            var zeroIndex = ((lower * omega - phase - Double.pi / 2) / Double.pi).rounded(.down) + 1
            upper = (phase + Double.pi / 2 + zeroIndex * Double.pi) / omega
            while upper <= lower {
                zeroIndex += 1
                upper = (phase + Double.pi / 2 + zeroIndex * Double.pi) / omega
            }
        case .critical, .overdamped:
            let horizon = motion.envelopeHorizon(epsilon)
            let points = ([0] + motion.criticalPoints.filter { $0 > 0 && $0 < horizon } + [horizon]).sorted()
            guard let last = points.lastIndex(where: { excess($0) >= 0 }) else { return 0 }
            guard last + 1 < points.count else { return horizon }
            lower = points[last]
            upper = points[last + 1]
        }
        for _ in 0..<200 {
            let middle = (lower + upper) / 2
            if middle <= lower || middle >= upper { break }
            if excess(middle) >= 0 { lower = middle } else { upper = middle }
        }
        return upper
    }

    // MARK: - Closed form

    /// The closed-form solution for `y = x − 1`, chosen by the sign of `c² − 4mk`.
    enum Motion {
        /// `y = e^(−σt)·(a·cos ωt + b·sin ωt)`.
        case underdamped(sigma: Double, omega: Double, a: Double, b: Double)
        /// `y = e^(−ω₀t)·(a + b·t)`.
        case critical(omega0: Double, a: Double, b: Double)
        /// `y = c1·e^(r1·t) + c2·e^(r2·t)` with `r2 < r1 < 0`.
        case overdamped(r1: Double, r2: Double, c1: Double, c2: Double)

        /// `x − 1` at time `t ≥ 0`.
        func offset(at t: Double) -> Double {
            switch self {
            case .underdamped(let sigma, let omega, let a, let b):
                return exp(-sigma * t) * (a * cos(omega * t) + b * sin(omega * t))
            case .critical(let omega0, let a, let b):
                return exp(-omega0 * t) * (a + b * t)
            case .overdamped(let r1, let r2, let c1, let c2):
                return c1 * exp(r1 * t) + c2 * exp(r2 * t)
            }
        }

        /// False for an undamped spring, which oscillates forever.
        var decays: Bool {
            if case .underdamped(let sigma, _, _, _) = self { return sigma > 0 }
            return true
        }

        /// For the non-oscillating cases, the times where `y` is 0 or has its extremum (either
        /// may be negative or missing); between them and beyond, `|y|` is monotonic.
        var criticalPoints: [Double] {
            switch self {
            case .underdamped:
                return []
            case .critical(let omega0, let a, let b):
                guard b != 0 else { return [] }
                return [-a / b, 1 / omega0 - a / b]
            case .overdamped(let r1, let r2, let c1, let c2):
                guard c1 != 0 else { return [] }
                var result: [Double] = []
                let zeroRatio = -c2 / c1
                if zeroRatio > 0 { result.append(log(zeroRatio) / (r1 - r2)) }
                let extremumRatio = -(r2 * c2) / (r1 * c1)
                if extremumRatio > 0 { result.append(log(extremumRatio) / (r1 - r2)) }
                return result
            }
        }

        /// A time beyond which `|y| < epsilon` for sure, from an exponential bound on `|y|`
        /// (non-oscillating cases).
        func envelopeHorizon(_ epsilon: Double) -> Double {
            switch self {
            case .underdamped(let sigma, _, let a, let b):
                return max(0, log((a * a + b * b).squareRoot() / epsilon) / sigma) * 1.01 + 1e-9
            case .critical(let omega0, let a, let b):
                var t = 1 / omega0
                while exp(-omega0 * t) * (abs(a) + abs(b) * t) >= epsilon && t.isFinite { t *= 2 }
                return t
            case .overdamped(let r1, _, let c1, let c2):
                return max(0, log((abs(c1) + abs(c2)) / epsilon) / -r1) * 1.01 + 1e-9
            }
        }
    }

    /// The motion for the validated parameters.
    var motion: Motion {
        let m = mass > 0 && mass.isFinite ? mass : 1
        let k = stiffness > 0 && stiffness.isFinite ? stiffness : 100
        let c = damping >= 0 && damping.isFinite ? damping : 10
        let v0 = initialVelocity.isFinite ? initialVelocity : 0
        let omega0 = (k / m).squareRoot()
        let sigma = c / (2 * m)
        let a = -1.0
        let discriminant = (sigma * sigma - omega0 * omega0) / (omega0 * omega0)
        if abs(discriminant) <= 1e-10 {
            return .critical(omega0: omega0, a: a, b: v0 + omega0 * a)
        }
        if discriminant < 0 {
            let omega = (omega0 * omega0 - sigma * sigma).squareRoot()
            return .underdamped(sigma: sigma, omega: omega, a: a, b: (v0 + sigma * a) / omega)
        }
        let root = (sigma * sigma - omega0 * omega0).squareRoot()
        let r2 = -sigma - root
        let r1 = omega0 * omega0 / r2
        let c2 = (v0 - r1 * a) / (r2 - r1)
        return .overdamped(r1: r1, r2: r2, c1: a - c2, c2: c2)
    }
}

import Foundation
@testable import LaminaCore
import Testing

/// The emitter simulation (`ParticleSystem`) as data: birth times, counts, positions, colours, scales
/// and rotations at chosen times, each worked out from the cell's numbers in the test. Apple's
/// `CAEmitterCell.h` documents the quantities: "birthRate: the number of emitted objects created every
/// second"; "lifetime: the lifetime of each emitted object in seconds"; "velocity", "xAcceleration"
/// ... in points a second; "alphaSpeed: the speed, in units per second, at which the alpha component
/// changes over the lifetime of the cell"; "scaleSpeed", "spin" in radians a second.
struct ParticleSystemTests {
    /// An emitter with one cell `cell` at `position`, seed `seed`.
    static func emitter(_ cell: EmitterCellState, at position: CGPoint = .zero, seed: Double = 0) -> EmitterLayerState {
        var emitter = EmitterLayerState()
        emitter.emitterPosition = position
        emitter.seed = seed
        emitter.cells = [cell]
        return emitter
    }

    /// A cell of `rate` births a second living `lifetime` seconds, moving at `velocity` along
    /// `longitude` with no ranges.
    static func cell(rate: Float, lifetime: Float, velocity: Double = 0, longitude: Double = 0) -> EmitterCellState {
        var cell = EmitterCellState()
        cell.birthRate = rate
        cell.lifetime = lifetime
        cell.velocity = velocity
        cell.emissionLongitude = longitude
        return cell
    }

    /// E18's sparks: particle k is born at k / rate and is at position + velocity × age along its
    /// longitude; at t = 2.5 with rate 2 and lifetime 10 the births 0, 0.5, ..., 2.5 are live (six).
    @Test func particlesAreWhereVelocityTimesAgePuts() {
        let emitter = Self.emitter(
            Self.cell(rate: 2, lifetime: 10, velocity: 20, longitude: .pi / 2), at: CGPoint(x: 10, y: 5))
        let particles = ParticleSystem.particles(of: emitter, at: 2.5)
        #expect(particles.map(\.index) == [0, 1, 2, 3, 4, 5])
        for particle in particles {
            let age = 2.5 - Double(particle.index) / 2
            #expect(abs(particle.age - age) < 1e-12)
            #expect(abs(particle.position.x - 10) < 1e-9, "longitude π/2 moves along y only")
            #expect(abs(particle.position.y - (5 + 20 * age)) < 1e-9)
        }
    }

    /// Acceleration adds ½·a·age²: a particle at rest 2 s after birth under yAcceleration 10 is 20 down.
    @Test func accelerationAddsHalfATimesAgeSquared() throws {
        var cell = Self.cell(rate: 1, lifetime: 10)
        cell.yAcceleration = 10
        cell.xAcceleration = -4
        let first = try #require(ParticleSystem.particles(of: Self.emitter(cell), at: 2).first)
        #expect(first.index == 0)
        #expect(abs(first.position.y - 20) < 1e-9)
        #expect(abs(first.position.x + 8) < 1e-9)
    }

    /// Birth counts: with constant lifetime, the number live at time t ≥ lifetime is rate × lifetime
    /// (births in (t − lifetime, t]); before, the births since 0.
    @Test(arguments: [(5.0, 3.0, 10.0), (100.0, 0.5, 7.25), (3.0, 2.0, 1.0), (0.5, 4.0, 9.0)])
    func liveCountIsBirthRateTimesLifetime(rate: Double, lifetime: Double, time: Double) {
        let emitter = Self.emitter(Self.cell(rate: Float(rate), lifetime: Float(lifetime)))
        let count = ParticleSystem.particles(of: emitter, at: time).count
        // Births k with k / rate in (time − lifetime, time], k ≥ 0.
        let newest = Int((time * rate).rounded(.down))
        let oldest = max(0, Int(((time - lifetime) * rate).rounded(.down)) + 1)
        #expect(count == newest - oldest + 1)
        if time >= lifetime { #expect(abs(Double(count) - rate * lifetime) <= 1) }
    }

    /// The layer's multipliers scale the cell's: birthRate 2 doubles the births, lifetime 0.5 halves
    /// the lives (CAEmitterLayer.h: "multiplied by the cell-defined" values).
    @Test func layerMultipliersScaleTheCells() {
        var emitter = Self.emitter(Self.cell(rate: 4, lifetime: 2, velocity: 10))
        emitter.birthRate = 2
        emitter.lifetime = 0.5
        emitter.velocity = 3
        let particles = ParticleSystem.particles(of: emitter, at: 10)
        #expect(particles.count == 8, "rate 8 × lifetime 1")
        let oldest = particles[0]
        #expect(abs(oldest.position.x - 30 * oldest.age) < 1e-9)
    }

    /// A billion births a second stay at the per-layer cap, and the survivors are the newest.
    @Test func hugeBirthRatesStayAtTheCap() {
        let emitter = Self.emitter(Self.cell(rate: 1e9, lifetime: 1000))
        let start = Date()
        let particles = ParticleSystem.particles(of: emitter, at: 500)
        #expect(particles.count == ParticleSystem.maxLiveParticlesPerLayer)
        #expect(particles.last!.index == 500_000_000_000)
        #expect(Date().timeIntervalSince(start) < 5)
    }

    /// The same seed and time give the same particles; another seed, other draws.
    @Test func drawsDependOnSeedAndTimeAlone() throws {
        var cell = Self.cell(rate: 10, lifetime: 3, velocity: 50)
        cell.velocityRange = 20
        cell.emissionRange = 2 * .pi
        cell.scaleRange = 0.5
        let a = ParticleSystem.particles(of: Self.emitter(cell, seed: 7), at: 4.2)
        let b = ParticleSystem.particles(of: Self.emitter(cell, seed: 7), at: 4.2)
        let c = ParticleSystem.particles(of: Self.emitter(cell, seed: 8), at: 4.2)
        #expect(a == b)
        #expect(a.count == c.count)
        #expect(a.map(\.position) != c.map(\.position))
        // A particle keeps its draws as time goes on: the same direction and speed later.
        let later = ParticleSystem.particles(of: Self.emitter(cell, seed: 7), at: 4.3)
        let middle = a[a.count / 2]
        let same = try #require(later.first { $0.index == middle.index })
        let v0 = middle.position / middle.age, v1 = same.position / same.age
        #expect(abs(v0.x - v1.x) < 1e-6 && abs(v0.y - v1.y) < 1e-6)
    }

    /// Colour changes by its speed a second and is clamped; scale by scaleSpeed; rotation is spin × age.
    @Test func colourScaleAndSpinFollowAge() throws {
        var cell = Self.cell(rate: 1, lifetime: 10)
        cell.colorSpeed = SIMD4(0, -0.1, 0.3, -0.25)
        cell.color = RGBAColor(red: 1, green: 0.5, blue: 0.2, alpha: 1)
        cell.scaleSpeed = 0.5
        cell.spin = 1.5
        let first = try #require(ParticleSystem.particles(of: Self.emitter(cell), at: 3).first)
        #expect(abs(first.color.green - 0.2) < 1e-6)
        #expect(first.color.blue == 1, "0.2 + 0.9 clamps at 1")
        #expect(abs(first.color.alpha - 0.25) < 1e-6)
        #expect(abs(first.scale - 2.5) < 1e-9)
        #expect(abs(first.rotation - 4.5) < 1e-9)
    }

    /// Shapes: a line spreads births along x over its width, a rectangle over its area, a circle's
    /// outline at its radius, a point at the position.
    @Test func emitterShapesPlaceBirths() {
        var emitter = Self.emitter(Self.cell(rate: 50, lifetime: 10), at: CGPoint(x: 100, y: 50))
        emitter.emitterSize = CGSize(width: 40, height: 20)
        emitter.emitterShape = "line"
        let line = ParticleSystem.particles(of: emitter, at: 2)
        #expect(line.allSatisfy { abs($0.position.x - 100) <= 20 && $0.position.y == 50 })
        #expect(Set(line.map { Int($0.position.x) }).count > 10)
        emitter.emitterShape = "rectangle"
        let rect = ParticleSystem.particles(of: emitter, at: 2)
        #expect(rect.allSatisfy { abs($0.position.x - 100) <= 20 && abs($0.position.y - 50) <= 10 })
        emitter.emitterShape = "circle"
        emitter.emitterMode = "outline"
        let circle = ParticleSystem.particles(of: emitter, at: 2)
        #expect(circle.allSatisfy { abs(hypot($0.position.x - 100, $0.position.y - 50) - 20) < 1e-9 })
        emitter.emitterShape = "point"
        #expect(ParticleSystem.particles(of: emitter, at: 2).allSatisfy { $0.position == SIMD3(100, 50, 0) })
    }

    /// Before the layer's time 0, a disabled cell, a zero rate or a time that is not finite: nothing.
    @Test func nothingIsBornWithoutTimeOrRate() {
        var cell = Self.cell(rate: 5, lifetime: 5)
        #expect(ParticleSystem.particles(of: Self.emitter(cell), at: -1).isEmpty)
        #expect(ParticleSystem.particles(of: Self.emitter(cell), at: .nan).isEmpty)
        cell.isEnabled = false
        #expect(ParticleSystem.particles(of: Self.emitter(cell), at: 3).isEmpty)
        cell.isEnabled = true
        cell.birthRate = 0
        #expect(ParticleSystem.particles(of: Self.emitter(cell), at: 3).isEmpty)
    }
}

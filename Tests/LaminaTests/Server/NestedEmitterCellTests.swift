import Foundation
import Testing

@testable import LaminaCore

/// Sub-cells (`CAEmitterCell.emitterCells`) in the simulation. Apple's `CAEmitterCell.h`:
/// "emitterCells: An array containing the sub-cells of this cell ... each particle emitted by the
/// cell will act as an emitter for each of the cell's sub-cells. The emission point is the current
/// particle position and the emission angle is relative to the current direction of the particle."
struct NestedEmitterCellTests {
    /// An emitter at `position` whose one cell is `parent` with sub-cell `child`.
    static func emitter(_ parent: EmitterCellState, _ child: EmitterCellState, at position: CGPoint)
        -> EmitterLayerState
    {
        var emitter = EmitterLayerState()
        emitter.emitterPosition = position
        var parent = parent
        parent.cells = [child]
        emitter.cells = [parent]
        return emitter
    }

    static func cell(rate: Float, lifetime: Float, velocity: Double, longitude: Double = 0) -> EmitterCellState {
        var cell = EmitterCellState()
        cell.birthRate = rate
        cell.lifetime = lifetime
        cell.velocity = velocity
        cell.emissionLongitude = longitude
        return cell
    }

    /// A parent at rest at (30, 40) (one birth a second) emits children at 2 a second moving at 20
    /// along +x (its emission direction, longitude 0): at 0.9 s its first particle has emitted
    /// children at 0 and 0.5 s, now 20·0.9 = 18 and 20·0.4 = 8 points from it.
    @Test func childrenLeaveTheParentAtTheirVelocity() throws {
        let emitter = Self.emitter(
            Self.cell(rate: 1, lifetime: 10, velocity: 0), Self.cell(rate: 2, lifetime: 10, velocity: 20),
            at: CGPoint(x: 30, y: 40))
        let particles = ParticleSystem.particles(of: emitter, at: 0.9)
        let parents = particles.filter { $0.cell == 0 }
        let children = particles.filter { $0.cell == 1 }
        #expect(parents.map(\.index) == [0])
        #expect(children.map(\.index) == [0, 1])
        for child in children {
            let birth = Double(child.index) / 2
            #expect(abs(child.birth - birth) < 1e-12)
            #expect(abs(child.position.x - (30 + 20 * (0.9 - birth))) < 1e-9)
            #expect(abs(child.position.y - 40) < 1e-9)
        }
    }

    /// A parent moving down at 10 (longitude π/2) emits children whose longitude 0 is relative to that
    /// direction: they leave along +y at 20 from where the parent was at their birth, so child j,
    /// born at τ = j/2, is at y = 40 + 10·τ + 20·(t − τ), x = 30.
    @Test func childrenTurnWithTheParentsDirection() throws {
        let emitter = Self.emitter(
            Self.cell(rate: 1, lifetime: 10, velocity: 10, longitude: .pi / 2),
            Self.cell(rate: 2, lifetime: 10, velocity: 20), at: CGPoint(x: 30, y: 40))
        let time = 0.9
        let children = ParticleSystem.particles(of: emitter, at: time).filter { $0.cell == 1 }
        #expect(children.count == 2)
        for child in children {
            let tau = Double(child.index) / 2
            #expect(abs(child.position.x - 30) < 1e-9)
            #expect(abs(child.position.y - (40 + 10 * tau + 20 * (time - tau))) < 1e-9, "child \(child.index)")
        }
    }

    /// Children are born only while their parent lives, and outlive it: a parent living 1 s emits
    /// children at 0 and 0.5 s only; at 3 s the parent is gone and both children are still there.
    @Test func childrenAreBornWhileTheParentLives() {
        let emitter = Self.emitter(
            Self.cell(rate: 0.25, lifetime: 1, velocity: 0), Self.cell(rate: 2, lifetime: 10, velocity: 5),
            at: .zero)
        let particles = ParticleSystem.particles(of: emitter, at: 3)
        #expect(particles.filter { $0.cell == 0 }.isEmpty)
        #expect(particles.filter { $0.cell == 1 }.map(\.birth) == [0, 0.5])
    }

    /// The same seed and time give the same children; sub-cells' draws differ from their parents'
    /// (hashed from the parent's draws, the cell and j).
    @Test func childrenAreDeterministic() {
        var child = Self.cell(rate: 5, lifetime: 2, velocity: 30)
        child.velocityRange = 20
        child.emissionRange = .pi
        let emitter = Self.emitter(Self.cell(rate: 3, lifetime: 2, velocity: 10), child, at: CGPoint(x: 50, y: 50))
        let a = ParticleSystem.particles(of: emitter, at: 2.7)
        #expect(a == ParticleSystem.particles(of: emitter, at: 2.7))
        let speeds = Set(a.filter { $0.cell == 1 }.map { $0.position.x })
        #expect(speeds.count > 10, "children's draws differ from one another")
    }

    /// Nesting cannot multiply the work: four levels of a million births a second stay within the
    /// layer's 5,000 live particles and 20,000 examined births.
    @Test func nestingStaysWithinTheLayersBounds() {
        var cell = Self.cell(rate: 1_000_000, lifetime: 100, velocity: 1)
        for _ in 0..<3 {
            var parent = Self.cell(rate: 1_000_000, lifetime: 100, velocity: 1)
            parent.cells = [cell]
            cell = parent
        }
        var emitter = EmitterLayerState()
        emitter.cells = [cell]
        #expect(EmitterCellState.invalidReason(emitter.cells) == nil)
        let particles = ParticleSystem.particles(of: emitter, at: 50)
        #expect(particles.count == ParticleSystem.maxLiveParticlesPerLayer)
    }
}

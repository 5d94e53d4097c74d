import Foundation
import Testing

@testable import LaminaCore

/// A cell's `CAMediaTiming` in the simulation: it emits only from its `beginTime` for its `duration`
/// (0: without end), in its parent's time (the layer's, or a sub-cell's parent particle's age), and
/// the particles it bore live on after. Apple's `CAEmitterCell` adopts `CAMediaTiming`
/// (CAEmitterCell.h), whose `beginTime` is "the begin time of the receiver, in the parent's time
/// space" and `duration` "the basic duration of the object".
struct EmitterCellTimingTests {
    static func cell(rate: Float, lifetime: Float, velocity: Double, begin: Double, duration: Double)
        -> EmitterCellState
    {
        var cell = EmitterCellState()
        cell.birthRate = rate
        cell.lifetime = lifetime
        cell.velocity = velocity
        cell.beginTime = begin
        cell.duration = duration
        return cell
    }

    /// Four births a second from 2 s for 1 s: births at 2, 2.25, 2.5 and 2.75 (3 is past the end);
    /// at 5 s they are 10 × (5 − b) along +x. Nothing before 2 s.
    @Test func aCellEmitsOnlyInItsActiveTime() {
        var emitter = EmitterLayerState()
        emitter.cells = [Self.cell(rate: 4, lifetime: 10, velocity: 10, begin: 2, duration: 1)]
        #expect(ParticleSystem.particles(of: emitter, at: 1.9).isEmpty)
        let particles = ParticleSystem.particles(of: emitter, at: 5)
        #expect(particles.map(\.birth) == [2, 2.25, 2.5, 2.75])
        for particle in particles {
            #expect(abs(particle.position.x - 10 * (5 - particle.birth)) < 1e-9)
        }
    }

    /// A sub-cell's time is its parent particle's age: beginning 0.5 s into each parent's life for
    /// 0.6 s at 2 a second, the parent born at 0 emits at 0.5 and 1.0 s; at 1.4 s the parent born at
    /// 1 s has not yet reached its 0.5 s.
    @Test func aSubCellsTimeIsItsParentsAge() {
        var parent = Self.cell(rate: 1, lifetime: 10, velocity: 0, begin: 0, duration: 0)
        parent.cells = [Self.cell(rate: 2, lifetime: 10, velocity: 0, begin: 0.5, duration: 0.6)]
        var emitter = EmitterLayerState()
        emitter.cells = [parent]
        let children = ParticleSystem.particles(of: emitter, at: 1.4).filter { $0.cell == 1 }
        #expect(children.map(\.birth) == [0.5, 1.0])
    }

    /// With an animated birth rate (10 a second, held by an animation) the schedule gives no rate
    /// outside the cell's time: from 1 s for 0.55 s, the integral is 5.5 and particles 0...5 are born
    /// at 1 + k/10.
    @Test func theScheduleHonoursTheCellsTime() throws {
        var state = LayerState(layerClass: .emitter)
        var cell = Self.cell(rate: 0, lifetime: 10, velocity: 0, begin: 1, duration: 0.55)
        cell.name = "spark"
        state.emitter.cells = [cell]
        let path = try #require(EmitterCellKeyPath("emitterCells.spark.birthRate"))
        let held = AttachedAnimation(
            id: 1, key: "rate",
            record: AnimationRecord(
                timing: MediaTiming(duration: 10),
                content: .basic(
                    PropertyTarget(keyPath: path.standIn, cell: path), BasicValues(from: .number(10), to: .number(10))))
        )
        var presented = state
        held.record.apply(to: &presented, parentTime: 3)
        let timeline = EmitterTimeline(model: state, animations: [held])
        let particles = ParticleSystem.particles(of: presented.emitter, at: 3, timeline: timeline)
        #expect(particles.count == 6)
        for particle in particles {
            #expect(abs(particle.birth - (1 + Double(particle.index) / 10)) < 1e-9, "particle \(particle.index)")
        }
    }

    /// A negative duration is refused with the server's other cell checks.
    @Test func aNegativeDurationIsInvalid() {
        let reason = EmitterCellState.invalidReason([
            Self.cell(rate: 1, lifetime: 1, velocity: 0, begin: 0, duration: -1)
        ])
        #expect(reason == "emitter cell duration -1.0 is negative")
    }
}

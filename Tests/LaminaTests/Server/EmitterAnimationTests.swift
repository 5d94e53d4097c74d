import Foundation
import Testing

@testable import LaminaCore

/// Animated emitter cells (`emitterCells.NAME.KEY` animations on the layer) in the simulation: an
/// animated birth rate gives the particle count its integral predicts, each particle keeps the values
/// of its cell at its birth, and the same time gives the same particles. Apple documents the key
/// paths in `CAEmitterLayer.h` ("emitterCells.NAME.KEY ... e.g. emitterCells.spark.birthRate") and
/// marks the cell's `birthRate`, `velocity` and `color` "Animatable" in `CAEmitterCell.h`.
struct EmitterAnimationTests {
    /// An emitter layer whose one cell is `cell` (named `spark`).
    static func layer(_ cell: EmitterCellState, position: CGPoint = .zero) -> LayerState {
        var state = LayerState(layerClass: .emitter)
        var named = cell
        named.name = "spark"
        state.emitter.cells = [named]
        state.emitter.emitterPosition = position
        return state
    }

    /// A linear basic animation of `spark`'s `key` from `from` to `to`, over `duration` seconds from
    /// local time `begin`.
    static func animation(
        _ key: String, from: AnimationValue, to: AnimationValue, begin: Double = 0, duration: Double = 1,
        fill: CAMediaTimingFillMode = .removed
    ) throws -> AttachedAnimation {
        let cell = try #require(EmitterCellKeyPath("emitterCells.spark." + key))
        let target = PropertyTarget(keyPath: cell.standIn, cell: cell)
        let record = AnimationRecord(
            timing: MediaTiming(beginTime: begin, duration: duration, fillMode: fill),
            content: .basic(target, BasicValues(from: from, to: to)))
        return AttachedAnimation(id: 1, key: key, record: record)
    }

    static func particles(_ state: LayerState, _ animations: [AttachedAnimation], at time: Double) -> [Particle] {
        var presented = state
        var ignored: [TransitionProgress] = []
        for a in animations { a.record.apply(to: &presented, parentTime: time, id: a.id, transitions: &ignored) }
        let timeline = EmitterTimeline(model: state, animations: animations)
        return ParticleSystem.particles(of: presented.emitter, at: time, timeline: timeline)
    }

    /// birthRate animated linearly 0 → 90 over the first second, then held (fill forwards): the
    /// integral of the rate is 45·t² in the first second and 45 + 90·(t − 1) after, and the particles
    /// born by t are those whose number is below it (particle k is born where the integral passes k).
    @Test(arguments: [0.5, 0.7, 1.25, 1.95])
    func anAnimatedBirthRateBirthsWhatItsIntegralPredicts(time: Double) throws {
        var cell = EmitterCellState()
        cell.lifetime = 100
        let ramp = try Self.animation("birthRate", from: .number(0), to: .number(90), fill: .forwards)
        let integral = time < 1 ? 45 * time * time : 45 + 90 * (time - 1)
        let particles = Self.particles(Self.layer(cell), [ramp], at: time)
        #expect(particles.count == Int(integral.rounded(.down)) + 1, "integral \(integral)")
        #expect(particles.map(\.index) == Array(0..<particles.count))
        for particle in particles {
            // Where 45·b² (or 45 + 90·(b − 1)) reaches k.
            let k = Double(particle.index)
            let birth = k <= 45 ? (k / 45).squareRoot() : 1 + (k - 45) / 90
            #expect(abs(particle.birth - birth) < 1e-3, "particle \(particle.index)")
        }
    }

    /// A model birthRate of 0 with the animation starting at 2 s: nothing is born before it.
    @Test func nothingIsBornBeforeTheRateRises() throws {
        var cell = EmitterCellState()
        cell.lifetime = 100
        let later = try Self.animation("birthRate", from: .number(10), to: .number(10), begin: 2, duration: 1)
        #expect(Self.particles(Self.layer(cell), [later], at: 1.9).isEmpty)
        // At 2.55 the integral is 5.5: particles 0...5, the first born at 2.
        let particles = Self.particles(Self.layer(cell), [later], at: 2.55)
        #expect(particles.count == 6)
        #expect(abs((particles.first?.birth ?? -1) - 2) < 1e-9)
    }

    /// velocity animated 0 → 100 over 1 s at 7.5 births a second: each particle moves at the velocity
    /// of its birth (100·b inside the animation, the model's 20 after it), so at 1.55 s particle k,
    /// born at k/7.5, is at x = v(b)·(1.55 − b) (the integral 11.625 at 1.55 s: particles 0...11).
    @Test func eachParticleMovesAtTheVelocityOfItsBirth() throws {
        var cell = EmitterCellState()
        cell.birthRate = 7.5
        cell.lifetime = 10
        cell.velocity = 20
        let speedUp = try Self.animation("velocity", from: .number(0), to: .number(100))
        let particles = Self.particles(Self.layer(cell, position: CGPoint(x: 5, y: 7)), [speedUp], at: 1.55)
        #expect(particles.count == 12)
        for particle in particles {
            let birth = Double(particle.index) / 7.5
            let velocity = birth < 1 ? 100 * birth : 20
            #expect(abs(particle.birth - birth) < 1e-9)
            #expect(abs(particle.position.x - (5 + velocity * (1.55 - birth))) < 1e-6, "particle \(particle.index)")
            #expect(abs(particle.position.y - 7) < 1e-9)
        }
    }

    /// color animated red → blue over 1 s and alphaSpeed −1 → 0: each particle starts with the colour of
    /// its birth and fades at the alphaSpeed of its birth.
    @Test func colourAndAlphaSpeedAreTakenAtBirth() throws {
        var cell = EmitterCellState()
        cell.birthRate = 4
        cell.lifetime = 10
        let tint = try Self.animation(
            "color", from: .color(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)),
            to: .color(RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)))
        let fade = try Self.animation("alphaSpeed", from: .number(-1), to: .number(0))
        let time = 0.9
        let particles = Self.particles(Self.layer(cell), [tint, fade], at: time)
        #expect(particles.count == 4)
        for particle in particles {
            let b = Double(particle.index) / 4
            #expect(abs(particle.color.red - (1 - b)) < 1e-6)
            #expect(abs(particle.color.blue - b) < 1e-6)
            #expect(abs(particle.color.alpha - (1 + (b - 1) * (time - b))) < 1e-6, "particle \(particle.index)")
        }
    }

    /// The same time gives the same particles, however the frames before it went; another time of
    /// the same animation gives others.
    @Test func theSameTimeGivesTheSameParticles() throws {
        var cell = EmitterCellState()
        cell.lifetime = 3
        cell.velocity = 30
        cell.velocityRange = 20
        cell.emissionRange = .pi
        let ramp = try Self.animation("birthRate", from: .number(0), to: .number(200), duration: 2)
        let state = Self.layer(cell)
        let first = Self.particles(state, [ramp], at: 1.3)
        _ = Self.particles(state, [ramp], at: 0.4)
        #expect(first == Self.particles(state, [ramp], at: 1.3))
        #expect(first != Self.particles(state, [ramp], at: 1.31))
    }

    /// An animation running for an hour costs no more than the schedule's bounded pieces: the births
    /// stay counted (rate 10 held by the animation from 0: 36,000 births by 3,600 s) and the newest
    /// 5,000 live particles are returned.
    @Test func longAnimationsStayBounded() throws {
        var cell = EmitterCellState()
        cell.lifetime = 1_000
        let held = try Self.animation("birthRate", from: .number(10), to: .number(10), duration: 4_000)
        let particles = Self.particles(Self.layer(cell), [held], at: 3_600.05)
        #expect(particles.count == ParticleSystem.maxLiveParticlesPerLayer)
        #expect(particles.last?.index == 36_000)
    }

    /// A hostile number of cell animations costs no more than the timeline's bound: of 1,024 (the most
    /// a layer holds), the first 64 records are followed through time.
    @Test func aTimelineFollowsAtMostItsRecords() throws {
        var cell = EmitterCellState()
        cell.birthRate = 100
        cell.lifetime = 100
        let many = try (0..<1_024).map { i in
            var a = try Self.animation("velocity", from: .number(Double(i)), to: .number(0), duration: 100)
            a.id = UInt64(i)
            return a
        }
        let timeline = try #require(EmitterTimeline(model: Self.layer(cell), animations: many))
        #expect(timeline.animations.count == EmitterTimeline.maxRecords)
        #expect(Self.particles(Self.layer(cell), many, at: 60.005).count == ParticleSystem.maxLiveParticlesPerLayer)
    }

    /// At local times near 10¹⁷ s (a layer whose clock runs fast), where adding the grid step to a
    /// time does not change it, the schedule still ends within its bound of pieces.
    @Test func hugeTimesStayBounded() throws {
        var cell = EmitterCellState()
        cell.lifetime = 1
        let held = try Self.animation("birthRate", from: .number(10), to: .number(10), begin: 1e17 - 64, duration: 1e3)
        let state = Self.layer(cell)
        let timeline = try #require(EmitterTimeline(model: state, animations: [held]))
        let schedule = BirthSchedule(timeline: timeline, upTo: 1e17 + 32)
        #expect(schedule.times.count <= BirthSchedule.maxPieces + 3)
        #expect(Self.particles(state, [held], at: 1e17 + 32).count <= ParticleSystem.maxLiveParticlesPerLayer)
    }

    /// Key paths parse as Apple spells them, nested cells included; keys that are not animatable cell
    /// values do not.
    @Test func cellKeyPathsParse() throws {
        let nested = try #require(EmitterCellKeyPath("emitterCells.fire.emitterCells.smoke.velocity"))
        #expect(nested.names == ["fire", "smoke"])
        #expect(nested.field == 6)
        #expect(nested.description == "emitterCells.fire.emitterCells.smoke.velocity")
        #expect(EmitterCellKeyPath("emitterCells.spark.color")?.kind == .color)
        #expect(EmitterCellKeyPath("emitterCells.spark.name") == nil)
        #expect(EmitterCellKeyPath("emitterCells..birthRate") == nil)
        #expect(EmitterCellKeyPath("emitterCells.birthRate") == nil)
    }
}

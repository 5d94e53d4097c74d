import Foundation

/// The particles of an emitter layer (`CAEmitterLayer`), computed from its properties, its seed and a
/// time alone: nothing is kept from frame to frame, so a capture at a given time shows the same
/// particles every time and the client never ticks.
///
/// Particle *k* of a cell (from 0) is born at the cell's `beginTime` + *k* / *rate* seconds of the
/// layer's local time (the layer's `beginTime` is when emission starts), while the cell is active
/// (its `duration`, when it has one), where *rate* is the cell's `birthRate` times the layer's; with
/// an animated birth rate, where the rate's integral passes *k* (`BirthSchedule`). Its random draws
/// (lifetime, speed, direction, scale, spin, colour, place in the emitter shape) come from a hash of
/// (seed, cell, *k*, draw). At time *t* the live particles are those with birth ≤ *t* < birth +
/// lifetime; each is at p₀ + v·age + ½·a·age², with colour `color` + speed·age, scale `scale` +
/// `scaleSpeed`·age and rotation spin·age. A cell's sub-cells are emitted by each of its particles
/// in the same way, in the particle's time (`ParticleSystem+Emission.swift`).
///
/// At most `maxLiveParticlesPerLayer` particles are returned: each cell, in order, takes its newest
/// live particles from what is left, so the oldest (lowest birth numbers) are dropped first. At most
/// `maxCandidatesPerLayer` birth numbers are examined, sub-cells' included, so a billion births a
/// second, or cells nested four deep, cost no more than a few.
public enum ParticleSystem {
    /// The most particles one emitter layer draws in a frame.
    public static let maxLiveParticlesPerLayer = 5_000
    /// The most birth numbers one emitter layer examines in a frame (live or not).
    public static let maxCandidatesPerLayer = 20_000
    /// The most births of one layer in a frame that take the values of their own time from an
    /// `EmitterTimeline` (each evaluates the layer's emitter animations); older ones take the frame's.
    public static let maxTimelineBirths = 5_000

    /// The live particles of `emitter`'s cells at local time `time`: each top-level cell's in birth
    /// order, then those of its sub-cells by cell and birth.
    ///
    /// `timeline`, when the layer animates its emitter, gives the values each particle is born with
    /// (the cells and the layer's multipliers and geometry at its birth) and the births of an animated
    /// birth rate (`BirthSchedule`); without it the values are `emitter`'s at every time.
    public static func particles(
        of emitter: EmitterLayerState, at time: Double, timeline: EmitterTimeline? = nil
    ) -> [Particle] {
        guard time.isFinite, time >= 0 else { return [] }
        var emission = Emission(time: time, seed: emitter.seedBits)
        let schedule = timeline.map { BirthSchedule(timeline: $0, upTo: time) }
        var result: [Particle] = []
        var flat = 0
        for (cellIndex, cell) in emitter.cells.enumerated() {
            defer { flat += 1 + EmitterCellState.flattened(cell.cells).count }
            guard emission.budget > 0, emission.candidates > 0 else { break }
            var found: [Particle] = []
            emission.children = []
            if let schedule, let timeline {
                emission.emitScheduled(
                    cellIndex, flat: flat, schedule: schedule, timeline: timeline, frame: emitter, into: &found)
            } else {
                emission.emitConstant(cell, index: cellIndex, flat: flat, in: emitter, into: &found)
            }
            result += found.reversed()
            result += emission.children.sorted { ($0.cell, $0.birth) < ($1.cell, $1.birth) }
        }
        return result
    }

    /// How long after its birth a particle of `cell` (in `emitter`) or of its sub-cells may live: its
    /// longest lifetime, then its sub-cells' longest beyond it (they are born until it dies).
    static func longestLife(of cell: EmitterCellState, in emitter: EmitterLayerState) -> Double {
        let own = (Double(cell.lifetime) + abs(Double(cell.lifetimeRange))) * Double(emitter.lifetime)
        let children = cell.cells.map { longestLife(of: $0, in: emitter) }.max() ?? 0
        let total = max(own, 0) + max(children, 0)
        return total.isFinite ? total : 0
    }

    /// Where a particle is born: a point of the emitter's shape (`emitterShape`) chosen as its mode
    /// (`emitterMode`) says, centred on `emitterPosition` and `emitterZPosition`.
    static func place(in emitter: EmitterLayerState, random: inout ParticleRandom) -> SIMD3<Double> {
        let centre = SIMD3(
            Double(emitter.emitterPosition.x), Double(emitter.emitterPosition.y), emitter.emitterZPosition)
        let half = SIMD3(
            Double(emitter.emitterSize.width) / 2, Double(emitter.emitterSize.height) / 2, emitter.emitterDepth / 2)
        let (u, v, w, pick) = (random.unit(), random.unit(), random.unit(), random.unit())
        let mode = emitter.emitterMode
        switch emitter.emitterShape {
        case "line":
            if mode == "points" { return centre + SIMD3(pick < 0.5 ? -half.x : half.x, 0, 0) }
            return centre + SIMD3((2 * u - 1) * half.x, 0, 0)
        case "rectangle", "cuboid":
            let flat = emitter.emitterShape == "rectangle"
            let extent = flat ? SIMD3(half.x, half.y, 0) : half
            var p = SIMD3(2 * u - 1, 2 * v - 1, flat ? 0 : 2 * w - 1)
            switch mode {
            case "points":
                p = SIMD3(u < 0.5 ? -1 : 1, v < 0.5 ? -1 : 1, flat ? 0 : (w < 0.5 ? -1 : 1))
            case "outline":
                // An edge: every coordinate but one at a corner's.
                let axis = Int(pick * (flat ? 2 : 3)) % (flat ? 2 : 3)
                p = SIMD3(u < 0.5 ? -1 : 1, v < 0.5 ? -1 : 1, flat ? 0 : (w < 0.5 ? -1 : 1))
                p[axis] = 2 * random.unit() - 1
            case "surface" where !flat:
                let axis = Int(pick * 3) % 3
                p[axis] = random.unit() < 0.5 ? -1 : 1
            default: break
            }
            return centre + p * extent
        case "circle":
            let angle = 2 * Double.pi * u
            let radius = mode == "points" ? 0 : (mode == "outline" ? half.x : half.x * sqrt(v))
            return centre + SIMD3(radius * cos(angle), radius * sin(angle), 0)
        case "sphere":
            let angle = 2 * Double.pi * u
            let z = 2 * v - 1
            let ring = sqrt(max(0, 1 - z * z))
            let radius = mode == "points" ? 0 : (mode == "volume" ? half.x * cbrt(w) : half.x)
            return centre + SIMD3(ring * cos(angle), ring * sin(angle), z) * radius
        default:
            return centre
        }
    }
}

/// The random draws of one particle: a counter hashed with (seed, cell, particle) by SplitMix64, so
/// each draw depends on those numbers alone.
struct ParticleRandom {
    /// The hashed key of the particle.
    let key: UInt64
    /// The number of draws made.
    var counter: UInt64 = 0

    /// The draws of a sub-cell's particle: particle `particle` of the layer's cell `cell` (among its
    /// parent's cells) emitted by the particle whose draws had key `parent`.
    init(parent: UInt64, cell: Int, particle: Int) {
        key = Self.mix(
            parent ^ Self.mix(UInt64(truncatingIfNeeded: cell) &+ 0x5EED_CE11)
                ^ Self.mix(UInt64(truncatingIfNeeded: particle) &* 0xD1B5_4A32_D192_ED03))
    }

    /// The draws of particle `particle` of cell `cell` under `seed`.
    init(seed: UInt32, cell: Int, particle: Int) {
        key = Self.mix(
            UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 ^ Self.mix(UInt64(truncatingIfNeeded: cell) &+ 0x1234_5678)
                ^ Self.mix(UInt64(truncatingIfNeeded: particle) &* 0xD1B5_4A32_D192_ED03))
    }

    /// SplitMix64's finaliser.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next draw in 0..<1.
    mutating func unit() -> Double {
        counter += 1
        return Double(Self.mix(key ^ (counter &* 0xA24B_AED4_963E_E407)) >> 11) / 9_007_199_254_740_992
    }

    /// The next draw in -1..<1: how far a ranged value goes from its mean.
    mutating func signed() -> Double { 2 * unit() - 1 }
}

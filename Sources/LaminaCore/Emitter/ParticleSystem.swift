import Foundation

/// The particles of an emitter layer (`CAEmitterLayer`), computed from its properties, its seed and a
/// time alone: nothing is kept from frame to frame, so a capture at a given time shows the same
/// particles every time and the client never ticks.
///
/// Particle *k* of a cell (from 0) is born at *k* / *rate* seconds of the layer's local time, where
/// *rate* is the cell's `birthRate` times the layer's (the layer's `beginTime` is when emission
/// starts). Its random draws (lifetime, speed, direction, scale, spin, colour, place in the emitter
/// shape) come from a hash of (seed, cell, *k*, draw). At time *t* the live particles are those with
/// birth ≤ *t* < birth + lifetime; each is at p₀ + v·age + ½·a·age², with colour `color` + speed·age,
/// scale `scale` + `scaleSpeed`·age and rotation spin·age.
///
/// At most `maxLiveParticlesPerLayer` particles are returned: each cell, in order, takes its newest
/// live particles from what is left, so the oldest (lowest birth numbers) are dropped first. At most
/// `maxCandidatesPerLayer` birth numbers are examined, so a billion births a second cost no more than a
/// few.
public enum ParticleSystem {
    /// The most particles one emitter layer draws in a frame.
    public static let maxLiveParticlesPerLayer = 5_000
    /// The most birth numbers one emitter layer examines in a frame (live or not).
    public static let maxCandidatesPerLayer = 20_000

    /// The live particles of `emitter`'s cells at local time `time`, in birth order within each cell.
    public static func particles(of emitter: EmitterLayerState, at time: Double) -> [Particle] {
        guard time.isFinite, time >= 0 else { return [] }
        var result: [Particle] = []
        var budget = maxLiveParticlesPerLayer
        var candidates = maxCandidatesPerLayer
        let seed = emitter.seedBits
        for (cellIndex, cell) in emitter.cells.enumerated() {
            guard budget > 0, candidates > 0 else { break }
            let rate = Double(cell.birthRate) * Double(emitter.birthRate)
            guard cell.isEnabled, rate.isFinite, rate > 0 else { continue }
            let longest = (Double(cell.lifetime) + abs(Double(cell.lifetimeRange))) * Double(emitter.lifetime)
            guard longest.isFinite, longest > 0 else { continue }
            let newest = (time * rate).rounded(.down)
            let oldest = max(0, ((time - longest) * rate).rounded(.down))
            guard newest >= 0, newest < 9e15 else { continue }
            var found: [Particle] = []
            var k = Int(newest)
            while k >= Int(oldest), found.count < budget, candidates > 0 {
                candidates -= 1
                let birth = Double(k) / rate
                if let particle = particle(
                    k, of: cell, index: cellIndex, born: birth, at: time, in: emitter, seed: seed)
                {
                    found.append(particle)
                }
                k -= 1
            }
            budget -= found.count
            result += found.reversed()
        }
        return result
    }

    /// Particle `k` of cell `cell` (the layer's cell `index`), born at `birth`, at time `time`; nil
    /// when it is not alive then.
    static func particle(
        _ k: Int, of cell: EmitterCellState, index: Int, born birth: Double, at time: Double,
        in emitter: EmitterLayerState, seed: UInt32
    ) -> Particle? {
        var random = ParticleRandom(seed: seed, cell: index, particle: k)
        let lifetime = (Double(cell.lifetime) + Double(cell.lifetimeRange) * random.signed()) * Double(emitter.lifetime)
        let age = time - birth
        guard age >= 0, age < lifetime else { return nil }
        let speed = (cell.velocity + cell.velocityRange * random.signed()) * Double(emitter.velocity)
        let longitude = cell.emissionLongitude + cell.emissionRange / 2 * random.signed()
        let latitude = cell.emissionLatitude + cell.emissionRange / 2 * random.signed()
        let direction = SIMD3(cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
        let start = place(in: emitter, random: &random)
        let acceleration = SIMD3(cell.xAcceleration, cell.yAcceleration, cell.zAcceleration)
        let position = start + direction * (speed * age) + acceleration * (0.5 * age * age)
        let scale = (cell.scale + cell.scaleRange * random.signed()) * Double(emitter.scale) + cell.scaleSpeed * age
        let spin = (cell.spin + cell.spinRange * random.signed()) * Double(emitter.spin)
        func component(_ base: Double, _ range: Float, _ speed: Float) -> Double {
            let value = base + Double(range) * random.signed() + Double(speed) * age
            return value.isFinite ? min(max(value, 0), 1) : 0
        }
        let color = RGBAColor(
            red: component(cell.color.red, cell.colorRange.x, cell.colorSpeed.x),
            green: component(cell.color.green, cell.colorRange.y, cell.colorSpeed.y),
            blue: component(cell.color.blue, cell.colorRange.z, cell.colorSpeed.z),
            alpha: component(cell.color.alpha, cell.colorRange.w, cell.colorSpeed.w))
        return Particle(
            cell: index, index: k, birth: birth, age: age, position: position, color: color,
            scale: scale.isFinite ? max(scale, 0) : 0, rotation: spin * age)
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

import Foundation

/// What one particle drew when it was born: its cell, birth, lifetime, start, velocity and the values
/// its appearance grows from. `particle(at:)` places it at any later time; sub-cells read its
/// position and direction when they emit from it (`ParticleSystem`'s nested cells).
struct ParticleBirth {
    /// The particle's cell, depth first in the layer's cell tree.
    var cell: Int
    /// Its birth number among its cell's particles (of its parent particle, for a sub-cell).
    var index: Int
    /// Its birth, local time.
    var birth: Double
    /// How long it lives.
    var lifetime: Double
    /// Where it was born.
    var start: SIMD3<Double>
    /// Its initial direction (a unit vector) and speed, points a second.
    var direction: SIMD3<Double>
    var speed: Double
    /// Its emission direction's angles (longitude, latitude), for sub-cells when it does not move.
    var longitude: Double
    var latitude: Double
    /// Its acceleration.
    var acceleration: SIMD3<Double>
    /// Its scale at birth and the scale's change a second.
    var scale: Double
    var scaleSpeed: Double
    /// Its rotation speed, radians a second.
    var spin: Double
    /// Its colour at birth and each component's change a second.
    var color: SIMD4<Double>
    var colorSpeed: SIMD4<Double>
    /// The key of its random draws: sub-cells' draws are hashed from it.
    var key: UInt64

    /// Where it is at `time`.
    func position(at time: Double) -> SIMD3<Double> {
        let age = time - birth
        return start + direction * (speed * age) + acceleration * (0.5 * age * age)
    }

    /// Its velocity at `time`.
    func velocity(at time: Double) -> SIMD3<Double> { direction * speed + acceleration * (time - birth) }

    /// The particle at `time`, or nil when it is not alive then.
    func particle(at time: Double) -> Particle? {
        let age = time - birth
        guard age >= 0, age < lifetime else { return nil }
        let scale = self.scale + scaleSpeed * age
        func component(_ i: Int) -> Double {
            let value = color[i] + colorSpeed[i] * age
            return value.isFinite ? min(max(value, 0), 1) : 0
        }
        return Particle(
            cell: cell, index: index, birth: birth, age: age, position: position(at: time),
            color: RGBAColor(red: component(0), green: component(1), blue: component(2), alpha: component(3)),
            scale: scale.isFinite ? max(scale, 0) : 0, rotation: spin * age)
    }

    /// The draws of a particle of `cell` (in `emitter`, its values when the particle is born), from
    /// `random`, born at `birth` at `start` (nil: a point of the emitter's shape), its direction
    /// turned by `base` (longitude, latitude: a sub-cell's parent direction).
    init(
        cell: EmitterCellState, flatIndex: Int, index: Int, birth: Double, in emitter: EmitterLayerState,
        random: inout ParticleRandom, start: SIMD3<Double>?, base: (Double, Double) = (0, 0)
    ) {
        self.cell = flatIndex
        self.index = index
        self.birth = birth
        key = random.key
        // The order of the draws is the simulation's: changing it changes every picture.
        lifetime = (Double(cell.lifetime) + Double(cell.lifetimeRange) * random.signed()) * Double(emitter.lifetime)
        speed = (cell.velocity + cell.velocityRange * random.signed()) * Double(emitter.velocity)
        longitude = base.0 + cell.emissionLongitude + cell.emissionRange / 2 * random.signed()
        latitude = base.1 + cell.emissionLatitude + cell.emissionRange / 2 * random.signed()
        direction = SIMD3(cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
        self.start = start ?? ParticleSystem.place(in: emitter, random: &random)
        acceleration = SIMD3(cell.xAcceleration, cell.yAcceleration, cell.zAcceleration)
        scale = (cell.scale + cell.scaleRange * random.signed()) * Double(emitter.scale)
        scaleSpeed = cell.scaleSpeed
        spin = (cell.spin + cell.spinRange * random.signed()) * Double(emitter.spin)
        var color = SIMD4<Double>(cell.color.red, cell.color.green, cell.color.blue, cell.color.alpha)
        for i in 0..<4 { color[i] += Double(cell.colorRange[i]) * random.signed() }
        self.color = color
        colorSpeed = SIMD4(
            Double(cell.colorSpeed.x), Double(cell.colorSpeed.y), Double(cell.colorSpeed.z), Double(cell.colorSpeed.w))
    }
}

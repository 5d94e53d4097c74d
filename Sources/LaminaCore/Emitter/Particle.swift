import Foundation

/// One live particle of an emitter layer at one time, as `ParticleSystem` places it.
public struct Particle: Sendable, Equatable {
    /// The index of its cell in the layer's cell tree, depth first (`EmitterCellState.flattened`):
    /// the index among the layer's cells when no cell has sub-cells.
    public var cell: Int
    /// Its birth number among its cell's particles (particle *k* is born at *k* / rate), or among
    /// those its parent particle emitted, for a sub-cell.
    public var index: Int
    /// Its birth time in the layer's local time, seconds.
    public var birth: Double
    /// Seconds since its birth.
    public var age: Double
    /// Its position in the layer's coordinates (z kept, drawn flattened).
    public var position: SIMD3<Double>
    /// Its colour, not premultiplied, each component clamped to 0...1.
    public var color: RGBAColor
    /// The scale of its contents (never below 0).
    public var scale: Double
    /// Its rotation, radians.
    public var rotation: Double
}

import Foundation

extension LayerPropertyDescriptor {
    /// `CAEmitterLayer`'s rows (codes 77–89), stored in `EmitterLayerState`. As in Apple's
    /// `CAEmitterLayer.h`, the multipliers and the emitter's position, z position, size and depth
    /// animate (animation codes 49–57); the shape, modes and seed do not. `preservesDepth` is its own
    /// row (`emitterDepthRows`, code 93). The cells travel in their own operation (`setEmitterCells`).
    static let emitterRows: [LayerPropertyDescriptor] = [
        .init(
            .emitterBirthRate, "birthRate", .float, of: .emitter, animation: .basic(code: 49),
            tree: .unlessDefault("birthRate")),
        .init(
            .emitterLifetime, "lifetime", .float, of: .emitter, animation: .basic(code: 50),
            tree: .unlessDefault("lifetime")),
        .init(
            .emitterVelocity, "velocity", .float, of: .emitter, animation: .basic(code: 51),
            tree: .unlessDefault("velocity")),
        .init(
            .emitterScale, "scale", .float, of: .emitter, animation: .basic(code: 52),
            tree: .unlessDefault("scale")),
        .init(
            .emitterSpin, "spin", .float, of: .emitter, animation: .basic(code: 53),
            tree: .unlessDefault("spin")),
        .init(
            .emitterPosition, "emitterPosition", .point, of: .emitter, animation: .basic(code: 54),
            tree: .unlessDefault("emitterPosition")),
        .init(
            .emitterZPosition, "emitterZPosition", .number, of: .emitter, animation: .basic(code: 55),
            tree: .unlessDefault("emitterZ")),
        .init(
            .emitterSize, "emitterSize", .size, of: .emitter, animation: .basic(code: 56),
            tree: .unlessDefault("emitterSize")),
        .init(
            .emitterDepth, "emitterDepth", .number, of: .emitter, animation: .basic(code: 57),
            tree: .unlessDefault("emitterDepth")),
        .init(.emitterShape, "emitterShape", .string, of: .emitter, tree: .unlessDefault("shape")),
        .init(.emitterMode, "emitterMode", .string, of: .emitter, tree: .unlessDefault("mode")),
        .init(.renderMode, "renderMode", .string, of: .emitter, tree: .unlessDefault("renderMode")),
        .init(.emitterSeed, "seed", .number, of: .emitter, tree: .unlessDefault("seed")),
    ]

    /// `CAEmitterLayer.preservesDepth` (code 93, added after the filters' rows): whether particles keep
    /// their depth (`EmitterLayerState.preservesDepth`). Its key is the replicator's too, so the client
    /// keeps the emitter's flag under its key (`clientKept`) and the row carries a copy; not animated
    /// (`CAEmitterLayer.h` lists it with the modes and the seed).
    static let emitterDepthRows: [LayerPropertyDescriptor] = [
        .init(
            .emitterPreservesDepth, "preservesDepth", .bool, of: .emitter, tree: .flag("preservesDepth"),
            clientKept: true)
    ]
}

import Foundation

extension LayerPropertyDescriptor {
    /// `CAReplicatorLayer`'s rows (codes 68–76), stored in `ReplicatorLayerState`. As in Apple's
    /// `CAReplicatorLayer.h`, every property but `preservesDepth` animates (animation codes 41–48).
    /// `instanceCount` travels as a number; the server refuses one below 0 or above
    /// `ReplicatorLayerState.maxInstanceCount`.
    static let replicatorRows: [LayerPropertyDescriptor] = [
        .init(
            .instanceCount, "instanceCount", .number, .nonNegative, of: .replicator, animation: .basic(code: 41),
            tree: .unlessDefault("instances")),
        .init(
            .instanceDelay, "instanceDelay", .number, of: .replicator, animation: .basic(code: 42),
            tree: .unlessDefault("instanceDelay")),
        .init(
            .instanceTransform, "instanceTransform", .transform, of: .replicator, animation: .basic(code: 43),
            tree: .flag("instanceTransform")),
        .init(
            .instanceColor, "instanceColor", .color, of: .replicator, animation: .basic(code: 44),
            tree: .unlessDefault("instanceColor")),
        .init(
            .instanceRedOffset, "instanceRedOffset", .float, of: .replicator, animation: .basic(code: 45),
            tree: .unlessDefault("redOffset")),
        .init(
            .instanceGreenOffset, "instanceGreenOffset", .float, of: .replicator, animation: .basic(code: 46),
            tree: .unlessDefault("greenOffset")),
        .init(
            .instanceBlueOffset, "instanceBlueOffset", .float, of: .replicator, animation: .basic(code: 47),
            tree: .unlessDefault("blueOffset")),
        .init(
            .instanceAlphaOffset, "instanceAlphaOffset", .float, of: .replicator, animation: .basic(code: 48),
            tree: .unlessDefault("alphaOffset")),
        .init(.preservesDepth, "preservesDepth", .bool, of: .replicator, tree: .flag("preservesDepth")),
    ]
}

import Foundation

/// The class of a layer as the render server knows it: which class-specific properties it has and
/// how the server draws them.
///
/// A layer's class is fixed when it is created (`createLayer` carries it on the wire, docs/protocol.md
/// §6) and chooses its per-class storage (`LayerClassState`) and the rows of
/// `LayerPropertyDescriptor.table` it may set: the rows of `.layer` belong to every layer, the rows of
/// any other class to that class alone. docs/architecture.md, "Adding a layer class", is the recipe.
public enum LayerClass: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `CALayer`: only the properties every layer has.
    case layer = 0
    /// `CAShapeLayer`: a path filled and stroked by the server at device resolution.
    case shape = 1
    /// `CAGradientLayer`: a gradient drawn by the server in a shader.
    case gradient = 2
    /// `CATextLayer`: text drawn by the client into the layer's contents; the server tints the glyph
    /// coverage with the animated `foregroundColor` when the text is a plain string.
    case text = 3
    /// `CAReplicatorLayer`: its sublayers drawn `instanceCount` times by the server, each copy
    /// transformed, tinted and delayed a step further.
    case replicator = 4
    /// `CATiledLayer`: drawn by the client a tile at a time, each tile a sublayer of its own; the
    /// server reports which part of the layer a display shows, at what scale (`tiledLayerView`).
    case tiled = 5
    /// `CAEmitterLayer`: particles of its emitter cells, simulated and drawn by the server from the
    /// layer's seed and time alone (`ParticleSystem`).
    case emitter = 6
    /// `CATransformLayer`: draws nothing of its own and does not flatten its sublayers; the server
    /// sorts their faces in 3-D (splitting faces that cross) under the nearest layer that flattens.
    /// Code 7: code 6 is the emitter's.
    case transform = 7

    /// The Core Animation class name (`CAShapeLayer`), for messages and `laminactl tree`.
    public var className: String {
        switch self {
        case .layer: "CALayer"
        case .shape: "CAShapeLayer"
        case .gradient: "CAGradientLayer"
        case .text: "CATextLayer"
        case .replicator: "CAReplicatorLayer"
        case .tiled: "CATiledLayer"
        case .emitter: "CAEmitterLayer"
        case .transform: "CATransformLayer"
        }
    }

    /// The class name.
    public var description: String { className }

    /// The class-specific storage a new layer of this class starts with (every property at its default).
    public var defaultState: LayerClassState {
        switch self {
        case .layer: .none
        case .shape: .shape(ShapeLayerState())
        case .gradient: .gradient(GradientLayerState())
        case .text: .text(TextLayerState())
        case .replicator: .replicator(ReplicatorLayerState())
        case .tiled: .tiled
        case .emitter: .emitter(EmitterLayerState())
        case .transform: .transform
        }
    }
}

import Foundation

/// The storage of a layer's class-specific properties: one case per class, each holding that class's
/// fields alone. A plain layer carries `.none`; the other cases are boxed (`indirect`), so adding a class
/// adds no bytes to the `LayerState` of every other layer.
public enum LayerClassState: Sendable, Hashable {
    /// A plain `CALayer`: no class-specific properties.
    case none
    /// A `CAShapeLayer`'s properties.
    indirect case shape(ShapeLayerState)
    /// A `CAGradientLayer`'s properties.
    indirect case gradient(GradientLayerState)
    /// A `CATextLayer`'s properties.
    indirect case text(TextLayerState)
    /// A `CAReplicatorLayer`'s properties.
    indirect case replicator(ReplicatorLayerState)
    /// A `CATiledLayer`: no properties the server keeps (its tile size and levels are the client's).
    case tiled
    /// A `CAEmitterLayer`'s properties and emitter cells.
    indirect case emitter(EmitterLayerState)
    /// A `CATransformLayer`: no properties of its own (it draws nothing; only the geometry every layer
    /// has matters).
    case transform

    /// The class whose storage this is.
    public var layerClass: LayerClass {
        switch self {
        case .none: .layer
        case .shape: .shape
        case .gradient: .gradient
        case .text: .text
        case .replicator: .replicator
        case .tiled: .tiled
        case .emitter: .emitter
        case .transform: .transform
        }
    }
}

import Foundation

/// The layer classes the render server draws itself (`LayerClass`): which one a `CALayer` subclass
/// is, and the class storage its model starts with.
extension CALayer {
    /// The server-side class of this layer: `.shape` for a `CAShapeLayer` (and its subclasses),
    /// `.gradient` for a `CAGradientLayer`, `.layer` for every other layer. A new class adds its
    /// line here (docs/architecture.md, "Adding a layer class").
    var serverLayerClass: LayerClass {
        switch self {
        case is CAShapeLayer: .shape
        case is CAGradientLayer: .gradient
        default: .layer
        }
    }

    /// Gives the model the storage of the layer's class, with every class property at its default
    /// (at creation, before the class's `defaultValue(forKey:)` is applied).
    func adoptLayerClass() {
        let layerClass = serverLayerClass
        guard layerClass != .layer, modelState.layerClass != layerClass else { return }
        modelState.classState = layerClass.defaultState
        committedModelState.classState = layerClass.defaultState
    }

    /// The property named `key` that this layer has (its class's included), or nil: a key of another
    /// class is a custom key here, as it is on Apple platforms.
    func layerProperty(forKey key: String) -> LayerPropertyName? {
        LayerPropertyName(key: key, of: modelState.layerClass)
    }

    /// The animatable key path `string` if its property is one this layer has, else nil.
    func layerKeyPath(_ string: String) -> LayerKeyPath? {
        guard let path = LayerKeyPath(string), path.property.descriptor.belongs(to: modelState.layerClass) else {
            return nil
        }
        return path
    }
}

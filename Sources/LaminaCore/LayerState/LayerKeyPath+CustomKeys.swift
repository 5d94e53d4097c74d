import Foundation

extension LayerKeyPath {
    /// The property path that stands in for a custom key whose values are of `kind`: a path of
    /// that kind with no clamp, which types the values on the wire and holds them while the client
    /// evaluates them (`LayerAnimator.customValue(forKey:model:animations:layerTime:)`). Nil for
    /// three-number vectors, which no key holds, and for images, paths and lists, which only a layer
    /// class's own properties hold (a plain layer's stand-in could not hold them).
    public static func customStandIn(for kind: AnimationValue.Kind) -> LayerKeyPath? {
        switch kind {
        case .number: LayerKeyPath(.zPosition)
        case .point: LayerKeyPath(.position)
        case .size: LayerKeyPath(.contentsRect, .size)
        case .rect: LayerKeyPath(.contentsRect)
        case .color: LayerKeyPath(.backgroundColor)
        case .transform: LayerKeyPath(.transform)
        case .bool: LayerKeyPath(.hidden)
        case .vector, .image, .path, .numbers, .colors: nil
        }
    }
}

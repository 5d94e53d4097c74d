import Foundation

extension CALayerDelegate {
    /// Not implemented: the layer draws its contents itself. (This default records that it ran, so
    /// the layer can tell a delegate that displays from one that does not, which a Swift protocol
    /// extension cannot otherwise tell.)
    public func display(_ layer: CALayer) {
        layer.displayState.delegateDisplayFellBack = true
    }

    /// Not implemented: the delegate draws nothing (recorded, so a layer nobody draws gets no
    /// backing store).
    public func draw(_ layer: CALayer, in ctx: CGContext) {
        layer.displayState.drawFellBack = true
    }

    /// Not implemented: nothing to prepare.
    public func layerWillDraw(_ layer: CALayer) {}
}

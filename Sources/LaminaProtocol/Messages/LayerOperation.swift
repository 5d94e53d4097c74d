import Foundation
import LaminaCore

/// One edit inside a transaction.
public enum LayerOperation: Sendable, Hashable {
    /// Creates a layer of a class (a plain `CALayer` unless given) with default properties under a new
    /// client-chosen id. The class is fixed for the layer's life: it decides which class properties
    /// the layer has (`LayerPropertyDescriptor.belongs(to:)`).
    case createLayer(LayerID, LayerClass = .layer)
    /// Destroys a layer; it must not be in any sublayer list or root once the transaction is applied.
    case destroyLayer(LayerID)
    /// Sets one property of a layer.
    case set(LayerID, LayerProperty)
    /// Replaces a layer's sublayer list (back to front, before zPosition sorting).
    case setSublayers(LayerID, [LayerID])
    /// Shows `layer` (or nothing, when nil) as this client's root on a display.
    case setRoot(display: UInt32, layer: LayerID?)
    /// Attaches an animation to a layer, replacing any animation under the same key.
    case addAnimation(LayerID, AttachedAnimation)
    /// Detaches the animation with this id from the layer; an id the server already removed
    /// (because it finished) is ignored.
    case removeAnimation(LayerID, animationID: UInt64)
    /// Makes the layer a host (`CALayerHost`): the tree another client exported shows inside it,
    /// above the layer's own content and sublayers, if `token` is that client's export token.
    /// Context id 0 makes it an ordinary layer again.
    case setHost(LayerID, contextId: UInt32, token: UInt64)
    /// Makes `mask` the layer's mask (`CALayer.mask`), or removes it when nil: the mask's alpha, drawn
    /// in the layer's coordinate space, multiplies the layer's whole drawing. The mask layer must be
    /// in no sublayer list, no root and no other layer's mask, and not the layer or its ancestor.
    case setMask(LayerID, mask: LayerID?)
    /// The pixels of shared surface `id` changed: the frame that shows this transaction redraws the
    /// layers showing it, atomically with the transaction's other operations.
    case surfaceChanged(UInt64)
    /// Replaces the emitter cells of an emitter layer (`CAEmitterLayer.emitterCells`) with a cell tree
    /// (code 12). The server refuses a layer of another class (`wrongLayerClass`), a contents image it
    /// does not know (`unknownImage`), and a tree past the bounds of `EmitterCellState`
    /// (`invalidValue`: more than 64 cells, nesting deeper than 4, a number that is not finite, a name
    /// over 1,024 bytes).
    case setEmitterCells(LayerID, [EmitterCellState])
}

import LaminaCore
import LaminaProtocol

/// One layer of a render tree: its properties and its place in the hierarchy.
public struct RenderLayer: Sendable {
    /// The layer's model property values.
    public var state = LayerState()
    /// Sublayer ids, back to front, before sorting by `zPosition`.
    public var sublayers: [LayerID] = []
    /// The layer whose sublayer list holds this one.
    public var superlayer: LayerID?
    /// The layer whose alpha masks this one's drawing (`CALayer.mask`), set by `setMask`.
    public var mask: LayerID?
    /// The layer this one is the mask of (a mask layer has no superlayer, as on Apple platforms).
    public var maskOwner: LayerID?
    /// Attached animations in the order they were added (later ones build on earlier ones).
    public var animations: [AttachedAnimation] = []
    /// The exported tree this layer shows, when it is a host layer (`CALayerHost`).
    public var host: HostedContext?
}

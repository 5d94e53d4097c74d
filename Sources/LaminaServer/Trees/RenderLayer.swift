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
    public var animations: [AttachedAnimation] = [] {
        didSet { animationTraits = AnimationTraits(animations) }
    }
    /// What the display-list builder asks of `animations` for every layer it draws, found once when
    /// they change rather than per frame.
    var animationTraits = AnimationTraits()
    /// The exported tree this layer shows, when it is a host layer (`CALayerHost`).
    public var host: HostedContext?
}

/// What a layer's animations may do that changes how the display-list builder draws its sublayers or
/// itself.
struct AnimationTraits: Sendable {
    /// An animation of the layer's own `zPosition`, alone or in a group: its presented `zPosition` may
    /// differ from its model value, so its superlayer orders its sublayers by presented values.
    var mayAnimateZPosition = false
    /// An animation that drives sublayers by name (`"sublayers.dot.opacity"`).
    var drivesSublayers = false

    /// No animations.
    init() {}

    /// The traits of `animations`.
    init(_ animations: [AttachedAnimation]) {
        func movesZ(_ record: AnimationRecord) -> Bool {
            switch record.content {
            case .basic(let target, _), .spring(let target, _, _), .keyframe(let target, _):
                target.sublayerPath.isEmpty && target.keyPath.property == .zPosition
            case .group(let children): children.contains(where: movesZ)
            case .transition: false
            }
        }
        for animation in animations {
            mayAnimateZPosition = mayAnimateZPosition || movesZ(animation.record)
            drivesSublayers = drivesSublayers || animation.record.drivesSublayers(startingWith: [])
        }
    }
}

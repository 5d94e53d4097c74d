import LaminaCore

/// What a commit (or the animation bookkeeping) changed on one layer: the change bits a retained
/// display list reads to know which subtrees to emit again (docs/rendering.md, "Retained frames").
///
/// Every bit makes the layer's subtree emit again; `order` also makes its superlayer's subtree emit
/// again, since the layer's place among its siblings (`zPosition`) or the animations its name draws
/// from its ancestors may have changed.
public struct LayerChange: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt8
    /// The change with bits `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Created, destroyed, its sublayers or host changed.
    public static let hierarchy = LayerChange(rawValue: 1)
    /// Where it is: bounds, position, anchor, transforms, timing.
    public static let geometry = LayerChange(rawValue: 2)
    /// How it looks: colours, opacity, corners, border, shape and gradient properties.
    public static let appearance = LayerChange(rawValue: 4)
    /// Its `contents` image or how the image is fitted.
    public static let contents = LayerChange(rawValue: 8)
    /// An animation was added, removed or finished.
    public static let animations = LayerChange(rawValue: 16)
    /// Its order among its siblings or its name changed: the superlayer emits again too.
    public static let order = LayerChange(rawValue: 32)

    /// The bits a change of property `name` sets.
    public static func of(_ name: LayerPropertyName) -> LayerChange {
        switch name {
        case .zPosition, .name: return [.geometry, .order]
        case .bounds, .position, .anchorPoint, .anchorPointZ, .transform, .sublayerTransform, .beginTime,
            .timeOffset, .speed, .geometryFlipped:
            return .geometry
        case .contents, .contentsRect, .contentsCenter, .contentsScale, .contentsGravity, .minificationFilter,
            .magnificationFilter, .minificationFilterBias:
            return .contents
        default: return .appearance
        }
    }
}

/// One entry of a render tree's change log: layer `layer` changed (`change`) in the commit that made
/// revision `revision`.
public struct LayerChangeEntry: Sendable, Hashable {
    /// The layer that changed.
    public var layer: LayerID
    /// What changed.
    public var change: LayerChange
    /// The tree's revision after the change.
    public var revision: UInt64
}

import Foundation

/// The identifier of a layer on the wire: chosen by the client, unique within its connection.
public typealias LayerID = UInt64

/// Every layer property that the render server needs, as plain values, with Core Animation's defaults.
///
/// The client's `CALayer` keeps one of these as its model; the server keeps one per render-tree layer.
/// Hierarchy is not part of the state: it travels as sublayer lists.
public struct LayerState: Sendable, Hashable {
    /// The layer's own coordinate space: origin and size (`CALayer.bounds`).
    public var bounds: CGRect = .zero
    /// Where the anchor point sits in the superlayer's coordinate space (`CALayer.position`).
    public var position: CGPoint = .zero
    /// The point of the bounds, in unit coordinates, that sits at `position`; default (0.5, 0.5).
    public var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    /// The anchor point's z coordinate, about which `transform` applies in z.
    public var anchorPointZ: CGFloat = 0
    /// The layer's z position in its superlayer: orders siblings and moves the layer along z.
    public var zPosition: CGFloat = 0
    /// The transform applied about the anchor point (`CALayer.transform`).
    public var transform: CATransform3D = CATransform3DIdentity
    /// The transform applied to the sublayers, about the anchor point.
    public var sublayerTransform: CATransform3D = CATransform3DIdentity
    /// The layer's opacity, 0...1, multiplied down the tree.
    public var opacity: Float = 1
    /// Whether the layer and its subtree are not drawn (key `hidden`).
    public var isHidden = false
    /// The colour the bounds are filled with; nil draws nothing.
    public var backgroundColor: RGBAColor? = nil
    /// The radius that rounds the background, border and clip.
    public var cornerRadius: CGFloat = 0
    /// The corners that `cornerRadius` rounds.
    public var maskedCorners: CACornerMask = .all
    /// The width of the border, drawn inside the bounds above the sublayers.
    public var borderWidth: CGFloat = 0
    /// The border's colour; opaque black by default.
    public var borderColor: RGBAColor? = RGBAColor.black
    /// Whether the sublayers are clipped to the bounds (and rounded corners).
    public var masksToBounds = false
    /// A name for the layer, shown by `laminactl tree`.
    public var name: String? = nil
    /// The layer's `CAMediaTiming` begin time: shifts the time base of the layer and its subtree.
    public var beginTime: Double = 0
    /// The layer's `CAMediaTiming` time offset, added to its local time.
    public var timeOffset: Double = 0
    /// The layer's `CAMediaTiming` speed: the rate of its local time against its superlayer's.
    public var speed: Double = 1
    /// Whether the sublayers' coordinate system is flipped vertically (`CALayer.isGeometryFlipped`):
    /// their y is measured up from the bottom of the bounds.
    public var isGeometryFlipped = false
    /// The curve of the rounded corners (`CALayer.cornerCurve`).
    public var cornerCurve: CALayerCornerCurve = .circular
    /// The part of the contents drawn, in unit coordinates of the contents (`CALayer.contentsRect`).
    public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// The stretchable middle of the contents, in unit coordinates (`CALayer.contentsCenter`).
    public var contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// The image the layer shows (`CALayer.contents`): the client's image id, 0 for none. Images travel
    /// once per client, in sealed memfds, under ids the client chooses (docs/protocol.md).
    public var contents: UInt64 = 0
    /// Set only in presentation states, while an animation of `contents` runs between two images: the
    /// image being faded out and how far the cross-fade has got (decisions.md A2).
    public var contentsCrossFade: ContentsCrossFade? = nil
    /// Pixels of the contents per point (`CALayer.contentsScale`).
    public var contentsScale: CGFloat = 1
    /// How the contents are placed in the bounds (`CALayer.contentsGravity`); unknown names are kept.
    public var contentsGravity: CALayerContentsGravity = .resize
    /// Whether the edges named by `edgeAntialiasingMask` are anti-aliased.
    public var allowsEdgeAntialiasing = true
    /// Whether the layer's opacity applies to its subtree as one group.
    public var allowsGroupOpacity = true
    /// The edges anti-aliased when `allowsEdgeAntialiasing` is on.
    public var edgeAntialiasingMask: CAEdgeAntialiasingMask = .all
    /// The filter used when the contents are drawn smaller than their pixel size.
    public var minificationFilter: CALayerContentsFilter = .linear
    /// The filter used when the contents are drawn larger than their pixel size.
    public var magnificationFilter: CALayerContentsFilter = .linear
    /// The bias added to the level of detail when minifying with `trilinear`.
    public var minificationFilterBias: Float = 0
    /// Whether the layer promises to cover its bounds with opaque content (key `opaque`).
    public var isOpaque = false
    /// Whether the layer is drawn when it faces away from the viewer (key `doubleSided`).
    public var isDoubleSided = true
    /// Whether the layer and its subtree are drawn once into an image and reused.
    public var shouldRasterize = false
    /// Pixels per point of the image `shouldRasterize` draws.
    public var rasterizationScale: CGFloat = 1
    /// The layer's shadow: colour, opacity, radius, offset and path (`LayerShadowState`).
    public var shadow = LayerShadowState()
    /// The layer's Core Image filters as the server draws them (`LayerFilterState`).
    public var filterState = LayerFilterState()
    /// The properties of the layer's class (`CAShapeLayer`'s, `CAGradientLayer`'s), boxed: `.none`
    /// for a plain layer. Its case is the layer's class, fixed at creation.
    public var classState: LayerClassState = .none

    /// A layer with every property at its default.
    public init() {}

    /// A layer of class `layerClass` with every property, its class's included, at its default.
    public init(layerClass: LayerClass) {
        classState = layerClass.defaultState
    }

    /// The layer's class (`.layer` for a plain `CALayer`).
    public var layerClass: LayerClass { classState.layerClass }

    /// The `CAShapeLayer` properties: the layer's own when it is a shape layer, else the defaults.
    /// Setting them changes only a shape layer.
    public var shape: ShapeLayerState {
        get {
            if case .shape(let state) = classState { return state }
            return ShapeLayerState.defaults
        }
        set {
            if case .shape = classState { classState = .shape(newValue) }
        }
    }

    /// The `CAGradientLayer` properties: the layer's own when it is a gradient layer, else the
    /// defaults. Setting them changes only a gradient layer.
    public var gradient: GradientLayerState {
        get {
            if case .gradient(let state) = classState { return state }
            return GradientLayerState.defaults
        }
        set {
            if case .gradient = classState { classState = .gradient(newValue) }
        }
    }

    /// The `CATextLayer` properties: the layer's own when it is a text layer, else the defaults.
    /// Setting them changes only a text layer.
    public var text: TextLayerState {
        get {
            if case .text(let state) = classState { return state }
            return TextLayerState.defaults
        }
        set {
            if case .text = classState { classState = .text(newValue) }
        }
    }

    /// The `CAReplicatorLayer` properties: the layer's own when it is a replicator layer, else the
    /// defaults. Setting them changes only a replicator layer.
    public var replicator: ReplicatorLayerState {
        get {
            if case .replicator(let state) = classState { return state }
            return ReplicatorLayerState.defaults
        }
        set {
            if case .replicator = classState { classState = .replicator(newValue) }
        }
    }

    /// The `CAEmitterLayer` properties and cells: the layer's own when it is an emitter layer, else the
    /// defaults. Setting them changes only an emitter layer.
    public var emitter: EmitterLayerState {
        get {
            if case .emitter(let state) = classState { return state }
            return EmitterLayerState.defaults
        }
        set {
            if case .emitter = classState { classState = .emitter(newValue) }
        }
    }

    /// The layer's timing as it maps its superlayer's time to its own local time (the time of its
    /// animations and the parent time of its sublayers); only `beginTime`, `timeOffset` and `speed`
    /// take part (a layer's duration and repeat settings are kept by the client only).
    public var timing: MediaTiming {
        MediaTiming(beginTime: beginTime, timeOffset: timeOffset, speed: speed)
    }

    /// Maps a time of the superlayer's time space into this layer's local time.
    @inlinable
    public func localTime(fromParent t: Double) -> Double {
        (t - beginTime) * speed + timeOffset
    }

    /// The anchor point in the layer's own (bounds) coordinate space.
    public var anchorInBounds: CGPoint {
        CGPoint(
            x: bounds.origin.x + anchorPoint.x * bounds.width,
            y: bounds.origin.y + anchorPoint.y * bounds.height)
    }

    /// The matrix that takes a point in this layer's bounds space into its superlayer's bounds space,
    /// before the superlayer's `sublayerTransform` (row vectors, Apple's convention).
    public var transformToSuperlayer: CATransform3D {
        let anchor = anchorInBounds
        let toAnchor = CATransform3DMakeTranslation(-anchor.x, -anchor.y, -anchorPointZ)
        let toPosition = CATransform3DMakeTranslation(position.x, position.y, zPosition)
        return CATransform3DConcat(CATransform3DConcat(toAnchor, transform), toPosition)
    }

    /// The matrix this layer applies to its sublayers' positions: the vertical flip of
    /// `isGeometryFlipped` (y ↦ 2·midY − y, a mirror about the bounds' middle line, so y = minY of
    /// the sublayer space is the bottom of the bounds), then `sublayerTransform` about the anchor point.
    public var transformForSublayers: CATransform3D {
        let flip =
            isGeometryFlipped
            ? CATransform3DConcat(
                CATransform3DMakeScale(1, -1, 1), CATransform3DMakeTranslation(0, 2 * bounds.midY, 0))
            : CATransform3DIdentity
        if CATransform3DIsIdentity(sublayerTransform) { return flip }
        let anchor = anchorInBounds
        let about = CATransform3DConcat(
            CATransform3DConcat(CATransform3DMakeTranslation(-anchor.x, -anchor.y, 0), sublayerTransform),
            CATransform3DMakeTranslation(anchor.x, anchor.y, 0))
        return isGeometryFlipped ? CATransform3DConcat(flip, about) : about
    }

    /// The frame derived as on Apple platforms: the bounding box of the transformed bounds in the
    /// superlayer's space (with the identity transform, `position − anchorPoint × size`).
    public var frame: CGRect {
        let m = transformToSuperlayer
        let corners = [
            (bounds.minX, bounds.minY), (bounds.maxX, bounds.minY),
            (bounds.minX, bounds.maxY), (bounds.maxX, bounds.maxY),
        ].map { m.transform(x: $0.0, y: $0.1, z: 0) }
        if corners.contains(where: { $0.w <= 0 }) { return .null }
        let xs = corners.map { $0.x / $0.w }
        let ys = corners.map { $0.y / $0.w }
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}

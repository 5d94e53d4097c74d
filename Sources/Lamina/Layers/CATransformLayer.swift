import Foundation

/// A layer that keeps its sublayers in 3-D: Core Animation's `CATransformLayer`.
///
/// An ordinary layer flattens its sublayers into its own plane: whatever depth their transforms give
/// them, they are drawn as a picture on that plane, in `zPosition` and array order. A transform layer
/// does not: its sublayers (and theirs, through nested transform layers) keep their depth and are
/// sorted in 3-D under the nearest ancestor that flattens, so that each pixel shows the nearest of
/// them; faces that cross are split along the line where they meet (the render server's
/// `DisplayListBuilder+Transform.swift`, docs/rendering.md). Each sublayer that is not a transform
/// layer is one flat face, with its own sublayers flattened into it as usual.
///
/// As on Apple platforms, the layer draws nothing of its own: `backgroundColor`, `contents`, the
/// border, the shadow, `mask` and `masksToBounds` are kept (and archived, animated and sent) but not
/// drawn; only its geometry (`position`, `bounds`, `anchorPoint`, `anchorPointZ`, `zPosition`,
/// `transform`, `sublayerTransform`, `isGeometryFlipped`), `isHidden` and `opacity` matter. Its
/// opacity multiplies each sublayer's on its own: the layer is not a compositing group.
///
/// `hitTest(_:)` finds the face nearest the viewer under the point, in 3-D, and then the farthest
/// descendant of that face under it (`CATransformLayer+HitTesting.swift`).
open class CATransformLayer: CALayer {
    /// Creates a transform layer with Core Animation's defaults (those of every layer).
    public override init() {
        super.init()
    }

    /// Creates a shadow copy of `layer` (a presentation copy).
    public override init(layer: Any) {
        super.init(layer: layer)
    }

    /// Creates a transform layer from an archive written by `encode(with:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// The sublayer face nearest the viewer under `p` (in the superlayer's coordinate space), or the
    /// farthest descendant of that face under it; nil when no face is under the point. The faces are
    /// this layer's sublayers that are not transform layers, and those of its transform-layer
    /// sublayers, each in 3-D under this layer's superlayer; hidden layers, layers of opacity 0 and
    /// faces with `isDoubleSided` false that are turned away are skipped. The layer itself has no
    /// plane of its own to be hit on.
    open override func hitTest(_ p: CGPoint) -> CALayer? { hitTestInDepth(p) }
}

import Foundation
import LaminaCore

/// What a display shows of one `CATiledLayer`: the builder notes it for each tiled layer it draws,
/// and the server tells the layer's client (`tiledLayerView`), which draws the tiles that cover it.
public struct TiledLayerView: Sendable, Hashable {
    /// The index of the layer's tree among the trees the list was built from.
    public var tree: Int
    /// The tiled layer.
    public var layer: LayerID
    /// The part of the layer's bounds the display shows, in the layer's own coordinates.
    public var rect: CGRect
    /// Device pixels per point of the layer (the larger of its two axes' scales).
    public var scale: Double
}

extension DisplayListBuilder {
    /// Notes what the display shows of the tiled layer `presented` (drawn through `toDevice` and cut
    /// by `clip`). A layer in a hosted tree belongs to another client and is not noted. Under a
    /// projection the whole of the bounds counts as shown, at the scale at its centre.
    mutating func noteTiledView(_ presented: Presented, toDevice: CATransform3D, clip: Clip) {
        if retention != nil { retention!.isPatchable = false }
        guard contextStack.count <= 1, list.tiledViews.count < Self.maxTiledViews else { return }
        let bounds = presented.state.bounds
        guard !bounds.isEmpty else { return }
        let affine = CGAffineTransform(
            a: toDevice.m11, b: toDevice.m12, c: toDevice.m21, d: toDevice.m22, tx: toDevice.m41, ty: toDevice.m42)
        let projected = toDevice.m14 != 0 || toDevice.m24 != 0 || toDevice.m44 != 1
        let scale = max(hypot(affine.a, affine.b), hypot(affine.c, affine.d))
        var rect = bounds
        if !projected {
            let determinant = affine.a * affine.d - affine.b * affine.c
            guard abs(determinant) > 1e-12 else { return }
            rect = clip.deviceRect.applying(affine.inverted()).intersection(bounds)
            guard !rect.isNull, !rect.isEmpty else { return }
        }
        guard scale.isFinite, scale > 0 else { return }
        list.tiledViews.append(TiledLayerView(tree: treeIndex, layer: presented.id, rect: rect, scale: scale))
    }

    /// The most tiled layers a list notes (a client gets at most this many reports a frame).
    static let maxTiledViews = 256
}

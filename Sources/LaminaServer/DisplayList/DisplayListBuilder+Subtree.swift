import Foundation
import LaminaCore

extension DisplayListBuilder {
    /// Builds the list that draws layer `id` of `tree` and its sublayers alone, as
    /// `CALayer.render(in:)` does: in the layer's own coordinate space (its bounds origin at the
    /// device origin, one point `scale` pixels wide), without the layer's own `position`,
    /// `transform` and `zPosition`, and with model values only (no animation or transition is
    /// applied). The list is `width`×`height` pixels, drawn into the top-left `clipWidth`×`clipHeight`
    /// of it, cleared to transparent. `contextId` is the tree's context id and `exported` the trees
    /// host layers may show (they are drawn at media time `time`). A layer the tree does not hold
    /// gives an empty list.
    public static func buildSubtree(
        tree: RenderTree, layer id: LayerID, scale: Double, width: Int, height: Int, clipWidth: Int,
        clipHeight: Int, time: Double = 0, contextId: UInt32? = nil, exported: [UInt32: ExportedTree] = [:],
        shapes: ShapeRasterCache? = nil
    ) -> DisplayList {
        var builder = DisplayListBuilder(
            list: DisplayList(width: width, height: height, clearColor: .zero),
            batcher: Batcher(width: width, height: height), exported: exported, shapes: shapes)
        if var root = tree.layers[id] {
            let layers = modelLayers(of: tree.layers, from: id)
            // The layer's own place in its superlayer is dropped: its space is the parent space.
            root.animations = []
            root.state.position = root.state.anchorInBounds
            root.state.transform = CATransform3DIdentity
            root.state.zPosition = 0
            root.state.anchorPointZ = 0
            let origin = root.state.bounds.origin
            let toDevice = CATransform3DConcat(
                CATransform3DMakeTranslation(-origin.x, -origin.y, 0), CATransform3DMakeScale(scale, scale, 1))
            builder.contextStack = contextId.map { [$0] } ?? []
            let context = DrawContext(
                layers: layers, snapshots: [:], parentSublayerTransform: CATransform3DIdentity,
                parentToDevice: toDevice, opacity: 1,
                clip: Clip(deviceRect: CGRect(x: 0, y: 0, width: clipWidth, height: clipHeight)),
                contentsImages: tree.contentsImages)
            builder.draw(Presented(root, parentTime: time), in: context)
        }
        builder.list.batches = builder.batcher.finish()
        return builder.list
    }

    /// `layers` with the animations of layer `id` and every layer below it removed, so they draw
    /// their model values.
    static func modelLayers(of layers: LayerTable, from id: LayerID) -> LayerTable {
        var result = layers
        var pending = [id]
        while let next = pending.popLast() {
            guard var layer = result[next] else { continue }
            pending += layer.sublayers
            if !layer.animations.isEmpty {
                layer.animations = []
                result[next] = layer
            }
        }
        return result
    }
}

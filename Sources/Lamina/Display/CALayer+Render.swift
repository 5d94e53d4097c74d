import Foundation

extension CALayer {
    /// `render(in:)`: the server draws the layer's subtree alone, with model values, in the layer's
    /// coordinate space (the layer's own `position`, `transform` and `zPosition` not applied) at
    /// the scale of `ctx`'s current transform; the image is drawn over the bounds in `ctx`'s user
    /// space with its top row at `bounds.minY`, so it is upright in a context flipped to y down.
    ///
    /// Lamina renders through the server: it commits, captures the display of the context showing
    /// the layer's tree at the current media time, and draws the part of the capture under the
    /// layer's bounds (their bounding box on the display). Unlike Apple's, the result therefore
    /// also shows what lies beneath the layer and over it, and is drawn at the display's resolution.
    /// A layer that no context shows draws nothing.
    func renderThroughServer(in ctx: CGContext) {
        let layer = model()
        let root = layer.rootLayer
        let contexts = CATransaction.state.lock.withLock { CAContext.liveContexts() }
        guard let context = contexts.first(where: { $0.layer === root }) else {
            LaminaDiagnostics.report(
                .serverError, "render(in:) of layer \(layer.layerID): the layer is in no context's tree; nothing drawn")
            return
        }
        let bounds = layer.bounds
        guard bounds.width > 0, bounds.height > 0, bounds.width.isFinite, bounds.height.isFinite else { return }
        // Device pixels per point: the longer of the unit vectors of the current transform.
        let t = ctx.ctm
        var scale = max((t.a * t.a + t.b * t.b).squareRoot(), (t.c * t.c + t.d * t.d).squareRoot())
        guard scale.isFinite, scale > 0 else { return }
        // The server draws into a display's scratch image: a larger layer is drawn at a lower scale.
        CATransaction.flush()
        let limit = context.displays.first(where: { $0.id == context.display }) ?? context.displays.first
        if let limit {
            let fit = min(Double(limit.width) / (bounds.width * scale), Double(limit.height) / (bounds.height * scale))
            if fit < 1 { scale *= fit }
        }
        let maxWidth = limit.map { Int($0.width) } ?? Int.max
        let maxHeight = limit.map { Int($0.height) } ?? Int.max
        let width = min(max(Int((bounds.width * scale).rounded(.up)), 1), maxWidth)
        let height = min(max(Int((bounds.height * scale).rounded(.up)), 1), maxHeight)
        let image: CGImage
        do {
            image = try context.captureLayer(layer.layerID, width: width, height: height, scale: Double(scale))
        } catch {
            LaminaDiagnostics.report(.serverError, "render(in:) of layer \(layer.layerID): capture failed: \(error)")
            return
        }
        // The image's pixels cover `width / scale` × `height / scale` points from the bounds' origin
        // (past the bounds, when rounded up, they are transparent).
        let target = CGRect(
            x: bounds.minX, y: bounds.minY, width: CGFloat(width) / scale, height: CGFloat(height) / scale)
        ctx.saveGState()
        // Core Graphics draws an image's top row at the rect's maxY; flip about the rect so it lands
        // at minY, the layer's top.
        ctx.translateBy(x: 0, y: target.minY + target.maxY)
        ctx.scaleBy(x: 1, y: -1)
        ctx.draw(image, in: target)
        ctx.restoreGState()
    }
}

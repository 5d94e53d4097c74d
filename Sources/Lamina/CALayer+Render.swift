import Foundation

extension CALayer {
    /// `render(in:)`: the part of a capture of the layer's display under its bounds, drawn over the
    /// bounds in `ctx`'s user space with the top row at `bounds.minY`.
    func renderThroughServer(in ctx: CGContext) {
        let layer = model()
        let root = layer.rootLayer
        let contexts = CATransaction.state.lock.withLock { CAContext.liveContexts() }
        guard let context = contexts.first(where: { $0.layer === root }) else { return }
        let image: CGImage
        do {
            image = try context.capture()
        } catch {
            LaminaDiagnostics.report(.serverError, "render(in:) of layer \(layer.layerID): capture failed: \(error)")
            return
        }
        let area = layer.convert(layer.bounds, to: nil)
        guard !area.isNull, area.width > 0, area.height > 0,
            let part = image.cropping(to: area.integral)
        else { return }
        let bounds = layer.bounds
        // The capture's device pixels back into the layer's space: the crop covers `area.integral`,
        // which maps onto the bounds grown by the same margins.
        let sx = bounds.width / area.width
        let sy = bounds.height / area.height
        let cropped = area.integral.intersection(CGRect(x: 0, y: 0, width: image.width, height: image.height))
        let target = CGRect(
            x: bounds.minX + (cropped.minX - area.minX) * sx, y: bounds.minY + (cropped.minY - area.minY) * sy,
            width: cropped.width * sx, height: cropped.height * sy)
        ctx.saveGState()
        // Core Graphics draws an image's top row at the rect's maxY; flip about the rect so it lands
        // at minY, the layer's top.
        ctx.translateBy(x: 0, y: target.minY + target.maxY)
        ctx.scaleBy(x: 1, y: -1)
        ctx.draw(part, in: target)
        ctx.restoreGState()
    }
}

import Foundation
import LaminaCore

/// A layer's `compositingFilter` (docs/rendering.md, "Filters"): one of the separable blend modes of
/// W3C Compositing and Blending Level 1 combines the layer's whole drawing with what lies behind it.
/// Three offscreen passes over the layer's clipped device bounds: the layer's drawing (its own
/// compositing filter left out) at full opacity; the backdrop, a replay of the batches drawn so far
/// into the same target (as for `backgroundFilters`); and a pass twice as wide holding the backdrop in
/// its left half and the drawing in its right. The `blendImage` draw kind then reads both halves and
/// writes the blend over the target, with the layer's opacity.
extension DisplayListBuilder {
    /// Passes a blended layer takes: its drawing, its backdrop and the pair.
    static let passesPerBlend = 3

    /// Whether the layer is drawn blended: it has a blend mode, within the pass budget, outside a probe.
    func drawsBlended(_ state: LayerState) -> Bool {
        state.filterState.blendMode != .normal && !measuring
            && list.passes.count + Self.passesPerBlend <= Self.maxPasses
            && passPixels < Self.passPixelBudget * list.width * list.height
    }

    /// Draws the layer blended with its backdrop by its `compositingFilter`; `opacity` is its opacity
    /// times what it inherits.
    mutating func drawBlended(_ presented: Presented, opacity: Double, in context: DrawContext) {
        if retention != nil { retention!.isPatchable = false }
        // The layer is visited again below; count it once.
        list.layersVisited -= 1
        let mode = presented.state.filterState.blendMode
        var snapshot = batcher
        let backdropBatches = snapshot.finish()
        let outer = batcher
        batcher = Batcher(width: list.width, height: list.height)
        let start = list.emitted.count
        var content = presented
        content.state.filterState.blendMode = .normal
        content.state.opacity = 1
        var contentContext = context
        contentContext.opacity = 1
        contentContext.image.opacity = 1
        drawLayer(content, in: contentContext)
        var rect = Self.covered(list.emitted[start...])
        rect = rect.intersection(DamageRect(covering: context.clip.deviceRect, width: list.width, height: list.height))
        let sourceBatches = batcher.finish()
        batcher = outer
        guard rect.area > 0 else { return }
        passPixels += rect.area * 4
        let source = RenderImageID.offscreenPass(list.passes.count)
        list.passes.append(OffscreenPass(rect: rect, batches: sourceBatches, image: source))
        let backdrop = RenderImageID.offscreenPass(list.passes.count)
        list.passes.append(OffscreenPass(rect: rect, batches: backdropBatches, image: backdrop))
        // The pair, twice the layer's width: the backdrop in the left half, the drawing in the right. It
        // maps its own texels (it may be wider than the display): the display's rectangle stretched over
        // it, so its halves are the display's left and right halves.
        let dw = Float(list.width), dh = Float(list.height)
        let whole = SIMD4<Float>(0, 0, 1, 1)
        let left = list.append(
            ImageInstance(rect: SIMD4(0, 0, dw / 2, dh), uv: whole, opacity: 1), kind: DrawKind.plainImage.id)
        let right = list.append(
            ImageInstance(rect: SIMD4(dw / 2, 0, dw, dh), uv: whole, opacity: 1), kind: DrawKind.plainImage.id)
        let pairRect = DamageRect(x: rect.x, y: rect.y, width: 2 * rect.width, height: rect.height)
        let pair = RenderImageID.offscreenPass(list.passes.count)
        let x0 = Float(rect.x), y0 = Float(rect.y), w = Float(rect.width), y1 = Float(rect.y + rect.height)
        list.passes.append(
            OffscreenPass(
                rect: pairRect,
                batches: [
                    DrawBatch(
                        kind: DrawKind.plainImage.id, instances: [Int32(left)],
                        texture: TextureSampling(image: backdrop, filter: .nearest)),
                    DrawBatch(
                        kind: DrawKind.plainImage.id, instances: [Int32(right)],
                        texture: TextureSampling(image: source, filter: .nearest)),
                ], image: pair, mapsOwnTexels: true))
        let box = CGRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        var instance = ImageInstance(rect: SIMD4(x0, y0, x0 + w, y1), uv: SIMD4(0, 0, 0.5, 1), opacity: 1)
        instance.opacity = SIMD4(Float(opacity), Float(mode.rawValue), 0, 0)
        batcher.endGroup()
        emit(instance, kind: DrawKind.blendImage.id, box: box, texture: TextureSampling(image: pair, filter: .nearest))
        batcher.endGroup()
    }
}

import Foundation
import LaminaCore

/// Shadows that follow the drawing (App. A: the shadow is the alpha of the layer's whole drawing,
/// blurred, tinted and moved): for a layer without a `shadowPath` whose drawn alpha is not its rounded
/// bounds (an image with alpha, a shape layer, sublayers sticking out), its drawing (background,
/// contents, sublayers, border; no shadow of its own) is drawn, moved by `shadowOffset`, into an
/// offscreen pass, whose alpha is blurred with σ = `shadowRadius` in device pixels
/// (`DisplayList.appendBlur`), tinted with `shadowColor` × `shadowOpacity` × the inherited opacity and
/// drawn under the layer, cut by the superlayer's clip rectangle (docs/rendering.md, "Shadows").
extension DisplayListBuilder {
    /// Passes a shadow may take (content, up to three halvings, two blur passes): it is left out when
    /// fewer remain under `maxPasses`.
    static let passesPerShadow = 6

    /// Draws the shadow of `presented` through an offscreen pass; `alpha` is shadowOpacity × the
    /// inherited opacity, `scale` the layer's device pixels per unit.
    mutating func drawPassShadow(
        _ presented: Presented, color: RGBAColor, alpha: Double, scale: CGFloat, clip parentClip: Clip,
        in context: DrawContext
    ) {
        let shadow = presented.state.shadow
        let tint = color.premultipliedOnEightBitSteps(opacity: alpha)
        let sigma = DisplayList.clampedSigma(Double(max(shadow.radius.isFinite ? shadow.radius : 0, 0) * scale))
        guard tint.w > 0, list.passes.count + Self.passesPerShadow <= Self.maxPasses,
            passPixels < Self.passPixelBudget * list.width * list.height,
            Float(shadow.offset.width).isFinite, Float(shadow.offset.height).isFinite
        else { return }
        var content = presented
        content.inPass = true
        content.state.opacity = 1
        content.state.shadow.opacity = 0
        var contentContext = context
        contentContext.opacity = 1
        contentContext.image.opacity = 1
        contentContext.image.offset.x += shadow.offset.width
        contentContext.image.offset.y += shadow.offset.height
        // What lies outside the superlayer's clip may cast a shadow into it: only the display, grown by
        // the blur's reach, bounds the drawing.
        let reach = CGFloat(3 * sigma + 8)
        contentContext.clip = Clip(
            deviceRect: CGRect(x: 0, y: 0, width: list.width, height: list.height).insetBy(dx: -reach, dy: -reach))
        guard let blurred = drawBlurred(content, in: contentContext, sigma: sigma, tint: tint) else { return }
        emitPassImage(blurred, clip: parentClip.deviceRect)
    }

    /// Draws `content` (the layer, again: counted once) in `context` into an offscreen pass over what
    /// it covers grown by the blur's reach, and blurs that pass with σ `sigma` device pixels, tinting
    /// the result with `tint` when given. Nil when nothing was drawn. The frame is then not patchable.
    /// The pass shadows' and the filter blur's common part.
    mutating func drawBlurred(
        _ content: Presented, in context: DrawContext, sigma: Double, tint: SIMD4<Float>? = nil
    ) -> BlurredPass? {
        if retention != nil { retention!.isPatchable = false }
        // The layer is visited again below; count it once.
        list.layersVisited -= 1
        let outer = batcher
        batcher = Batcher(width: list.width, height: list.height)
        let start = list.emitted.count
        drawLayer(content, in: context)
        let covered = Self.covered(list.emitted[start...])
        let batches = batcher.finish()
        batcher = outer
        guard covered.area > 0 else { return nil }
        let rect = DisplayList.blurPassRect(covering: covered, sigma: sigma)
        passPixels += rect.area * 3
        list.passes.append(OffscreenPass(rect: rect, batches: batches, image: .offscreenPass(list.passes.count)))
        return list.appendBlur(of: list.passes.count - 1, sigma: sigma, tint: tint)
    }

    /// Draws a blurred pass's image over its rectangle, cut to `clip` (device pixels), blended "over"
    /// with `opacity`.
    mutating func emitPassImage(_ blurred: BlurredPass, clip: CGRect, opacity: Double = 1) {
        let r = blurred.rect
        let full = CGRect(x: r.x, y: r.y, width: r.width, height: r.height)
        let shown = full.intersection(clip.integral)
        guard !shown.isNull, shown.width > 0, shown.height > 0 else { return }
        let uv = blurred.uv
        func u(_ x: CGFloat) -> Float { uv.x + (uv.z - uv.x) * Float((x - full.minX) / full.width) }
        func v(_ y: CGFloat) -> Float { uv.y + (uv.w - uv.y) * Float((y - full.minY) / full.height) }
        batcher.endGroup()
        emit(
            ImageInstance(
                rect: SIMD4(Float(shown.minX), Float(shown.minY), Float(shown.maxX), Float(shown.maxY)),
                uv: SIMD4(u(shown.minX), v(shown.minY), u(shown.maxX), v(shown.maxY)), opacity: Float(opacity)),
            kind: DrawKind.image.id, box: shown, texture: TextureSampling(image: blurred.image, filter: blurred.filter))
        batcher.endGroup()
    }
}

import Foundation
import LaminaCore

/// `shouldRasterize` (docs/rendering.md, "Rasterized layers"): the layer and its subtree are drawn into
/// an offscreen pass in the layer's own coordinate space at `rasterizationScale` pixels per point, on a
/// canvas of their own, and that image is drawn with the layer's matrix, opacity and clip, like
/// contents. The layer's own position, transform and opacity are not in the pass, so moving, turning or
/// fading the layer leaves the pass's content key (`DisplayList.passContentKeys`) alone and a renderer
/// shows the image it kept; a change inside the subtree changes the key and the pass is drawn again.
extension DisplayListBuilder {
    /// The most canvas pixels on either side of a rasterized layer's image.
    static let maxRasterSide = 4096
    /// Canvas pixels around the layer's scaled bounds, for what its drawing puts beyond them (a shadow,
    /// sublayers sticking out, a border's anti-aliasing); drawing beyond is cut.
    static let rasterMargin = 256

    /// The smallest `rasterizationScale` drawn rasterized: below it (a raster of a few texels for any
    /// layer a display can show) the layer is drawn directly.
    static let minRasterizationScale: CGFloat = 1.0 / 256

    /// The canvas of a rasterized layer: its bounds at `rasterizationScale` with `rasterMargin` around
    /// them; nil when the layer is not drawn rasterized (a scale below `minRasterizationScale` or not
    /// finite, empty bounds, a canvas over `maxRasterSide`).
    static func rasterCanvas(_ state: LayerState) -> SIMD2<Int>? {
        let scale = state.rasterizationScale
        guard scale >= minRasterizationScale, scale.isFinite, !state.bounds.isEmpty else { return nil }
        let width = (state.bounds.width * scale).rounded(.up) + CGFloat(2 * rasterMargin)
        let height = (state.bounds.height * scale).rounded(.up) + CGFloat(2 * rasterMargin)
        guard width <= CGFloat(maxRasterSide), height <= CGFloat(maxRasterSide) else { return nil }
        return SIMD2(Int(width), Int(height))
    }

    /// Whether the layer is drawn through its raster: `shouldRasterize` on a layer whose canvas fits,
    /// outside a probe, within the list's pass budgets (`maxPasses`, `passPixelBudget`, counting the
    /// layer's scaled bounds).
    func rasterizes(_ presented: Presented) -> Bool {
        let state = presented.state
        guard state.shouldRasterize, !measuring, !state.isHidden, list.passes.count + 1 <= Self.maxPasses,
            Self.rasterCanvas(state) != nil
        else { return false }
        let scale = state.rasterizationScale
        let pixels = Int((state.bounds.width * scale).rounded(.up) * (state.bounds.height * scale).rounded(.up))
        return passPixels + pixels <= Self.passPixelBudget * list.width * list.height
    }

    /// Draws a rasterized layer: its subtree at full opacity into a pass on its canvas (the layer's
    /// bounds origin at (`rasterMargin`, `rasterMargin`), `rasterizationScale` canvas pixels a point),
    /// then that pass's image over the layer's drawing with its matrix, opacity and clip (bilinear, so
    /// a scale below the display's looks soft, as on Apple platforms). The instances of the subtree are
    /// not in the list's `emitted` (they are not in device pixels); the image's are, with the pass's
    /// content key, so that damage follows a change inside the raster too.
    mutating func drawRasterized(_ presented: Presented, in context: DrawContext) {
        let state = presented.state
        let opacity = context.opacity * Double(state.opacity) * context.image.opacity
        guard opacity > 0, let canvas = Self.rasterCanvas(state) else { return }
        let toParent = CATransform3DConcat(state.transformToSuperlayer, context.parentSublayerTransform)
        var toDevice = CATransform3DConcat(Self.flattened(toParent), context.parentToDevice)
        if context.image.offset != .zero {
            toDevice = CATransform3DConcat(
                CATransform3DMakeTranslation(context.image.offset.x, context.image.offset.y, 0), toDevice)
        }
        guard Self.isDrawable(toDevice),
            state.isDoubleSided || Self.facesViewer(toDevice, bounds: state.bounds, flipped: context.flipped)
        else { return }
        if retention != nil { retention!.isPatchable = false }
        let scale = state.rasterizationScale
        let margin = CGFloat(Self.rasterMargin)
        // The subtree as the layer's own space sees it: no position, transform or opacity of its own.
        // With its anchor at the bounds' origin and its position at 0, the layer's matrix takes the
        // bounds' origin to 0; the canvas then scales and adds the margin.
        let toCanvas = CATransform3DConcat(
            CATransform3DMakeScale(scale, scale, 1), CATransform3DMakeTranslation(margin, margin, 0))
        var content = presented
        content.state.shouldRasterize = false
        content.state.opacity = 1
        content.state.transform = CATransform3DIdentity
        content.state.position = .zero
        content.state.anchorPoint = .zero
        content.state.anchorPointZ = 0
        content.state.zPosition = 0
        content.state.isDoubleSided = true
        let contentContext = DrawContext(
            layers: context.layers, snapshots: context.snapshots, parentSublayerTransform: CATransform3DIdentity,
            parentToDevice: toCanvas, opacity: 1,
            clip: Clip(deviceRect: CGRect(x: 0, y: 0, width: canvas.x, height: canvas.y)),
            contentsImages: context.contentsImages, flipped: context.flipped, instanceTint: context.instanceTint)
        let outer = batcher
        let display = (width: list.width, height: list.height)
        let start = list.emitted.count
        let firstInner = list.passes.count
        list.width = canvas.x
        list.height = canvas.y
        batcher = Batcher(width: canvas.x, height: canvas.y)
        // The layer is visited again below; count it once.
        list.layersVisited -= 1
        drawLayer(content, in: contentContext)
        var rect = Self.covered(list.emitted[start...])
        list.emitted.removeSubrange(start...)
        list.width = display.width
        list.height = display.height
        guard rect.area > 0 else {
            batcher = outer
            return
        }
        // One transparent texel around the drawing, so that bilinear sampling at its edge reads
        // nothing beyond the pass.
        rect = DamageRect(x: rect.x - 1, y: rect.y - 1, width: rect.width + 2, height: rect.height + 2)
            .intersection(DamageRect(x: 0, y: 0, width: canvas.x, height: canvas.y))
        passPixels += rect.area
        let image = RenderImageID.offscreenPass(list.passes.count)
        list.passes.append(OffscreenPass(rect: rect, batches: batcher.finish(), image: image, canvas: canvas))
        let key = list.passContentKeys(from: firstInner).last ?? nil
        batcher = outer
        batcher.endGroup()
        // Back to layer coordinates: canvas pixel c is the layer point (c − margin) / scale + origin.
        let layerRect = CGRect(
            x: (CGFloat(rect.x) - margin) / scale + state.bounds.minX,
            y: (CGFloat(rect.y) - margin) / scale + state.bounds.minY, width: CGFloat(rect.width) / scale,
            height: CGFloat(rect.height) / scale)
        let piece = ContentsPiece(rect: layerRect, u0: 0, v0: 0, u1: 1, v1: 1, outer: SIMD4(repeating: 1))
        let shown = list.emitted.count
        emitContents(
            [piece], sampling: TextureSampling(image: image, filter: .linear),
            opacity: RGBAColor.onEightBitStep(opacity), toDevice: toDevice, clip: context.clip)
        for index in shown..<list.emitted.count { list.emitted[index].content = key ?? 0 }
    }
}

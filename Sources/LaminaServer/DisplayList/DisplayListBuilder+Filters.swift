import Foundation
import LaminaCore

/// A layer's `filters` (docs/rendering.md, "Filters"): a `CIGaussianBlur` blurs the layer's whole
/// drawing (shadow, background, contents, sublayers, border). The layer is drawn at full opacity into
/// an offscreen pass grown by the blur's reach, the pass is blurred with the separable Gaussian of
/// shadows (`DisplayList.appendBlur`) with σ = `inputRadius` in device pixels (several blurs add their
/// variances), and the result is drawn in place with the layer's opacity, cut by the superlayer's
/// clip. Filters the server does not draw are ignored.
extension DisplayListBuilder {
    /// Passes a filter blur may take (content, up to three halvings, two blur passes): past
    /// `maxPasses` or the pixel budget the layer is drawn without the blur.
    static let passesPerFilterBlur = 6

    /// The blur's standard deviation in device pixels for a layer with `filters` drawn under `m`, or
    /// nil when it draws no blur (no blur filter, a radius of 0, a probe, or no passes left).
    func filterBlurSigma(_ state: LayerState, toDevice m: CATransform3D) -> Double? {
        guard !measuring, !state.filterState.filters.isEmpty else { return nil }
        let radius = LayerFilter.combinedBlurRadius(state.filterState.filters)
        guard radius > 0, list.passes.count + Self.passesPerFilterBlur <= Self.maxPasses,
            passPixels < Self.passPixelBudget * list.width * list.height
        else { return nil }
        let scale = max(1e-6, min(hypot(m.m11, m.m12), hypot(m.m21, m.m22)) / max(abs(m.m44), 1e-6))
        let sigma = DisplayList.clampedSigma(radius * Double(scale))
        return sigma > 0 ? sigma : nil
    }

    /// Draws the layer through a blurred offscreen pass (`filterBlurSigma` gave `sigma`); `opacity` is
    /// the layer's opacity times what it inherits.
    mutating func drawFilterBlur(_ presented: Presented, sigma: Double, opacity: Double, in context: DrawContext) {
        var content = presented
        content.state.filterState.filters = []
        content.state.opacity = 1
        var contentContext = context
        contentContext.opacity = 1
        contentContext.image.opacity = 1
        // What lies just outside the superlayer's clip blurs into it: the clip grown by the blur's reach
        // bounds the drawing.
        let reach = CGFloat(3 * sigma + 8)
        contentContext.clip = Clip(deviceRect: context.clip.deviceRect.insetBy(dx: -reach, dy: -reach))
        guard let blurred = drawBlurred(content, in: contentContext, sigma: sigma) else { return }
        emitPassImage(blurred, clip: context.clip.deviceRect, opacity: opacity)
    }
}

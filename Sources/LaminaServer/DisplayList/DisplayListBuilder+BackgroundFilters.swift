import Foundation
import LaminaCore

/// A layer's `backgroundFilters` (docs/rendering.md, "Filters"): a `CIGaussianBlur` blurs what lies
/// behind the layer, the frosted panel. The backdrop is what was drawn before the layer into the same
/// target (the display, or the pass the layer is drawn in): a pass replays a copy of the batches
/// emitted so far over the layer's clipped device bounds grown by the blur's reach, the pass is
/// blurred with σ = `inputRadius` in device pixels, and the result is drawn over the backdrop within
/// the layer's rounded bounds (whatever `masksToBounds` says), with the layer's opacity, before the
/// layer's background.
extension DisplayListBuilder {
    /// Draws the blurred backdrop of `presented` (its state's `backgroundFilters`) under it; `radius`
    /// is its clamped corner radius, `opacity` its opacity times what it inherits, `parentClip` the
    /// superlayer's clip. Nothing is drawn for no blur, a radius of 0, nothing behind, a probe, or past
    /// the pass budget.
    mutating func drawBackgroundFilters(
        _ presented: Presented, radius: CGFloat, opacity: Double, toDevice m: CATransform3D, clip parentClip: Clip
    ) {
        let state = presented.state
        guard !measuring, !state.filterState.backgroundFilters.isEmpty, !state.bounds.isEmpty else { return }
        let blur = LayerFilter.combinedBlurRadius(state.filterState.backgroundFilters)
        guard blur > 0, list.passes.count + Self.passesPerFilterBlur <= Self.maxPasses,
            passPixels < Self.passPixelBudget * list.width * list.height
        else { return }
        let scale = max(1e-6, min(hypot(m.m11, m.m12), hypot(m.m21, m.m22)) / max(abs(m.m44), 1e-6))
        let sigma = DisplayList.clampedSigma(blur * Double(scale))
        guard sigma > 0,
            let shown = Self.narrow(
                parentClip, by: state.bounds, radius: radius, continuous: Self.isContinuous(state), toDevice: m)
        else { return }
        let area = DamageRect(covering: shown.deviceRect, width: list.width, height: list.height)
        guard area.area > 0 else { return }
        // What was drawn so far into this target, replayed into the backdrop pass.
        var backdrop = batcher
        let batches = backdrop.finish()
        guard !batches.isEmpty else { return }
        if retention != nil { retention!.isPatchable = false }
        let rect = DisplayList.blurPassRect(covering: area, sigma: sigma)
        passPixels += rect.area * 3
        list.passes.append(OffscreenPass(rect: rect, batches: batches, image: .offscreenPass(list.passes.count)))
        let blurred = list.appendBlur(of: list.passes.count - 1, sigma: sigma)
        let r = blurred.rect
        let uv = blurred.uv
        let piece = ContentsPiece(
            rect: CGRect(x: r.x, y: r.y, width: r.width, height: r.height), u0: CGFloat(uv.x), v0: CGFloat(uv.y),
            u1: CGFloat(uv.z), v1: CGFloat(uv.w), outer: .zero)
        batcher.endGroup()
        emitContents(
            [piece], sampling: TextureSampling(image: blurred.image, filter: blurred.filter), opacity: Float(opacity),
            toDevice: CATransform3DIdentity, clip: shown)
    }
}

/// A blurred pass ready to be drawn: the image to sample, over which device pixels, with which
/// texture coordinates and filter (`DisplayList.appendBlur`).
public struct BlurredPass: Sendable, Equatable {
    /// The device pixels the blurred image is drawn over.
    public var rect: DamageRect
    /// The image to sample: the last pass of the blur.
    public var image: RenderImageID
    /// The texture coordinates at `rect`'s min corner (x, y) and max corner (z, w), over the pass.
    public var uv: SIMD4<Float>
    /// Nearest for a blur at full resolution; linear for a downsampled one, so that drawing it is a
    /// bilinear upsampling.
    public var filter: TextureFilter
}

/// Separable Gaussian blurs of offscreen passes (docs/rendering.md, "Blur"): a horizontal then a
/// vertical `DrawKind.blur` pass, each summing up to `3σ` texels on each side with Gaussian weights.
/// Beyond `directSigma` the source is first halved (2×2 averages) until its standard deviation
/// in texels is at most `directSigma`, and the result is drawn back bilinearly; the variance those two
/// steps add is taken from the Gaussian's. Tolerance (the pixel tests): within 2/255 of the continuous
/// Gaussian at full resolution, within 3/255 downsampled.
extension DisplayList {
    /// The largest standard deviation a blur takes, in device pixels; larger ones are clamped to it
    /// (a client's radius is bounded: the taps and passes a blur costs are too).
    public static let maxBlurSigma: Double = 64
    /// The largest standard deviation blurred at full resolution, in texels.
    public static let directSigma: Double = 8

    /// `sigma` within 0...`maxBlurSigma`; 0 for a value that is not a number.
    public static func clampedSigma(_ sigma: Double) -> Double {
        sigma.isNaN ? 0 : min(max(sigma, 0), maxBlurSigma)
    }

    /// The device pixels per texel a blur of `sigma` is computed at: 1, or the smallest power of two
    /// that brings it to `directSigma` or below.
    public static func blurScale(sigma: Double) -> Int {
        var scale = 1
        while Double(scale) * directSigma < clampedSigma(sigma) { scale *= 2 }
        return scale
    }

    /// The rectangle a pass whose drawing covers `rect` takes when it is to be blurred with `sigma`:
    /// grown by three standard deviations and the downsampling factor on every side (the blur spreads
    /// that far; the factor keeps the bilinear upsampling off the edge), its corners on multiples of
    /// that factor.
    public static func blurPassRect(covering rect: DamageRect, sigma: Double) -> DamageRect {
        let scale = blurScale(sigma: sigma)
        let margin = Int((3 * clampedSigma(sigma)).rounded(.up)) + scale
        func down(_ v: Int) -> Int { v >= 0 ? v / scale * scale : -((-v + scale - 1) / scale * scale) }
        func up(_ v: Int) -> Int { -down(-v) }
        let x0 = down(rect.x - margin)
        let y0 = down(rect.y - margin)
        let x1 = up(rect.x + rect.width + margin)
        let y1 = up(rect.y + rect.height + margin)
        return DamageRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Appends the passes that blur pass `source` (whose rectangle came from `blurPassRect` with the
    /// same `sigma`, in device pixels) and returns how to draw the result. With `tint` (premultiplied),
    /// the result is the blurred alpha times `tint`: a shadow's colour.
    public mutating func appendBlur(of source: Int, sigma: Double, tint: SIMD4<Float>? = nil) -> BlurredPass {
        let sigma = Self.clampedSigma(sigma)
        let rect = passes[source].rect
        let scale = Self.blurScale(sigma: sigma)
        let lanes = SIMD4<Float>(
            Float(rect.x), Float(rect.y), Float(rect.x + rect.width), Float(rect.y + rect.height))
        var level = source
        while passes[level].scale < scale {
            // Each texel the average of the level's 2×2 block.
            let texels = passes[level].texels
            let index = append(
                BlurInstance.halving(rect: lanes, texels: SIMD2(Float(texels.width), Float(texels.height))),
                kind: DrawKind.blur.id)
            appendPass(
                rect: rect, kind: DrawKind.blur, instance: index, sampling: passes[level].image, filter: .nearest,
                scale: passes[level].scale * 2)
            level = passes.count - 1
        }
        // Box averages of `scale` add (scale² - 1) / 12 to the variance, the bilinear upsampling scale² / 6.
        let s = Double(scale)
        let added = scale == 1 ? 0 : (s * s - 1) / 12 + s * s / 6
        let texelSigma = (max(0, sigma * sigma - added)).squareRoot() / s
        let taps = Int((3 * texelSigma).rounded(.up))
        let texels = passes[source].texels
        let extent = SIMD2<Float>(Float((texels.width + scale - 1) / scale), Float((texels.height + scale - 1) / scale))
        for (step, last) in [(SIMD2<Float>(1, 0), false), (SIMD2<Float>(0, 1), true)] {
            let index = append(
                BlurInstance(
                    rect: lanes, step: step, sigma: Float(texelSigma), taps: taps, texels: extent,
                    tint: last ? tint : nil),
                kind: DrawKind.blur.id)
            appendPass(
                rect: rect, kind: DrawKind.blur, instance: index, sampling: passes[level].image, filter: .nearest,
                scale: scale)
            level = passes.count - 1
        }
        let image = passes[level].image
        guard scale > 1, rect.width > 2 * scale, rect.height > 2 * scale else {
            return BlurredPass(rect: rect, image: image, uv: SIMD4(0, 0, 1, 1), filter: scale > 1 ? .linear : .nearest)
        }
        // Bilinear fetches within one texel of the edge would read past the pass: leave that rim out
        // (the blur is all but transparent there).
        let inner = DamageRect(
            x: rect.x + scale, y: rect.y + scale, width: rect.width - 2 * scale, height: rect.height - 2 * scale)
        let u = Float(scale) / Float(rect.width)
        let v = Float(scale) / Float(rect.height)
        return BlurredPass(rect: inner, image: image, uv: SIMD4(u, v, 1 - u, 1 - v), filter: .linear)
    }

    /// Appends a pass over `rect` at `scale` drawing one instance of `kind` that samples `image`.
    mutating func appendPass(
        rect: DamageRect, kind: DrawKind, instance: Int, sampling image: RenderImageID, filter: TextureFilter,
        scale: Int
    ) {
        let batch = DrawBatch(
            kind: kind.id, instances: [Int32(instance)], texture: TextureSampling(image: image, filter: filter))
        passes.append(
            OffscreenPass(rect: rect, batches: [batch], image: .offscreenPass(passes.count), scale: scale))
    }
}

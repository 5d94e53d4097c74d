import LaminaCore

extension RGBAColor {
    /// The colour premultiplied by its alpha times `opacity`, each channel rounded to the nearest
    /// multiple of 1/255 (the target's 8-bit steps), halves down.
    ///
    /// Rounding happens here, in double precision and on the exact product (0.9 × 255 is a hair above
    /// 229.5, so 0.9 gives 230), so every draw kind starts from the same bytes; kinds then scale by
    /// coverage and round again by `FillInstance.onEightBitSteps`'s rule. See `FillInstance` for why.
    public func premultipliedOnEightBitSteps(opacity: Double = 1) -> SIMD4<Float> {
        let a = alpha * opacity
        let r = Self.onEightBitStep(red * a), g = Self.onEightBitStep(green * a)
        return SIMD4(r, g, Self.onEightBitStep(blue * a), Self.onEightBitStep(a))
    }

    /// `v` rounded to the nearest multiple of 1/255, judged on the exact value of `v · 255`; an exact
    /// half goes down.
    static func onEightBitStep(_ v: Double) -> Float {
        let x = v * 255
        // An animation can compute a NaN from finite values; it draws as 0 rather than trapping below.
        guard !x.isNaN else { return 0 }
        // ceil(x - 0.5) without a libm call: convert toward zero, then step up over a cut fraction.
        let y = min(max(x - 0.5, -0.5), 255)
        let t = Double(Int32(y))
        var n = t < y ? t + 1 : t
        // A half in double precision: the rounding error of `x`, exactly (fused multiply-add), says
        // whether v · 255 lies above it.
        if x - n == 0.5 && (-x).addingProduct(v, 255) > 0 { n += 1 }
        return Float(n / 255)
    }
}

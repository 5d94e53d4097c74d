/// One axis of a separable Gaussian blur of a pass (`Shaders/blur.vert` with `Shaders/blur.frag`):
/// a quad covering a whole blur pass, whose fragments sum the texels of the source pass (the batch's
/// image, of the same rectangle and scale) along `params.xy`; or a halving of the source, at twice the
/// scale. Layout: 4 `vec4`s, 64 bytes.
public struct BlurInstance: Sendable, Equatable {
    /// minX, minY, maxX, maxY in device pixels: the pass's rectangle.
    public var rect: SIMD4<Float>
    /// The step between taps in texels (x, y), the standard deviation in texels and the taps on each
    /// side of the centre.
    public var params: SIMD4<Float>
    /// The source's width and height in texels (texels beyond are transparent), 1 in `z` when the
    /// result's alpha is to be tinted by `tint`, and 1 in `w` for a halving: each texel the average of
    /// the source's 2×2 block at twice its index (`params` unused).
    public var limit: SIMD4<Float>
    /// The premultiplied colour the result's alpha multiplies when `limit.z` is 1.
    public var tint: SIMD4<Float>

    /// A blur over `rect` along `step` with standard deviation `sigma` (texels) and `taps` taps on each
    /// side, of a source `texels` wide and high, tinted by `tint` when there is one.
    public init(
        rect: SIMD4<Float>, step: SIMD2<Float>, sigma: Float, taps: Int, texels: SIMD2<Float>, tint: SIMD4<Float>?
    ) {
        self.rect = rect
        self.params = SIMD4(step.x, step.y, sigma, Float(taps))
        self.limit = SIMD4(texels.x, texels.y, tint == nil ? 0 : 1, 0)
        self.tint = tint ?? .zero
    }

    /// A halving over `rect` of a source `texels` wide and high.
    public static func halving(rect: SIMD4<Float>, texels: SIMD2<Float>) -> BlurInstance {
        var instance = BlurInstance(rect: rect, step: .zero, sigma: 0, taps: 0, texels: texels, tint: nil)
        instance.limit.w = 1
        return instance
    }
}

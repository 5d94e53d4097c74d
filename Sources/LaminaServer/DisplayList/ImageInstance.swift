/// An axis-aligned rectangle of a layer's contents in device pixels, textured by the batch's image:
/// the textured primitive on llvmpipe's linear path (`Shaders/image.vert` with `Shaders/image.frag`,
/// or `Shaders/image-plain.vert` and `.frag` for the `plainImage` kind, which reads only `rect` and
/// `uv`).
///
/// The texture coordinates at the rectangle's min and max corners interpolate across it (a mirrored
/// layer gives `uv` with min above max). The fragment shader does one `texture()` fetch through a
/// `vec4` smooth varying's `.xy` and multiplies it by `opacity`, a smooth varying too: nothing else, so
/// the linear rasterizer stays engaged. Edges are hard (pixel-centre rule): the builder uses this kind
/// only where the outer edges lie on whole device pixels. Layout: 3 `vec4`s, 48 bytes.
public struct ImageInstance: Sendable, Equatable {
    /// minX, minY, maxX, maxY in device pixels.
    public var rect: SIMD4<Float>
    /// Normalized texture coordinates at (minX, minY) in x, y and at (maxX, maxY) in z, w.
    public var uv: SIMD4<Float>
    /// The opacity in every lane: the texel (premultiplied) is multiplied by it. A tinted image (a text
    /// layer's glyph coverage) has the premultiplied tint colour times the opacity here instead.
    public var opacity: SIMD4<Float>

    /// A rectangle `rect` showing texture coordinates `uv` with `opacity`.
    public init(rect: SIMD4<Float>, uv: SIMD4<Float>, opacity: Float) {
        self.rect = rect
        self.uv = uv
        self.opacity = SIMD4(repeating: opacity)
    }

    /// A rectangle `rect` showing texture coordinates `uv` with `opacity`, each texel multiplied by
    /// `tint` (a premultiplied colour) when there is one.
    public init(rect: SIMD4<Float>, uv: SIMD4<Float>, opacity: Float, tint: SIMD4<Float>?) {
        self.rect = rect
        self.uv = uv
        self.opacity = (tint ?? SIMD4(repeating: 1)) * opacity
    }
}

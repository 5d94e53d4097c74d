/// How a textured draw reads its image between texels: the sampler a renderer binds for a batch.
public enum TextureFilter: Sendable, Hashable, CaseIterable {
    /// The nearest texel of level 0 (`kCAFilterNearest`).
    case nearest
    /// Bilinear over level 0 (`kCAFilterLinear`).
    case linear
    /// Trilinear across the image's mip chain (`kCAFilterTrilinear`); bilinear on an image without one.
    case trilinear
}

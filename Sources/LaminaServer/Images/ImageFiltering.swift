import LaminaProtocol

/// How an imported image will be sampled; mipmapped filtering makes the renderer build a mip chain.
public enum ImageFiltering: Sendable, CaseIterable {
    /// Nearest texel, level 0 only.
    case nearest
    /// Bilinear, level 0 only.
    case linear
    /// Trilinear across a mip chain built at import.
    case mipmapped
}

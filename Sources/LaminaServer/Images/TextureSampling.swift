/// What a textured batch samples: the image and how it is filtered.
///
/// The batcher never puts primitives with different samplings in one batch, since a renderer binds one
/// image and sampler per draw call.
public struct TextureSampling: Sendable, Hashable {
    /// The renderer's image.
    public var image: RenderImageID
    /// The filter.
    public var filter: TextureFilter
    /// The level-of-detail bias (`minificationFilterBias`), added to the level a trilinear fetch picks;
    /// 0 for the other filters, which read level 0 only.
    public var lodBias: Float

    /// Samples `image` with `filter` and, for trilinear filtering, the level-of-detail bias `lodBias`
    /// (ignored and stored as 0 for the other filters, so that equal samplings compare equal).
    public init(image: RenderImageID, filter: TextureFilter, lodBias: Float = 0) {
        self.image = image
        self.filter = filter
        self.lodBias = filter == .trilinear && lodBias.isFinite ? lodBias : 0
    }
}

/// An image a client's layers may show, once the renderer has imported it: what the display-list
/// builder needs to draw a layer's `contents`.
///
/// The frame worker fills `RenderTree.contentsImages` with these before it builds a frame; a layer
/// whose `contents` names no entry there draws no contents.
public struct ContentsImage: Sendable, Hashable {
    /// The renderer's image.
    public var image: RenderImageID
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Whether the renderer built a mip chain for it (trilinear filtering samples it).
    public var mipmapped: Bool
    /// Whether every pixel's alpha is 255 (found when it was imported): a cross-fade from or to it can
    /// then be drawn exactly.
    public var isOpaque: Bool
    /// For a bi-planar YCbCr surface (NV12, P010), the conversion its `video` draw kinds apply
    /// (`SurfaceYCbCr.drawCode`); nil for BGRA images, which the other textured kinds draw.
    public var videoCode: Float?

    /// Describes an imported image of `width`×`height` pixels.
    public init(
        image: RenderImageID, width: Int, height: Int, mipmapped: Bool = false, isOpaque: Bool = false,
        videoCode: Float? = nil
    ) {
        self.image = image
        self.width = width
        self.height = height
        self.mipmapped = mipmapped
        self.isOpaque = isOpaque
        self.videoCode = videoCode
    }
}

import LaminaCore

/// Work on the renderer's images that the loop hands to the frame worker, done in order before the
/// next frame or capture is built (the renderer is used on the worker's thread only).
enum ImageJob: @unchecked Sendable {
    /// Import a client's uploaded pixels (a sealed memfd, mapped read-only) as its image `id`; the
    /// mapping is dropped once imported.
    case upload(session: Int, id: UInt64, pixels: ImagePixels)
    /// Import a client's shared surface as its image `id` (the mapping stays with the renderer's
    /// image until it is released).
    case registerSurface(session: Int, id: UInt64, surface: SurfacePixels)
    /// Import a client's Vulkan image (its exported memory) as its image `id`.
    case registerDeviceImage(session: Int, id: UInt64, image: DeviceImageMemory)
    /// Free the client's image `id` (the renderer keeps it until the frames in flight finish).
    case release(session: Int, id: UInt64)
    /// Start (`enabled`) or stop presented and release feedback on the client's surface `id`.
    case surfaceFeedback(session: Int, id: UInt64, enabled: Bool)
    /// Free every image of a client that has left.
    case releaseAll(session: Int)
}

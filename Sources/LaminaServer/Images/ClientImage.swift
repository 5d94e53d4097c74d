import LaminaCore

/// An image a client has uploaded, as the server's loop keeps track of it (the renderer's copy
/// lives on the frame worker).
struct ClientImage {
    /// Width in pixels.
    var width: Int
    /// Height in pixels.
    var height: Int
    /// The texture bytes charged to the client for it (`ResourceBudget.textureBytes`).
    var textureBytes: Int
    /// Whether the client has released it: no new reference may name it, and it is freed once the
    /// client's tree no longer draws it.
    var isReleased = false
    /// For a shared surface (`registerSurface`), the bytes of its memfd charged to the client; nil
    /// for an uploaded image.
    var surfaceBytes: Int?
}

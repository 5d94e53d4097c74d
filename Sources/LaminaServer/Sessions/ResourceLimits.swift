import LaminaProtocol

/// The bounds on what clients may make the server hold, per client and across all clients
/// (docs/protocol.md §11). Past one, the client whose request would pass it gets `limitExceeded` and
/// is disconnected; the others keep everything they hold.
public struct ResourceLimits: Sendable, Equatable {
    /// Encoded bytes of `transactionPart` messages one client may have waiting for their `commit`.
    public var heldBytesPerClient = 64 * 1024 * 1024
    /// Encoded bytes of held `transactionPart` messages across all clients.
    public var heldBytesTotal = 192 * 1024 * 1024
    /// Operations one client may have waiting for their `commit` (the transaction limit).
    public var heldOperationsPerClient = WireLimits.maxOperationsPerTransaction
    /// Held operations across all clients (each costs about 140 bytes of server memory).
    public var heldOperationsTotal = 2_000_000
    /// Live layers across all clients, transition snapshots included (a client owns at most
    /// `WireLimits.maxLayersPerClient` of them).
    public var layersTotal = 1_000_000
    /// Attached animations across all clients, group children included (a client attaches at most
    /// `WireLimits.maxAnimationsPerClient`).
    public var animationsTotal = 1_000_000
    /// Capture replies one client may have in flight: sent while its socket's send queue has not
    /// been seen empty since. A client that does not read its replies gets no more captures.
    public var capturesInFlightPerClient = 4
    /// Bytes of capture memfds in flight across all clients.
    public var captureBytesInFlightTotal = 512 * 1024 * 1024
    /// Bytes of replies and events one client's socket could not take yet, queued for later.
    public var outboxBytesPerClient = 1024 * 1024
    /// Messages one client's socket could not take yet, queued for later.
    public var outboxMessagesPerClient = 64
    /// Pixels on a side of one uploaded image (the renderer's own limit, `maxImageDimension2D`
    /// on Vulkan, applies too: an image over it is refused when it is imported).
    public var imageSideMax = 8192
    /// Images one client may have uploaded and not yet freed.
    public var imagesPerClient = 4096
    /// Texture bytes of one client's images: width × height × 4 for level 0, × 4/3 for the mip chain.
    public var textureBytesPerClient = 256 * 1024 * 1024
    /// Texture bytes of all clients' images together.
    public var textureBytesTotal = 1024 * 1024 * 1024
    /// Shared surfaces one client may have registered and not yet freed (the server holds no
    /// descriptor for them: each memfd is closed once mapped, so this bounds the mappings).
    public var surfacesPerClient = 64
    /// Bytes of one client's surface memfds (each surface's whole file, as mapped).
    public var surfaceBytesPerClient = 512 * 1024 * 1024
    /// Bytes of all clients' surface memfds together.
    public var surfaceBytesTotal = 2048 * 1024 * 1024

    /// The defaults documented in docs/protocol.md §11.
    public init() {}
}

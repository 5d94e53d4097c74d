/// What one client makes the server hold now, as `ResourceBudget` charged it.
///
/// Owned by the client's session and changed only through `ResourceBudget`, which keeps the totals
/// across all clients equal to the sum of every client's budget.
public struct ClientBudget: Sendable, Equatable {
    /// Encoded bytes of held `transactionPart` messages.
    public internal(set) var heldBytes = 0
    /// Operations in held `transactionPart` messages.
    public internal(set) var heldOperations = 0
    /// Layers of the client's render tree, transition snapshots included.
    public internal(set) var layers = 0
    /// Animations attached in the client's render tree, group children included.
    public internal(set) var animations = 0
    /// Capture replies sent since the client's send queue was last seen empty.
    public internal(set) var capturesInFlight = 0
    /// Bytes of the memfds of those capture replies.
    public internal(set) var captureBytesInFlight = 0
    /// Images uploaded and not yet freed.
    public internal(set) var images = 0
    /// Texture bytes of those images (`ResourceBudget.textureBytes(width:height:)` each).
    public internal(set) var textureBytes = 0
    /// Shared surfaces registered and not yet unmapped.
    public internal(set) var surfaces = 0
    /// Bytes of those surfaces' memfds (the server maps them all).
    public internal(set) var surfaceBytes = 0

    /// A client that holds nothing.
    public init() {}
}

import LaminaProtocol

/// What a host layer (`CALayerHost`) shows: the tree of the client with context id `contextId`,
/// if `token` is that client's export token.
public struct HostedContext: Sendable, Hashable {
    /// The context id of the client whose tree the host layer shows.
    public var contextId: UInt32
    /// The token the host's client was handed by that client.
    public var token: UInt64

    /// A host of context `contextId` with `token`.
    public init(contextId: UInt32, token: UInt64) {
        self.contextId = contextId
        self.token = token
    }
}

/// A charge that would take a client, or all clients together, past a `ResourceLimits` bound.
public struct BudgetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Whose bound it is.
    public enum Scope: Sendable, Equatable {
        /// The client's own bound.
        case client
        /// The bound over all clients together.
        case global
    }
    /// What is counted, e.g. "bytes of held transaction parts".
    public var resource: String
    /// Whose bound would be passed.
    public var scope: Scope
    /// The bound.
    public var limit: Int
    /// What the count would have become.
    public var requested: Int

    /// An error for `resource`, whose count would become `requested`, over `limit`.
    public init(resource: String, scope: Scope, limit: Int, requested: Int) {
        self.resource = resource
        self.scope = scope
        self.limit = limit
        self.requested = requested
    }

    /// A sentence naming the resource, the bound and the count it would have reached.
    public var description: String {
        let whose = scope == .client ? "this client's limit" : "the server's limit for all clients"
        return "\(resource) would reach \(requested), over \(whose) of \(limit)"
    }
}

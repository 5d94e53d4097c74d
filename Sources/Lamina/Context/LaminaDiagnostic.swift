/// A problem the client library reports instead of failing: a refused value, a commit that could not
/// be sent, an error from the render server (a Linux addition; Apple platforms log or raise instead).
///
/// Diagnostics reach the handler installed with `LaminaDiagnostics.handler`.
public struct LaminaDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem a diagnostic reports.
    public enum Kind: String, Sendable, CaseIterable {
        /// The render server sent an error; it closes the connection after it.
        case serverError
        /// The render server sent a warning (a host layer whose token does not match); the
        /// connection goes on.
        case serverWarning
        /// A commit could not be sent (the connection is closed); its changes did not reach the server.
        case commitNotSent
        /// `setValue(_:forKeyPath:)` got a value of the wrong type (or nil) and changed nothing, where
        /// Apple platforms raise an exception.
        case refusedValue
        /// A property value the server would refuse (NaN or infinite geometry, a negative size,
        /// radius or width) was kept back; the server keeps the previous value.
        case valueNotSent
        /// An animation could not be added (a value of the wrong type, a key path Lamina cannot
        /// animate), where Apple platforms raise an exception.
        case refusedAnimation
        /// A layer was not added because it would enter its own subtree, where Apple platforms raise
        /// an exception.
        case refusedHierarchy
        /// A layer was given a Core Image filter the render server does not draw; it is ignored
        /// (reported once per filter name).
        case ignoredFilter
        /// A `CAVulkanLayer` with a `device` gave no drawable: the server cannot import the device's
        /// images (other device or driver UUIDs, a format it does not take) or one could not be made;
        /// or the server refused the registration of a drawable's or an `IOSurface`'s buffer
        /// (`surfaceRefused`): the layers showing it keep their last good contents.
        case drawableRefused
    }

    /// What kind of problem this is.
    public let kind: Kind
    /// A sentence naming the problem and the objects involved (layer ids, key paths, serials).
    public let message: String

    /// A diagnostic of `kind` saying `message`.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The line the default handler writes: `Lamina: ` and the message.
    public var description: String { "Lamina: \(message)" }
}

import LaminaProtocol

/// A client's tree as host layers may show it: the token that authorizes it and the tree itself.
public struct ExportedTree: Sendable {
    /// The client's export token; a host layer that names another draws nothing.
    public var token: UInt64
    /// The client's render tree; host layers show its root on its lowest display.
    public var tree: RenderTree
    /// The client's session, whose imported images the tree's `contents` name.
    var session: Int
    /// Whether the frame that draws this advances the client's animation bookkeeping.
    var advancing = false

    /// An exported tree of session `session`, authorized by `token`.
    public init(token: UInt64, tree: RenderTree, session: Int = 0) {
        self.token = token
        self.tree = tree
        self.session = session
    }
}

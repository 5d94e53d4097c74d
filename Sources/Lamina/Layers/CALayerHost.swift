import Foundation

/// A layer that shows another context's layer tree (Apple's private `CALayerHost`): the tree of the
/// context whose `CAContext.contextId` is `contextId`, drawn as if its root were this layer's last
/// sublayer (in this layer's bounds, under its transform, opacity and `masksToBounds` clip).
///
/// The other context must have exported itself (`CAContext.exportToken()`) and `token` must be the
/// token it handed out. Otherwise the layer shows nothing of it, and the server warns this layer's
/// context with a `serverWarning` diagnostic naming the context id and saying "token does not
/// match"; the connection goes on. A context never sees the hosted tree's layers, ids or
/// description: only its pixels, where this layer shows them. A host inside a context it shows
/// (A hosts B hosts A) draws nothing there.
open class CALayerHost: CALayer {
    /// The id of the context whose tree this layer shows (0: none).
    open var contextId: UInt32 = 0 {
        didSet { if contextId != oldValue { changed() } }
    }

    /// The token the hosted context handed out (`CAContext.exportToken()`), which authorizes showing
    /// its tree. A Linux addition: Apple's `CALayerHost` relies on the render server's trust instead.
    open var token: UInt64 = 0 {
        didSet { if token != oldValue { changed() } }
    }

    /// A host layer showing nothing yet.
    public override init() {
        super.init()
    }

    /// A copy of `layer` (a presentation copy), with its context id and token when it is a host.
    public override init(layer: Any) {
        super.init(layer: layer)
        if let host = layer as? CALayerHost {
            contextId = host.contextId
            token = host.token
        }
    }

    /// A host layer from an archive (its context id and token are not archived: they name a
    /// connection that does not outlive the process).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}

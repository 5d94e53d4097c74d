import LaminaCore
import LaminaProtocol

extension DisplayListBuilder {
    /// Exported trees drawn inside host layers in one display list at most: each is a whole tree,
    /// so hosts that name trees that host again cannot multiply the work without bound. Hosts past
    /// it draw nothing.
    static let maxHostedDraws = 256

    /// Contexts drawn one inside another at most, the top-level tree included: a top-level tree's
    /// host may show a tree whose host shows a third, and no deeper. Each level may be
    /// `WireLimits.maxTreeDepth` layers deep and the builder recurses once per layer, so this
    /// bounds the frame worker's stack.
    static let maxHostNesting = 3

    /// Draws the tree `host` names inside a host layer, as if its root were the host's last sublayer
    /// (`context` is what the host hands its sublayers: transform, opacity, clip), when the token
    /// matches the one that context exported under. A context already being drawn (a cycle), a wrong
    /// token, an unknown context, or one past `maxHostNesting` or `maxHostedDraws` draws nothing. The root is the one the exported context shows on
    /// its lowest display, evaluated at the host's local time.
    mutating func drawHosted(_ host: HostedContext, time: Double, in context: DrawContext) {
        guard let exported = exported[host.contextId], exported.token == host.token,
            !contextStack.contains(host.contextId), hostedDraws < Self.maxHostedDraws,
            contextStack.count < Self.maxHostNesting,
            let display = exported.tree.roots.keys.min(), let rootID = exported.tree.roots[display],
            let root = exported.tree.layers[rootID]
        else { return }
        hostedDraws += 1
        if retention != nil { retention!.isPatchable = false }
        var hostedContext = context
        hostedContext.layers = exported.tree.layers
        hostedContext.snapshots = exported.tree.snapshots
        hostedContext.contentsImages = exported.tree.contentsImages
        contextStack.append(host.contextId)
        draw(Presented(root, parentTime: time), in: hostedContext)
        contextStack.removeLast()
    }
}

/// Charges what clients make the server hold against per-client and global bounds.
///
/// Plain bookkeeping, used on the server's thread only. Every charge is checked first and then
/// made, so a refused charge changes nothing: the client that asked is disconnected, and what the
/// others hold stays charged to them. `total` is always the sum of every live client's budget.
public struct ResourceBudget: Sendable {
    /// The bounds charges are checked against.
    public let limits: ResourceLimits
    /// The sum of every client's budget.
    public private(set) var total = ClientBudget()

    /// A budget with nothing charged.
    public init(limits: ResourceLimits) {
        self.limits = limits
    }

    /// Charges a held `transactionPart` of `bytes` encoded bytes and `operations` operations.
    public mutating func holdPart(bytes: Int, operations: Int, for client: inout ClientBudget) throws(BudgetError) {
        let resource = (bytes: "bytes of held transaction parts", operations: "held transaction operations")
        try check(resource.bytes, client.heldBytes + bytes, limits.heldBytesPerClient, .client)
        try check(resource.bytes, total.heldBytes + bytes, limits.heldBytesTotal, .global)
        try check(resource.operations, client.heldOperations + operations, limits.heldOperationsPerClient, .client)
        try check(resource.operations, total.heldOperations + operations, limits.heldOperationsTotal, .global)
        client.heldBytes += bytes
        total.heldBytes += bytes
        client.heldOperations += operations
        total.heldOperations += operations
    }

    /// Releases the client's held parts (its `commit` arrived, or it left).
    public mutating func releaseHeld(for client: inout ClientBudget) {
        total.heldBytes -= client.heldBytes
        total.heldOperations -= client.heldOperations
        client.heldBytes = 0
        client.heldOperations = 0
    }

    /// Charges the client's new render tree of `layers` layers and `animations` animations in place of
    /// its old one. Only growth is checked: a tree that shrinks is always accepted. The per-client
    /// bounds on layers and animations are the render tree's own (`WireLimits`).
    public mutating func setTree(layers: Int, animations: Int, for client: inout ClientBudget) throws(BudgetError) {
        if layers > client.layers {
            try check("layers", total.layers - client.layers + layers, limits.layersTotal, .global)
        }
        if animations > client.animations {
            try check(
                "attached animations", total.animations - client.animations + animations, limits.animationsTotal,
                .global)
        }
        total.layers += layers - client.layers
        total.animations += animations - client.animations
        client.layers = layers
        client.animations = animations
    }

    /// Charges a capture reply carrying a memfd of `bytes` bytes, about to be sent.
    public mutating func sendCapture(bytes: Int, for client: inout ClientBudget) throws(BudgetError) {
        try check(
            "capture replies in flight", client.capturesInFlight + 1, limits.capturesInFlightPerClient, .client)
        try check(
            "bytes of capture replies in flight", total.captureBytesInFlight + bytes,
            limits.captureBytesInFlightTotal, .global)
        client.capturesInFlight += 1
        client.captureBytesInFlight += bytes
        total.capturesInFlight += 1
        total.captureBytesInFlight += bytes
    }

    /// Releases the client's capture replies: its send queue was seen empty, so it has read them.
    public mutating func capturesRead(by client: inout ClientBudget) {
        total.capturesInFlight -= client.capturesInFlight
        total.captureBytesInFlight -= client.captureBytesInFlight
        client.capturesInFlight = 0
        client.captureBytesInFlight = 0
    }

    /// The texture bytes charged for an image of `width` × `height` pixels: 4 bytes a pixel for
    /// level 0, × 4/3 (rounded down) for its mip chain.
    public static func textureBytes(width: Int, height: Int) -> Int {
        let level0 = width * height * 4
        return level0 + level0 / 3
    }

    /// Charges an uploaded image of `bytes` texture bytes.
    public mutating func uploadImage(bytes: Int, for client: inout ClientBudget) throws(BudgetError) {
        try check("images", client.images + 1, limits.imagesPerClient, .client)
        try check("texture bytes", client.textureBytes + bytes, limits.textureBytesPerClient, .client)
        try check("texture bytes", total.textureBytes + bytes, limits.textureBytesTotal, .global)
        client.images += 1
        client.textureBytes += bytes
        total.images += 1
        total.textureBytes += bytes
    }

    /// Releases a freed image of `bytes` texture bytes.
    public mutating func releaseImage(bytes: Int, for client: inout ClientBudget) {
        client.images -= 1
        client.textureBytes -= bytes
        total.images -= 1
        total.textureBytes -= bytes
    }

    /// Charges a registered surface whose memfd holds `bytes` bytes.
    public mutating func registerSurface(bytes: Int, for client: inout ClientBudget) throws(BudgetError) {
        try check("surfaces", client.surfaces + 1, limits.surfacesPerClient, .client)
        try check("surface bytes", client.surfaceBytes + bytes, limits.surfaceBytesPerClient, .client)
        try check("surface bytes", total.surfaceBytes + bytes, limits.surfaceBytesTotal, .global)
        client.surfaces += 1
        client.surfaceBytes += bytes
        total.surfaces += 1
        total.surfaceBytes += bytes
    }

    /// Releases a freed surface of `bytes` bytes.
    public mutating func releaseSurface(bytes: Int, for client: inout ClientBudget) {
        client.surfaces -= 1
        client.surfaceBytes -= bytes
        total.surfaces -= 1
        total.surfaceBytes -= bytes
    }

    /// Releases everything the client holds (it left).
    public mutating func release(_ client: inout ClientBudget) {
        releaseHeld(for: &client)
        capturesRead(by: &client)
        total.images -= client.images
        total.textureBytes -= client.textureBytes
        client.images = 0
        client.textureBytes = 0
        total.surfaces -= client.surfaces
        total.surfaceBytes -= client.surfaceBytes
        client.surfaces = 0
        client.surfaceBytes = 0
        total.layers -= client.layers
        total.animations -= client.animations
        client.layers = 0
        client.animations = 0
    }

    private func check(_ resource: String, _ requested: Int, _ limit: Int, _ scope: BudgetError.Scope)
        throws(BudgetError)
    {
        guard requested <= limit else {
            throw BudgetError(resource: resource, scope: scope, limit: limit, requested: requested)
        }
    }
}

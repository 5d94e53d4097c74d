import LaminaProtocol

/// Gives context ids: new ones from a counter, and old ones back to contexts that reconnect after a
/// server restart (`hello` naming the id they had).
///
/// The counter starts at a random base (1 to 2³⁰), so a restarted server's new ids rarely fall on the
/// old server's, which its contexts come back to claim. An id is given at most once in a server's
/// life, whichever way: a claim is granted only for an id this server has never given (neither
/// counted out nor granted before), and the counter skips granted ids. So a claim can never take over
/// a live context's id, nor the id of a context that left (whose hosts may still name it with its
/// token). Granted claims are kept in a set of at most `maxRestored` ids; past it, claims are
/// refused. Ids stay in 1...`WireLimits.maxContextId`; should the counter pass it (after a billion
/// contexts), it starts again at 1, skipping live ids, and refuses every claim from then on.
struct ContextIdAllocator {
    /// The most ids given back to reconnecting contexts over a server's life.
    static let maxRestored = 4096

    /// The first id the counter gave.
    let base: UInt32
    /// The next id the counter gives.
    private(set) var next: UInt32
    /// Whether the counter has passed `WireLimits.maxContextId` and started again at 1.
    private(set) var wrapped = false
    /// The ids given back to reconnecting contexts.
    private(set) var restored: Set<UInt32> = []

    /// An allocator whose counter starts at `base` (by default a random one, 1 to 2³⁰).
    init(base: UInt32 = UInt32.random(in: 1...(1 << 30))) {
        precondition((1...WireLimits.maxContextId).contains(base), "context id base \(base) is out of range")
        self.base = base
        next = base
    }

    /// Whether this allocator has given `id`, as a new id or back to a reconnecting context.
    func hasGiven(_ id: UInt32) -> Bool {
        wrapped || (base..<next).contains(id) || restored.contains(id)
    }

    /// A new id: the counter's next one that was not given back to a reconnecting context and that
    /// `isLive` does not name (only after the counter started again at 1 can an id be live).
    mutating func makeId(isLive: (UInt32) -> Bool) -> UInt32 {
        while true {
            let id = next
            if next == WireLimits.maxContextId {
                next = 1
                wrapped = true
            } else {
                next += 1
            }
            if !restored.contains(id) && !(wrapped && isLive(id)) { return id }
        }
    }

    /// Gives `id` back to a reconnecting context, unless this allocator has given it already or has
    /// given back `maxRestored` ids: true when it is granted. `id` is in 1...`WireLimits.maxContextId`.
    mutating func restore(_ id: UInt32) -> Bool {
        guard !hasGiven(id), restored.count < Self.maxRestored else { return false }
        restored.insert(id)
        return true
    }
}

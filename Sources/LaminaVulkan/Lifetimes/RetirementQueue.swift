/// GPU objects waiting for the frames that last used them to finish (a "graveyard", as Granite calls it).
///
/// Frames are numbered by a monotonically increasing timeline value. A resource retired with
/// `lastUsedBy: f` is held until `collect(completedThrough:)` is told that every frame up to and
/// including `f` has finished on the device; only then is it handed back (and, for a reference whose last
/// owner this was, freed). Plain Swift: tests drive it with made-up frame numbers and no device.
/// Not thread-safe; the renderer confines it to the render thread.
public struct RetirementQueue<Resource> {
    private var entries: [(frame: UInt64, resource: Resource)] = []

    /// An empty queue.
    public init() {}

    /// The number of resources still waiting.
    public var count: Int { entries.count }

    /// The newest frame any waiting resource still needs, or `nil` when the queue is empty.
    public var newestFrame: UInt64? { entries.map(\.frame).max() }

    /// Holds `resource` until frame `frame` has finished.
    public mutating func retire(_ resource: Resource, lastUsedBy frame: UInt64) {
        entries.append((frame, resource))
    }

    /// Removes and returns, in retirement order, every resource whose frame is at most `frame`.
    ///
    /// Callers pass the newest frame whose fence has signalled; since one queue executes frames in
    /// submission order, every earlier frame has finished too.
    @discardableResult
    public mutating func collect(completedThrough frame: UInt64) -> [Resource] {
        guard entries.contains(where: { $0.frame <= frame }) else { return [] }
        var done: [Resource] = []
        var waiting: [(frame: UInt64, resource: Resource)] = []
        for entry in entries {
            if entry.frame <= frame { done.append(entry.resource) } else { waiting.append(entry) }
        }
        entries = waiting
        return done
    }

    /// Removes and returns everything, for teardown after the device has gone idle.
    public mutating func drain() -> [Resource] {
        defer { entries = [] }
        return entries.map(\.resource)
    }
}

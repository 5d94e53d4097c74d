/// A binary min-heap of timed entries for `AnimationSchedule`, which may hold stale entries (the
/// schedule tells them apart) and is read without being changed: `visit(upTo:isLive:_:)` walks
/// only the part of the heap at or before a time.
struct EventHeap: Sendable {
    /// Animation `animation` is due at `time`, if `serial` is still its schedule item's.
    struct Entry: Sendable {
        var time: Double
        var animation: UInt64
        var serial: UInt64
    }

    private(set) var entries: [Entry] = []

    /// An empty heap.
    init() {}

    /// A heap of `entries` in any order (Floyd's construction: every inner node sifted down, last
    /// first).
    init(_ entries: [Entry]) {
        self.entries = entries
        for index in stride(from: entries.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    /// The number of entries, stale ones included.
    var count: Int { entries.count }

    /// Adds `entry`.
    mutating func push(_ entry: Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].time < entries[parent].time else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes entries from the top while `isStale` says so.
    mutating func dropTop(while isStale: (Entry) -> Bool) {
        while let top = entries.first, isStale(top) {
            let last = entries.removeLast()
            guard !entries.isEmpty else { return }
            entries[0] = last
            siftDown(0)
        }
    }

    /// Calls `body` with each live entry whose time is not after `time`, and returns the earliest
    /// time after it of a live entry (nil when none). Descends below an entry only while it is due
    /// or stale: the entries below a live entry after `time` are later still.
    func visit(upTo time: Double, isLive: (Entry) -> Bool, _ body: (Entry) -> Void) -> Double? {
        var next: Double?
        var stack: [Int] = entries.isEmpty ? [] : [0]
        while let index = stack.popLast() {
            let entry = entries[index]
            let live = isLive(entry)
            if live, entry.time > time {
                next = min(next ?? entry.time, entry.time)
                continue
            }
            if live { body(entry) }
            let left = 2 * index + 1
            if left < entries.count { stack.append(left) }
            if left + 1 < entries.count { stack.append(left + 1) }
        }
        return next
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { return }
            var smallest = left
            if left + 1 < entries.count, entries[left + 1].time < entries[left].time { smallest = left + 1 }
            guard entries[smallest].time < entries[parent].time else { return }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

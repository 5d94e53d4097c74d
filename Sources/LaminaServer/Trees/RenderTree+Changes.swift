import LaminaCore

/// Change tracking: every commit and every applied advancement logs the layers it changed, with
/// change bits, under a new revision of the tree. A retained display list that last read the tree at
/// an older revision reads the log since then (`changes(since:)`) instead of walking every layer.
///
/// Only `applying(_:displayCount:)` and `apply(_:limit:)` log; writing `layers` directly (as plain
/// tests and benchmarks do before a full build) is not tracked.
extension RenderTree {
    /// Entries kept in the log beyond the tree's layer count before it is cut: a reader older than
    /// the cut rebuilds in full, which costs about what reading that many entries would.
    static let changeLogSlack = 4096

    /// Logs that layer `id` changed as `change` in the current revision.
    @inline(__always)
    mutating func noteChange(_ id: LayerID, _ change: LayerChange) {
        changeLog.append(LayerChangeEntry(layer: id, change: change, revision: revision))
    }

    /// Starts a new revision for the changes that follow, cutting the log when it has grown beyond
    /// the tree's size.
    mutating func beginRevision() {
        revision += 1
        if changeLog.count > layers.count + Self.changeLogSlack {
            changeLog.removeAll()
            changeLogStart = revision - 1
        }
    }

    /// The changes made after revision `old`, oldest first, or nil when the log no longer reaches
    /// back that far (or `old` is not a revision of this tree's history): read the whole tree then.
    public func changes(since old: UInt64) -> [LayerChangeEntry]? {
        guard old >= changeLogStart, old <= revision else { return nil }
        // Entries are in revision order: find the first one after `old` by bisection.
        var low = 0
        var high = changeLog.count
        while low < high {
            let mid = (low + high) / 2
            if changeLog[mid].revision <= old { low = mid + 1 } else { high = mid }
        }
        return changeLog.entries(from: low)
    }
}

/// The identity of one render tree's history: copies of a tree share it, and a tree made afresh
/// (`RenderTree()`) has a new one, so that a retained display list never patches one client's tree
/// with another's changes.
public final class RenderTreeIdentity: Sendable {
    init() {}
}

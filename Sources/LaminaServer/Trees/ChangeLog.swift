import LaminaCore

/// A render tree's change log (`RenderTree+Changes.swift`): the layers changed by recent revisions,
/// oldest first, kept in blocks of entries so that a commit appending to a log it shares with the
/// tree before copies the last block only, not the whole log (as `LayerTable` does for the layers).
struct ChangeLog: Sendable {
    /// Entries per block.
    static let blockSize = 256

    private var blocks: [ContiguousArray<LayerChangeEntry>] = []
    /// The number of entries.
    private(set) var count = 0

    /// Adds `entry` at the end.
    mutating func append(_ entry: LayerChangeEntry) {
        if let last = blocks.indices.last, blocks[last].count < Self.blockSize {
            blocks[last].append(entry)
        } else {
            var block = ContiguousArray<LayerChangeEntry>()
            block.reserveCapacity(Self.blockSize)
            block.append(entry)
            blocks.append(block)
        }
        count += 1
    }

    /// Drops every entry.
    mutating func removeAll() {
        blocks = []
        count = 0
    }

    /// Entry `index`, 0 being the oldest.
    subscript(index: Int) -> LayerChangeEntry {
        blocks[index / Self.blockSize][index % Self.blockSize]
    }

    /// The entries from `start` on, oldest first.
    func entries(from start: Int) -> [LayerChangeEntry] {
        guard start < count else { return [] }
        var result: [LayerChangeEntry] = []
        result.reserveCapacity(count - start)
        var block = start / Self.blockSize
        result += blocks[block][(start % Self.blockSize)...]
        block += 1
        while block < blocks.count {
            result += blocks[block]
            block += 1
        }
        return result
    }
}

import LaminaCore

/// Which emitted instances may touch each 16-pixel cell of a display, in emission order: what a
/// retained display list asks before it moves instances inside the batches a full build made.
///
/// A batch draws one kind, in emission order, and batches are drawn in order, so a list draws every
/// pixel as a full redraw does when each pair of instances that may touch the same pixel is drawn in
/// emission order: the earlier one's batch is lower, or it is the same batch. Instances of one group
/// (the pieces of one shape) never overlap and are exempt. A patch keeps every instance's batch, so it
/// may only move an instance where that still holds for every instance sharing a cell with it.
struct DrawOrderGrid {
    static let cellSize = 16
    let columns: Int
    let rows: Int
    /// Per cell, the emitted instances (their positions in `DisplayList.emitted`) whose pixels reach
    /// into it, ascending.
    var cells: [[Int32]]
    /// The group of each emitted instance (`Batcher.groupEnds`).
    var groupOf: [Int32]

    /// The grid of `list`'s instances, in the groups that end at `groupEnds`.
    init(_ list: DisplayList, groupEnds: [Int32]) {
        columns = max(1, (list.width + Self.cellSize - 1) / Self.cellSize)
        rows = max(1, (list.height + Self.cellSize - 1) / Self.cellSize)
        cells = Array(repeating: [], count: columns * rows)
        groupOf = []
        groupOf.reserveCapacity(list.emitted.count)
        var start: Int32 = 0
        for (group, end) in groupEnds.enumerated() where end > start {
            groupOf += repeatElement(Int32(group), count: Int(end - start))
            start = end
        }
        for (position, instance) in list.emitted.enumerated() {
            forEachCell(of: instance.pixels) { cells[$0].append(Int32(position)) }
        }
    }

    /// Calls `body` with each cell that `pixels` reaches into.
    @inline(__always)
    func forEachCell(of pixels: DamageRect, _ body: (Int) -> Void) {
        guard pixels.width > 0, pixels.height > 0 else { return }
        let c0 = min(pixels.x / Self.cellSize, columns - 1)
        let c1 = min((pixels.x + pixels.width - 1) / Self.cellSize, columns - 1)
        let r0 = min(pixels.y / Self.cellSize, rows - 1)
        let r1 = min((pixels.y + pixels.height - 1) / Self.cellSize, rows - 1)
        for r in r0...r1 {
            for c in c0...c1 { body(r * columns + c) }
        }
    }

    /// Takes instance `position` out of the cells of `pixels`.
    mutating func remove(_ position: Int, from pixels: DamageRect) {
        let p = Int32(position)
        forEachCell(of: pixels) { cell in
            if let k = cells[cell].firstIndex(of: p) { cells[cell].remove(at: k) }
        }
    }

    /// Puts instance `position` into the cells of `pixels`, keeping each cell ascending.
    mutating func insert(_ position: Int, into pixels: DamageRect) {
        let p = Int32(position)
        forEachCell(of: pixels) { cell in
            var k = cells[cell].count
            while k > 0 && cells[cell][k - 1] > p { k -= 1 }
            cells[cell].insert(p, at: k)
        }
    }

    /// Whether instance `position`, in batch `batch(position)` and covering `pixels`, is drawn in
    /// emission order against every instance of another group that shares a cell with it.
    func isInOrder(_ position: Int, pixels: DamageRect, batch: (Int) -> Int32) -> Bool {
        let own = batch(position)
        let group = groupOf[position]
        var ordered = true
        forEachCell(of: pixels) { cell in
            guard ordered else { return }
            for other in cells[cell] {
                let o = Int(other)
                guard o != position, groupOf[o] != group else { continue }
                let theirs = batch(o)
                if o < position ? theirs > own : theirs < own {
                    ordered = false
                    return
                }
            }
        }
        return ordered
    }
}

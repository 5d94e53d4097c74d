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
    /// The pixels each emitted instance touches, as last put in the grid: two instances sharing a
    /// cell are ordered against each other only where these overlap.
    var pixelsOf: [DamageRect]

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
        pixelsOf = list.emitted.map(\.pixels)
        for (position, instance) in list.emitted.enumerated() { append(position, into: instance.pixels) }
    }

    /// The cells that `pixels` reaches into: columns `c0...c1` of rows `r0...r1`; nil when none.
    @inline(__always)
    func cells(of pixels: DamageRect) -> (c0: Int, c1: Int, r0: Int, r1: Int)? {
        guard pixels.width > 0, pixels.height > 0 else { return nil }
        return (
            min(pixels.x / Self.cellSize, columns - 1), min((pixels.x + pixels.width - 1) / Self.cellSize, columns - 1),
            min(pixels.y / Self.cellSize, rows - 1), min((pixels.y + pixels.height - 1) / Self.cellSize, rows - 1)
        )
    }

    /// Puts instance `position` into the cells of `pixels` (it comes after every instance there).
    private mutating func append(_ position: Int, into pixels: DamageRect) {
        guard let (c0, c1, r0, r1) = cells(of: pixels) else { return }
        for r in r0...r1 {
            for c in c0...c1 { cells[r * columns + c].append(Int32(position)) }
        }
    }

    /// Takes instance `position` out of the cells of `pixels`.
    mutating func remove(_ position: Int, from pixels: DamageRect) {
        guard let (c0, c1, r0, r1) = cells(of: pixels) else { return }
        let p = Int32(position)
        for r in r0...r1 {
            for c in c0...c1 {
                let cell = r * columns + c
                if let k = cells[cell].firstIndex(of: p) { cells[cell].remove(at: k) }
            }
        }
    }

    /// Puts instance `position` into the cells of `pixels`, keeping each cell ascending.
    mutating func insert(_ position: Int, into pixels: DamageRect) {
        pixelsOf[position] = pixels
        guard let (c0, c1, r0, r1) = cells(of: pixels) else { return }
        let p = Int32(position)
        for r in r0...r1 {
            for c in c0...c1 {
                let cell = r * columns + c
                var k = cells[cell].count
                while k > 0 && cells[cell][k - 1] > p { k -= 1 }
                cells[cell].insert(p, at: k)
            }
        }
    }

    /// Whether instance `position`, in batch `batch(position)` and covering `pixels`, is drawn in
    /// emission order against every instance of another group whose pixels overlap its own (found
    /// through the cells they share).
    func isInOrder(_ position: Int, pixels: DamageRect, batch: (Int) -> Int32) -> Bool {
        let own = batch(position)
        let group = groupOf[position]
        guard let (c0, c1, r0, r1) = cells(of: pixels) else { return true }
        for r in r0...r1 {
            for c in c0...c1 {
                for other in cells[r * columns + c] {
                    let o = Int(other)
                    guard o != position, groupOf[o] != group, pixelsOf[o].intersects(pixels) else { continue }
                    let theirs = batch(o)
                    if o < position ? theirs > own : theirs < own { return false }
                }
            }
        }
        return true
    }
}

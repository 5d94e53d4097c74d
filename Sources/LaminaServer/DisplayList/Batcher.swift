import Foundation

/// Orders primitives into as few batches as draw order allows.
///
/// Batches cycle through the draw kinds in the order of `DrawKind.all` (opaque fill, blended fill,
/// corner, shape, continuous corner, continuous shape, then opaque fill again), so batch `b` holds kind `b % kindCount`. A primitive goes
/// into the lowest batch of its kind that comes after every earlier primitive it may overlap: the same
/// batch for a primitive of its own kind (a batch keeps submission order), a later one otherwise.
/// "May overlap" is judged on a grid of 16-pixel cells, which remembers per cell the highest batch
/// used there. Batch `b` holds kind `b % kindCount` alone, so that number also says which kind holds
/// it: the cost is linear in the cells a primitive covers and does not grow with the number of kinds. Primitives added between two `endGroup()` calls are disjoint by
/// construction (the pieces of one shape), so they do not constrain each other. Batch numbers that no
/// primitive uses produce no batch. A textured primitive (one with a `TextureSampling`) joins a batch
/// only when the batch samples the same image the same way; otherwise it moves on to the next batch of
/// its kind that does or is still free, since one draw call binds one image.
struct Batcher {
    /// The side of a grid cell in device pixels.
    static let cellSize = 16
    /// The number of kinds in the cycle: `DrawKind.all.count`.
    let kindCount: Int
    let columns: Int
    let rows: Int
    /// Per cell, the highest batch used there, -1 when none; cell (row, column) at
    /// `row * columns + column`.
    var highest: [Int32]
    var pending: [(kind: Int, index: Int32, cells: (Int, Int, Int, Int), texture: TextureSampling?)] = []
    var placed: [(batch: Int32, kind: Int, index: Int32)] = []
    /// The number of primitives placed when each group ended: group `g` holds the entries of
    /// `placed` from `groupEnds[g - 1]` (0 for the first) up to `groupEnds[g]`.
    var groupEnds: [Int32] = []
    /// Whether each placed primitive's cells are kept (`placedCells`), so that the primitives can be
    /// placed again in a later frame without their layers (`RetainedDisplayList`).
    var keepsCells = false
    /// The cells of each placed primitive (columns `x...z`, rows `y...w`), when `keepsCells`.
    var placedCells: [SIMD4<Int32>] = []
    /// Whether the batcher only records (a retained list's redraw of one subtree): every primitive
    /// goes to batch 0 with its cells kept, and the grid is not kept.
    let recordsOnly: Bool
    /// The batches of the group being placed (storage kept between groups).
    var groupBatches: [Int32] = []
    /// What each textured batch samples, by batch number.
    var textures: [Int32: TextureSampling] = [:]

    /// A batcher for a `width`×`height` device and `kindCount` draw kinds.
    /// With `recordsOnly`, primitives are only recorded (`recordsOnly`).
    init(width: Int, height: Int, kindCount: Int = DrawKind.all.count, recordsOnly: Bool = false) {
        self.kindCount = kindCount
        self.recordsOnly = recordsOnly
        keepsCells = recordsOnly
        columns = max(1, (width + Self.cellSize - 1) / Self.cellSize)
        rows = max(1, (height + Self.cellSize - 1) / Self.cellSize)
        highest = recordsOnly ? [] : [Int32](repeating: -1, count: columns * rows)
    }

    /// Adds instance `index` of kind `kind` covering the cells `cells` (as `placedCells` holds them)
    /// to the current group: a primitive placed again.
    mutating func add(_ kind: Int, index: Int, cells: SIMD4<Int32>, texture: TextureSampling?) {
        pending.append((kind, Int32(index), (Int(cells.x), Int(cells.y), Int(cells.z), Int(cells.w)), texture))
    }

    /// Adds instance `index` of kind `kind` (a `DrawKind.id`) covering `box` (device pixels) to the
    /// current group; `texture` is what a primitive of a textured kind samples.
    mutating func add(_ kind: Int, index: Int, box: CGRect, texture: TextureSampling? = nil) {
        // An empty primitive (a moving layer's piece that draws nothing) covers no cell: it is placed
        // in the first batch of its kind and holds nothing else back (`noCells`).
        guard !box.isEmpty else {
            pending.append((kind, Int32(index), Self.noCells, texture))
            return
        }
        let c0 = Self.cell(box.minX, last: columns - 1)
        let r0 = Self.cell(box.minY, last: rows - 1)
        let c1 = max(Self.cell(box.maxX - 0.001, last: columns - 1), c0)
        let r1 = max(Self.cell(box.maxY - 0.001, last: rows - 1), r0)
        pending.append((kind, Int32(index), (c0, r0, c1, r1), texture))
    }

    /// The cells of a primitive that covers none (last column before the first).
    static let noCells = (0, 0, -1, -1)

    /// The grid cell, 0...`last`, holding device coordinate `x`. Clamped before it becomes an `Int`,
    /// so a coordinate of any size (or NaN, which goes to 0) never traps.
    @inline(__always)
    static func cell(_ x: CGFloat, last: Int) -> Int {
        let cell = (x / CGFloat(cellSize)).rounded(.down)
        guard cell > 0 else { return 0 }
        return cell < CGFloat(last) ? Int(cell) : last
    }

    /// Reserves room for `count` primitives placed in `groups` groups.
    mutating func reserveCapacity(_ count: Int, groups: Int) {
        placed.reserveCapacity(count)
        groupEnds.reserveCapacity(groups)
        if keepsCells { placedCells.reserveCapacity(count) }
    }

    /// Forgets every primitive, keeping the storage (a batcher drawn with again).
    mutating func reset() {
        for i in highest.indices { highest[i] = -1 }
        pending.removeAll(keepingCapacity: true)
        placed.removeAll(keepingCapacity: true)
        groupEnds.removeAll(keepingCapacity: true)
        placedCells.removeAll(keepingCapacity: true)
        textures.removeAll()
    }

    /// Places the current group's primitives.
    mutating func endGroup() {
        let count = pending.count
        guard count > 0 else { return }
        // Index loops over the stored arrays: no iterator or copy of an array per group (a group is
        // often a single primitive, so per-group costs are per-primitive costs).
        if keepsCells {
            for i in 0..<count {
                let c = pending[i].cells
                placedCells.append(SIMD4(Int32(c.0), Int32(c.1), Int32(c.2), Int32(c.3)))
            }
        }
        if recordsOnly {
            for i in 0..<count { placed.append((0, pending[i].kind, pending[i].index)) }
            groupEnds.append(Int32(placed.count))
            pending.removeAll(keepingCapacity: true)
            return
        }
        let n = kindCount
        if groupBatches.count < count {
            groupBatches = [Int32](repeating: 0, count: max(count, 2 * groupBatches.count))
        }
        let (columns, rows) = (columns, rows)
        // The grid is read and written through one pointer per group: an indexed write to the array
        // would check its uniqueness and bounds per cell, and a primitive covers many cells.
        highest.withUnsafeMutableBufferPointer { grid in
            for i in 0..<count {
                let kind = pending[i].kind
                let cells = pending[i].cells
                // The highest batch in the primitive's cells. The primitive may join it when it holds
                // its own kind (every batch of another kind in those cells is then lower, so joining
                // keeps order), else it must come after it.
                var top: Int32 = -1
                if cells.2 >= cells.0 {
                    // The pointer does not check its bounds: a primitive's cells and kind are checked
                    // once here (cells are clamped to the grid when added; kept cells come from a
                    // batcher of the same size).
                    precondition(
                        cells.0 >= 0 && cells.1 >= 0 && cells.2 < columns && cells.3 < rows && kind >= 0 && kind < n,
                        "primitive outside the batcher's grid")
                    for r in cells.1...max(cells.3, cells.1) {
                        let row = r * columns
                        for c in cells.0...cells.2 { top = max(top, grid[row + c]) }
                    }
                }
                let required = top < 0 || Int(top) % n == kind ? max(top, 0) : top + 1
                // The lowest batch at or after `required` that holds this kind.
                var b = required + Int32((kind - Int(required) % n + n) % n)
                if let texture = pending[i].texture {
                    // A later batch is always in order; skip those that bind another image or sampler.
                    while let held = textures[b], held != texture { b += Int32(n) }
                    textures[b] = texture
                }
                groupBatches[i] = b
            }
            for i in 0..<count {
                let cells = pending[i].cells
                let b = groupBatches[i]
                if cells.2 >= cells.0 {
                    for r in cells.1...max(cells.3, cells.1) {
                        let row = r * columns
                        for c in cells.0...cells.2 where grid[row + c] < b { grid[row + c] = b }
                    }
                }
                placed.append((b, pending[i].kind, pending[i].index))
            }
        }
        groupEnds.append(Int32(placed.count))
        pending.removeAll(keepingCapacity: true)
    }

    /// Places the last group and returns the batches in draw order.
    mutating func finish() -> [DrawBatch] {
        endGroup()
        // A counting sort by batch number: stable, so submission order holds within a batch.
        var highestBatch: Int32 = -1
        for item in placed where item.batch > highestBatch { highestBatch = item.batch }
        guard highestBatch >= 0 else { return [] }
        var counts = [Int32](repeating: 0, count: Int(highestBatch) + 1)
        for item in placed { counts[Int(item.batch)] += 1 }
        var out: [DrawBatch] = []
        for (batch, count) in counts.enumerated() where count > 0 {
            var indices: [Int32] = []
            indices.reserveCapacity(Int(count))
            out.append(DrawBatch(kind: batch % kindCount, instances: indices, texture: textures[Int32(batch)]))
        }
        // Where each used batch number lands in `out`.
        var slot = [Int32](repeating: -1, count: counts.count)
        var next: Int32 = 0
        for (batch, count) in counts.enumerated() where count > 0 {
            slot[batch] = next
            next += 1
        }
        for item in placed { out[Int(slot[Int(item.batch)])].instances.append(item.index) }
        return out
    }
}

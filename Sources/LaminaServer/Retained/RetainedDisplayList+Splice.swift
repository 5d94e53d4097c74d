import Foundation
import LaminaCore

/// Splicing: replacing dirty subtrees' instances when their number or kinds changed, and placing
/// every instance in batches again, without visiting the unchanged layers.
extension RetainedDisplayList {
    /// Replaces each subtree of `redrawn` (no two overlap) with its new instances and batches the
    /// whole list again from the instances' recorded cells and groups: the list, instances and
    /// batches a full build makes, at the cost of copying and placing every instance once.
    mutating func splice(_ redrawn: [Redrawn]) {
        let old = list!
        let ordered = redrawn.sorted { $0.start < $1.start }
        var next = DisplayList(width: old.width, height: old.height, clearColor: old.clearColor)
        for kind in next.instances.indices { next.instances[kind].reserveCapacity(old.instances[kind].count + 16) }
        next.emitted.reserveCapacity(old.emitted.count + 16)
        var batcher = Batcher(width: old.width, height: old.height)
        batcher.keepsCells = true
        var oldGroup = 0  // The first of the old groups not yet placed again.

        /// Places old instances `from..<to` again, group by group.
        func placeOld(_ from: Int, _ to: Int) {
            guard from < to else { return }
            while oldGroup < groupEnds.count && Int(groupEnds[oldGroup]) <= from { oldGroup += 1 }
            for position in from..<to {
                let e = old.emitted[position]
                let index = next.instances[e.kind].append(e.index, of: old.instances[e.kind])
                next.emitted.append(EmittedInstance(kind: e.kind, index: index, pixels: e.pixels, texture: e.texture))
                batcher.add(e.kind, index: index, cells: placedCells[position], texture: e.texture)
                if oldGroup < groupEnds.count && Int(groupEnds[oldGroup]) == position + 1 {
                    batcher.endGroup()
                    oldGroup += 1
                }
            }
            batcher.endGroup()
        }

        var position = 0
        for r in ordered {
            placeOld(position, r.start)
            var group = 0
            for (k, e) in r.list.emitted.enumerated() {
                let index = next.instances[e.kind].append(e.index, of: r.list.instances[e.kind])
                next.emitted.append(EmittedInstance(kind: e.kind, index: index, pixels: e.pixels, texture: e.texture))
                batcher.add(e.kind, index: index, cells: r.cells[k], texture: e.texture)
                if group < r.groupEnds.count && Int(r.groupEnds[group]) == k + 1 {
                    batcher.endGroup()
                    group += 1
                }
            }
            batcher.endGroup()
            position = r.end
        }
        placeOld(position, old.emitted.count)
        next.batches = batcher.finish()

        // The records, from the last subtree back, so that each one's old positions still hold.
        for r in ordered.reversed() {
            let delta = r.list.emitted.count - (r.end - r.start)
            noteRedrawn(r, delta: delta, ancestors: r.ancestors)
        }
        placed = batcher.placed
        placedCells = batcher.placedCells
        groupEnds = batcher.groupEnds
        earlierMax = []
        laterMin = []
        order = nil
        list = next
    }
}

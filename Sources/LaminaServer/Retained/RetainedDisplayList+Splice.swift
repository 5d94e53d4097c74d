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
        // By position; an empty subtree before a subtree at the same position comes first in drawing
        // order (trees, then visits, are in drawing order).
        let ordered = redrawn.sorted { ($0.start, $0.tree, $0.visit) < ($1.start, $1.tree, $1.visit) }
        let kinds = old.instances.count
        var next = DisplayList(width: old.width, height: old.height, clearColor: old.clearColor)
        for kind in 0..<kinds { next.instances[kind].reserveCapacity(old.instances[kind].count + 16) }
        next.emitted.reserveCapacity(old.emitted.count + 16)
        var batcher = Batcher(width: old.width, height: old.height)
        batcher.keepsCells = true
        // Per kind, the next old instance not yet copied or dropped: an old run's instances of one kind
        // are consecutive in its buffer, so each run is copied with one append per kind.
        var oldNext = [Int](repeating: 0, count: kinds)
        var oldGroup = 0  // The first of the old groups not yet placed again.
        var position = 0
        var newStarts: [Int] = []
        newStarts.reserveCapacity(ordered.count)
        for r in ordered + [nil] as [Redrawn?] {
            let runEnd = r?.start ?? old.emitted.count
            // The old instances up to the next subtree, group by group.
            if position < runEnd {
                while oldGroup < groupEnds.count && Int(groupEnds[oldGroup]) <= position { oldGroup += 1 }
                var base = [Int](repeating: 0, count: kinds)
                for kind in 0..<kinds { base[kind] = next.instances[kind].count - oldNext[kind] }
                var copied = [Int](repeating: 0, count: kinds)
                for p in position..<runEnd {
                    let e = old.emitted[p]
                    let index = e.index + base[e.kind]
                    copied[e.kind] += 1
                    next.emitted.append(
                        EmittedInstance(kind: e.kind, index: index, pixels: e.pixels, texture: e.texture))
                    batcher.add(e.kind, index: index, cells: placedCells[p], texture: e.texture)
                    if oldGroup < groupEnds.count && Int(groupEnds[oldGroup]) == p + 1 {
                        batcher.endGroup()
                        oldGroup += 1
                    }
                }
                batcher.endGroup()
                for kind in 0..<kinds where copied[kind] > 0 {
                    next.instances[kind].append(oldNext[kind]..<(oldNext[kind] + copied[kind]), of: old.instances[kind])
                    oldNext[kind] += copied[kind]
                }
            }
            guard let r else { break }
            // The subtree's old instances go; its new ones come.
            for p in r.start..<r.end { oldNext[old.emitted[p].kind] += 1 }
            newStarts.append(next.emitted.count)
            var group = r.groups.lowerBound
            for p in r.newStart..<r.newEnd {
                let e = scratch.list.emitted[p]
                let index = next.instances[e.kind].append(e.index, of: scratch.list.instances[e.kind])
                next.emitted.append(EmittedInstance(kind: e.kind, index: index, pixels: e.pixels, texture: e.texture))
                batcher.add(e.kind, index: index, cells: scratch.batcher.placedCells[p], texture: e.texture)
                if group < r.groups.upperBound && Int(scratch.batcher.groupEnds[group]) == p + 1 {
                    batcher.endGroup()
                    group += 1
                }
            }
            batcher.endGroup()
            position = r.end
        }
        next.batches = batcher.finish()
        shiftRanges(ordered, newStarts: newStarts)
        noteRedrawnContexts()
        placed = batcher.placed
        placedCells = batcher.placedCells
        groupEnds = batcher.groupEnds
        earlierMax = []
        laterMin = []
        order = nil
        lastReplaced = old
        list = next
    }

    /// Moves every recorded range to where its instances are after `ordered` (by start) were spliced
    /// in at `newStarts`: one pass over the drawn layers. A layer drawn after a spliced subtree moves
    /// by the instances the subtree gained; an ancestor's range also grows by them; the subtrees'
    /// own layers take the ranges their walk recorded.
    private mutating func shiftRanges(_ ordered: [Redrawn], newStarts: [Int]) {
        var shift = 0  // What the subtrees of earlier trees gained.
        for tree in record.ranges.indices {
            let subtrees = ordered.indices.filter { ordered[$0].tree == tree }.sorted {
                ordered[$0].visit < ordered[$1].visit
            }
            let gains = subtrees.map { ordered[$0].newCount - (ordered[$0].end - ordered[$0].start) }
            // The ancestors of each subtree, found on the way: the visits whose subtree holds the one
            // being passed.
            var ancestors = [[Int]](repeating: [], count: subtrees.count)
            record.ranges[tree].withUnsafeMutableBufferPointer { ranges in
                var s = 0
                var passed = shift  // What the subtrees before `v` in drawing order gained.
                var open: [Int] = []
                var v = 0
                while v < ranges.count {
                    while let top = open.last, top + Int(ranges[top].layers) <= v { open.removeLast() }
                    if s < subtrees.count && v == ordered[subtrees[s]].visit {
                        // The subtree's own layers take the ranges its walk recorded (below).
                        ancestors[s] = open
                        v += Int(ranges[v].layers)
                        passed += gains[s]
                        s += 1
                        continue
                    }
                    ranges[v].start += Int32(passed)
                    ranges[v].end += Int32(passed)
                    if ranges[v].layers > 1 { open.append(v) }
                    v += 1
                }
            }
            // An ancestor's range holds its subtrees' gains too.
            for (s, t) in subtrees.enumerated() {
                for a in ancestors[s] { record.ranges[tree][a].end += Int32(gains[s]) }
                noteRedrawn(ordered[t], start: newStarts[t])
            }
            shift += gains.reduce(0, +)
        }
    }
}

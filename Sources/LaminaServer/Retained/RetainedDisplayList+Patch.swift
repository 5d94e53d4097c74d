import Foundation
import LaminaCore

/// Patching: finding each tree's dirty roots and drawing each one's subtree again.
extension RetainedDisplayList {
    /// A dirty root's subtree drawn again, waiting to replace its old instances.
    struct Redrawn {
        /// The tree (its index in the scene) and the root's visit number in `record`.
        var tree: Int
        var visit: Int
        /// The subtree's old instances: `list.emitted[start..<end]`.
        var start: Int
        var end: Int
        /// The new instances, each with the cells and group the batcher recorded for it.
        var list: DisplayList
        var cells: [SIMD4<Int32>]
        var groupEnds: [Int32]
        /// What the walk recorded: the subtree's layers, ranges and contexts.
        var retention: DisplayListBuilder.Retention
        /// The visit numbers of the root's ancestors.
        var ancestors: [Int]
    }

    /// What drawing one tree's dirty roots found: the subtrees drawn again, or why the frame must be
    /// built in full.
    enum RedrawResult {
        case success([Redrawn])
        case failure(String)
    }

    /// Draws the dirty roots of tree `index` of `trees` again as they are at `time`.
    mutating func redrawDirty(tree index: Int, of trees: [RenderTree], time: Double) -> RedrawResult {
        let tree = trees[index]
        guard let changes = tree.changes(since: keys[index].revision) else { return .failure("the change log was cut") }
        let limit = max(16, Int(Double(tree.layers.count) * Self.patchFraction))
        // Layers animated but idle (every animation pending or held finished) are not drawn again.
        let animating = tree.animatingLayers(at: time)
        guard changes.count + animating.count + keys[index].animated.count <= 4 * limit else {
            return .failure("too many changes")
        }
        var dirty = Set<LayerID>(minimumCapacity: changes.count + animating.count)
        for entry in changes {
            dirty.insert(entry.layer)
            if entry.change.contains(.order), let parent = tree.layers[entry.layer]?.superlayer { dirty.insert(parent) }
        }
        dirty.formUnion(animating)
        dirty.formUnion(keys[index].animated)
        guard dirty.count <= limit else { return .failure("too many dirty layers") }
        guard !dirty.isEmpty else { return .success([]) }

        // The topmost dirty layers on this display: a dirty layer under another is drawn with it.
        let displayRoot = tree.roots[display]
        var roots: [LayerID] = []
        for id in dirty {
            guard var current = tree.layers[id] else { continue }  // Destroyed: its superlayer changed too.
            var top = id
            var covered = false
            while let parent = current.superlayer, let layer = tree.layers[parent] {
                if dirty.contains(parent) {
                    covered = true
                    break
                }
                top = parent
                current = layer
            }
            if !covered && top == displayRoot { roots.append(id) }
        }
        if visitIndex.count != keys.count { buildVisitIndex() }
        var redrawn: [Redrawn] = []
        redrawn.reserveCapacity(roots.count)
        for root in roots {
            // A layer not drawn before is under an unchanged layer that still hides or cuts it.
            guard let visit = visitIndex[index][root] else { continue }
            switch redraw(root, visit: Int(visit), tree: index, of: trees, time: time) {
            case .failure(let reason): return .failure(reason)
            case .success(let one): redrawn += one
            }
        }
        return .success(redrawn)
    }

    /// Draws the subtree of `id` (visit `visit` of tree `index`) again, apart.
    private mutating func redraw(_ id: LayerID, visit: Int, tree index: Int, of trees: [RenderTree], time: Double)
        -> RedrawResult
    {
        let tree = trees[index]
        let layer = tree.layers[id]!
        let width = list!.width
        let height = list!.height
        let context: DisplayListBuilder.DrawContext
        let parentTime: Double
        if let parent = layer.superlayer {
            guard let handed = record.contexts[index][parent] else { return .failure("no context recorded") }
            context = handed.context(in: tree)
            parentTime = tree.localTime(of: parent, at: time).time
        } else {
            context = DisplayListBuilder.rootContext(of: tree, width: width, height: height)
            parentTime = time
        }
        var presented = DisplayListBuilder.Presented(layer, parentTime: parentTime)
        presented.id = id
        guard presented.state.zPosition == layer.state.zPosition else { return .failure("an animated zPosition") }

        scratch.list.removeAllInstances(width: width, height: height)
        if scratch.batcher.columns != (width + Batcher.cellSize - 1) / Batcher.cellSize
            || scratch.batcher.rows != (height + Batcher.cellSize - 1) / Batcher.cellSize
        {
            scratch.batcher = Batcher(width: width, height: height, recordsOnly: true)
        } else {
            scratch.batcher.reset()
        }
        scratch.retention = DisplayListBuilder.Retention(treeCount: 1)
        scratch.draw(presented, in: context)
        scratch.batcher.endGroup()
        let retention = scratch.retention!
        guard retention.isPatchable else {
            return .failure("a transition, host, shape layer, emitter or raster shadow")
        }
        // The same layers, in the same order.
        let old = record.ranges[index][visit]
        let count = Int(old.layers)
        guard retention.visits[0].count == count,
            record.visits[index][visit..<(visit + count)].elementsEqual(retention.visits[0])
        else { return .failure("other layers drawn") }
        var ancestors: [Int] = []
        var up = layer.superlayer
        while let parent = up, let visit = visitIndex[index][parent] {
            ancestors.append(Int(visit))
            up = tree.layers[parent]?.superlayer
        }
        return .success([
            Redrawn(
                tree: index, visit: visit, start: Int(old.start), end: Int(old.end), list: scratch.list,
                cells: scratch.batcher.placedCells, groupEnds: scratch.batcher.groupEnds, retention: retention,
                ancestors: ancestors)
        ])
    }

    /// Writes `redrawn` over the old instances in place when each subtree emitted the same kinds and
    /// images as before and every moved instance stays in draw order (`DrawOrderGrid`); returns false,
    /// with the list unchanged, when not.
    mutating func overwrite(_ redrawn: [Redrawn]) -> Bool {
        for r in redrawn {
            guard r.list.emitted.count == r.end - r.start else { return false }
            for (k, new) in r.list.emitted.enumerated() {
                let before = list!.emitted[r.start + k]
                guard new.kind == before.kind, new.texture == before.texture else { return false }
            }
        }
        if earlierMax.count != placed.count { computeBatchBounds() }
        if order == nil { order = DrawOrderGrid(list!, groupEnds: groupEnds) }
        // Move the instances in the order grid, then check each against what shares its cells.
        for r in redrawn {
            for (k, new) in r.list.emitted.enumerated() where new.pixels != list!.emitted[r.start + k].pixels {
                order!.remove(r.start + k, from: list!.emitted[r.start + k].pixels)
                order!.insert(r.start + k, into: new.pixels)
            }
        }
        for r in redrawn {
            for (k, new) in r.list.emitted.enumerated() {
                let position = r.start + k
                let batch = placed[position].batch
                // Quick: no instance of another group has a batch out of order with this one anywhere.
                if earlierMax[position] <= batch, batch <= laterMin[position] { continue }
                guard order!.isInOrder(position, pixels: new.pixels, batch: { placed[$0].batch }) else {
                    // The grid now holds the new places: it is built again when next asked for.
                    order = nil
                    return false
                }
            }
        }
        var changed: [Int] = []
        var pixelsBefore: [DamageRect] = []
        for r in redrawn {
            for (k, new) in r.list.emitted.enumerated() {
                let before = list!.emitted[r.start + k]
                let source = r.list.instances[new.kind]
                placedCells[r.start + k] = r.cells[k]
                if before.pixels == new.pixels
                    && list!.instances[before.kind].same(before.index, as: new.index, of: source)
                {
                    continue  // Drawn the same: not damaged.
                }
                changed.append(r.start + k)
                pixelsBefore.append(before.pixels)
                list!.instances[before.kind].replace(before.index, with: new.index, of: source)
                list!.emitted[r.start + k].pixels = new.pixels
            }
            noteRedrawn(r, start: r.start)
        }
        lastChanged = (changed, pixelsBefore)
        return true
    }

    /// Notes in `record` what the walk of `r` found, where its instances now start (`start`): its
    /// layers' ranges and the contexts it handed down.
    mutating func noteRedrawn(_ r: Redrawn, start: Int) {
        let offset = Int32(start)
        record.ranges[r.tree].withUnsafeMutableBufferPointer { ranges in
            for (k, range) in r.retention.ranges[0].enumerated() {
                ranges[r.visit + k] = DisplayListBuilder.SubtreeRange(
                    start: range.start + offset, end: range.end + offset, layers: range.layers)
            }
        }
        for (parent, handed) in r.retention.contexts[0] { record.contexts[r.tree][parent] = handed }
    }

    /// Indexes the drawn layers of every tree by id.
    private mutating func buildVisitIndex() {
        visitIndex = record.visits.map { visits in
            var index = [LayerID: Int32](minimumCapacity: visits.count)
            for (visit, id) in visits.enumerated() { index[id] = Int32(visit) }
            return index
        }
    }

    /// For each emitted instance, the highest batch among the groups before its own and the lowest
    /// among those after.
    mutating func computeBatchBounds() {
        let n = placed.count
        earlierMax = [Int32](repeating: -1, count: n)
        laterMin = [Int32](repeating: .max, count: n)
        var start = 0
        var highest: Int32 = -1
        for end in groupEnds.map(Int.init) where end > start {
            var groupHighest = highest
            for k in start..<end {
                earlierMax[k] = highest
                groupHighest = max(groupHighest, placed[k].batch)
            }
            highest = groupHighest
            start = end
        }
        var end = n
        var lowest = Int32.max
        for groupStart in ([0] + groupEnds.dropLast().map(Int.init)).reversed() where groupStart < end {
            var groupLowest = lowest
            for k in groupStart..<end {
                laterMin[k] = lowest
                groupLowest = min(groupLowest, placed[k].batch)
            }
            lowest = groupLowest
            end = groupStart
        }
    }
}

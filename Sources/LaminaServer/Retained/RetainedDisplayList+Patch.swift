import Foundation
import LaminaCore

/// Patching: finding each tree's dirty roots and drawing each one's subtree again.
extension RetainedDisplayList {
    /// A dirty root's subtree drawn again, waiting to replace its old instances. Every dirty root of a
    /// frame is drawn into the one `scratch` builder, one after another, so that a root costs no
    /// list, batcher or record of its own; a `Redrawn` says where in the scratch its part lies.
    struct Redrawn {
        /// The tree (its index in the scene) and the root's visit number in `record`.
        var tree: Int
        var visit: Int
        /// The subtree's old instances: `list.emitted[start..<end]`.
        var start: Int
        var end: Int
        /// The new instances: `scratch.list.emitted[newStart..<newEnd]`, each with the cells the
        /// batcher recorded for it at the same position of `scratch.batcher.placedCells`.
        var newStart: Int
        var newEnd: Int
        /// The groups the batcher placed them in: `scratch.batcher.groupEnds[groups]` (positions in
        /// the scratch list, not from `newStart`).
        var groups: Range<Int>
        /// What the walk recorded: the subtree's visits in `scratch.retention` (under `tree`), from
        /// `visitStart` (as many as the old record's `layers` of the root).
        var visitStart: Int

        /// The number of new instances.
        var newCount: Int { newEnd - newStart }
    }

    /// What drawing one tree's dirty roots found: the subtrees drawn again, or why the frame must be
    /// built in full.
    enum RedrawResult {
        case success([Redrawn])
        case failure(String)
    }

    /// What drawing one dirty root found: its subtree drawn again, or why the frame must be built in
    /// full.
    enum RootResult {
        case success(Redrawn)
        case failure(String)
    }

    /// Draws the dirty roots of tree `index` of `trees` again as they are at `time`, when the layers
    /// animating then are `animating` (`RenderTree.animating(at:)`).
    mutating func redrawDirty(
        tree index: Int, of trees: [RenderTree], size: (width: Int, height: Int), time: Double,
        animating: AnimatingLayers
    ) -> RedrawResult {
        let tree = trees[index]
        guard let changes = tree.changes(since: keys[index].revision) else { return .failure("the change log was cut") }
        let limit = max(16, Int(Double(tree.layers.count) * Self.patchFraction))
        // Layers animated but idle (every animation pending or held finished) are not drawn again.
        guard changes.count + animating.count + keys[index].animated.count <= 4 * limit else {
            return .failure("too many changes")
        }
        var dirty = Set<LayerID>(minimumCapacity: changes.count + animating.count)
        for entry in changes {
            dirty.insert(entry.layer)
            if entry.change.contains(.order), let parent = tree.layers[entry.layer]?.superlayer { dirty.insert(parent) }
        }
        dirty.formUnion(animating.running)
        dirty.formUnion(animating.due)
        dirty.formUnion(keys[index].animated)
        guard dirty.count <= limit else { return .failure("too many dirty layers") }
        guard !dirty.isEmpty else { return .success([]) }

        // The topmost dirty layers on this display: a dirty layer under another is drawn with it.
        let displayRoot = tree.roots[display]
        var roots: [LayerID] = []
        // (Only the links are read, where the table holds the layers.)
        for id in dirty {
            guard var slot = tree.layers.slot(of: id) else { continue }  // Destroyed: its superlayer changed too.
            var top = id
            var covered = false
            while let parent = tree.layers[slot: slot].superlayer, let parentSlot = tree.layers.slot(of: parent) {
                if dirty.contains(parent) {
                    covered = true
                    break
                }
                top = parent
                slot = parentSlot
            }
            if !covered && top == displayRoot { roots.append(id) }
        }
        var clocks: [LayerID: (time: Double, rate: Double)] = [:]
        if visitIndex.count != keys.count { buildVisitIndex() }
        var redrawn: [Redrawn] = []
        redrawn.reserveCapacity(roots.count)
        for root in roots {
            // A layer not drawn before is under an unchanged layer that still hides or cuts it.
            guard let visit = visitIndex[index][root] else { continue }
            switch redraw(root, visit: Int(visit), tree: index, tree, size: size, time: time, clocks: &clocks) {
            case .failure(let reason): return .failure(reason)
            case .success(let one): redrawn.append(one)
            }
        }
        return .success(redrawn)
    }

    /// Draws the subtree of `id` (visit `visit` of `tree`, tree `index` of the scene) again, apart,
    /// after the roots drawn before it in this frame. `clocks` keeps the ancestors' clocks found so far
    /// (`localTime`).
    private mutating func redraw(
        _ id: LayerID, visit: Int, tree index: Int, _ tree: borrowing RenderTree, size: (width: Int, height: Int),
        time: Double, clocks: inout [LayerID: (time: Double, rate: Double)]
    ) -> RootResult {
        // (The tree is read where the caller holds it: an element read out of the scene's array is a
        // copy, which retains every part of the tree and releases it again.)
        let layers = tree.layers
        let slot = layers.slot(of: id)!
        let superlayer = layers[slot: slot].superlayer
        let (width, height) = size
        let context: DisplayListBuilder.DrawContext
        let parentTime: Double
        if let parent = superlayer {
            guard let handed = record.contexts[index][parent] else { return .failure("no context recorded") }
            context = handed.context(in: tree)
            if let clock = clocks[parent] {
                parentTime = clock.time
            } else {
                let clock = tree.localTime(of: parent, at: time, known: &clocks)
                clocks[parent] = clock
                parentTime = clock.time
            }
        } else {
            context = DisplayListBuilder.rootContext(of: tree, width: width, height: height)
            parentTime = time
        }
        let presented = DisplayListBuilder.Presented(id: id, in: layers, parentTime: parentTime)!
        guard presented.state.zPosition == layers[slot: slot].state.zPosition else {
            return .failure("an animated zPosition")
        }

        let newStart = scratch.list.emitted.count
        scratch.retention!.tree = index
        let visitStart = scratch.retention!.visits[index].count
        let groupStart = scratch.batcher.groupEnds.count
        scratch.draw(presented, in: context)
        scratch.batcher.endGroup()
        guard scratch.retention!.isPatchable else {
            return .failure("a transition, host, shape layer, emitter or raster shadow")
        }
        // The same layers, in the same order.
        let count = Int(record.ranges[index][visit].layers)
        let visits = scratch.retention!.visits[index]
        guard visits.count - visitStart == count,
            record.visits[index][visit..<(visit + count)].elementsEqual(visits[visitStart...])
        else { return .failure("other layers drawn") }
        let old = record.ranges[index][visit]
        return .success(
            Redrawn(
                tree: index, visit: visit, start: Int(old.start), end: Int(old.end), newStart: newStart,
                newEnd: scratch.list.emitted.count, groups: groupStart..<scratch.batcher.groupEnds.count,
                visitStart: visitStart))
    }

    /// Empties the scratch builder for a frame's dirty roots of `treeCount` trees on a
    /// `width`×`height` display, keeping its storage.
    mutating func resetScratch(width: Int, height: Int, treeCount: Int) {
        scratch.list.removeAllInstances(width: width, height: height)
        if scratch.batcher.columns != (width + Batcher.cellSize - 1) / Batcher.cellSize
            || scratch.batcher.rows != (height + Batcher.cellSize - 1) / Batcher.cellSize
        {
            scratch.batcher = Batcher(width: width, height: height, recordsOnly: true)
        } else {
            scratch.batcher.reset()
        }
        if scratch.retention?.visits.count != treeCount {
            scratch.retention = DisplayListBuilder.Retention(treeCount: treeCount)
        } else {
            scratch.retention!.removeAll()
        }
    }

    /// Writes `redrawn` over the old instances in place when each subtree emitted the same kinds and
    /// images as before and every moved instance stays in draw order (`DrawOrderGrid`); returns false,
    /// with the list unchanged, when not.
    mutating func overwrite(_ redrawn: [Redrawn]) -> Bool {
        let fresh = scratch.list.emitted
        for r in redrawn {
            guard r.newCount == r.end - r.start else { return false }
            for k in 0..<r.newCount {
                let new = fresh[r.newStart + k]
                let before = list!.emitted[r.start + k]
                guard new.kind == before.kind, new.texture == before.texture else { return false }
            }
        }
        if earlierMax.count != placed.count { computeBatchBounds() }
        if order == nil { order = DrawOrderGrid(list!, groupEnds: groupEnds) }
        // Move the instances in the order grid, then check each against what shares its cells.
        for r in redrawn {
            for k in 0..<r.newCount where fresh[r.newStart + k].pixels != list!.emitted[r.start + k].pixels {
                order!.remove(r.start + k, from: list!.emitted[r.start + k].pixels)
                order!.insert(r.start + k, into: fresh[r.newStart + k].pixels)
            }
        }
        for r in redrawn {
            for k in 0..<r.newCount {
                let position = r.start + k
                let batch = placed[position].batch
                // Quick: no instance of another group has a batch out of order with this one anywhere.
                if earlierMax[position] <= batch, batch <= laterMin[position] { continue }
                guard order!.isInOrder(position, pixels: fresh[r.newStart + k].pixels, batch: { placed[$0].batch })
                else {
                    // The grid now holds the new places: it is built again when next asked for.
                    order = nil
                    return false
                }
            }
        }
        var changed: [Int] = []
        var pixelsBefore: [DamageRect] = []
        let cells = scratch.batcher.placedCells
        for r in redrawn {
            for k in 0..<r.newCount {
                let new = fresh[r.newStart + k]
                let before = list!.emitted[r.start + k]
                let source = scratch.list.instances[new.kind]
                placedCells[r.start + k] = cells[r.newStart + k]
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
        noteRedrawnContexts()
        lastChanged = (changed, pixelsBefore)
        return true
    }

    /// Notes in `record` the ranges the walk of `r` found for its layers, where its instances now
    /// start (`start`).
    mutating func noteRedrawn(_ r: Redrawn, start: Int) {
        let offset = Int32(start - r.newStart)
        let count = Int(record.ranges[r.tree][r.visit].layers)
        let walked = scratch.retention!.ranges[r.tree]
        record.ranges[r.tree].withUnsafeMutableBufferPointer { ranges in
            for k in 0..<count {
                let range = walked[r.visitStart + k]
                ranges[r.visit + k] = DisplayListBuilder.SubtreeRange(
                    start: range.start + offset, end: range.end + offset, layers: range.layers)
            }
        }
    }

    /// Notes in `record` what the layers of this frame's walks (`scratch`) handed their sublayers.
    mutating func noteRedrawnContexts() {
        for (tree, contexts) in scratch.retention!.contexts.enumerated() {
            for (parent, handed) in contexts { record.contexts[tree][parent] = handed }
        }
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

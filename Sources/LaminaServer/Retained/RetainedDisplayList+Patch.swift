import Foundation
import LaminaCore

/// Patching: finding a tree's dirty roots and drawing each one's subtree again over its old instances.
extension RetainedDisplayList {
    /// The outcome of patching one tree: the layers drawn and the dirty roots patched, or why the
    /// frame must be built in full.
    enum PatchResult {
        case success((layers: Int, roots: Int))
        case failure(String)
    }

    /// Patches the list with tree `index` of `trees` as it is at `time`.
    mutating func patch(tree index: Int, of trees: [RenderTree], time: Double) -> PatchResult {
        let tree = trees[index]
        guard let changes = tree.changes(since: keys[index].revision) else { return .failure("the change log was cut") }
        let limit = max(16, Int(Double(tree.layers.count) * Self.patchFraction))
        guard changes.count + tree.animatedLayers.count + keys[index].animated.count <= 4 * limit else {
            return .failure("too many changes")
        }
        var dirty = Set<LayerID>(minimumCapacity: changes.count + tree.animatedLayers.count)
        for entry in changes {
            dirty.insert(entry.layer)
            if entry.change.contains(.order), let parent = tree.layers[entry.layer]?.superlayer { dirty.insert(parent) }
        }
        dirty.formUnion(tree.animatedLayers)
        dirty.formUnion(keys[index].animated)
        guard dirty.count <= limit else { return .failure("too many dirty layers") }
        guard !dirty.isEmpty else { return .success((0, 0)) }

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
        if earlierMax.count != placed.count { computeBatchBounds() }
        if order == nil { order = DrawOrderGrid(list!, groupEnds: groupEnds) }
        var visited = 0
        var patched = 0
        for root in roots {
            // A layer not drawn before is under an unchanged layer that still hides or cuts it.
            guard let visit = visitIndex[index][root] else { continue }
            switch redraw(root, visit: Int(visit), tree: index, of: trees, time: time) {
            case .failure(let reason): return .failure(reason)
            case .success(let (layers, _)):
                visited += layers
                patched += 1
            }
        }
        return .success((visited, patched))
    }

    /// Draws the subtree of `id` (visit `visit` of tree `index`) again and writes its instances over
    /// the ones it emitted before.
    private mutating func redraw(_ id: LayerID, visit: Int, tree index: Int, of trees: [RenderTree], time: Double)
        -> PatchResult
    {
        let tree = trees[index]
        let layer = tree.layers[id]!
        let context: DisplayListBuilder.DrawContext
        let parentTime: Double
        if let parent = layer.superlayer {
            guard let handed = record.contexts[index][parent] else { return .failure("no context recorded") }
            context = handed.context(in: tree)
            parentTime = tree.localTime(of: parent, at: time).time
        } else {
            context = DisplayListBuilder.rootContext(of: tree, width: list!.width, height: list!.height)
            parentTime = time
        }
        var presented = DisplayListBuilder.Presented(layer, parentTime: parentTime)
        presented.id = id
        guard presented.state.zPosition == layer.state.zPosition else { return .failure("an animated zPosition") }

        scratch.list.removeAllInstances(width: list!.width, height: list!.height)
        scratch.batcher.reset()
        scratch.retention = DisplayListBuilder.Retention(treeCount: 1)
        scratch.draw(presented, in: context)
        let redrawn = scratch.retention!
        guard redrawn.isPatchable else { return .failure("a transition, host or shape layer") }

        // The same layers, in the same order.
        let old = record.ranges[index][visit]
        let count = Int(old.layers)
        guard redrawn.visits[0].count == count,
            record.visits[index][visit..<(visit + count)].elementsEqual(redrawn.visits[0])
        else { return .failure("other layers drawn") }
        // The same kinds and images, in batches that stay in order whatever the instances overlap.
        let start = Int(old.start)
        let emitted = scratch.list.emitted
        guard emitted.count == Int(old.end) - start else { return .failure("another number of instances") }
        for (k, new) in emitted.enumerated() {
            let before = list!.emitted[start + k]
            guard new.kind == before.kind, new.texture == before.texture else {
                return .failure("other kinds of instances")
            }
        }
        // Move the instances in the order grid, then check each against what shares its cells.
        for (k, new) in emitted.enumerated() where new.pixels != list!.emitted[start + k].pixels {
            order!.remove(start + k, from: list!.emitted[start + k].pixels)
            order!.insert(start + k, into: new.pixels)
        }
        for (k, new) in emitted.enumerated() {
            let position = start + k
            let batch = placed[position].batch
            // Quick: no instance of another group has a batch out of order with this one anywhere.
            if earlierMax[position] <= batch, batch <= laterMin[position] { continue }
            guard order!.isInOrder(position, pixels: new.pixels, batch: { placed[$0].batch }) else {
                return .failure("the batches would change order")
            }
        }
        for (k, new) in emitted.enumerated() {
            let before = list!.emitted[start + k]
            list!.instances[before.kind].replace(before.index, with: new.index, of: scratch.list.instances[new.kind])
            list!.emitted[start + k].pixels = new.pixels
        }
        for (k, range) in redrawn.ranges[0].enumerated() {
            record.ranges[index][visit + k] = DisplayListBuilder.SubtreeRange(
                start: range.start + Int32(start), end: range.end + Int32(start), layers: range.layers)
        }
        for (parent, handed) in redrawn.contexts[0] { record.contexts[index][parent] = handed }
        return .success((scratch.list.layersVisited, 1))
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
    private mutating func computeBatchBounds() {
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

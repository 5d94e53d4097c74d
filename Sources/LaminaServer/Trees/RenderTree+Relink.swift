import LaminaCore
import LaminaProtocol

/// The hierarchy check of a commit that changed the hierarchy: every id a sublayer list, mask or
/// root names exists, no layer has two superlayers or is its own ancestor, roots and masks have no
/// superlayer, depth is bounded; then each layer's `superlayer` and `maskOwner` are set to match.
///
/// Two ways give the same answer. The full check (`relinkAndValidate()`) reads every layer; the
/// incremental one (`IncrementalRelink`) starts from the links of the tree before the commit and
/// reads only what the commit changed: the sublayer lists and masks it set, the layers it created
/// and destroyed, the roots, and the ancestors and moved subtrees of the layers that moved.
extension RenderTree {
    /// Which hierarchy check a commit makes.
    public enum RelinkMode: Sendable {
        /// The incremental check, unless the tree before was empty or the commit rewrote lists
        /// about as long as the tree; a refusal is checked again in full, so the error names the
        /// same problem as the full check would (a refused commit disconnects its client, so this
        /// costs the tree once per connection at most).
        case automatic
        /// The full check only.
        case full
        /// The incremental check only, its own error on refusal (for tests).
        case incremental
    }

    /// Checks the hierarchy and sets the links after a transaction that changed it, starting from
    /// `old`, the tree before the transaction (whose links are right: it was made by `applying`).
    mutating func relink(after edits: HierarchyEdits, from old: RenderTree, mode: RelinkMode) throws(TransactionError) {
        switch mode {
        case .full:
            try relinkAndValidate()
        case .incremental:
            try relinkIncrementally(after: edits, from: old)
        case .automatic:
            guard !old.layers.isEmpty, 2 * edits.estimatedReads(old: old.layers, new: layers) <= layers.count else {
                try relinkAndValidate()
                return
            }
            do {
                try relinkIncrementally(after: edits, from: old)
            } catch {
                try relinkAndValidate()
            }
        }
    }

    /// The incremental check (`IncrementalRelink`): on success, writes the links that changed.
    mutating func relinkIncrementally(after edits: HierarchyEdits, from old: RenderTree) throws(TransactionError) {
        let (links, visits) = try IncrementalRelink.check(old: old, new: self, edits: edits)
        for link in links {
            if layers[link.id]!.superlayer != link.superlayer { layers[link.id]!.superlayer = link.superlayer }
            if layers[link.id]!.maskOwner != link.maskOwner { layers[link.id]!.maskOwner = link.maskOwner }
        }
        lastRelink = RelinkCounters(incremental: true, visits: visits + links.count)
    }

    /// Recomputes every `superlayer` from the sublayer lists and checks the hierarchy: every id exists,
    /// no layer has two superlayers or is its own ancestor, roots have no superlayer, depth is bounded.
    /// Links are found apart and written only where they changed, so the layers a commit did not
    /// touch stay shared with the tree before it (`LayerTable`).
    mutating func relinkAndValidate() throws(TransactionError) {
        var parents = [LayerID: LayerID](minimumCapacity: layers.count)
        var visits = 0
        for (id, layer) in layers {
            var seen = Set<LayerID>()
            visits += 1 + layer.sublayers.count
            for child in layer.sublayers {
                guard layers[child] != nil else { throw .unknownLayer(child) }
                if child == id { throw .cycle("layer \(id) lists itself as a sublayer") }
                guard seen.insert(child).inserted else {
                    throw .invalidValue("layer \(child) appears twice in the sublayers of \(id)")
                }
                if let other = parents[child] {
                    throw .invalidValue("layer \(child) is a sublayer of both \(other) and \(id)")
                }
                parents[child] = id
            }
        }
        for (display, root) in roots {
            guard layers[root] != nil else { throw .unknownLayer(root) }
            if let parent = parents[root] {
                throw .invalidValue("root layer \(root) of display \(display) is a sublayer of \(parent)")
            }
        }
        let owners = try maskOwners(parents: parents)
        // Walk up from every layer (a mask's owner counts as its parent); memoised depths keep this
        // linear. A walk that meets itself is a cycle.
        var depth = [LayerID: Int](minimumCapacity: layers.count)
        for start in layers.keys where depth[start] == nil {
            var path: [LayerID] = []
            var onPath = Set<LayerID>()
            var current: LayerID? = start
            var base = 0
            while let id = current {
                if let known = depth[id] {
                    base = known
                    break
                }
                guard onPath.insert(id).inserted else {
                    throw .cycle("layer \(id) is its own ancestor (through sublayers or masks)")
                }
                path.append(id)
                current = parents[id] ?? owners[id]
            }
            for (i, id) in path.reversed().enumerated() {
                let d = base + i + 1
                guard d <= WireLimits.maxTreeDepth else {
                    throw .limitExceeded("tree deeper than \(WireLimits.maxTreeDepth) layers at layer \(id)")
                }
                depth[id] = d
            }
        }
        for id in layers.keys {
            let (parent, owner) = (parents[id], owners[id])
            if layers[id]!.superlayer != parent { layers[id]!.superlayer = parent }
            if layers[id]!.maskOwner != owner { layers[id]!.maskOwner = owner }
        }
        lastRelink = RelinkCounters(incremental: false, visits: visits + 2 * layers.count)
    }

    /// The layer each mask masks (its `maskOwner`), by mask, checked: the mask exists, and is in no
    /// sublayer list (`parents`), no root and no other layer's mask.
    func maskOwners(parents: [LayerID: LayerID]) throws(TransactionError) -> [LayerID: LayerID] {
        let rootLayers = Set(roots.values)
        var owners: [LayerID: LayerID] = [:]
        for (id, layer) in layers {
            guard let mask = layer.mask else { continue }
            guard layers[mask] != nil else { throw .unknownLayer(mask) }
            if mask == id { throw .cycle("layer \(id) is its own mask") }
            if let parent = parents[mask] {
                throw .invalidValue("mask layer \(mask) of \(id) is a sublayer of \(parent)")
            }
            if rootLayers.contains(mask) { throw .invalidValue("mask layer \(mask) of \(id) is a root layer") }
            if let other = owners[mask] {
                throw .invalidValue("layer \(mask) is the mask of both \(other) and \(id)")
            }
            owners[mask] = id
        }
        return owners
    }
}

/// How a commit's hierarchy check went: which check ran and how many layers it read (a layer once
/// per sublayer list entry, walk step or link it looked at). Tests assert that a small change to a
/// large tree reads a few layers, not the tree.
public struct RelinkCounters: Sendable, Hashable {
    /// Whether the incremental check ran (and accepted; a refusal is not kept).
    public var incremental = false
    /// The layers read.
    public var visits = 0
}

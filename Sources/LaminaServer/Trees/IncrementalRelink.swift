import LaminaCore
import LaminaProtocol

/// The hierarchy check of one transaction, made from what it changed (`RenderTree+Relink.swift`).
///
/// The tree before the transaction (`old`) was checked and its links are right, so a layer's
/// superlayer in the new tree is the layer whose newly set list names it, or else its old superlayer
/// when that still exists with its list unchanged (and so still names it); a mask's owner likewise.
/// Every rule the full check applies to every layer can then only be broken where the transaction
/// wrote: a set list (its entries), a set mask, a destroyed layer still named by an unchanged list
/// or mask, a root. A cycle must pass through a layer whose way up (superlayer, or owner for a mask)
/// changed, and a layer deeper than before sits in the subtree of such a layer that itself went
/// deeper: so the walks start only from the layers that moved. The check reads the edited layers,
/// their old and new lists, the ancestors of the moved layers and the subtrees of those that went
/// deeper; never the rest of the tree. It refuses exactly what the full check refuses (tests compare
/// the two over random and hostile commits), though with several problems it may name another one
/// first.
struct IncrementalRelink {
    /// A layer's links as the check found them.
    struct Link: Sendable {
        var id: LayerID
        var superlayer: LayerID?
        var maskOwner: LayerID?
    }

    /// The layers before the transaction.
    let old: LayerTable
    /// The layers after it, links not yet set.
    let new: LayerTable
    /// The roots after it.
    let roots: [UInt32: LayerID]
    /// Layers of `new` whose sublayer list may differ from `old`'s: lists set, layers created.
    var listing = Set<LayerID>()
    /// Layers of `new` whose mask may differ: masks set, layers created.
    var masking = Set<LayerID>()
    /// Layers of `old` that are not in `new`.
    var gone = Set<LayerID>()
    /// The superlayer of each entry of the lists in `listing`.
    var listedParent: [LayerID: LayerID] = [:]
    /// The owner of each mask of the layers in `masking`.
    var maskedOwner: [LayerID: LayerID] = [:]
    /// Depths in `old` found so far (`oldDepth(of:)`).
    var oldDepths: [LayerID: Int] = [:]
    /// Layers read so far.
    var visits = 0

    /// Checks the hierarchy of `new`, the tree `edits` made from `old`, and returns the links of every
    /// layer whose links may have changed, with the number of layers read.
    static func check(
        old: RenderTree, new: RenderTree, edits: HierarchyEdits
    ) throws(TransactionError) -> (links: [Link], visits: Int) {
        var check = IncrementalRelink(old: old.layers, new: new.layers, roots: new.roots)
        for id in edits.listed where new.layers[id] != nil { check.listing.insert(id) }
        for id in edits.masked where new.layers[id] != nil { check.masking.insert(id) }
        for id in edits.created where new.layers[id] != nil {
            check.listing.insert(id)
            check.masking.insert(id)
        }
        for id in edits.destroyed where new.layers[id] == nil && old.layers[id] != nil { check.gone.insert(id) }
        try check.checkSublayers()
        try check.checkRoots()
        try check.checkMasks()
        let (links, moved) = check.newLinks()
        try check.checkCyclesAndDepth(moved: moved)
        return (links, check.visits)
    }

    /// The superlayer of `id` in `new`.
    func parent(of id: LayerID) -> LayerID? { listedParent[id] ?? keptParent(of: id) }

    /// The old superlayer of `id` when its list is unchanged (so it still names `id`).
    func keptParent(of id: LayerID) -> LayerID? {
        guard let parent = old[id]?.superlayer, !listing.contains(parent), new[parent] != nil else { return nil }
        return parent
    }

    /// The layer `id` is the mask of in `new`.
    func owner(of id: LayerID) -> LayerID? { maskedOwner[id] ?? keptOwner(of: id) }

    /// The old owner of mask `id` when its mask is unchanged (so it is still `id`).
    func keptOwner(of id: LayerID) -> LayerID? {
        guard let owner = old[id]?.maskOwner, !masking.contains(owner), new[owner] != nil else { return nil }
        return owner
    }

    /// The next layer up from `id` in `new`: its superlayer, or the layer it masks.
    func up(from id: LayerID) -> LayerID? { parent(of: id) ?? owner(of: id) }

    /// Every entry of a set list exists, is not its own layer, is listed once and by no other layer;
    /// no unchanged list names a destroyed layer.
    mutating func checkSublayers() throws(TransactionError) {
        for id in listing {
            let sublayers = new[id]!.sublayers
            var seen = Set<LayerID>(minimumCapacity: sublayers.count)
            visits += 1 + sublayers.count
            for child in sublayers {
                guard new[child] != nil else { throw .unknownLayer(child) }
                if child == id { throw .cycle("layer \(id) lists itself as a sublayer") }
                guard seen.insert(child).inserted else {
                    throw .invalidValue("layer \(child) appears twice in the sublayers of \(id)")
                }
                if let other = listedParent[child] ?? keptParent(of: child) {
                    throw .invalidValue("layer \(child) is a sublayer of both \(other) and \(id)")
                }
                listedParent[child] = id
            }
        }
        for id in gone where keptParent(of: id) != nil { throw .unknownLayer(id) }
    }

    /// Every root exists and is in no sublayer list.
    mutating func checkRoots() throws(TransactionError) {
        for (display, root) in roots {
            visits += 1
            guard new[root] != nil else { throw .unknownLayer(root) }
            if let parent = parent(of: root) {
                throw .invalidValue("root layer \(root) of display \(display) is a sublayer of \(parent)")
            }
        }
    }

    /// Every set mask exists, is not its layer, is in no sublayer list, no root and no other layer's
    /// mask; no kept mask was listed, made a root or destroyed.
    mutating func checkMasks() throws(TransactionError) {
        let rootLayers = Set(roots.values)
        for id in masking {
            visits += 1
            guard let mask = new[id]!.mask else { continue }
            guard new[mask] != nil else { throw .unknownLayer(mask) }
            if mask == id { throw .cycle("layer \(id) is its own mask") }
            if let parent = parent(of: mask) {
                throw .invalidValue("mask layer \(mask) of \(id) is a sublayer of \(parent)")
            }
            if rootLayers.contains(mask) { throw .invalidValue("mask layer \(mask) of \(id) is a root layer") }
            if let other = maskedOwner[mask] ?? keptOwner(of: mask) {
                throw .invalidValue("layer \(mask) is the mask of both \(other) and \(id)")
            }
            maskedOwner[mask] = id
        }
        for (child, parent) in listedParent {
            if let owner = keptOwner(of: child) {
                throw .invalidValue("mask layer \(child) of \(owner) is a sublayer of \(parent)")
            }
        }
        for root in rootLayers {
            if let owner = keptOwner(of: root) { throw .invalidValue("mask layer \(root) of \(owner) is a root layer") }
        }
        for id in gone where keptOwner(of: id) != nil { throw .unknownLayer(id) }
    }

    /// The links of every layer whose links may have changed (the entries of set lists old and new,
    /// set masks old and new, the sublayers and mask of destroyed layers, created layers), and the
    /// layers among them that moved: new in the tree, or with another way up than before.
    mutating func newLinks() -> (links: [Link], moved: [LayerID]) {
        var candidates = Set(listedParent.keys).union(maskedOwner.keys)
        for id in listing.union(gone) {
            guard let layer = old[id] else {
                candidates.insert(id)
                continue
            }
            candidates.formUnion(layer.sublayers)
            visits += layer.sublayers.count
            if listing.contains(id) { candidates.insert(id) }
        }
        for id in masking.union(gone) { if let mask = old[id]?.mask { candidates.insert(mask) } }
        var links: [Link] = []
        var moved: [LayerID] = []
        for id in candidates {
            guard let layer = new[id] else { continue }
            visits += 1
            let (parent, owner) = (parent(of: id), owner(of: id))
            if layer.superlayer != parent || layer.maskOwner != owner {
                links.append(Link(id: id, superlayer: parent, maskOwner: owner))
            }
            if let before = old[id], (before.superlayer ?? before.maskOwner) == (parent ?? owner) { continue }
            moved.append(id)
        }
        return (links, moved)
    }

    /// No layer is its own ancestor and none is deeper than `WireLimits.maxTreeDepth`: walks up from
    /// each moved layer (memoised), then down the subtree of each moved layer that went deeper than it
    /// was, as far as the next moved layer (which answers for its own subtree).
    mutating func checkCyclesAndDepth(moved: [LayerID]) throws(TransactionError) {
        var depth: [LayerID: Int] = [:]
        for start in moved where depth[start] == nil {
            var path: [LayerID] = []
            var onPath = Set<LayerID>()
            var current: LayerID? = start
            var base = 0
            while let id = current {
                visits += 1
                if let known = depth[id] {
                    base = known
                    break
                }
                guard onPath.insert(id).inserted else {
                    throw .cycle("layer \(id) is its own ancestor (through sublayers or masks)")
                }
                path.append(id)
                current = up(from: id)
            }
            for (i, id) in path.reversed().enumerated() {
                let d = base + i + 1
                guard d <= WireLimits.maxTreeDepth else {
                    throw .limitExceeded("tree deeper than \(WireLimits.maxTreeDepth) layers at layer \(id)")
                }
                depth[id] = d
            }
        }
        let movedSet = Set(moved)
        for start in moved {
            let startDepth = depth[start]!
            if let before = oldDepth(of: start), startDepth <= before { continue }
            var stack = [(start, startDepth)]
            while let (id, d) = stack.popLast() {
                visits += 1
                guard d <= WireLimits.maxTreeDepth else {
                    throw .limitExceeded("tree deeper than \(WireLimits.maxTreeDepth) layers at layer \(id)")
                }
                let layer = new[id]!
                for child in layer.sublayers where !movedSet.contains(child) { stack.append((child, d + 1)) }
                if let mask = layer.mask, !movedSet.contains(mask) { stack.append((mask, d + 1)) }
            }
        }
    }

    /// The depth of `id` in `old` (1 for a layer with no way up), or nil when it was not there or
    /// its way up is longer than the limit (which a checked tree never has). Memoised in `oldDepths`.
    mutating func oldDepth(of id: LayerID) -> Int? {
        var path: [LayerID] = []
        var current: LayerID? = id
        var base = 0
        while let next = current {
            if let known = oldDepths[next] {
                base = known
                break
            }
            guard let layer = old[next], path.count < WireLimits.maxTreeDepth else { return nil }
            visits += 1
            path.append(next)
            current = layer.superlayer ?? layer.maskOwner
        }
        for (i, id) in path.reversed().enumerated() { oldDepths[id] = base + i + 1 }
        return oldDepths[id]
    }
}

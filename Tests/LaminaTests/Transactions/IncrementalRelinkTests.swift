import LaminaCore
import LaminaProtocol
import LaminaTesting
import Testing

@testable import LaminaServer

/// The incremental hierarchy check (`IncrementalRelink`) against the full one
/// (`RenderTree.relinkAndValidate()`, the oracle): over seeded random commits, well-formed and
/// hostile, both accept the same commits and leave the same `superlayer` and `maskOwner` on every
/// layer, and refuse the same ones; the server's own path (`applying`) refuses with the full
/// check's exact error. Counters show that a small change to a large tree reads a few layers.
@Suite("Incremental relink")
struct IncrementalRelinkTests {
    /// Displays of the trees here: roots on two displays.
    static let displays = 2

    /// A layer's links.
    struct Links: Hashable {
        var superlayer: LayerID?
        var maskOwner: LayerID?
    }

    /// Every layer's links.
    static func links(_ tree: RenderTree) -> [LayerID: Links] {
        var result: [LayerID: Links] = [:]
        for (id, layer) in tree.layers { result[id] = Links(superlayer: layer.superlayer, maskOwner: layer.maskOwner) }
        return result
    }

    /// `ops` applied to `tree` with the hierarchy checked as `mode` says.
    static func apply(
        _ ops: [LayerOperation], to tree: RenderTree, _ mode: RenderTree.RelinkMode
    ) -> Result<RenderTree, TransactionError> {
        do {
            return .success(try tree.applying(ops, displayCount: displays, relink: mode))
        } catch {
            return .failure(error)
        }
    }

    /// What `agree` found: the full check's tree, or its error and the incremental check's.
    enum Verdict {
        /// The full check's tree and the server path's.
        case accepted(RenderTree, applied: RenderTree)
        case refused(full: TransactionError, incremental: TransactionError)
    }

    /// Applies `ops` to `tree` with each check and records every disagreement: accept or refuse, the
    /// links of every layer, and the server's path (`.automatic`) against the full check's exact
    /// error. Nil when they disagree.
    static func agree(_ tree: RenderTree, _ ops: [LayerOperation], _ label: String) -> Verdict? {
        let full = apply(ops, to: tree, .full)
        let incremental = apply(ops, to: tree, .incremental)
        let automatic = apply(ops, to: tree, .automatic)
        switch (full, incremental, automatic) {
        case (.success(let f), .success(let i), .success(let a)):
            let expected = links(f)
            #expect(links(i) == expected, "\(label): incremental links differ from the full check's")
            #expect(links(a) == expected, "\(label): applying's links differ from the full check's")
            return links(i) == expected && links(a) == expected ? .accepted(f, applied: a) : nil
        case (.failure(let f), .failure(let i), .failure(let a)):
            #expect(a == f, "\(label): applying refused with \(a), the full check with \(f)")
            return a == f ? .refused(full: f, incremental: i) : nil
        default:
            Issue.record("\(label): full \(full), incremental \(incremental), applying \(automatic)")
            return nil
        }
    }

    // MARK: - Random commits

    /// A random tree: root 1 on display 0 over a chain 2…250 (layer 250 at depth 250 of the 256
    /// allowed, so moves below it can go too deep) and `count` layers hung under random earlier
    /// ones off the chain, 20 of them masked by a layer of their own.
    static func randomTree(count: Int, _ random: inout SplitMix64) throws -> (RenderTree, next: LayerID) {
        var ops: [LayerOperation] = (1...250).map { .createLayer(LayerID($0)) }
        var lists: [LayerID: [LayerID]] = [:]
        for id in 2...250 { lists[LayerID(id - 1), default: []].append(LayerID(id)) }
        var offChain: [LayerID] = [1]
        var next: LayerID = 1000
        for _ in 0..<count {
            let parent = offChain[random.below(offChain.count)]
            ops.append(.createLayer(next))
            lists[parent, default: []].append(next)
            offChain.append(next)
            next += 1
        }
        for (id, list) in lists.sorted(by: { $0.key < $1.key }) { ops.append(.setSublayers(id, list)) }
        for _ in 0..<20 {
            let owner = offChain[1 + random.below(offChain.count - 1)]
            ops += [.createLayer(next), .setMask(owner, mask: next)]
            next += 1
        }
        ops.append(.setRoot(display: 0, layer: 1))
        return (try RenderTree().applying(ops, displayCount: displays, relink: .full), next)
    }

    /// One commit under construction: its operations, and the sublayer lists as they set them.
    struct Draft {
        let tree: RenderTree
        /// The tree's ids, sorted (dictionary order differs between runs; the seed must replay).
        let ids: [LayerID]
        /// The ids edits pick: all but the chain 2…249, which stays deep.
        let pickable: [LayerID]
        var ops: [LayerOperation] = []
        var lists: [LayerID: [LayerID]] = [:]

        init(_ tree: RenderTree) {
            self.tree = tree
            ids = tree.layers.keys.sorted()
            pickable = ids.filter { !(2..<250).contains($0) }
        }

        func list(_ id: LayerID) -> [LayerID] { lists[id] ?? tree.layers[id]?.sublayers ?? [] }

        mutating func setList(_ id: LayerID, _ list: [LayerID]) {
            lists[id] = list
            ops.append(.setSublayers(id, list))
        }

        func any(_ random: inout SplitMix64) -> LayerID { pickable[random.below(pickable.count)] }

        /// A layer with a superlayer, or nil after a few tries.
        func child(_ random: inout SplitMix64) -> LayerID? {
            for _ in 0..<8 {
                let id = any(&random)
                if tree.layers[id]?.superlayer != nil { return id }
            }
            return nil
        }

        /// A strict ancestor of `id` through superlayers and mask owners, or nil.
        func ancestor(of id: LayerID, _ random: inout SplitMix64) -> LayerID? {
            var chain: [LayerID] = []
            var current = tree.layers[id].flatMap { $0.superlayer ?? $0.maskOwner }
            while let up = current {
                chain.append(up)
                current = tree.layers[up].flatMap { $0.superlayer ?? $0.maskOwner }
            }
            return chain.isEmpty ? nil : chain[random.below(chain.count)]
        }

        /// The depth of `id` (1 for a layer with no way up).
        func depth(_ id: LayerID) -> Int {
            var depth = 1
            var current = tree.layers[id].flatMap { $0.superlayer ?? $0.maskOwner }
            while let up = current {
                depth += 1
                current = tree.layers[up].flatMap { $0.superlayer ?? $0.maskOwner }
            }
            return depth
        }

        /// Takes `id` out of its superlayer's list (as drafted so far).
        mutating func detach(_ id: LayerID) {
            guard let parent = tree.layers[id]?.superlayer else { return }
            setList(parent, list(parent).filter { $0 != id })
        }
    }

    /// Adds one random edit to `draft`: 3 in 4 well-formed (though edits of one commit may clash),
    /// the rest hostile.
    static func randomEdit(_ draft: inout Draft, next: inout LayerID, _ random: inout SplitMix64) {
        let p = draft.any(&random)
        if random.below(4) > 0 {
            switch random.below(12) {
            case 0, 1:  // A new sublayer.
                draft.ops.append(.createLayer(next))
                var list = draft.list(p)
                list.insert(next, at: random.below(list.count + 1))
                draft.setList(p, list)
                next += 1
            case 2:  // A sublayer removed.
                var list = draft.list(p)
                if !list.isEmpty { list.remove(at: random.below(list.count)) }
                draft.setList(p, list)
            case 3, 4:  // A layer moved (under its own subtree makes a cycle).
                guard let c = draft.child(&random) else { return }
                draft.detach(c)
                draft.setList(p, draft.list(p) + [c])
            case 5:  // Sublayers reordered.
                var list = draft.list(p)
                list.shuffle(using: &random)
                draft.setList(p, list)
            case 6:  // A new mask.
                draft.ops += [.createLayer(next), .setMask(p, mask: next)]
                next += 1
            case 7:  // A mask cleared.
                draft.ops.append(.setMask(p, mask: nil))
            case 8:  // A root set or cleared: a new layer, a free one, or none.
                let display = UInt32(random.below(displays))
                switch random.below(3) {
                case 0:
                    draft.ops += [.createLayer(next), .setRoot(display: display, layer: next)]
                    next += 1
                case 1:
                    let layer = draft.tree.layers[p]!
                    if layer.superlayer == nil && layer.maskOwner == nil {
                        draft.ops.append(.setRoot(display: display, layer: p))
                    }
                default: draft.ops.append(.setRoot(display: display, layer: nil))
                }
            case 9:  // A layer destroyed with its references (its sublayers and mask go free).
                guard p != 1 else { return }
                draft.detach(p)
                if let owner = draft.tree.layers[p]?.maskOwner { draft.ops.append(.setMask(owner, mask: nil)) }
                for (display, root) in draft.tree.roots where root == p {
                    draft.ops.append(.setRoot(display: display, layer: nil))
                }
                draft.ops.append(.destroyLayer(p))
            case 10:  // Destroyed and made again: still listed or masking, with no sublayers or mask.
                draft.ops += [.destroyLayer(p), .createLayer(p)]
            default:  // Layers created, the hierarchy untouched.
                draft.ops.append(.createLayer(next))
                next += 1
            }
        } else {
            switch random.below(8) {
            case 0:  // Destroyed while still named.
                draft.ops.append(.destroyLayer(p))
            case 1:  // Listed twice.
                draft.ops.append(.createLayer(next))
                draft.setList(p, draft.list(p) + [next, next])
                next += 1
            case 2:  // An unknown id.
                draft.setList(p, draft.list(p) + [999_999])
            case 3:  // Two superlayers.
                guard let c = draft.child(&random) else { return }
                draft.setList(p, draft.list(p) + [c])
            case 4:  // An ancestor made a sublayer (a cycle).
                guard let a = draft.ancestor(of: p, &random) else { return }
                draft.detach(a)
                draft.setList(p, draft.list(p) + [a])
            case 5:  // A mask that is a sublayer.
                guard let c = draft.child(&random), c != p else { return }
                draft.ops.append(.setMask(p, mask: c))
            case 6:  // An ancestor made the mask (a cycle through a mask).
                guard let a = draft.ancestor(of: p, &random) else { return }
                draft.detach(a)
                draft.ops.append(.setMask(p, mask: a))
            default:  // A subtree moved below the deepest layer (often too deep).
                guard var c = draft.child(&random) else { return }
                while let up = draft.tree.layers[c]?.superlayer, up != 1, random.below(4) > 0 { c = up }
                let deepest = draft.ids.max { draft.depth($0) < draft.depth($1) }!
                draft.detach(c)
                draft.setList(deepest, draft.list(deepest) + [c])
            }
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomCommitsAgree(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var (tree, next) = try Self.randomTree(count: 300, &random)
        var accepted = 0
        var refusedCodes: [ServerErrorCode: Int] = [:]
        var incrementalApplied = 0
        for commit in 0..<400 {
            var draft = Draft(tree)
            for _ in 0..<(1 + random.below(3)) { Self.randomEdit(&draft, next: &next, &random) }
            guard let verdict = Self.agree(tree, draft.ops, "seed \(seed), commit \(commit): \(draft.ops)") else {
                return
            }
            switch verdict {
            case .accepted(let result, let applied):
                accepted += 1
                if applied.lastRelink.incremental { incrementalApplied += 1 }
                tree = result
            case .refused(let full, _):
                refusedCodes[full.code, default: 0] += 1
            }
        }
        // The walk must have met every kind of refusal and accepted many commits, most of them
        // checked incrementally on the server's path.
        #expect(accepted >= 100, "\(accepted) accepted")
        #expect(incrementalApplied >= accepted / 2, "\(incrementalApplied) of \(accepted) incremental")
        for code in [ServerErrorCode.cycle, .invalidValue, .unknownLayer, .limitExceeded] {
            #expect(refusedCodes[code, default: 0] > 0, "no \(code) refusal: \(refusedCodes)")
        }
    }

    // MARK: - Hostile commits, one problem each

    /// 1 → [2, 3], 2 → [4, 5], 3 → [6], 7 masks 4, root 1 on display 0; 8 and 9 free.
    static func smallTree() throws -> RenderTree {
        try RenderTree().applying(
            (1...9).map { .createLayer(LayerID($0)) } + [
                .setSublayers(1, [2, 3]), .setSublayers(2, [4, 5]), .setSublayers(3, [6]),
                .setMask(4, mask: 7), .setRoot(display: 0, layer: 1),
            ], displayCount: displays, relink: .full)
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var label: String
        var ops: [LayerOperation]
        var code: ServerErrorCode
        /// Whether the text is the same whichever layer a check reads first.
        var sameText = true
        var testDescription: String { label }
    }

    static let refusals: [Refusal] = [
        Refusal(label: "unknown sublayer", ops: [.setSublayers(3, [6, 99])], code: .unknownLayer),
        Refusal(label: "own sublayer", ops: [.setSublayers(3, [3])], code: .cycle),
        Refusal(label: "listed twice", ops: [.setSublayers(3, [6, 8, 8])], code: .invalidValue),
        Refusal(label: "two superlayers", ops: [.setSublayers(3, [6, 5])], code: .invalidValue, sameText: false),
        Refusal(
            label: "two new superlayers", ops: [.setSublayers(8, [9]), .setSublayers(6, [9])], code: .invalidValue,
            sameText: false),
        Refusal(label: "sublayer destroyed, list kept", ops: [.destroyLayer(5)], code: .unknownLayer),
        Refusal(label: "root destroyed", ops: [.setSublayers(1, []), .destroyLayer(1)], code: .unknownLayer),
        Refusal(label: "root is a sublayer", ops: [.setRoot(display: 1, layer: 6)], code: .invalidValue),
        Refusal(label: "root listed", ops: [.setSublayers(6, [1])], code: .invalidValue),
        Refusal(
            label: "root listed elsewhere", ops: [.setRoot(display: 1, layer: 8), .setSublayers(6, [8])],
            code: .invalidValue),
        Refusal(
            label: "two-layer cycle", ops: [.setSublayers(8, [9]), .setSublayers(9, [8])], code: .cycle,
            sameText: false),
        Refusal(
            label: "cycle through the tree", ops: [.setSublayers(1, [3]), .setSublayers(4, [2])], code: .cycle,
            sameText: false),
        Refusal(label: "unknown mask", ops: [.setMask(3, mask: 99)], code: .unknownLayer),
        Refusal(label: "mask is a sublayer", ops: [.setMask(3, mask: 5)], code: .invalidValue),
        Refusal(label: "kept mask listed", ops: [.setSublayers(3, [6, 7])], code: .invalidValue),
        Refusal(label: "mask is a root", ops: [.setMask(3, mask: 1)], code: .invalidValue),
        Refusal(label: "kept mask made a root", ops: [.setRoot(display: 1, layer: 7)], code: .invalidValue),
        Refusal(label: "mask of two layers", ops: [.setMask(3, mask: 7)], code: .invalidValue, sameText: false),
        Refusal(
            label: "new mask of two layers", ops: [.setMask(3, mask: 8), .setMask(6, mask: 8)],
            code: .invalidValue, sameText: false),
        Refusal(label: "kept mask destroyed", ops: [.destroyLayer(7)], code: .unknownLayer),
        Refusal(
            label: "ancestor as mask", ops: [.setSublayers(1, [3]), .setMask(5, mask: 2)], code: .cycle,
            sameText: false),
        Refusal(
            label: "kept mask listed by a new layer", ops: [.createLayer(10), .setSublayers(10, [7])],
            code: .invalidValue),
    ]

    @Test(arguments: refusals)
    func hostileCommitsAreRefusedAlike(_ refusal: Refusal) throws {
        let tree = try Self.smallTree()
        guard case .refused(let full, let incremental)? = Self.agree(tree, refusal.ops, refusal.label) else {
            Issue.record("\(refusal.label): not refused alike")
            return
        }
        #expect(full.code == refusal.code, "\(full)")
        #expect(incremental.code == refusal.code, "\(incremental)")
        if refusal.sameText { #expect(incremental == full) }
    }

    /// A chain 1 → … → 256 (root 1) is as deep as allowed (`WireLimits.maxTreeDepth`, 256): one more
    /// layer at its end, or a layer with a sublayer moved to its end, is refused; the same moves one
    /// level up are accepted.
    @Test func depthOverTheLimitIsRefused() throws {
        #expect(WireLimits.maxTreeDepth == 256)
        let ids = (1...256).map { LayerID($0) }
        let chain = try RenderTree().applying(
            ids.map { .createLayer($0) } + (1..<256).map { .setSublayers(LayerID($0), [LayerID($0 + 1)]) } + [
                .createLayer(1000), .createLayer(1001), .setSublayers(1000, [1001]),
                .setRoot(display: 0, layer: 1),
            ], displayCount: Self.displays, relink: .full)
        let cases: [(ops: [LayerOperation], refused: Bool)] = [
            ([.createLayer(2000), .setSublayers(256, [2000])], true),
            ([.createLayer(2000), .setSublayers(255, [256, 2000])], false),
            ([.setSublayers(256, [1000])], true),
            ([.setSublayers(255, [256, 1000])], true),
            ([.setSublayers(254, [255, 1000])], false),
            ([.createLayer(2000), .setMask(256, mask: 2000)], true),
            ([.createLayer(2000), .setMask(255, mask: 2000)], false),
        ]
        for (ops, refused) in cases {
            switch Self.agree(chain, ops, "\(ops)") {
            case .refused(let full, let incremental)?:
                #expect(refused, "\(ops): \(full)")
                #expect(full.code == .limitExceeded && incremental.code == .limitExceeded, "\(full); \(incremental)")
            case .accepted(_, let applied)?:
                #expect(!refused, "\(ops) accepted")
                #expect(applied.lastRelink.incremental)
            case nil: break
            }
        }
    }

    // MARK: - What the check reads

    /// Root 1 over `groups` groups (ids 2…) of 99 leaves each: 1 + 100 × `groups` layers.
    static func grouped(_ groups: Int) throws -> RenderTree {
        let groupIDs = (0..<groups).map { LayerID(2 + $0) }
        var ops: [LayerOperation] = [.createLayer(1)] + groupIDs.map { .createLayer($0) }
        ops.append(.setSublayers(1, groupIDs))
        for (g, group) in groupIDs.enumerated() {
            let leaves = (0..<99).map { LayerID(100_000 + 100 * g + $0) }
            ops += leaves.map { .createLayer($0) } + [.setSublayers(group, leaves)]
        }
        return try RenderTree().applying(ops + [.setRoot(display: 0, layer: 1)], displayCount: displays)
    }

    /// A sublayer added to a leaf of a 10,001-layer tree reads as many layers as on a 1,001-layer
    /// tree, and fewer than 20; the full check of the same commit reads every layer.
    @Test func addingASublayerReadsAFewLayers() throws {
        let small = try Self.grouped(10)
        let large = try Self.grouped(100)
        #expect(small.layers.count == 1_001 && large.layers.count == 10_001)
        // The first commit of a tree is checked in full.
        #expect(large.lastRelink.incremental == false && large.lastRelink.visits >= 10_001)
        let add: [LayerOperation] = [.createLayer(50_000), .setSublayers(100_005, [50_000])]
        let smallAdded = try small.applying(add, displayCount: Self.displays)
        let largeAdded = try large.applying(add, displayCount: Self.displays)
        #expect(largeAdded.layers[50_000]?.superlayer == 100_005)
        #expect(smallAdded.lastRelink.incremental && largeAdded.lastRelink.incremental)
        #expect(largeAdded.lastRelink.visits == smallAdded.lastRelink.visits)
        #expect(largeAdded.lastRelink.visits < 20, "\(largeAdded.lastRelink)")
        let full = try large.applying(add, displayCount: Self.displays, relink: .full)
        #expect(full.lastRelink.incremental == false && full.lastRelink.visits >= 10_002)
        // A commit with no hierarchy change makes no check.
        let moved = try largeAdded.applying([.set(50_000, .opacity(0.5))], displayCount: Self.displays)
        #expect(moved.lastRelink == RelinkCounters())
    }

    /// Moving a group of 99 leaves one level deeper reads its subtree (to check its depth) and the
    /// two lists it changed, not the tree; moving a leaf within its group's list (a reorder) walks
    /// no subtree.
    @Test func movingASubtreeReadsWhatMoved() throws {
        let tree = try Self.grouped(100)
        let groups = (2...101).map { LayerID($0) }
        let deeper = try tree.applying(
            [.setSublayers(1, groups.filter { $0 != 50 }), .setSublayers(100_000, [50])],
            displayCount: Self.displays)
        #expect(deeper.layers[50]?.superlayer == 100_000)
        #expect(deeper.lastRelink.incremental)
        // The root's list before and after (100 + 99), the group and its 99 leaves walked down, the
        // links of the root's entries (100): about 400, not the 10,001 layers.
        #expect(deeper.lastRelink.visits >= 398 && deeper.lastRelink.visits < 500, "\(deeper.lastRelink)")
        let leaves = (0..<99).map { LayerID(100_000 + 100 * 48 + $0) }
        let reordered = try tree.applying([.setSublayers(50, leaves.reversed())], displayCount: Self.displays)
        #expect(reordered.lastRelink.incremental)
        // The list after (1 + 99) and before (99), the root, the links of the layer and its 99
        // entries (100): 300, and no walk.
        #expect(reordered.lastRelink.visits < 3 * 99 + 10, "\(reordered.lastRelink)")
    }
}

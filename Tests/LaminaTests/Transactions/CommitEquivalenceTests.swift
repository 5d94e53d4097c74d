import Foundation
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

@testable import Lamina

// `CAContext.changeOperations()` brings each changed layer's sent record up to date in place
// (`changedLayerOperations`) instead of copying it out and writing a new one back. These tests run
// random sequences of changes (properties with actions on and off, nested transactions, sublayers
// moved, masks set and cleared, layers leaving and rejoining the tree) and check every commit against
// the general diff: each changed layer's property operations are exactly those that
// `LayerProperty.differences` gives between the state sent before and the model, unchanged layers
// send none, the records match the model afterwards, and the server's tree mirrors the client's.

extension SplitMix64 {
    /// A number in 0..<1 from the next 53 bits.
    fileprivate mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// Every layer reachable from `root`, sublayers and masks included.
private func reachable(from root: CALayer) -> [CALayer] {
    var out: [CALayer] = []
    var stack = [root]
    while let layer = stack.popLast() {
        out.append(layer)
        stack += layer.committedSublayers
        if let mask = layer.mask { stack.append(mask) }
    }
    return out
}

/// The layer an operation is about, for the operations a property diff makes.
private func setTarget(_ op: LayerOperation) -> LayerID? {
    if case .set(let id, _) = op { return id }
    return nil
}

@Suite("Commit operations against the general diff", .serialized)
struct CommitEquivalenceTests {
    /// One random change to one of `layers` (all but the root, `layers[0]`).
    private func change(_ layers: [CALayer], _ random: inout SplitMix64) {
        let layer = layers[1 + random.below(layers.count - 1)]
        let isMask = layers.contains { $0.mask === layer }
        switch random.below(14) {
        case 0: layer.position = CGPoint(x: random.unit() * 300, y: random.unit() * 200)
        case 1: layer.opacity = Float(random.unit())
        case 2: layer.bounds = CGRect(x: 0, y: 0, width: random.unit() * 50, height: random.unit() * 50)
        case 3: layer.backgroundColor = CGColor(red: random.unit(), green: 0.5, blue: 0.25, alpha: 1)
        case 4: layer.name = random.below(2) == 0 ? nil : "layer \(random.below(100))"
        case 5: layer.transform = CATransform3DMakeRotation(random.unit(), 0, 0, 1)
        case 6: layer.zPosition = random.unit() * 10
        case 7 where !isMask:
            // Moves the layer under another one that is not below it.
            let parent = layers[random.below(layers.count)]
            var ancestor: CALayer? = parent
            while let a = ancestor, a !== layer { ancestor = a.superlayer }
            if ancestor == nil { parent.addSublayer(layer) }
        case 8 where !isMask:
            // Leaves the tree, or rejoins it under the root.
            if layer.superlayer == nil { layers[0].addSublayer(layer) } else { layer.removeFromSuperlayer() }
        case 9:
            // A mask (a layer in no tree, with no sublayers, so no cycle forms) set, or cleared.
            if layer.mask != nil {
                layer.mask = nil
            } else if let candidate = layers.dropFirst().first(where: { candidate in
                candidate !== layer && candidate.superlayer == nil && candidate.mask == nil
                    && (candidate.sublayers ?? []).isEmpty
                    && !layers.contains { $0.mask === candidate }
            }) {
                layer.mask = candidate
            }
        case 10: layer.cornerRadius = random.unit() * 8
        case 12:
            // Key-value coding of a component: the setter of the whole property, marked as such.
            layer.setValue(random.unit() * 300, forKeyPath: "position.x")
        case 13:
            // A write that goes around the setter (a class default applied in place): every
            // property is compared at the next commit.
            layer.modelState.cornerRadius = random.unit() * 8
            layer.changed()
        default:
            if let shape = layer as? CAShapeLayer {
                shape.lineWidth = random.unit() * 4
            } else {
                layer.isHidden.toggle()
            }
        }
    }

    /// Checks one commit of `context` against the general diff and applies it to `tree`; returns how
    /// many layers changed since they were sent (each compared with the general diff).
    @discardableResult
    private func checkCommit(_ context: CAContext, root: CALayer, tree: inout RenderTree) -> Int {
        var compared = 0
        let sentBefore = context.sent
        let ops = context.changeOperations()
        for layer in reachable(from: root) {
            let id = layer.layerID
            let sets = ops.filter { setTarget($0) == id }
            if let previous = sentBefore[id] {
                if previous.version == layer.version {
                    #expect(sets.isEmpty, "unchanged layer \(id) sent \(sets)")
                } else {
                    compared += 1
                    let general = LayerProperty.differences(from: Optional(previous.state), to: layer.modelState)
                    #expect(sets == CAContext.sendable(general, of: layer), "layer \(id)")
                }
            }
            guard let record = context.sent[id] else {
                Issue.record("layer \(id) has no sent record after the commit")
                continue
            }
            #expect(record.state == layer.modelState, "sent state of layer \(id)")
            #expect(record.version == layer.version, "sent version of layer \(id)")
            #expect(record.sublayers == layer.committedSublayers.map(\.layerID), "sent sublayers of layer \(id)")
            #expect(record.mask == layer.mask?.layerID, "sent mask of layer \(id)")
            #expect(record.layer === layer, "sent layer of \(id)")
        }
        // Animations are AnimationTests' subject; the server's tree must mirror the model.
        let applied = ops.filter { if case .addAnimation = $0 { false } else { true } }
        do {
            tree = try tree.applying(applied, displayCount: 1)
        } catch {
            Issue.record("the server refused the commit: \(error)")
            return compared
        }
        for layer in reachable(from: root) {
            #expect(tree.layers[layer.layerID]?.state == layer.modelState, "server state of \(layer.layerID)")
            #expect(
                tree.layers[layer.layerID]?.sublayers == layer.modelSublayers.map(\.layerID),
                "server sublayers of \(layer.layerID)")
        }
        #expect(tree.layers.count == reachable(from: root).count, "layers left on the server")
        return compared
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func randomCommitsMatchTheGeneralDiff(seed: UInt64) throws {
        try withContext { context, _ in
            var random = SplitMix64(seed: seed)
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
            var layers = [root]
            for i in 0..<14 {
                let layer = i % 4 == 3 ? CAShapeLayer() : CALayer()
                layer.name = "layer \(i)"
                layers[random.below(layers.count)].addSublayer(layer)
                layers.append(layer)
            }
            context.layer = root
            var tree = RenderTree()
            checkCommit(context, root: root, tree: &tree)
            var compared = 0
            for _ in 0..<60 {
                CATransaction.begin()
                CATransaction.setDisableActions(random.below(2) == 0)
                for _ in 0..<random.below(6) { change(layers, &random) }
                if random.below(3) == 0 {
                    CATransaction.begin()
                    CATransaction.setDisableActions(random.below(2) == 0)
                    for _ in 0..<random.below(4) { change(layers, &random) }
                    CATransaction.commit()
                }
                compared += checkCommit(context, root: root, tree: &tree)
                CATransaction.commit()
            }
            // The sequence changed layers the server had in most of its 60 commits: the comparison ran.
            #expect(compared >= 40)
        }
    }

    /// One tree shown by two contexts, committed by one of them or by both: a commit compares only
    /// the properties marked since the layer was last compared (`LayerChangeMarks`), and the marks
    /// that one context's commit cleared must not hide a change from the other, whose record is
    /// older. Each commit of each context matches the general diff.
    @Test(arguments: [UInt64(5), 6, 7])
    func twoContextsShowingOneTreeMatchTheGeneralDiff(seed: UInt64) throws {
        try withContext { context, _ in
            let otherServer = try FakeServer()
            defer { otherServer.stop() }
            let second = try CAContext(socketPath: otherServer.path, clientName: "CommitTests second")
            var random = SplitMix64(seed: seed)
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
            var layers = [root]
            for i in 0..<10 {
                let layer = CALayer()
                layer.name = "layer \(i)"
                layers[random.below(layers.count)].addSublayer(layer)
                layers.append(layer)
            }
            context.layer = root
            second.layer = root
            var trees = [RenderTree(), RenderTree()]
            checkCommit(context, root: root, tree: &trees[0])
            checkCommit(second, root: root, tree: &trees[1])
            var compared = [0, 0]
            for _ in 0..<40 {
                CATransaction.begin()
                CATransaction.setDisableActions(true)
                // The first context compares the layers one to three times (each clearing the marks),
                // then the second, whose records are older by as many rounds of changes.
                for _ in 0..<(1 + random.below(3)) {
                    for _ in 0..<(1 + random.below(4)) { change(layers, &random) }
                    compared[0] += checkCommit(context, root: root, tree: &trees[0])
                }
                compared[1] += checkCommit(second, root: root, tree: &trees[1])
                CATransaction.commit()
            }
            #expect(compared[0] >= 40 && compared[1] >= 30, "compared \(compared)")
            second.layer = nil
        }
    }
}

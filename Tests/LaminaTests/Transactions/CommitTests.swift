import Foundation
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

@testable import Lamina

// Tests of what a commit sends: `CAContext.changeOperations()` diffs the client's layer tree against
// what the server has been sent, and `RenderTree.applying(_:displayCount:)` (the server's side) must
// turn those operations into a tree equal to the client's model. A `CAContext` needs a handshake, so
// these tests run a tiny fake server on a temporary socket: it answers `hello` with `welcome`, then
// applies every transaction it receives to its own `RenderTree`.

/// A layer with a name, so failing expectations print something readable.
private func named(_ name: String) -> CALayer {
    let layer = CALayer()
    layer.name = name
    return layer
}

/// Checks that `tree` holds exactly the client's tree under `root` on display 0: the same ids, the
/// same parent/child links in the same order, and states equal to the layers' models.
private func expectMirrors(_ tree: RenderTree, _ root: CALayer?, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(tree.roots == (root.map { [0: $0.layerID] } ?? [:]), sourceLocation: sourceLocation)
    var visited = 0
    var stack: [(CALayer, LayerID?)] = root.map { [($0, nil)] } ?? []
    while let (layer, parent) = stack.popLast() {
        visited += 1
        guard let rendered = tree.layers[layer.layerID] else {
            Issue.record(
                "layer \(layer.layerID) (\(layer.name ?? "?")) is missing from the render tree",
                sourceLocation: sourceLocation)
            continue
        }
        #expect(rendered.state == layer.modelState, "state of \(layer.name ?? "?")", sourceLocation: sourceLocation)
        #expect(
            rendered.sublayers == layer.modelSublayers.map(\.layerID), "sublayers of \(layer.name ?? "?")",
            sourceLocation: sourceLocation)
        #expect(rendered.superlayer == parent, "superlayer of \(layer.name ?? "?")", sourceLocation: sourceLocation)
        stack += layer.modelSublayers.map { ($0, layer.layerID) }
    }
    // Layers that left the tree were destroyed: nothing else is left on the server.
    #expect(
        tree.layers.count == visited, "render tree has \(tree.layers.count) layers, client tree \(visited)",
        sourceLocation: sourceLocation)
}

/// Diffs `context`, checks the operations apply cleanly to `tree`, and returns them.
@discardableResult
private func commit(
    _ context: CAContext, into tree: inout RenderTree, sourceLocation: SourceLocation = #_sourceLocation
) -> [LayerOperation] {
    // Implicit animations are covered by AnimationTests; these tests look at the property diff.
    let ops = context.changeOperations().filter { if case .addAnimation = $0 { false } else { true } }
    do {
        tree = try tree.applying(ops, displayCount: 1)
    } catch {
        Issue.record("the server refused the commit: \(error)\n\(ops)", sourceLocation: sourceLocation)
    }
    return ops
}

@Suite("Commit operations", .serialized)
struct CommitOperationTests {
    @Test func differencesFromDefaults() {
        #expect(LayerProperty.differences(from: LayerState(), to: LayerState()).isEmpty)
        // A new layer sends the rows every layer has (36, then the shadow's 5, then the filters' 3),
        // plus its class's own.
        #expect(LayerProperty.differences(from: nil, to: LayerState()).count == 44)
        #expect(LayerProperty.differences(from: nil, to: LayerState(layerClass: .shape)).count == 44 + 12)
        #expect(LayerProperty.differences(from: nil, to: LayerState(layerClass: .gradient)).count == 44 + 5)
        #expect(
            LayerProperty.differences(from: LayerState(layerClass: .shape), to: LayerState(layerClass: .shape)).isEmpty)
        var state = LayerState()
        state.opacity = 0.5
        state.name = "x"
        state.borderColor = nil
        #expect(
            LayerProperty.differences(from: LayerState(), to: state) == [.opacity(0.5), .borderColor(nil), .name("x")])
        #expect(
            LayerProperty.differences(from: state, to: LayerState()) == [.opacity(1), .borderColor(.black), .name(nil)])
    }

    @Test func differencesThenApplyReproducesTheState() {
        var target = LayerState()
        target.bounds = CGRect(x: 1, y: 2, width: 3, height: 4)
        target.position = CGPoint(x: 5, y: 6)
        target.anchorPoint = CGPoint(x: 0, y: 1)
        target.anchorPointZ = 2
        target.zPosition = -1
        target.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        target.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        target.opacity = 0.75
        target.isHidden = true
        target.backgroundColor = RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)
        target.cornerRadius = 8
        target.maskedCorners = [.layerMinXMinYCorner]
        target.borderWidth = 2
        target.borderColor = nil
        target.masksToBounds = true
        target.name = "target"
        let properties = LayerProperty.differences(from: LayerState(), to: target)
        #expect(properties.count == 16)
        var rebuilt = LayerState()
        for property in properties { property.apply(to: &rebuilt) }
        #expect(rebuilt == target)
    }

    @Test func firstCommitCreatesTheWholeTree() throws {
        try withContext { context, _ in
            let root = named("root"), a = named("a"), b = named("b"), c = named("c")
            root.bounds = CGRect(x: 0, y: 0, width: 640, height: 480)
            a.opacity = 0.5
            c.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
            root.addSublayer(a)
            root.addSublayer(b)
            a.addSublayer(c)
            context.layer = root

            let ops = context.changeOperations()
            // Depth first, parents before children, each layer's properties in wire-code order.
            let expected: [LayerOperation] = [
                .createLayer(root.layerID),
                .set(root.layerID, .bounds(CGRect(x: 0, y: 0, width: 640, height: 480))),
                .set(root.layerID, .name("root")),
                .setSublayers(root.layerID, [a.layerID, b.layerID]),
                .createLayer(a.layerID),
                .set(a.layerID, .opacity(0.5)),
                .set(a.layerID, .name("a")),
                .setSublayers(a.layerID, [c.layerID]),
                .createLayer(c.layerID),
                .set(c.layerID, .backgroundColor(RGBAColor(red: 0, green: 1, blue: 0, alpha: 1))),
                .set(c.layerID, .name("c")),
                .createLayer(b.layerID),
                .set(b.layerID, .name("b")),
                .setRoot(display: 0, layer: root.layerID),
            ]
            #expect(ops == expected)

            let tree = try RenderTree().applying(ops, displayCount: 1)
            expectMirrors(tree, root)
            #expect(tree.layers[c.layerID]?.superlayer == a.layerID)
            #expect(tree.layers[root.layerID]?.superlayer == nil)

            // Nothing changed since: nothing to send.
            #expect(context.changeOperations().isEmpty)
        }
    }

    @Test func noRootSendsNothing() throws {
        try withContext { context, _ in
            #expect(context.changeOperations().isEmpty)
            _ = named("unattached")
            #expect(context.changeOperations().isEmpty)
        }
    }

    @Test func onlyChangedPropertiesAreSent() throws {
        try withContext { context, _ in
            let root = named("root"), a = named("a"), b = named("b")
            root.sublayers = [a, b]
            context.layer = root
            var tree = RenderTree()
            commit(context, into: &tree)

            a.opacity = 0.25
            a.position = CGPoint(x: 3, y: 4)
            #expect(
                commit(context, into: &tree) == [
                    .set(a.layerID, .position(CGPoint(x: 3, y: 4))), .set(a.layerID, .opacity(0.25)),
                ])

            // Changed and changed back: the version moved, the values did not; nothing is sent.
            b.cornerRadius = 5
            b.cornerRadius = 0
            b.name = "b"
            #expect(commit(context, into: &tree).isEmpty)

            // Changes to a layer outside the tree are not sent.
            named("outside").opacity = 0
            #expect(commit(context, into: &tree).isEmpty)

            b.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
            let ops = commit(context, into: &tree)
            #expect(
                ops == [
                    .set(b.layerID, .bounds(CGRect(x: 0, y: 0, width: 30, height: 40))),
                    .set(b.layerID, .position(CGPoint(x: 25, y: 40))),
                ])
            expectMirrors(tree, root)
        }
    }

    @Test func movingALayerSendsBothSublayerListsAndNoCreate() throws {
        try withContext { context, _ in
            let root = named("root"), a = named("a"), b = named("b"), c = named("c")
            root.sublayers = [a, b]
            a.addSublayer(c)
            context.layer = root
            var tree = RenderTree()
            commit(context, into: &tree)

            b.addSublayer(c)
            let ops = commit(context, into: &tree)
            #expect(ops == [.setSublayers(a.layerID, []), .setSublayers(b.layerID, [c.layerID])])
            expectMirrors(tree, root)
            #expect(tree.layers[c.layerID]?.superlayer == b.layerID)
        }
    }

    @Test func reorderingSendsOneSublayerList() throws {
        try withContext { context, _ in
            let root = named("root"), a = named("a"), b = named("b"), c = named("c")
            root.sublayers = [a, b, c]
            context.layer = root
            var tree = RenderTree()
            commit(context, into: &tree)

            root.insertSublayer(a, above: c)
            #expect(commit(context, into: &tree) == [.setSublayers(root.layerID, [b.layerID, c.layerID, a.layerID])])
            expectMirrors(tree, root)

            // Removed and put back in the same place before the commit: the list is unchanged.
            b.removeFromSuperlayer()
            root.insertSublayer(b, at: 0)
            #expect(commit(context, into: &tree).isEmpty)
            expectMirrors(tree, root)
        }
    }

    @Test func removedSubtreesAreDestroyed() throws {
        try withContext { context, _ in
            let root = named("root"), a = named("a"), b = named("b"), c = named("c")
            root.sublayers = [a, b]
            a.addSublayer(c)
            context.layer = root
            var tree = RenderTree()
            commit(context, into: &tree)
            #expect(tree.layers.count == 4)

            a.removeFromSuperlayer()
            let ops = commit(context, into: &tree)
            #expect(
                canonical(ops)
                    == canonical([
                        .setSublayers(root.layerID, [b.layerID]), .destroyLayer(a.layerID), .destroyLayer(c.layerID),
                    ]))
            expectMirrors(tree, root)
            #expect(tree.layers.count == 2)

            // Changed while detached, then re-added: created again with its whole state.
            a.opacity = 0.5
            c.zPosition = 3
            root.addSublayer(a)
            let again = commit(context, into: &tree)
            #expect(
                again == [
                    .setSublayers(root.layerID, [b.layerID, a.layerID]),
                    .createLayer(a.layerID), .set(a.layerID, .opacity(0.5)), .set(a.layerID, .name("a")),
                    .setSublayers(a.layerID, [c.layerID]),
                    .createLayer(c.layerID), .set(c.layerID, .zPosition(3)), .set(c.layerID, .name("c")),
                ])
            expectMirrors(tree, root)
        }
    }

    @Test func movingALayerOutOfTheTreeDestroysIt() throws {
        try withContext { context, _ in
            let root = named("root"), a = named("a")
            root.addSublayer(a)
            context.layer = root
            var tree = RenderTree()
            commit(context, into: &tree)

            let elsewhere = named("elsewhere")
            elsewhere.addSublayer(a)
            #expect(commit(context, into: &tree) == [.setSublayers(root.layerID, []), .destroyLayer(a.layerID)])
            expectMirrors(tree, root)
        }
    }

    @Test func replacingTheSublayersAndReplacingOne() throws {
        try withContext { context, _ in
            let root = named("root"), a = named("a"), b = named("b")
            root.sublayers = [a, b]
            context.layer = root
            var tree = RenderTree()
            commit(context, into: &tree)

            let x = named("x")
            root.replaceSublayer(a, with: x)
            #expect(
                commit(context, into: &tree) == [
                    .setSublayers(root.layerID, [x.layerID, b.layerID]),
                    .createLayer(x.layerID), .set(x.layerID, .name("x")), .destroyLayer(a.layerID),
                ])
            expectMirrors(tree, root)

            let y = named("y")
            root.sublayers = [y, x]
            #expect(
                commit(context, into: &tree) == [
                    .setSublayers(root.layerID, [y.layerID, x.layerID]),
                    .createLayer(y.layerID), .set(y.layerID, .name("y")), .destroyLayer(b.layerID),
                ])
            expectMirrors(tree, root)
        }
    }

    @Test func changingTheRoot() throws {
        try withContext { context, _ in
            let first = named("first"), child = named("child"), second = named("second")
            first.addSublayer(child)
            context.layer = first
            var tree = RenderTree()
            commit(context, into: &tree)

            // The old root's child becomes part of the new root; the old root goes.
            second.addSublayer(child)
            context.layer = second
            #expect(
                commit(context, into: &tree) == [
                    .createLayer(second.layerID), .set(second.layerID, .name("second")),
                    .setSublayers(second.layerID, [child.layerID]),
                    .setRoot(display: 0, layer: second.layerID),
                    .destroyLayer(first.layerID),
                ])
            expectMirrors(tree, second)

            // Setting the same root again sends nothing.
            context.layer = second
            #expect(commit(context, into: &tree).isEmpty)

            // No root: everything goes.
            context.layer = nil
            #expect(
                canonical(commit(context, into: &tree))
                    == canonical([
                        .setRoot(display: 0, layer: nil), .destroyLayer(second.layerID), .destroyLayer(child.layerID),
                    ]))
            expectMirrors(tree, nil)
            #expect(tree.layers.isEmpty)

            // And back: a fresh create, since the server forgot the layers.
            context.layer = second
            commit(context, into: &tree)
            expectMirrors(tree, second)
        }
    }

    @Test func aRootThatHasAClientSuperlayerIsSentAsARoot() throws {
        try withContext { context, _ in
            let outer = named("outer"), inner = named("inner"), leaf = named("leaf")
            outer.addSublayer(inner)
            inner.addSublayer(leaf)
            context.layer = inner
            var tree = RenderTree()
            commit(context, into: &tree)
            #expect(tree.layers[outer.layerID] == nil)
            #expect(tree.roots == [0: inner.layerID])
            #expect(tree.layers[inner.layerID]?.superlayer == nil)
            #expect(tree.layers[leaf.layerID]?.superlayer == inner.layerID)
        }
    }

    /// Random edits to a pool of layers; after each batch the diff must apply cleanly and leave the
    /// server's tree equal to the client's.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomEditsStayInSync(_ seed: UInt64) throws {
        try withContext { context, _ in
            var rng = SplitMix64(seed: seed)
            let pool = (0..<12).map { named("l\($0)") }
            let roots = [pool[0], pool[1]]
            context.layer = roots[0]
            var tree = RenderTree()
            for _ in 0..<40 {
                for _ in 0..<rng.below(6) + 1 {
                    let layer = pool[rng.below(pool.count)]
                    let other = pool[rng.below(pool.count)]
                    let third = pool[rng.below(pool.count)]
                    switch rng.below(12) {
                    case 0, 1: other.addSublayer(layer)
                    case 2: other.insertSublayer(layer, at: UInt32(rng.below(5)))
                    case 3: other.insertSublayer(layer, above: third)
                    case 4: other.insertSublayer(layer, below: third)
                    case 5: layer.removeFromSuperlayer()
                    case 6: other.replaceSublayer(third, with: layer)
                    case 7: other.sublayers = [layer, third]
                    case 8: layer.opacity = Float(rng.below(5)) / 4
                    case 9: layer.bounds = CGRect(x: 0, y: 0, width: rng.below(100), height: rng.below(100))
                    case 10: layer.zPosition = CGFloat(rng.below(3))
                    default: context.layer = rng.below(4) == 0 ? nil : roots[rng.below(2)]
                    }
                }
                let ops = commit(context, into: &tree)
                expectMirrors(tree, context.layer)
                // Every create is for a layer not yet on the server, every destroy for one that was.
                #expect(
                    Set(ops.compactMap { if case .createLayer(let id, _) = $0 { id } else { nil } }).count
                        == ops.filter { if case .createLayer = $0 { true } else { false } }.count)
            }
        }
    }

    /// The real send path: `commitChanges()` (what `CATransaction.flush()` calls for every live context)
    /// sends, the fake server decodes and applies what arrives. `flush()` itself is not called: it is
    /// global, and would commit other tests' contexts (or do nothing while another test holds an
    /// explicit transaction open).
    @Test func commitSendsOneTransactionThatTheServerApplies() throws {
        try withContext { context, server in
            let root = named("root")
            root.bounds = CGRect(x: 0, y: 0, width: 64, height: 48)
            root.addSublayer(named("child"))
            context.layer = root
            context.commitChanges()
            let first = try #require(server.waitForCommits(1))
            #expect(first.failure == nil)
            #expect(first.serials == [1])
            expectMirrors(first.tree, root)

            root.sublayers![0].opacity = 0.5
            context.commitChanges()
            // No changes: no transaction.
            context.commitChanges()
            let second = try #require(server.waitForCommits(2))
            #expect(second.failure == nil)
            #expect(second.serials == [1, 2])
            expectMirrors(second.tree, root)
        }
    }

    /// A transaction larger than one message travels in parts and is applied as one.
    @Test func largeTransactionsAreSplitIntoParts() throws {
        try withContext { context, server in
            let root = named("root")
            for i in 0..<3000 {
                let layer = CALayer()
                layer.name = String(repeating: "n", count: 20) + "\(i)"
                layer.bounds = CGRect(x: 0, y: 0, width: i, height: i)
                root.addSublayer(layer)
            }
            context.layer = root
            context.commitChanges()
            let result = try #require(server.waitForCommits(1, timeout: 30))
            #expect(result.failure == nil)
            #expect(result.parts.count == 1)
            #expect((result.parts.first ?? 0) > 1, "expected several messages, got \(result.parts)")
            expectMirrors(result.tree, root)
        }
    }
}

/// `ops` with the trailing destroys sorted by id: `changeOperations()` emits them in dictionary order,
/// which is not specified (and does not matter to the server).
private func canonical(_ ops: [LayerOperation]) -> [LayerOperation] {
    func destroyed(_ op: LayerOperation) -> LayerID? { if case .destroyLayer(let id) = op { id } else { nil } }
    let rest = ops.filter { destroyed($0) == nil }
    return rest + ops.compactMap(destroyed).sorted().map { .destroyLayer($0) }
}

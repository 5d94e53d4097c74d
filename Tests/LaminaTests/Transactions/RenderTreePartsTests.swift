import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

@testable import Lamina

// The server applies a transaction that came in parts (`transactionPart`s, then the `commit`) by
// reading the parts in place (`RenderTree.applying(parts:displayCount:)`), where it used to join them
// into one list first. These tests split random transactions, refused ones among them (unknown
// layers, a property of another class, invalid values, unknown images, cycles), into random parts
// and check that the parts give what the joined list gives: the same tree, change log included, or
// the same error.

@Suite("Transactions applied part by part")
struct RenderTreePartsTests {
    /// One random operation on layers 1...8.
    private func operation(_ random: inout SplitMix64) -> LayerOperation {
        let id = LayerID(1 + random.below(8))
        switch random.below(12) {
        case 0, 1: return .createLayer(id, random.below(3) == 0 ? .shape : .layer)
        case 2: return .destroyLayer(id)
        case 3: return .set(id, .position(CGPoint(x: Double(random.below(100)), y: 2)))
        case 4: return .set(id, .opacity(random.below(6) == 0 ? .nan : 0.5))
        case 5: return .set(id, .lineWidth(Double(random.below(4))))
        case 6: return .set(id, .beginTime(Double(random.below(3))))
        case 7: return .set(id, .contents(random.below(4) == 0 ? 99 : 0))
        case 8: return .setSublayers(id, [LayerID(1 + random.below(8))])
        case 9: return .setSublayers(id, [])
        case 10: return .setRoot(display: 0, layer: id)
        default: return .set(id, .zPosition(Double(random.below(5))))
        }
    }

    /// `operations` cut at random places into parts (empty parts among them).
    private func parts(of operations: [LayerOperation], _ random: inout SplitMix64) -> [[LayerOperation]] {
        var parts: [[LayerOperation]] = [[]]
        for op in operations {
            if random.below(4) == 0 { parts.append([]) }
            parts[parts.count - 1].append(op)
        }
        if random.below(2) == 0 { parts.append([]) }
        return parts
    }

    /// Checks that `a` and `b` hold the same layers, roots, revision and changes since `start`.
    private func expectSame(_ a: RenderTree, _ b: RenderTree, since start: UInt64) {
        #expect(a.roots == b.roots)
        #expect(a.revision == b.revision)
        #expect(a.changes(since: start) == b.changes(since: start))
        #expect(Set(a.layers.keys) == Set(b.layers.keys))
        for (id, layer) in a.layers {
            let other = b.layers[id]
            #expect(other?.state == layer.state, "state of layer \(id)")
            #expect(other?.sublayers == layer.sublayers, "sublayers of layer \(id)")
            #expect(other?.superlayer == layer.superlayer, "superlayer of layer \(id)")
        }
    }

    @Test(arguments: [UInt64(21), 22, 23, 24])
    func partsGiveWhatTheJoinedListGives(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var tree = RenderTree()
        var applied = 0
        var refused = 0
        for _ in 0..<300 {
            let operations = (0..<1 + random.below(8)).map { _ in operation(&random) }
            let split = parts(of: operations, &random)
            let joined = Result { () throws(TransactionError) -> RenderTree in
                try tree.applying(operations, displayCount: 1)
            }
            let byParts = Result { () throws(TransactionError) -> RenderTree in
                try tree.applying(parts: split, displayCount: 1)
            }
            switch (joined, byParts) {
            case (.success(let a), .success(let b)):
                expectSame(a, b, since: tree.revision)
                tree = a
                applied += 1
            case (.failure(let a), .failure(let b)):
                #expect(a == b)
                refused += 1
            default:
                Issue.record("joined: \(joined), by parts: \(byParts)")
            }
        }
        // Both outcomes were exercised.
        #expect(applied >= 15)
        #expect(refused >= 30)
    }
}

import Foundation
import LaminaCore
import LaminaProtocol
import LaminaTesting
import Testing

@testable import LaminaServer

/// `LayerTable`: a render tree's layers in chunked slots that a commit copies only where it writes
/// (docs/rendering.md, "Retained frames": commits cost what they change).
@Suite("Layer table")
struct LayerTableTests {
    /// A tree of a root and `count` sublayers, shown on display 0.
    static func tree(sublayers count: Int) throws -> RenderTree {
        let children = (0..<count).map { LayerID($0 + 2) }
        return try RenderTree().applying(
            [.createLayer(1)] + children.map { .createLayer($0) } + [
                .setSublayers(1, children), .setRoot(display: 0, layer: 1),
            ], displayCount: 1)
    }

    @Test func aCommitThatMovesOneLayerCopiesOneChunkOfTheTreeBefore() throws {
        let before = try Self.tree(sublayers: 10_000)
        let chunks = before.layers.chunkCount
        #expect(chunks == (10_001 + LayerTable.chunkSize - 1) / LayerTable.chunkSize)
        let after = try before.applying([.set(5_002, .position(CGPoint(x: 7, y: 9)))], displayCount: 1)
        // One chunk written, every other one still the tree before's storage.
        #expect(after.layers.chunksShared(with: before.layers) == chunks - 1)
        #expect(after.layers[5_002]?.state.position == CGPoint(x: 7, y: 9))
        #expect(before.layers[5_002]?.state.position == .zero)
        #expect(after.layers[5_003]?.state.position == .zero)
    }

    @Test func aHierarchyCommitCopiesOnlyTheChunksWhoseLinksChanged() throws {
        let before = try Self.tree(sublayers: 1_000)
        let chunks = before.layers.chunkCount
        // Layer 2000 joins as the last sublayer of layer 2: the links of two layers change (and the
        // new layer lands in a free slot of the last chunk).
        let after = try before.applying(
            [.createLayer(2_000), .setSublayers(2, [2_000])], displayCount: 1)
        #expect(after.layers.chunkCount == chunks)
        #expect(after.layers.chunksShared(with: before.layers) == chunks - 2)
        #expect(after.layers[2_000]?.superlayer == 2)
        #expect(after.layers[2]?.sublayers == [2_000])
        #expect(before.layers[2_000] == nil)
    }

    @Test func removedLayersGiveTheirSlotsBack() throws {
        var table = LayerTable()
        for id in 1...LayerID(LayerTable.chunkSize) { table[id] = RenderLayer() }
        #expect(table.chunkCount == 1 && table.count == LayerTable.chunkSize)
        table[3] = nil
        #expect(table.removeValue(forKey: 4) != nil)
        #expect(table.removeValue(forKey: 4) == nil)
        #expect(table.count == LayerTable.chunkSize - 2 && table[3] == nil && table[4] == nil)
        table[100] = RenderLayer(superlayer: 1)
        table[101] = RenderLayer(superlayer: 2)
        // The two freed slots were reused: still one chunk.
        #expect(table.chunkCount == 1 && table.count == LayerTable.chunkSize)
        #expect(table[100]?.superlayer == 1 && table[101]?.superlayer == 2)
        table[LayerID(1_000)] = RenderLayer()
        #expect(table.chunkCount == 2)
        // Iteration gives each layer once, with its id.
        let seen = Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value.superlayer) })
        #expect(seen.count == table.count && seen[100] == 1 && seen[101] == 2 && seen[3] == nil)
        #expect(Array(table.values).count == table.count)
        #expect(Set(table.keys) == Set(seen.keys))
    }

    @Test func writesInPlaceChangeOnlyTheirOwnTable() {
        var a: LayerTable = [1: RenderLayer(), 2: RenderLayer()]
        let b = a
        a[1]!.state.opacity = 0.25
        a[2]!.sublayers.append(9)
        #expect(a[1]?.state.opacity == 0.25 && b[1]?.state.opacity == 1)
        #expect(a[2]?.sublayers == [9] && b[2]?.sublayers == [])
    }

    /// `subscript(slot:)` and `address(ofSlot:)` read a layer where its chunk holds it (no copy):
    /// every layer read by the slot `slot(of:)` gives is the one read by id, with its references
    /// (sublayer lists, names, animations) intact, through removals, reused slots and copies that
    /// later diverge.
    @Test func readsBySlotAreTheLayersReadById() throws {
        var table = LayerTable()
        var random = SplitMix64(seed: 19)
        for id in 1...LayerID(200) {
            var layer = RenderLayer(superlayer: id / 2)
            layer.sublayers = (0..<(id % 5)).map { LayerID($0) + id * 10 }
            layer.state.name = "layer \(id)"
            layer.state.opacity = Float(id) / 200
            table[id] = layer
        }
        for _ in 0..<100 {
            let id = LayerID(1 + random.next() % 200)
            if random.next() % 3 == 0 { table[id] = nil } else if table[id] != nil { table[id]!.state.opacity /= 2 }
        }
        let before = table
        for id in 201...LayerID(260) { table[id] = RenderLayer(superlayer: 1) }  // Reuses the freed slots.
        table[5]?.sublayers = [1, 2, 3]
        for (layers, name) in [(table, "after"), (before, "before")] {
            for id in layers.keys {
                let slot = try #require(layers.slot(of: id))
                let byId = try #require(layers[id])
                #expect(layers[slot: slot].superlayer == byId.superlayer, "\(name) \(id)")
                #expect(layers[slot: slot].sublayers == byId.sublayers, "\(name) \(id)")
                #expect(layers[slot: slot].state.name == byId.state.name, "\(name) \(id)")
                #expect(layers[slot: slot].state.opacity == byId.state.opacity, "\(name) \(id)")
                // The address the builder presents sublayers from is the same layer's.
                let address = layers.address(ofSlot: slot)
                #expect(address.pointee.sublayers == byId.sublayers, "\(name) \(id)")
                #expect(address.pointee.state.name == byId.state.name, "\(name) \(id)")
                #expect(address.pointee.state.opacity == byId.state.opacity, "\(name) \(id)")
            }
        }
        #expect(before[5]?.sublayers != [1, 2, 3] || before[5] == nil)
    }
}

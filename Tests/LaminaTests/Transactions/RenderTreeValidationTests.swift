import Foundation
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

@testable import Lamina

@Suite("RenderTree validation")
struct RenderTreeValidationTests {
    /// Creates layers `ids` with no parent.
    static func create(_ ids: [LayerID]) -> [LayerOperation] { ids.map { .createLayer($0) } }

    /// A valid tree: 1 → [2, 3], 2 → [4], root 1 on display 0.
    static func baseTree() throws -> RenderTree {
        try RenderTree().applying(
            create([1, 2, 3, 4]) + [
                .setSublayers(1, [2, 3]), .setSublayers(2, [4]),
                .set(2, .opacity(0.5)), .setRoot(display: 0, layer: 1),
            ], displayCount: 1)
    }

    @Test func validTreeIsLinked() throws {
        let tree = try Self.baseTree()
        #expect(tree.roots == [0: 1])
        #expect(tree.layers.count == 4)
        #expect(tree.layers[1]?.superlayer == nil)
        #expect(tree.layers[2]?.superlayer == 1)
        #expect(tree.layers[3]?.superlayer == 1)
        #expect(tree.layers[4]?.superlayer == 2)
        #expect(tree.layers[1]?.sublayers == [2, 3])
        #expect(tree.layers[2]?.state.opacity == 0.5)
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var label: String
        var ops: [LayerOperation]
        var code: ServerErrorCode
        var displayCount = 1
        var testDescription: String { label }
    }

    static let refusals: [Refusal] = [
        Refusal(
            label: "two-layer cycle", ops: create([10, 11]) + [.setSublayers(10, [11]), .setSublayers(11, [10])],
            code: .cycle),
        Refusal(
            label: "three-layer cycle",
            ops: create([10, 11, 12]) + [.setSublayers(10, [11]), .setSublayers(11, [12]), .setSublayers(12, [10])],
            code: .cycle),
        Refusal(
            label: "cycle through the existing tree", ops: [.setSublayers(1, [3]), .setSublayers(4, [2])],
            code: .cycle),
        Refusal(label: "own sublayer", ops: [.setSublayers(3, [3])], code: .cycle),
        Refusal(
            label: "two parents", ops: create([10]) + [.setSublayers(3, [10]), .setSublayers(4, [10])],
            code: .invalidValue),
        Refusal(label: "two parents with the existing tree", ops: [.setSublayers(3, [4])], code: .invalidValue),
        Refusal(label: "listed twice", ops: create([10]) + [.setSublayers(3, [10, 10])], code: .invalidValue),
        Refusal(label: "unknown sublayer id", ops: [.setSublayers(3, [99])], code: .unknownLayer),
        Refusal(label: "unknown parent id", ops: [.setSublayers(99, [])], code: .unknownLayer),
        Refusal(label: "set on unknown id", ops: [.set(99, .opacity(1))], code: .unknownLayer),
        Refusal(label: "destroy unknown id", ops: [.destroyLayer(99)], code: .unknownLayer),
        Refusal(label: "destroy a layer still listed", ops: [.destroyLayer(4)], code: .unknownLayer),
        Refusal(label: "destroy the root", ops: [.setSublayers(1, []), .destroyLayer(1)], code: .unknownLayer),
        Refusal(label: "root unknown", ops: [.setRoot(display: 0, layer: 99)], code: .unknownLayer),
        Refusal(label: "root is a sublayer", ops: [.setRoot(display: 0, layer: 4)], code: .invalidValue),
        Refusal(label: "duplicate create", ops: create([10, 10]), code: .duplicateLayer),
        Refusal(label: "create an existing id", ops: create([2]), code: .duplicateLayer),
        Refusal(label: "id 0", ops: create([0]), code: .invalidValue),
        Refusal(
            label: "NaN bounds", ops: [.set(2, .bounds(CGRect(x: 0, y: 0, width: CGFloat.nan, height: 1)))],
            code: .invalidValue),
        Refusal(
            label: "infinite position", ops: [.set(2, .position(CGPoint(x: CGFloat.infinity, y: 0)))],
            code: .invalidValue),
        Refusal(
            label: "negative size", ops: [.set(2, .bounds(CGRect(x: 0, y: 0, width: -1, height: 1)))],
            code: .invalidValue),
        Refusal(label: "NaN opacity", ops: [.set(2, .opacity(Float.nan))], code: .invalidValue),
        Refusal(
            label: "colour out of range",
            ops: [.set(2, .backgroundColor(RGBAColor(red: 2, green: 0, blue: 0, alpha: 1)))], code: .invalidValue),
        Refusal(label: "root on display 1 of 1", ops: [.setRoot(display: 1, layer: 3)], code: .badDisplay),
        Refusal(label: "clearing display 5 of 1", ops: [.setRoot(display: 5, layer: nil)], code: .badDisplay),
    ]

    @Test(arguments: refusals)
    func refusedTransactionsLeaveTheTreeAlone(_ refusal: Refusal) throws {
        let original = try Self.baseTree()
        // A valid edit first, so a refusal that half-applied would show.
        let ops: [LayerOperation] = [.set(3, .opacity(0.25)), .setSublayers(1, [3, 2])] + refusal.ops
        let error = #expect(throws: TransactionError.self) {
            _ = try original.applying(ops, displayCount: refusal.displayCount)
        }
        #expect(error?.code == refusal.code, "\(String(describing: error))")
        // Value semantics: the original is untouched.
        let fresh = try Self.baseTree()
        #expect(original.roots == fresh.roots)
        #expect(original.layers.count == fresh.layers.count)
        for (id, layer) in fresh.layers {
            #expect(original.layers[id]?.state == layer.state)
            #expect(original.layers[id]?.sublayers == layer.sublayers)
            #expect(original.layers[id]?.superlayer == layer.superlayer)
        }
        #expect(original.layers[3]?.state.opacity == 1)
        #expect(original.layers[1]?.sublayers == [2, 3])
    }

    /// A chain of `count` layers, 1 → 2 → … → count.
    static func chain(_ count: Int) -> [LayerOperation] {
        let ids = (1...count).map { LayerID($0) }
        return create(ids) + (1..<count).map { .setSublayers(LayerID($0), [LayerID($0 + 1)]) }
            + [.setRoot(display: 0, layer: 1)]
    }

    @Test func depthLimit() throws {
        #expect(WireLimits.maxTreeDepth == 256)
        let deepest = try RenderTree().applying(Self.chain(256), displayCount: 1)
        #expect(deepest.layers.count == 256)
        #expect(deepest.layers[256]?.superlayer == 255)
        let error = #expect(throws: TransactionError.self) {
            _ = try RenderTree().applying(Self.chain(257), displayCount: 1)
        }
        #expect(error?.code == .limitExceeded)
        // Growing an accepted chain past the limit is refused too, and leaves it as it was.
        let grow: [LayerOperation] = [.createLayer(257), .setSublayers(256, [257])]
        let growError = #expect(throws: TransactionError.self) { _ = try deepest.applying(grow, displayCount: 1) }
        #expect(growError?.code == .limitExceeded)
        #expect(deepest.layers.count == 256)
        #expect(deepest.layers[256]?.sublayers == [])
    }

    @Test func destroyingALayerAndItsReferencesTogetherIsAccepted() throws {
        let tree = try Self.baseTree().applying([.setSublayers(2, []), .destroyLayer(4)], displayCount: 1)
        #expect(tree.layers[4] == nil)
        #expect(tree.layers[2]?.sublayers == [])
        #expect(tree.layers.count == 3)
    }

    @Test func opacityIsClampedOnApply() throws {
        let tree = try Self.baseTree().applying([.set(2, .opacity(1.5)), .set(3, .opacity(-1))], displayCount: 1)
        #expect(tree.layers[2]?.state.opacity == 1)
        #expect(tree.layers[3]?.state.opacity == 0)
    }
}

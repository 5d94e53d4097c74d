import Foundation
import Lamina
import LaminaProtocol
import LaminaServer
import Testing

/// `setMask` (operation 10) on the server's tree: the link both ways, and every refusal with its
/// error code and text. A mask is in no sublayer list and no root (Apple: a mask "must not have a
/// superlayer"), masks one layer, and is neither the layer nor one of its ancestors.
@Suite struct RenderTreeMaskTests {
    /// 1 → [2, 3], 2 → [4], root 1; layer 5 free.
    static func tree() throws -> RenderTree {
        try RenderTree().applying(
            (1...5).map { .createLayer(LayerID($0)) } + [
                .setSublayers(1, [2, 3]), .setSublayers(2, [4]), .setRoot(display: 0, layer: 1),
            ], displayCount: 1)
    }

    @Test func maskIsLinkedBothWaysAndUnlinked() throws {
        let masked = try Self.tree().applying([.setMask(2, mask: 5)], displayCount: 1)
        #expect(masked.layers[2]?.mask == 5)
        #expect(masked.layers[5]?.maskOwner == 2)
        #expect(masked.layers[5]?.superlayer == nil)
        let cleared = try masked.applying([.setMask(2, mask: nil)], displayCount: 1)
        #expect(cleared.layers[2]?.mask == nil)
        #expect(cleared.layers[5]?.maskOwner == nil)
        // Unlinked and destroyed in one transaction.
        let gone = try masked.applying([.setMask(2, mask: nil), .destroyLayer(5)], displayCount: 1)
        #expect(gone.layers[5] == nil)
    }

    static let refusals: [(label: String, ops: [LayerOperation], code: ServerErrorCode, text: String)] = [
        ("unknown layer", [.setMask(99, mask: 5)], .unknownLayer, "unknown layer id 99"),
        ("unknown mask", [.setMask(2, mask: 99)], .unknownLayer, "unknown layer id 99"),
        ("own mask", [.setMask(2, mask: 2)], .cycle, "cycle in the layer tree: layer 2 is its own mask"),
        (
            "mask is an ancestor", [.setMask(4, mask: 1), .setRoot(display: 0, layer: nil)], .cycle,
            "cycle in the layer tree: layer"
        ),
        (
            "mask is a sublayer", [.setMask(2, mask: 3)], .invalidValue,
            "invalid value: mask layer 3 of 2 is a sublayer of 1"
        ),
        ("mask is a root", [.setMask(5, mask: 1)], .invalidValue, "invalid value: mask layer 1 of 5 is a root layer"),
        (
            "mask of two layers", [.setMask(3, mask: 5), .setMask(4, mask: 5)], .invalidValue,
            "invalid value: layer 5 is the mask of both"
        ),
        ("mask destroyed while linked", [.setMask(2, mask: 5), .destroyLayer(5)], .unknownLayer, "unknown layer id 5"),
        (
            "mask later listed as a sublayer", [.setMask(2, mask: 5), .setSublayers(3, [5])], .invalidValue,
            "invalid value: mask layer 5 of 2 is a sublayer of 3"
        ),
    ]

    @Test func refusalsNameTheirProblem() throws {
        let tree = try Self.tree()
        for refusal in Self.refusals {
            let error = #expect(throws: TransactionError.self, "\(refusal.label)") {
                _ = try tree.applying(refusal.ops, displayCount: 1)
            }
            #expect(error?.code == refusal.code, "\(refusal.label): \(String(describing: error))")
            #expect(
                error.map { "\($0)".hasPrefix(refusal.text) } == true,
                "\(refusal.label): \(String(describing: error))")
        }
    }

    /// `laminactl tree` shows a mask below its owner's sublayers, marked as one.
    @Test func treeDescriptionShowsTheMask() throws {
        let masked = try Self.tree().applying([.setMask(2, mask: 5)], displayCount: 1)
        let lines = TreeDescriber.describe([("client", masked)]).split(separator: "\n").map(String.init)
        // Root 1 at depth 2, layer 2 at 3, its sublayer 4 and its mask 5 at 4 (two spaces each).
        let four = try #require(lines.firstIndex { $0.hasPrefix(String(repeating: " ", count: 8) + "layer 4") })
        #expect(lines[four + 1].hasPrefix(String(repeating: " ", count: 8) + "mask: layer 5"), "\(lines)")
    }
}

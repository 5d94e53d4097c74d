import Foundation
import LaminaCore
import LaminaTesting
import Testing

@testable import LaminaProtocol

/// `setEmitterCells` (operation 12) on the wire: its bytes, field by field; a round trip of a nested
/// cell tree with every number distinct; and the codec's own bounds (cell count, nesting depth,
/// truncation), which stop a hostile message before the server's tighter checks.
@Suite struct EmitterCellCodecTests {
    /// A cell whose numbers are `base`, `base + 1`, ... in wire order.
    static func cell(_ base: Double, name: String?, enabled: Bool, contents: UInt64, _ cells: [EmitterCellState] = [])
        -> EmitterCellState
    {
        EmitterCellState(
            numbers: (0..<EmitterCellState.numberCount).map { base + Double($0) }, name: name, isEnabled: enabled,
            contents: contents, cells: cells)
    }

    @Test func aCellTreeRoundTrips() throws {
        let tree = [
            Self.cell(
                1, name: "spark", enabled: true, contents: 7, [Self.cell(100, name: nil, enabled: false, contents: 0)]),
            Self.cell(-50.5, name: "é", enabled: true, contents: 0),
        ]
        let message = ClientMessage.transactionPart([.setEmitterCells(3, tree)])
        let back = try MessageCodec.decodeClient(MessageCodec.encode(message))
        #expect(back == message)
        // Every number travels as given, the fractions too.
        #expect(tree[0].numbers == (0..<EmitterCellState.numberCount).map { 1 + Double($0) })
        #expect(tree[1].numbers.first == -50.5)
    }

    @Test func theBytesAreLaidOutAsProtocolMdSays() {
        let cell = Self.cell(0, name: "a", enabled: true, contents: 9)
        let encoded = MessageCodec.encode(ClientMessage.transactionPart([.setEmitterCells(2, [cell])]))
        let expected = framed(
            type: 2,
            bytes {
                $0.u32(1)
                $0.u8(12); $0.u64(2); $0.u32(1)
                for i in 0..<35 { $0.f64(Double(i)) }
                $0.u8(1); $0.string("a"); $0.u8(1); $0.u64(9); $0.u32(0)
            })
        #expect(encoded == expected)
        #expect(MessageCodec.encodedSize(of: .setEmitterCells(2, [cell])) == 1 + 8 + 4 + 280 + 1 + 5 + 1 + 8 + 4)
    }

    @Test func hostileTreesStopAtTheCodecsBounds() {
        // More cells than the codec reads in one operation.
        let tooMany = framed(
            type: 2,
            bytes {
                $0.u32(1); $0.u8(12); $0.u64(2); $0.u32(UInt32(MessageCodec.maxWireEmitterCells + 1))
            })
        #expect(throws: WireError.self) { try MessageCodec.decodeClient(tooMany) }
        // A count that the bytes left cannot hold.
        let truncated = framed(
            type: 2,
            bytes {
                $0.u32(1); $0.u8(12); $0.u64(2); $0.u32(3)
            })
        #expect(throws: WireError.truncated(field: "setEmitterCells.cells")) {
            try MessageCodec.decodeClient(truncated)
        }
        // Seventeen levels of one cell each: past the codec's depth.
        var deep = Self.cell(0, name: nil, enabled: true, contents: 0)
        for _ in 0..<MessageCodec.maxWireEmitterDepth {
            deep = Self.cell(0, name: nil, enabled: true, contents: 0, [deep])
        }
        let encoded = MessageCodec.encode(ClientMessage.transactionPart([.setEmitterCells(2, [deep])]))
        #expect(throws: WireError.badValue(field: "setEmitterCells.depth")) { try MessageCodec.decodeClient(encoded) }
        // 65 cells and a NaN decode: the server refuses them with its own messages.
        let many = Array(repeating: Self.cell(.nan, name: nil, enabled: true, contents: 0), count: 65)
        let decoded = try? MessageCodec.decodeClient(
            MessageCodec.encode(ClientMessage.transactionPart([.setEmitterCells(2, many)])))
        guard case .transactionPart(let ops)? = decoded, case .setEmitterCells(2, let cells) = ops.first else {
            Issue.record("65 cells did not decode")
            return
        }
        #expect(cells.count == 65 && cells[0].velocity.isNaN)
    }

    @Test func emitterRowsRoundTrip() throws {
        for property in [
            LayerProperty.emitterBirthRate(2.5), .emitterLifetime(0.25), .emitterVelocity(-3), .emitterScale(2),
            .emitterSpin(0.5), .emitterPosition(CGPoint(x: 1.5, y: -2)), .emitterZPosition(4),
            .emitterSize(CGSize(width: 3, height: 7)),
            .emitterDepth(9), .emitterShape("circle"), .emitterMode("outline"), .renderMode("additive"),
            .emitterSeed(4_294_967_295),
        ] {
            #expect(try decodeSet(property) == property)
            #expect(property.code >= 77 && property.code <= 89)
        }
        #expect(LayerProperty.emitterSeed(1).code == 89 && LayerProperty.emitterBirthRate(1).code == 77)
    }
}

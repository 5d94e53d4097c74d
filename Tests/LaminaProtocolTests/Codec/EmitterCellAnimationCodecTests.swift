import Foundation
import LaminaCore
import LaminaTesting
import Testing

@testable import LaminaProtocol

/// Animation targets of emitter cells (`emitterCells.NAME.KEY`, docs/protocol.md §6: property 62, the
/// cell value's field as the component byte, then the cells' names): the bytes, a round trip, and the
/// decoder's refusals of a field that is not an animatable cell value, no names, too many names, an
/// empty or overlong name, and a value function.
@Suite struct EmitterCellAnimationCodecTests {
    static func target(_ path: String) throws -> PropertyTarget {
        let cell = try #require(EmitterCellKeyPath(path))
        return PropertyTarget(keyPath: cell.standIn, isAdditive: true, cell: cell)
    }

    @Test func theTargetsBytesAreLaidOutAsProtocolMdSays() throws {
        var w = WireWriter()
        w.target(try Self.target("emitterCells.fire.emitterCells.spark.birthRate"))
        let expected = bytes {
            $0.u8(62); $0.u8(0); $0.u32(2); $0.string("fire"); $0.string("spark")
            $0.u8(1); $0.u8(0); $0.u8(0); $0.u32(0)
        }
        #expect(w.bytes == expected)
    }

    @Test func cellAnimationsRoundTrip() throws {
        let records = [
            AnimationRecord(
                timing: MediaTiming(duration: 1),
                content: .basic(
                    try Self.target("emitterCells.spark.velocity"), BasicValues(from: .number(0), to: .number(9)))),
            AnimationRecord(
                timing: MediaTiming(duration: 2),
                content: .keyframe(
                    try Self.target("emitterCells.spark.color"),
                    Keyframes(values: [.color(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)), .color(nil)]))),
            AnimationRecord(
                timing: MediaTiming(duration: 3),
                content: .basic(
                    try Self.target("emitterCells.a.emitterCells.b.contentsRect"),
                    BasicValues(to: .rect(CGRect(x: 0, y: 0, width: 0.5, height: 1))))),
        ]
        let ops = records.enumerated().map {
            LayerOperation.addAnimation(
                4, AttachedAnimation(id: UInt64($0.offset + 1), key: "k\($0.offset)", record: $0.element))
        }
        let encoded = MessageCodec.encode(ClientMessage.commit(serial: 3, operations: ops))
        #expect(try MessageCodec.decodeClient(encoded) == .commit(serial: 3, operations: ops))
        #expect(records.allSatisfy { $0.invalidReason == nil })
    }

    /// Each hostile target stops at the decoder with the field it broke.
    @Test(arguments: [
        // 16 is the colour's red number, which no key names (the colour animates whole).
        (UInt8(16), 1, "spark", "t.cellField"),
        (99, 1, "spark", "t.cellField"),
        (0, 0, "", "t.cellPath"),
        (0, 1, "", "t.cellPath"),
    ])
    func hostileTargetsAreRefused(field: UInt8, names: Int, name: String, expected: String) {
        var payload = bytes {
            $0.u8(62); $0.u8(field); $0.u32(UInt32(names))
            for _ in 0..<names { $0.string(name) }
            $0.u8(0); $0.u8(0); $0.u8(0); $0.u32(0)
        }
        payload += [0, 0, 0, 0]
        var r = WireReader(payload)
        #expect(throws: WireError.badValue(field: expected)) { try r.target("t") }
    }

    @Test func tooManyOrTooLongNamesAreRefused() {
        let deep = bytes {
            $0.u8(62); $0.u8(0); $0.u32(5)
            for _ in 0..<5 { $0.string("a") }
        }
        var r = WireReader(deep)
        #expect(throws: WireError.countTooLarge(field: "t.cellPath", count: 5, limit: 4)) { try r.target("t") }
        let long = bytes {
            $0.u8(62); $0.u8(0); $0.u32(1); $0.string(String(repeating: "n", count: 1_025))
        }
        var s = WireReader(long)
        #expect(throws: WireError.self) { try s.target("t") }
    }

    @Test func aValueFunctionIsInvalid() throws {
        var target = try Self.target("emitterCells.spark.spin")
        target.valueFunction = .rotateZ
        let record = AnimationRecord(
            timing: MediaTiming(duration: 1), content: .basic(target, BasicValues(to: .number(1))))
        #expect(record.invalidReason?.contains("emitterCells.spark.spin") == true)
    }
}

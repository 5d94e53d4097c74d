// Byte-by-byte layouts of the surface feedback messages (docs/protocol.md §4.1): client message 19,
// server messages 123 and 124.
import Foundation
import LaminaCore
import Testing

@testable import LaminaProtocol

@Suite struct SurfaceFeedbackCodecTests {
    /// The 8-byte header of a message of `type` with a payload of `length` bytes.
    func header(_ type: UInt8, _ length: UInt8) -> [UInt8] { [type, 0, 0, 0, length, 0, 0, 0] }

    @Test func surfaceFeedbackIsMessageNineteenWithAU64IDAndAFlagByte() throws {
        let on = MessageCodec.encode(ClientMessage.surfaceFeedback(id: 0x0102, enabled: true))
        #expect(on == header(19, 9) + [2, 1, 0, 0, 0, 0, 0, 0] + [1])
        #expect(try MessageCodec.decodeClient(on) == .surfaceFeedback(id: 0x0102, enabled: true))
        let off = MessageCodec.encode(ClientMessage.surfaceFeedback(id: 5, enabled: false))
        #expect(off == header(19, 9) + [5, 0, 0, 0, 0, 0, 0, 0] + [0])
        #expect(try MessageCodec.decodeClient(off) == .surfaceFeedback(id: 5, enabled: false))
    }

    @Test(arguments: [UInt8(2), 7, 0xFF])
    func aFlagOtherThanZeroOrOneIsRefusedByName(_ flag: UInt8) {
        let bytes = Array(MessageCodec.encode(ClientMessage.surfaceFeedback(id: 5, enabled: true)).dropLast()) + [flag]
        #expect(throws: WireError.badValue(field: "surfaceFeedback.enabled")) { try MessageCodec.decodeClient(bytes) }
    }

    @Test func aShortSurfaceFeedbackNamesItsMissingField() {
        var bytes = Array(MessageCodec.encode(ClientMessage.surfaceFeedback(id: 5, enabled: true)).dropLast())
        bytes[4] = 8
        do {
            _ = try MessageCodec.decodeClient(bytes)
            Issue.record("a surfaceFeedback without its flag decoded")
        } catch {
            #expect("\(error)".contains("surfaceFeedback.enabled"))
        }
    }

    @Test func surfacePresentedIsMessage123WithAU64IDAndAnF64Time() throws {
        let time = 1.5  // 0x3FF8000000000000
        let bytes = MessageCodec.encode(ServerMessage.surfacePresented(id: 0x0A0B, time: time))
        #expect(bytes == header(123, 16) + [0x0B, 0x0A, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0xF8, 0x3F])
        #expect(try MessageCodec.decodeServer(bytes) == .surfacePresented(id: 0x0A0B, time: time))
    }

    @Test func surfaceReleasedIsMessage124WithAU64ID() throws {
        let bytes = MessageCodec.encode(ServerMessage.surfaceReleased(id: 0x0A0B))
        #expect(bytes == header(124, 8) + [0x0B, 0x0A, 0, 0, 0, 0, 0, 0])
        #expect(try MessageCodec.decodeServer(bytes) == .surfaceReleased(id: 0x0A0B))
    }

    @Test func surfaceRefusedIsMessage125WithAU64IDACodeAndAText() throws {
        let bytes = MessageCodec.encode(
            ServerMessage.surfaceRefused(id: 0x0A0B, code: .invalidSurfaceLayout, message: "ab"))
        // u64 id, u16 code 26, string: u32 length 2, then the bytes.
        #expect(
            bytes == header(125, 16) + [0x0B, 0x0A, 0, 0, 0, 0, 0, 0] + [26, 0] + [2, 0, 0, 0] + Array("ab".utf8))
        #expect(
            try MessageCodec.decodeServer(bytes)
                == .surfaceRefused(id: 0x0A0B, code: .invalidSurfaceLayout, message: "ab"))
        // A code this version does not know reads as internalError, as in `error` and `warning`.
        var unknown = bytes
        unknown[16] = 0xFF
        unknown[17] = 0x7F
        #expect(
            try MessageCodec.decodeServer(unknown) == .surfaceRefused(id: 0x0A0B, code: .internalError, message: "ab"))
    }

    @Test func surfaceDiscardedIsMessage122WithAU64ID() throws {
        let bytes = MessageCodec.encode(ServerMessage.surfaceDiscarded(id: 0x0A0B))
        #expect(bytes == header(122, 8) + [0x0B, 0x0A, 0, 0, 0, 0, 0, 0])
        #expect(try MessageCodec.decodeServer(bytes) == .surfaceDiscarded(id: 0x0A0B))
        // Short: the id is named.
        do {
            _ = try MessageCodec.decodeServer(header(122, 4) + [0x0B, 0x0A, 0, 0])
            Issue.record("a short surfaceDiscarded decoded")
        } catch {
            #expect("\(error)".contains("surfaceDiscarded.id"))
        }
    }
}

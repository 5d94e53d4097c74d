// Byte-by-byte layouts of the image and statistics messages (docs/protocol.md §4) and of image values
// in properties and animations (§7, §8).
import Foundation
import LaminaCore
import Testing

@testable import LaminaProtocol

@Suite struct ImageMessageCodecTests {
    /// The 8-byte header of a message of `type` with a payload of `length` bytes.
    func header(_ type: UInt8, _ length: UInt8) -> [UInt8] { [type, 0, 0, 0, length, 0, 0, 0] }

    @Test func uploadImageLayout() throws {
        let message = ClientMessage.uploadImage(id: 0x0102_0304_0506_0708, width: 640, height: 480, stride: 2560)
        let bytes = MessageCodec.encode(message)
        // Type 8; u64 id, u32 width, u32 height, u32 stride, little-endian.
        let expected: [UInt8] =
            header(8, 20) + [8, 7, 6, 5, 4, 3, 2, 1] + [0x80, 0x02, 0, 0] + [0xE0, 0x01, 0, 0] + [0x00, 0x0A, 0, 0]
        #expect(bytes == expected)
        #expect(try MessageCodec.decodeClient(bytes) == message)
    }

    @Test func releaseImageAndStatsLayouts() throws {
        let release = MessageCodec.encode(ClientMessage.releaseImage(id: 0x1122))
        #expect(release == header(9, 8) + [0x22, 0x11, 0, 0, 0, 0, 0, 0])
        #expect(try MessageCodec.decodeClient(release) == .releaseImage(id: 0x1122))
        let stats = MessageCodec.encode(ClientMessage.stats(requestID: 5))
        #expect(stats == header(10, 8) + [5, 0, 0, 0, 0, 0, 0, 0])
        #expect(try MessageCodec.decodeClient(stats) == .stats(requestID: 5))
    }

    @Test func statsReplyLayout() throws {
        let entry = ClientStatistics(
            name: "ab", pid: -2, layers: 1000, animations: 3, images: 1, textureBytes: 21845, surfaces: 2,
            surfaceBytes: 8192, surfaceBytesCopied: 7)
        let message = ServerMessage.statsReply(requestID: 9, clients: [entry])
        let bytes = MessageCodec.encode(message)
        // u64 request id, u32 count; per client: string name (u32 length, bytes), i32 pid, u64 layers,
        // u64 animations, u64 images, u64 texture bytes, u64 surfaces, u64 surface bytes, u64 surface
        // bytes copied.
        var payload: [UInt8] = [9, 0, 0, 0, 0, 0, 0, 0] + [1, 0, 0, 0]
        payload += [2, 0, 0, 0, 0x61, 0x62] + [0xFE, 0xFF, 0xFF, 0xFF]
        payload += [0xE8, 0x03, 0, 0, 0, 0, 0, 0] + [3, 0, 0, 0, 0, 0, 0, 0] + [1, 0, 0, 0, 0, 0, 0, 0]
        payload += [0x55, 0x55, 0, 0, 0, 0, 0, 0] + [2, 0, 0, 0, 0, 0, 0, 0] + [0, 0x20, 0, 0, 0, 0, 0, 0]
        payload += [7, 0, 0, 0, 0, 0, 0, 0]
        #expect(bytes == header(110, UInt8(payload.count)) + payload)
        #expect(try MessageCodec.decodeServer(bytes) == message)
    }

    @Test func contentsPropertyIsAU64ImageID() throws {
        let op = LayerOperation.set(3, .contents(0xA1B2))
        let bytes = MessageCodec.encode(ClientMessage.transactionPart([op]))
        // count 1, operation 3 (set), layer id 3, property code 36 (contents), u64 image id.
        let payload: [UInt8] = [1, 0, 0, 0, 3] + [3, 0, 0, 0, 0, 0, 0, 0] + [36] + [0xB2, 0xA1, 0, 0, 0, 0, 0, 0]
        #expect(bytes == header(2, UInt8(payload.count)) + payload)
        #expect(try MessageCodec.decodeClient(bytes) == .transactionPart([op]))
    }

    @Test func imageAnimationValuesRoundTrip() throws {
        let target = PropertyTarget(keyPath: try #require(LayerKeyPath("contents")))
        let basic = AnimationRecord(
            timing: MediaTiming(duration: 1), content: .basic(target, BasicValues(from: .image(1), to: .image(2))))
        let keyframes = AnimationRecord(
            timing: MediaTiming(duration: 2),
            content: .keyframe(
                target, Keyframes(values: [.image(1), .image(0), .image(.max)], calculationMode: .discrete)))
        let ops: [LayerOperation] = [
            .addAnimation(1, AttachedAnimation(id: 5, key: "contents", record: basic)),
            .addAnimation(1, AttachedAnimation(id: 6, key: "flip", record: keyframes)),
        ]
        let bytes = MessageCodec.encode(ClientMessage.commit(serial: 1, operations: ops))
        #expect(try MessageCodec.decodeClient(bytes) == .commit(serial: 1, operations: ops))
        // An image value is its kind (9) and a u64 id.
        var w = WireWriter()
        w.value(.image(0x0A0B))
        #expect(w.bytes == [9, 0x0B, 0x0A, 0, 0, 0, 0, 0, 0])
        #expect(basic.invalidReason == nil && keyframes.invalidReason == nil)
        #expect(basic.imageIDs == [1, 2] && keyframes.imageIDs == [1, .max])
    }
}

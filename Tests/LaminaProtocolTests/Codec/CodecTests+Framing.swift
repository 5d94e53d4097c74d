import Foundation
import LaminaCore
import LaminaTesting
import Testing

@testable import LaminaProtocol

/// CodecTests: how messages are framed in a byte stream, whole, byte by byte, shuffled and cut short.
extension CodecTests {
    // MARK: Byte-by-byte framing

    @Test(arguments: [UInt64(1), 2, 3])
    func byteByByteMatchesWholeDecoding(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let stream = (0..<12).map { _ in allMessages.randomElement(using: &rng)! }
        let wire = stream.flatMap(\.encoded)

        // Whole: each message's own bytes.
        let whole = try stream.map { try $0.decodeSameDirection($0.encoded) }
        #expect(whole == stream)

        // One byte at a time through the framer, decoding only when the header's length is complete.
        var framer = StreamFramer()
        var cut: [[UInt8]] = []
        var completedAt: [Int] = []
        for (index, byte) in wire.enumerated() {
            let done = framer.append(CollectionOfOne(byte))
            #expect(done.count <= 1, "one byte completes at most one non-empty message")
            cut += done
            if !done.isEmpty { completedAt.append(index + 1) }
        }
        #expect(framer.pendingByteCount == 0)
        try #require(cut.count == stream.count)
        var boundary = 0
        for (index, message) in stream.enumerated() {
            boundary += message.encoded.count
            #expect(completedAt[index] == boundary, "message \(index) completes exactly at its last byte")
            #expect(cut[index] == message.encoded)
            #expect(try message.decodeSameDirection(cut[index]) == whole[index])
        }

        // Random chunk sizes give the same cut.
        var chunked = StreamFramer()
        var offset = 0
        var chunkedCut: [[UInt8]] = []
        while offset < wire.count {
            let n = min(Int.random(in: 1...40, using: &rng), wire.count - offset)
            chunkedCut += chunked.append(wire[offset..<offset + n])
            offset += n
        }
        #expect(chunkedCut == cut)
    }

    @Test func framerHoldsAnIncompleteTail() throws {
        let a = MessageCodec.encode(ClientMessage.ping(requestID: 1))
        let b = MessageCodec.encode(mixedCommit)
        var framer = StreamFramer()
        let first = framer.append(a + b.prefix(b.count - 1))
        #expect(first == [a])
        #expect(framer.pendingByteCount == b.count - 1)
        // The tail alone does not decode: the header promises more than is there.
        #expect(throws: WireError.lengthMismatch(declared: b.count - 8, actual: b.count - 9)) {
            try MessageCodec.decodeClient(Array(b.prefix(b.count - 1)))
        }
        let second = framer.append([b.last!])
        #expect(second == [b])
        #expect(try MessageCodec.decodeClient(second[0]) == mixedCommit)
    }

    // MARK: Shuffled

    @Test(arguments: [UInt64(0), 42, 0xDEAD_BEEF])
    func shuffledMessagesDecodeToTheShuffledOrder(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let originals = allMessages
        let shuffled = originals.shuffled(using: &rng)
        #expect(shuffled.count == originals.count)
        let decoded = try shuffled.map { try $0.decodeSameDirection($0.encoded) }
        #expect(decoded == shuffled)

        // As a multiset the decoded messages are the originals.
        var counts: [AnyMessage: Int] = [:]
        for m in originals { counts[m, default: 0] += 1 }
        for m in decoded { counts[m, default: 0] -= 1 }
        #expect(counts.values.allSatisfy { $0 == 0 })

        // The same, through the framer, from one concatenated stream.
        var framer = StreamFramer()
        let cut = framer.append(shuffled.flatMap(\.encoded))
        try #require(cut.count == shuffled.count)
        for (bytes, expected) in zip(cut, shuffled) {
            #expect(try expected.decodeSameDirection(bytes) == expected)
        }
    }

    @Test func splitMixIsDeterministic() {
        var a = SplitMix64(seed: 7), b = SplitMix64(seed: 7), c = SplitMix64(seed: 8)
        let xs = (0..<5).map { _ in a.next() }
        #expect(xs == (0..<5).map { _ in b.next() })
        #expect(xs != (0..<5).map { _ in c.next() })
        // Reference value of SplitMix64 seeded with 0.
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
    }

    // MARK: Truncation and lengths

    @Test func everyStrictPrefixOfACommitThrows() throws {
        let encoded = MessageCodec.encode(mixedCommit)
        #expect(try MessageCodec.decodeClient(encoded) == mixedCommit)
        for length in 0..<encoded.count {
            let prefix = Array(encoded.prefix(length))
            do {
                let m = try MessageCodec.decodeClient(prefix)
                Issue.record("prefix of \(length) bytes decoded as \(m)")
            } catch {
                switch length {
                case 0..<2: #expect(error == .truncated(field: "header.type"))
                case 2..<4: #expect(error == .truncated(field: "header.flags"))
                case 4..<8: #expect(error == .truncated(field: "header.length"))
                default: #expect(error == .lengthMismatch(declared: encoded.count - 8, actual: length - 8))
                }
            }
        }
    }

    @Test(arguments: allMessages + [.client(mixedCommit)])
    func everyStrictPayloadPrefixWithAMatchingHeaderIsTruncated(_ message: AnyMessage) {
        let encoded = message.encoded
        let payloadCount = encoded.count - 8
        // Every cut for small messages; for big ones, every cut near either end and a stride between.
        let cuts =
            payloadCount <= 2_000
            ? Array(0..<payloadCount)
            : Array(0..<600) + Array(stride(from: 600, to: payloadCount - 600, by: 97))
                + Array((payloadCount - 600)..<payloadCount)
        for count in cuts {
            let bytes = cutPayload(encoded, to: count)
            do {
                let m = try message.decodeSameDirection(bytes)
                Issue.record("payload prefix of \(count) bytes decoded as \(m)")
            } catch {
                guard case .truncated = error else {
                    Issue.record("payload prefix of \(count) bytes: \(error), expected truncated")
                    continue
                }
            }
        }
    }

    @Test(arguments: allMessages)
    func declaredLengthMustMatch(_ message: AnyMessage) {
        let encoded = message.encoded
        let actual = encoded.count - 8
        let type = typeCode(of: encoded)
        for declared in [actual + 1, actual + 1000, Int(UInt32.max)] + (actual > 0 ? [actual - 1, 0] : []) {
            #expect(throws: WireError.lengthMismatch(declared: declared, actual: actual)) {
                try message.decodeSameDirection(
                    framed(type: type, declaredLength: UInt32(declared), payload(of: encoded)))
            }
        }
        // A complete message followed by a stray byte (header unchanged) is a mismatch as well.
        #expect(throws: WireError.lengthMismatch(declared: actual, actual: actual + 1)) {
            try message.decodeSameDirection(encoded + [0])
        }
    }

    @Test(arguments: allMessages)
    func trailingBytesInsideTheDeclaredLength(_ message: AnyMessage) {
        let encoded = message.encoded
        for extra in [1, 2, 7, 300] {
            let bytes = framed(
                type: typeCode(of: encoded), payload(of: encoded) + [UInt8](repeating: 0xAB, count: extra))
            #expect(throws: WireError.trailingBytes(type: message.typeName, count: extra)) {
                try message.decodeSameDirection(bytes)
            }
        }
    }

    @Test func emptyInputAndBareHeader() {
        #expect(throws: WireError.truncated(field: "header.type")) { try MessageCodec.decodeClient([]) }
        #expect(throws: WireError.truncated(field: "header.type")) { try MessageCodec.decodeServer([]) }
        #expect(throws: WireError.truncated(field: "ping.requestID")) {
            try MessageCodec.decodeClient(framed(type: 5, []))
        }
        #expect(throws: WireError.truncated(field: "commitApplied.serial")) {
            try MessageCodec.decodeServer(framed(type: 102, []))
        }
    }
}

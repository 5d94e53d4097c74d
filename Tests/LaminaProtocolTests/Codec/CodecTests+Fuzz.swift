import Foundation
import LaminaCore
import LaminaTesting
import Testing

@testable import LaminaProtocol

/// CodecTests: mutated and short byte strings never crash the decoders.
extension CodecTests {
    // MARK: Fuzz

    @Test func mutatedMessagesNeverCrashTheDecoders() {
        var rng = SplitMix64(seed: 0x5EED_F00D)
        let seeds = (allMessages + [.client(mixedCommit)]).map(\.encoded).filter { $0.count < 20_000 }
        var decodedCount = 0, threwCount = 0
        for iteration in 0..<2_000 {
            var bytes = seeds.randomElement(using: &rng)!
            let mutations = Int.random(in: 1...4, using: &rng)
            for _ in 0..<mutations {
                switch Int.random(in: 0..<8, using: &rng) {
                case 0 where !bytes.isEmpty:  // flip a bit
                    let i = Int.random(in: 0..<bytes.count, using: &rng)
                    bytes[i] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
                case 1 where !bytes.isEmpty:  // replace a byte
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                case 2:  // insert a byte
                    bytes.insert(
                        UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...bytes.count, using: &rng))
                case 3 where !bytes.isEmpty:  // delete a byte
                    bytes.remove(at: Int.random(in: 0..<bytes.count, using: &rng))
                case 4:  // truncate
                    bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
                case 5 where bytes.count >= 4:  // plant an extreme u32 (a count or a length)
                    let i = Int.random(in: 0...(bytes.count - 4), using: &rng)
                    let v = [UInt32.max, 0x7FFF_FFFF, 0x0001_0000, 16, 17, 100_001, 4097][
                        Int.random(in: 0..<7, using: &rng)]
                    for k in 0..<4 { bytes[i + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
                case 6 where bytes.count > 8:  // change the message type
                    bytes[0] =
                        [1, 2, 3, 4, 5, 6, 101, 102, 103, 104, 105, 106, 107, 0, 255][
                            Int.random(in: 0..<15, using: &rng)]
                    bytes[1] = 0
                default:  // append junk
                    bytes += (0..<Int.random(in: 1...16, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng)
                    }
                }
            }
            // Usually repair the header's length so the payload parsers see the damage.
            if bytes.count >= 8, Int.random(in: 0..<4, using: &rng) != 0 {
                let n = UInt32(bytes.count - 8)
                for k in 0..<4 { bytes[4 + k] = UInt8(truncatingIfNeeded: n >> (8 * UInt32(k))) }
            }
            do {
                let m = try MessageCodec.decodeClient(bytes)
                decodedCount += 1
                // Whatever decodes re-encodes to the same size and decodes again, stably.
                let again = MessageCodec.encode(m)
                #expect(again.count == bytes.count, "iteration \(iteration)")
                let m2 = try MessageCodec.decodeClient(again)
                #expect(MessageCodec.encode(m2) == again, "iteration \(iteration)")
            } catch {
                threwCount += 1
            }
            do {
                let m = try MessageCodec.decodeServer(bytes)
                decodedCount += 1
                let again = MessageCodec.encode(m)
                #expect(again.count == bytes.count, "iteration \(iteration)")
                let m2 = try MessageCodec.decodeServer(again)
                #expect(MessageCodec.encode(m2) == again, "iteration \(iteration)")
            } catch {
                threwCount += 1
            }
        }
        #expect(decodedCount + threwCount == 4_000)
        // The fuzzer reaches both outcomes (otherwise it is not exercising the parsers).
        #expect(decodedCount > 50)
        #expect(threwCount > 2_000)
    }

    @Test func everyShortByteStringIsHandled() {
        // Every 8-byte header for small types and lengths, with a short payload of one repeated byte.
        for type in UInt16(0)...110 {
            for length in 0..<12 {
                for fill: UInt8 in [0, 1, 0xFF] {
                    let bytes = framed(type: type, [UInt8](repeating: fill, count: length))
                    _ = try? MessageCodec.decodeClient(bytes)
                    _ = try? MessageCodec.decodeServer(bytes)
                }
            }
        }
    }
}

import Foundation
import LaminaCore
import LaminaTesting
import Testing

@testable import LaminaProtocol

/// CodecTests: unknown message, operation and property codes, bad strings, and counts past their
/// limits.
extension CodecTests {
    // MARK: Unknown codes, bad strings, counts

    @Test(arguments: [UInt16(0), 99, 100, 101, 104, 107, 108, 0x7FFF, 0xFFFF])
    func unknownClientMessageType(_ type: UInt16) {
        #expect(throws: WireError.unknownMessage(type)) {
            try MessageCodec.decodeClient(framed(type: type, [0, 0, 0, 0, 0, 0, 0, 0]))
        }
        #expect(throws: WireError.unknownMessage(type)) { try MessageCodec.decodeClient(framed(type: type, [])) }
    }

    @Test(arguments: [UInt16(0), 1, 3, 6, 8, 100, 115, 0xFFFF])
    func unknownServerMessageType(_ type: UInt16) {
        #expect(throws: WireError.unknownMessage(type)) {
            try MessageCodec.decodeServer(framed(type: type, [0, 0, 0, 0, 0, 0, 0, 0]))
        }
    }

    @Test func messagesOfTheOtherDirectionAreUnknown() {
        for m in clientTable {
            let encoded = MessageCodec.encode(m)
            #expect(throws: WireError.unknownMessage(typeCode(of: encoded))) { try MessageCodec.decodeServer(encoded) }
        }
        for m in serverTable {
            let encoded = MessageCodec.encode(m)
            #expect(throws: WireError.unknownMessage(typeCode(of: encoded))) { try MessageCodec.decodeClient(encoded) }
        }
    }

    @Test(arguments: [UInt8(0), 20, 21, 0x80, 0xFF])
    func unknownOperationCode(_ code: UInt8) {
        let commit = framed(
            type: 3,
            bytes {
                $0.u64(1); $0.u32(1); $0.u8(code); $0.u64(0); $0.u64(0)
            })
        #expect(throws: WireError.unknownOperation(code)) { try MessageCodec.decodeClient(commit) }
        // After a valid operation too.
        let part = framed(
            type: 2,
            bytes {
                $0.u32(2); $0.u8(1); $0.u64(5); $0.u8(code); $0.u64(0)
            })
        #expect(throws: WireError.unknownOperation(code)) { try MessageCodec.decodeClient(part) }
    }

    /// A `createLayer` with a class (code 9) must name a class this version has; class 0, a plain
    /// layer, travels as code 1 only, so every operation has one encoding. Class 8 is the first code
    /// no class has (6 is the emitter's, 7 the transform layer's).
    @Test(arguments: [UInt8(0), 8, 0x80, 0xFF])
    func unknownLayerClass(_ code: UInt8) {
        let part = framed(
            type: 2,
            bytes {
                $0.u32(1); $0.u8(9); $0.u64(5); $0.u8(code)
            })
        #expect(throws: WireError.unknownLayerClass(code)) { try MessageCodec.decodeClient(part) }
    }

    @Test func layerClassesTravelAsCodeNine() throws {
        let bytes = MessageCodec.encode(ClientMessage.transactionPart([.createLayer(5, .shape), .createLayer(6)]))
        // count, then code 9, id 5, class 1, then code 1, id 6.
        #expect(Array(bytes[12...]) == [9, 5, 0, 0, 0, 0, 0, 0, 0, 1, 1, 6, 0, 0, 0, 0, 0, 0, 0])
        #expect(MessageCodec.encodedSize(of: .createLayer(5, .gradient)) == 10)
        #expect(MessageCodec.encodedSize(of: .createLayer(5)) == 9)
    }

    @Test(arguments: [UInt8(0), 126, 0x7F, 0xFF])
    func unknownPropertyCode(_ code: UInt8) {
        let part = framed(
            type: 2,
            bytes {
                $0.u32(1); $0.u8(3); $0.u64(5); $0.u8(code); $0.u64(0)
            })
        #expect(throws: WireError.unknownProperty(code)) { try MessageCodec.decodeClient(part) }
        let commit = framed(
            type: 3,
            bytes {
                $0.u64(9); $0.u32(1); $0.u8(3); $0.u64(5); $0.u8(code)
            })
        #expect(throws: WireError.unknownProperty(code)) { try MessageCodec.decodeClient(commit) }
    }

    /// Path elements the path would not keep as given (so the path would encode to other bytes): a
    /// line first (no current point), a second close, a line right after a close (it would start a
    /// subpath with a move of its own), so that every decoded path encodes back to its bytes.
    @Test(arguments: [[UInt8(2)], [1, 5, 5], [1, 2, 5, 2]])
    func nonCanonicalPathElementsAreRefused(_ codes: [UInt8]) {
        let part = framed(
            type: 2,
            bytes {
                $0.u32(1); $0.u8(3); $0.u64(5); $0.u8(37); $0.bool(true); $0.u32(UInt32(codes.count))
                for code in codes {
                    $0.u8(code)
                    if code != 5 { $0.point(CGPoint(x: 1, y: 2)) }
                }
            })
        #expect(throws: WireError.badValue(field: "path.element")) { try MessageCodec.decodeClient(part) }
    }

    /// A path with an infinite point decodes to that point and encodes back to the same bytes (the
    /// fuzzer's `hostile-path-infinite-point`: 0 × ∞ had made the y NaN); the server refuses it by name.
    @Test func aPathWithAnInfinitePointKeepsItsBytes() throws {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: -CGFloat.infinity, y: 48))
        let bytes = MessageCodec.encode(ClientMessage.transactionPart([.set(1, .path(path))]))
        let decoded = try MessageCodec.decodeClient(bytes)
        #expect(MessageCodec.encode(decoded) == bytes)
        #expect(LayerProperty.path(path).invalidReason == "path has a NaN or infinite point")
    }

    static let invalidUTF8: [[UInt8]] = [
        [0xFF],
        [0xC3, 0x28],  // a lead byte followed by a non-continuation
        [0xC0, 0xAF],  // overlong "/"
        [0xE0, 0x80, 0xAF],  // overlong
        [0xED, 0xA0, 0x80],  // a UTF-16 surrogate
        [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
        [0x61, 0xE2, 0x82],  // cut inside a three-byte scalar
        [0x80],  // a lone continuation byte
    ]

    @Test(arguments: invalidUTF8)
    func invalidUTF8IsABadString(_ raw: [UInt8]) {
        func str(_ w: inout WireWriter) { w.u32(UInt32(raw.count)); for b in raw { w.u8(b) } }
        let name = framed(
            type: 2,
            bytes {
                $0.u32(1); $0.u8(3); $0.u64(5); $0.u8(16); $0.bool(true); str(&$0)
            })
        #expect(throws: WireError.badString(field: "name")) { try MessageCodec.decodeClient(name) }
        let hello = framed(
            type: 1,
            bytes {
                $0.u32(1); str(&$0)
            })
        #expect(throws: WireError.badString(field: "hello.clientName")) { try MessageCodec.decodeClient(hello) }
        let welcome = framed(
            type: 101,
            bytes {
                $0.u32(1); str(&$0); $0.u32(0)
            })
        #expect(throws: WireError.badString(field: "welcome.serverVersion")) { try MessageCodec.decodeServer(welcome) }
        let error = framed(
            type: 104,
            bytes {
                $0.u16(1); str(&$0)
            })
        #expect(throws: WireError.badString(field: "error.message")) { try MessageCodec.decodeServer(error) }
        let pong = framed(
            type: 106,
            bytes {
                $0.u64(1); str(&$0)
            })
        #expect(throws: WireError.badString(field: "pong.serverVersion")) { try MessageCodec.decodeServer(pong) }
        let tree = framed(
            type: 107,
            bytes {
                $0.u64(1); str(&$0)
            })
        #expect(throws: WireError.badString(field: "treeDescription.text")) { try MessageCodec.decodeServer(tree) }
    }

    /// A hello of another protocol version may be laid out otherwise and not decode; its version is
    /// still read, so the server can refuse it as `unsupportedVersion` rather than as malformed.
    @Test(arguments: [0, 1, WireLimits.protocolVersion + 1, .max] as [UInt32])
    func helloOfAnotherVersionNamesItsVersion(_ version: UInt32) throws {
        var versionOne = WireWriter()
        versionOne.u32(version)
        versionOne.string("old")
        let old = framed(type: 1, versionOne.bytes)
        #expect(throws: WireError.truncated(field: "hello.contextId")) { try MessageCodec.decodeClient(old) }
        #expect(MessageCodec.helloVersion(old) == version)
        var junk = WireWriter()
        junk.u32(version)
        junk.u8(0xFF)
        #expect(MessageCodec.helloVersion(framed(type: 1, junk.bytes)) == version)
        #expect(MessageCodec.helloVersion(framed(type: 1, bytes { $0.u16(1) })) == nil, "too short")
        #expect(MessageCodec.helloVersion(framed(type: 5, bytes { $0.u64(UInt64(version)) })) == nil, "a ping")
        #expect(MessageCodec.helloVersion(framed(type: 1, declaredLength: 9, bytes { $0.u32(version) })) == nil)
    }

    @Test func stringsOverTheLimitAreBadStrings() throws {
        let limit = WireLimits.maxStringBytes
        let tooLong = String(repeating: "x", count: limit + 1)
        // The encoder writes them; the decoder refuses them.
        #expect(throws: WireError.badString(field: "hello.clientName")) {
            try MessageCodec.decodeClient(
                MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: tooLong)))
        }
        #expect(throws: WireError.badString(field: "name")) {
            try MessageCodec.decodeClient(MessageCodec.encode(ClientMessage.transactionPart([.set(1, .name(tooLong))])))
        }
        #expect(throws: WireError.badString(field: "pong.serverVersion")) {
            try MessageCodec.decodeServer(MessageCodec.encode(ServerMessage.pong(requestID: 1, serverVersion: tooLong)))
        }
        // A huge declared length with no bytes behind it is refused before reading, as too long.
        let huge = framed(
            type: 1,
            bytes {
                $0.u32(1); $0.u32(.max)
            })
        #expect(throws: WireError.badString(field: "hello.clientName")) { try MessageCodec.decodeClient(huge) }
        // At the limit but with the bytes missing: truncated.
        let short = framed(
            type: 1,
            bytes {
                $0.u32(1); $0.u32(UInt32(limit)); $0.u8(0x61)
            })
        #expect(throws: WireError.truncated(field: "hello.clientName")) { try MessageCodec.decodeClient(short) }
        // Tree text may be longer than the general string limit.
        let text = String(repeating: "t", count: limit * 4)
        #expect(
            try MessageCodec.decodeServer(MessageCodec.encode(ServerMessage.treeDescription(requestID: 1, text: text)))
                == .treeDescription(requestID: 1, text: text))
    }

    @Test func hostileCountsThrowQuicklyWithoutAllocating() {
        let clock = ContinuousClock()
        let start = clock.now
        // A count claiming more elements than there are bytes (but within the limit).
        let sublayers = framed(
            type: 2,
            bytes {
                $0.u32(1); $0.u8(4); $0.u64(1); $0.u32(UInt32(WireLimits.maxSublayers - 1)); $0.u64(2)
            })
        #expect(throws: WireError.truncated(field: "setSublayers.sublayers")) {
            try MessageCodec.decodeClient(sublayers)
        }
        // A million sublayers with eight bytes behind them.
        let million = framed(
            type: 2,
            bytes {
                $0.u32(1); $0.u8(4); $0.u64(1); $0.u32(1_000_000); $0.u64(2)
            })
        #expect(throws: WireError.self) { try MessageCodec.decodeClient(million) }
        // Operation counts.
        let ops = framed(
            type: 3,
            bytes {
                $0.u64(1); $0.u32(10_000); $0.u8(1); $0.u64(1)
            })
        #expect(throws: WireError.truncated(field: "operations")) { try MessageCodec.decodeClient(ops) }
        let opsMax = framed(
            type: 2,
            bytes {
                $0.u32(.max); $0.u8(1); $0.u64(1)
            })
        #expect(throws: WireError.self) { try MessageCodec.decodeClient(opsMax) }
        // Display counts.
        let welcome = framed(
            type: 101,
            bytes {
                $0.u32(1); $0.string("v"); $0.u32(9); $0.u32(1)
            })
        #expect(throws: WireError.truncated(field: "welcome.displays")) { try MessageCodec.decodeServer(welcome) }
        for _ in 0..<200 {
            _ = try? MessageCodec.decodeClient(million)
            _ = try? MessageCodec.decodeClient(opsMax)
        }
        #expect(clock.now - start < .seconds(1))
    }

    @Test func countsAboveTheirLimitsAreCountTooLarge() throws {
        let n = WireLimits.maxSublayers + 1
        let sublayers = framed(
            type: 2,
            bytes {
                $0.u32(1); $0.u8(4); $0.u64(1); $0.u32(UInt32(n)); $0.u64(2)
            })
        #expect(
            throws: WireError.countTooLarge(field: "setSublayers.sublayers", count: n, limit: WireLimits.maxSublayers)
        ) {
            try MessageCodec.decodeClient(sublayers)
        }
        #expect(
            throws: WireError.countTooLarge(
                field: "setSublayers.sublayers", count: 1_000_000, limit: WireLimits.maxSublayers)
        ) {
            try MessageCodec.decodeClient(
                framed(
                    type: 2,
                    bytes {
                        $0.u32(1); $0.u8(4); $0.u64(1); $0.u32(1_000_000); $0.u64(2)
                    }))
        }
        let d = WireLimits.maxDisplays + 1
        let welcome = framed(
            type: 101,
            bytes {
                $0.u32(1); $0.string("v"); $0.u32(1); $0.u32(UInt32(d))
                for i in 0..<d { $0.u32(UInt32(i)); $0.u32(1); $0.u32(1); $0.f64(60); $0.string(""); $0.string("") }
            })
        #expect(throws: WireError.countTooLarge(field: "welcome.displays", count: d, limit: WireLimits.maxDisplays)) {
            try MessageCodec.decodeServer(welcome)
        }
        let ops = framed(
            type: 3,
            bytes {
                $0.u64(1); $0.u32(.max); $0.u8(1); $0.u64(1)
            })
        do {
            _ = try MessageCodec.decodeClient(ops)
            Issue.record("an operation count of UInt32.max decoded")
        } catch {
            guard case .countTooLarge(let field, let count, let limit) = error else {
                Issue.record("expected countTooLarge, got \(error)")
                return
            }
            #expect(field == "operations")
            #expect(count == Int(UInt32.max))
            #expect(limit <= WireLimits.maxOperationsPerTransaction)
        }
    }

    @Test func countsAtTheirLimitsDecode() throws {
        let children = (1...UInt64(WireLimits.maxSublayers)).map { $0 }
        let part = ClientMessage.transactionPart([.setSublayers(1, children)])
        #expect(try MessageCodec.decodeClient(MessageCodec.encode(part)) == part)
    }
}

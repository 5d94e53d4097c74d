// Tests of the wire codec: MessageCodec, WireReader/WireWriter and WireError, plus the value checks on
// LayerProperty (invalidReason, differences(from:to:)).
import Foundation
import LaminaCore
import LaminaTesting
import Testing

@testable import LaminaProtocol

@Suite struct CodecTests {
    // MARK: Round trips

    @Test(arguments: clientTable)
    func clientMessageRoundTrips(_ message: ClientMessage) throws {
        let encoded = MessageCodec.encode(message)
        #expect(try MessageCodec.decodeClient(encoded) == message)
        // The header: a known type, flags 0, the payload's exact length.
        #expect(encoded.count >= 8)
        #expect(encoded[2] == 0 && encoded[3] == 0)
        let declared = Int(encoded[4]) | Int(encoded[5]) << 8 | Int(encoded[6]) << 16 | Int(encoded[7]) << 24
        #expect(declared == encoded.count - 8)
        #expect(MessageType(rawValue: typeCode(of: encoded)) != nil)
    }

    @Test(arguments: serverTable)
    func serverMessageRoundTrips(_ message: ServerMessage) throws {
        let encoded = MessageCodec.encode(message)
        #expect(try MessageCodec.decodeServer(encoded) == message)
        #expect(encoded[2] == 0 && encoded[3] == 0)
        #expect(MessageType(rawValue: typeCode(of: encoded)).map { $0.rawValue > 100 } == true)
    }

    @Test(arguments: errorCodes)
    func everyServerErrorCodeRoundTrips(_ code: ServerErrorCode) throws {
        let message = ServerMessage.error(code: code, message: "code \(code.rawValue)")
        #expect(try MessageCodec.decodeServer(MessageCodec.encode(message)) == message)
    }

    @Test(arguments: propertyTable)
    func propertyRoundTripsInCommitAndTransactionPart(_ property: LayerProperty) throws {
        let ops: [LayerOperation] = [.createLayer(5), .set(5, property), .set(.max, property)]
        let commit = ClientMessage.commit(serial: 77, operations: ops)
        let part = ClientMessage.transactionPart(ops)
        #expect(try MessageCodec.decodeClient(MessageCodec.encode(commit)) == commit)
        #expect(try MessageCodec.decodeClient(MessageCodec.encode(part)) == part)
        // Equality cannot see the sign of zero; the bits must survive too.
        #expect(bitPatterns(try decodeSet(property)) == bitPatterns(property))
    }

    @Test(arguments: operationTable)
    func operationRoundTripsInCommitAndTransactionPart(_ op: LayerOperation) throws {
        let commit = ClientMessage.commit(serial: 3, operations: [op])
        let part = ClientMessage.transactionPart([op, op])
        #expect(try MessageCodec.decodeClient(MessageCodec.encode(commit)) == commit)
        #expect(try MessageCodec.decodeClient(MessageCodec.encode(part)) == part)
        // encodedSize(of:) is exactly what the operation adds to a message.
        let empty = MessageCodec.encode(ClientMessage.transactionPart([])).count
        #expect(
            MessageCodec.encode(ClientMessage.transactionPart([op])).count == empty + MessageCodec.encodedSize(of: op))
    }

    @Test func propertyCodesAreDistinctAndMatchTheirDecoding() throws {
        var seen: [UInt8: LayerProperty] = [:]
        for p in propertyTable {
            func caseName(_ p: LayerProperty) -> Substring { String(describing: p).prefix { $0 != "(" } }
            if let other = seen[p.code] {
                #expect(caseName(other) == caseName(p), "code \(p.code) shared by \(other) and \(p)")
            }
            seen[p.code] = p
            // The code is the byte right after the operation code and the layer id.
            let encoded = MessageCodec.encode(ClientMessage.transactionPart([.set(1, p)]))
            #expect(encoded[8 + 4 + 1 + 8] == p.code)
        }
        #expect(Set(seen.keys) == Set(1...16).union(37...67))
    }

    @Test func nanValuesSurviveBitForBit() throws {
        let nan = Double.nan
        let payloadNaN = Double(nan: 0x1234, signaling: false)
        let properties: [LayerProperty] = [
            .bounds(CGRect(x: nan, y: -nan, width: payloadNaN, height: 1)),
            .position(CGPoint(x: nan, y: 0)),
            .zPosition(CGFloat(payloadNaN)),
            .transform(
                CATransform3D(
                    m11: nan, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                    m31: 0, m32: 0, m33: 1, m34: payloadNaN, m41: 0, m42: 0, m43: 0, m44: 1)),
            .backgroundColor(RGBAColor(red: nan, green: 0, blue: 0, alpha: 1)),
            .opacity(.nan),
        ]
        for p in properties {
            #expect(bitPatterns(try decodeSet(p)) == bitPatterns(p), "\(p)")
        }
        let capture = try MessageCodec.decodeClient(
            MessageCodec.encode(ClientMessage.capture(requestID: 1, display: 0, time: payloadNaN)))
        guard case .capture(1, 0, let time?) = capture else { Issue.record("\(capture)"); return }
        #expect(time.bitPattern == payloadNaN.bitPattern)
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let back = try decodeSet(.zPosition(-0.0))
        guard case .zPosition(let z) = back else { Issue.record("\(back)"); return }
        #expect(z == 0 && z.sign == .minus)
        let presented = try MessageCodec.decodeServer(
            MessageCodec.encode(ServerMessage.commitPresented(serial: 1, time: -0.0)))
        guard case .commitPresented(1, let t) = presented else { Issue.record("\(presented)"); return }
        #expect(t.sign == .minus)
    }

    @Test func knownWireLayoutIsLittleEndian() {
        #expect(
            MessageCodec.encode(ClientMessage.ping(requestID: 0x0102_0304_0506_0708))
                == [5, 0, 0, 0, 8, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1])
        #expect(
            MessageCodec.encode(ServerMessage.commitApplied(serial: 0x10))
                == [102, 0, 0, 0, 8, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0])
        #expect(
            MessageCodec.encode(
                ClientMessage.hello(
                    version: 2, clientName: "é", contextId: 0x0102_0304, exportToken: 0x1112_1314_1516_1718))
                == [
                    1, 0, 0, 0, 22, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0xC3, 0xA9, 4, 3, 2, 1,
                    0x18, 0x17, 0x16, 0x15, 0x14, 0x13, 0x12, 0x11,
                ])
        // commit: serial, op count, then createLayer(op 1, id) and setRoot(op 5, display, layer 0 = none).
        #expect(
            MessageCodec.encode(
                ClientMessage.commit(serial: 2, operations: [.createLayer(3), .setRoot(display: 4, layer: nil)]))
                == [
                    3, 0, 0, 0, 34, 0, 0, 0,
                    2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0,
                    1, 3, 0, 0, 0, 0, 0, 0, 0,
                    5, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                ])
        // capture without a time: flag 0 and eight zero bytes.
        #expect(
            MessageCodec.encode(ClientMessage.capture(requestID: 1, display: 2, time: nil))
                == [4, 0, 0, 0, 21, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        // captureLayer: request id, layer id, width, height, scale (2.0).
        #expect(
            MessageCodec.encode(
                ClientMessage.captureLayer(requestID: 1, layer: 0x0203, width: 64, height: 0x0120, scale: 2))
                == [13, 0, 0, 0, 32, 0, 0, 0]
                + [1, 0, 0, 0, 0, 0, 0, 0]  // request id
                + [3, 2, 0, 0, 0, 0, 0, 0]  // layer
                + [64, 0, 0, 0, 0x20, 1, 0, 0]  // width, height
                + [0, 0, 0, 0, 0, 0, 0, 0x40])  // 2.0
    }

    /// `welcome` (docs/protocol.md §5): version, server version, context id, display count, then per
    /// display id, width, height, refresh rate, name and connector; `displaysChanged` is the display
    /// list alone.
    @Test func welcomeAndDisplaysChangedLayoutsByteByByte() {
        let display = DisplayInfo(id: 1, width: 0x280, height: 0x1E0, refreshRate: 60, name: "win", connector: ":9")
        let list: [UInt8] =
            [1, 0, 0, 0]  // display count
            + [1, 0, 0, 0, 0x80, 2, 0, 0, 0xE0, 1, 0, 0]  // id, width, height
            + [0, 0, 0, 0, 0, 0, 0x4E, 0x40]  // 60.0
            + [3, 0, 0, 0, 0x77, 0x69, 0x6E]  // "win"
            + [2, 0, 0, 0, 0x3A, 0x39]  // ":9"
        let welcome: [UInt8] =
            [1, 0, 0, 0]  // version
            + [1, 0, 0, 0, 0x76]  // "v"
            + [0x2A, 0, 0, 0]  // context id 42
            + list
        #expect(
            MessageCodec.encode(
                ServerMessage.welcome(version: 1, serverVersion: "v", contextId: 42, displays: [display]))
                == [101, 0, 0, 0, UInt8(welcome.count), 0, 0, 0] + welcome)
        #expect(
            MessageCodec.encode(ServerMessage.displaysChanged([display]))
                == [111, 0, 0, 0, UInt8(list.count), 0, 0, 0] + list)
        #expect(
            MessageCodec.encode(ServerMessage.exportToken(requestID: 1, token: 0x0102_0304_0506_0708))
                == [112, 0, 0, 0, 16, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1])
        #expect(
            MessageCodec.encode(ServerMessage.warning(code: .tokenMismatch, message: "t"))
                == [113, 0, 0, 0, 7, 0, 0, 0, 18, 0, 1, 0, 0, 0, 0x74])
        #expect(MessageCodec.encode(ClientMessage.setLevel(2)) == [11, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40])
        #expect(
            MessageCodec.encode(ClientMessage.requestExportToken(requestID: 3))
                == [12, 0, 0, 0, 8, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0])
        // setHost: op 8, layer id, context id, token.
        #expect(
            MessageCodec.encode(ClientMessage.commit(serial: 0, operations: [.setHost(5, contextId: 6, token: 7)]))
                == [3, 0, 0, 0, 33, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 8, 5, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0]
                + [7, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func documentedLossyMappings() throws {
        // Layer id 0 is reserved: setRoot with layer 0 is "no root".
        let root = try MessageCodec.decodeClient(
            MessageCodec.encode(ClientMessage.commit(serial: 1, operations: [.setRoot(display: 3, layer: 0)])))
        #expect(root == .commit(serial: 1, operations: [.setRoot(display: 3, layer: nil)]))
        // An error code this version does not know reads as internalError, with its text intact.
        let unknownCode = framed(
            type: 104,
            bytes {
                $0.u16(999); $0.string("future")
            })
        #expect(try MessageCodec.decodeServer(unknownCode) == .error(code: .internalError, message: "future"))
        // Any non-zero byte reads as true.
        let hidden = framed(
            type: 2,
            bytes {
                $0.u32(1); $0.u8(3); $0.u64(1); $0.u8(9); $0.u8(0xFF)
            })
        #expect(try MessageCodec.decodeClient(hidden) == .transactionPart([.set(1, .isHidden(true))]))
        // capture's time is ignored when its flag is clear.
        let capture = framed(
            type: 4,
            bytes {
                $0.u64(1); $0.u32(0); $0.bool(false); $0.f64(99)
            })
        #expect(try MessageCodec.decodeClient(capture) == .capture(requestID: 1, display: 0, time: nil))
    }

    @Test func longErrorTextIsCutToTheStringLimit() throws {
        let ascii = String(repeating: "a", count: WireLimits.maxStringBytes + 500)
        let back = try MessageCodec.decodeServer(MessageCodec.encode(ServerMessage.error(code: .cycle, message: ascii)))
        #expect(back == .error(code: .cycle, message: String(repeating: "a", count: WireLimits.maxStringBytes)))
    }

    @Test func longNonASCIIErrorTextIsCutAtACharacterBoundary() throws {
        // 1 + 2 × 3000 bytes: the limit (4096) falls inside a two-byte "é".
        let text = "a" + String(repeating: "é", count: 3000)
        let back = try MessageCodec.decodeServer(
            MessageCodec.encode(ServerMessage.error(code: .invalidValue, message: text)))
        guard case .error(.invalidValue, let received) = back else { Issue.record("\(back)"); return }
        #expect(received.utf8.count <= WireLimits.maxStringBytes)
        #expect(
            text.hasPrefix(received) && received.utf8.count >= WireLimits.maxStringBytes - 3,
            "got \(received.prefix(20)) (\(received.utf8.count) bytes)")
    }
}

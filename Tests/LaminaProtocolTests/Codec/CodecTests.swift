// Tests of the wire codec: MessageCodec, WireReader/WireWriter and WireError, plus the value checks on
// LayerProperty (invalidReason, differences(from:to:)).
import Foundation
import LaminaCore
import LaminaTesting
import Testing

@testable import LaminaProtocol

// MARK: - Helpers

private typealias AnyMessage = CodecTests.AnyMessage

extension CodecTests {
    /// Either direction's message, so one table can hold both.
    enum AnyMessage: Sendable, Hashable, CustomStringConvertible {
        case client(ClientMessage)
        case server(ServerMessage)

        var encoded: [UInt8] {
            switch self {
            case .client(let m): MessageCodec.encode(m)
            case .server(let m): MessageCodec.encode(m)
            }
        }

        /// Decodes `bytes` with the decoder for this message's direction.
        func decodeSameDirection(_ bytes: [UInt8]) throws(WireError) -> AnyMessage {
            switch self {
            case .client: .client(try MessageCodec.decodeClient(bytes))
            case .server: .server(try MessageCodec.decodeServer(bytes))
            }
        }

        /// The name the codec uses for this message's type in `trailingBytes`.
        var typeName: String {
            switch self {
            case .client(let m):
                switch m {
                case .hello: "hello"
                case .transactionPart: "transactionPart"
                case .commit: "commit"
                case .capture: "capture"
                case .captureLayer: "captureLayer"
                case .ping: "ping"
                case .describeTree: "describeTree"
                case .frameEvents: "frameEvents"
                case .uploadImage: "uploadImage"
                case .releaseImage: "releaseImage"
                case .stats: "stats"
                case .setLevel: "setLevel"
                case .requestExportToken: "requestExportToken"
                case .frameRecords: "frameRecords"
                }
            case .server(let m):
                switch m {
                case .welcome: "welcome"
                case .commitApplied: "commitApplied"
                case .commitPresented: "commitPresented"
                case .error: "error"
                case .captureResult: "captureResult"
                case .pong: "pong"
                case .treeDescription: "treeDescription"
                case .animationEvents: "animationEvents"
                case .frame: "frame"
                case .statsReply: "statsReply"
                case .displaysChanged: "displaysChanged"
                case .exportToken: "exportToken"
                case .warning: "warning"
                case .frameRecordsReply: "frameRecordsReply"
                }
            }
        }

        var description: String {
            let text: String
            switch self {
            case .client(let m): text = "client \(m)"
            case .server(let m): text = "server \(m)"
            }
            return text.count > 120 ? String(text.prefix(120)) + "…" : text
        }
    }
}

/// A header (type, flags, declared payload length) followed by `payload`.
private func framed(type: UInt16, flags: UInt16 = 0, declaredLength: UInt32? = nil, _ payload: [UInt8]) -> [UInt8] {
    var w = WireWriter()
    w.u16(type)
    w.u16(flags)
    w.u32(declaredLength ?? UInt32(payload.count))
    return w.bytes + payload
}

/// The payload of an encoded message.
private func payload(of message: [UInt8]) -> [UInt8] { Array(message.dropFirst(8)) }

/// The message type number of an encoded message.
private func typeCode(of message: [UInt8]) -> UInt16 { UInt16(message[0]) | UInt16(message[1]) << 8 }

/// The message with its payload cut to `count` bytes and the header's length corrected to match.
private func cutPayload(_ message: [UInt8], to count: Int) -> [UInt8] {
    framed(type: typeCode(of: message), Array(payload(of: message).prefix(count)))
}

/// A payload builder for hand-made (often malformed) messages.
private func bytes(_ build: (inout WireWriter) -> Void) -> [UInt8] {
    var w = WireWriter()
    build(&w)
    return w.bytes
}

/// A test-local stream framer: accumulates bytes and cuts whole messages using the 8-byte header.
private struct StreamFramer {
    private var buffer: [UInt8] = []

    /// Appends bytes; returns every message completed by them, in order.
    mutating func append<S: Sequence>(_ bytes: S) -> [[UInt8]] where S.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        var out: [[UInt8]] = []
        while buffer.count >= 8 {
            let length = Int(buffer[4]) | Int(buffer[5]) << 8 | Int(buffer[6]) << 16 | Int(buffer[7]) << 24
            guard buffer.count >= 8 + length else { break }
            out.append(Array(buffer[..<(8 + length)]))
            buffer.removeFirst(8 + length)
        }
        return out
    }

    var pendingByteCount: Int { buffer.count }
}

/// A transform whose sixteen entries all differ (so a swapped pair of entries would be noticed).
private let distinctTransform = CATransform3D(
    m11: 1, m12: -2, m13: 3.5, m14: -0.0, m21: 5e-300, m22: 6e300, m23: -7, m24: 8,
    m31: .greatestFiniteMagnitude, m32: -.greatestFiniteMagnitude, m33: .leastNonzeroMagnitude, m34: -1.0 / 500,
    m41: 13, m42: 14, m43: 15, m44: 16)

private let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
private let odd = RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)

/// Every property case, with ordinary, edge and extreme values.
private let propertyTable: [LayerProperty] = [
    .bounds(CGRect(x: 0, y: 0, width: 100, height: 50)),
    .bounds(.zero),
    .bounds(CGRect(x: -10.25, y: -0.0, width: CGFloat.leastNonzeroMagnitude * 1e13, height: 3)),
    .bounds(
        CGRect(
            x: CGFloat.greatestFiniteMagnitude, y: -CGFloat.greatestFiniteMagnitude,
            width: CGFloat.greatestFiniteMagnitude, height: CGFloat.leastNormalMagnitude)),
    .bounds(CGRect(x: CGFloat.infinity, y: -CGFloat.infinity, width: -5, height: -0.0)),
    .position(CGPoint(x: 160, y: -240.5)),
    .position(CGPoint(x: -CGFloat.greatestFiniteMagnitude, y: CGFloat.greatestFiniteMagnitude)),
    .anchorPoint(CGPoint(x: 0.5, y: 0.5)),
    .anchorPoint(CGPoint(x: -0.0, y: 1)),
    .anchorPointZ(0),
    .anchorPointZ(-.greatestFiniteMagnitude),
    .zPosition(-0.0),
    .zPosition(1e308),
    .zPosition(-.infinity),
    .transform(CATransform3DIdentity),
    .transform(CATransform3D()),
    .transform(distinctTransform),
    .sublayerTransform(CATransform3DIdentity),
    .sublayerTransform(distinctTransform),
    .opacity(0),
    .opacity(1),
    .opacity(0.3),
    .opacity(-0.0),
    .opacity(-1),
    .opacity(.greatestFiniteMagnitude),
    .opacity(.leastNonzeroMagnitude),
    .opacity(.infinity),
    .isHidden(true),
    .isHidden(false),
    .backgroundColor(nil),
    .backgroundColor(red),
    .backgroundColor(odd),
    .backgroundColor(.clear),
    .backgroundColor(RGBAColor(red: -1, green: 2, blue: .greatestFiniteMagnitude, alpha: -0.0)),
    .cornerRadius(0),
    .cornerRadius(12.5),
    .cornerRadius(.greatestFiniteMagnitude),
    .maskedCorners([]),
    .maskedCorners(.all),
    .maskedCorners([.layerMinXMaxYCorner]),
    .maskedCorners([.layerMaxXMinYCorner, .layerMaxXMaxYCorner]),
    .maskedCorners(CACornerMask(rawValue: 0xFFFF_FFFF)),
    .borderWidth(0),
    .borderWidth(0.5),
    .borderWidth(-.greatestFiniteMagnitude),
    .borderColor(nil),
    .borderColor(.black),
    .borderColor(odd),
    .masksToBounds(true),
    .masksToBounds(false),
    .name(nil),
    .name(""),
    .name("layer"),
    .name("日本語のレイヤー 🎨🧪"),
    .name("e\u{301} and é"),
    .name("nul\u{0}inside\n\ttabs"),
    .name("\u{FEFF}\u{10FFFF}\u{7F}"),
    .name(String(repeating: "x", count: WireLimits.maxStringBytes)),
    .name(String(repeating: "€", count: WireLimits.maxStringBytes / 3)),  // 4095 bytes of 3-byte scalars
]

/// Every operation case.
private let operationTable: [LayerOperation] = [
    .createLayer(1),
    .createLayer(.max),
    .destroyLayer(0),
    .destroyLayer(0x0102_0304_0506_0708),
    .set(7, .opacity(0.5)),
    .set(.max, .name("ünïcødé")),
    .set(3, .transform(distinctTransform)),
    .set(4, .backgroundColor(nil)),
    .setSublayers(1, []),
    .setSublayers(2, [3, 4, 5]),
    .setSublayers(.max, [.max, 0, 1, .max - 1]),
    .setRoot(display: 0, layer: nil),
    .setRoot(display: 1, layer: 42),
    .setRoot(display: .max, layer: .max),
]

private let mixedOperations: [LayerOperation] =
    operationTable + propertyTable.enumerated().map { .set(LayerID($0.offset + 100), $0.element) }

private let displays: [DisplayInfo] = [
    DisplayInfo(id: 0, width: 1920, height: 1080, refreshRate: 60, name: "offscreen-0"),
    DisplayInfo(id: .max, width: .max, height: 0, refreshRate: 59.94, name: "window-1", connector: ":99"),
    DisplayInfo(
        id: 2, width: 1, height: 1, refreshRate: 0.5,
        name: String(repeating: "n", count: WireLimits.maxDisplayNameBytes),
        connector: "ünï 🚀"),
]

private let clientTable: [ClientMessage] = [
    .hello(version: WireLimits.protocolVersion, clientName: "lamina-demo"),
    .hello(version: WireLimits.protocolVersion, clientName: ""),
    .hello(version: WireLimits.protocolVersion, clientName: "klïent 🚀 名前", contextId: 7, exportToken: 0xFEED_F00D),
    .hello(
        version: WireLimits.protocolVersion, clientName: String(repeating: "n", count: WireLimits.maxStringBytes),
        contextId: .max, exportToken: .max),
    .transactionPart([]),
    .transactionPart(operationTable),
    .transactionPart(mixedOperations),
    .commit(serial: 0, operations: []),
    .commit(serial: 1, operations: [.createLayer(1), .setRoot(display: 0, layer: 1)]),
    .commit(serial: .max, operations: mixedOperations),
    .capture(requestID: 0, display: 0, time: nil),
    .capture(requestID: 9, display: 2, time: 0),
    .capture(requestID: .max, display: .max, time: 12345.678),
    .capture(requestID: 3, display: 1, time: -.greatestFiniteMagnitude),
    .capture(requestID: 4, display: 1, time: .infinity),
    .captureLayer(requestID: 0, layer: 0, width: 0, height: 0, scale: 0),
    .captureLayer(requestID: .max, layer: .max, width: .max, height: .max, scale: .infinity),
    .captureLayer(requestID: 5, layer: 7, width: 64, height: 32, scale: 2),
    .ping(requestID: 0),
    .ping(requestID: .max),
    .describeTree(requestID: 0),
    .describeTree(requestID: 0xDEAD_BEEF_CAFE_F00D),
    .uploadImage(id: 1, width: 64, height: 32, stride: 256),
    .uploadImage(id: .max, width: .max, height: 0, stride: .max),
    .releaseImage(id: 1),
    .releaseImage(id: 0),
    .stats(requestID: 0),
    .stats(requestID: .max),
    .setLevel(0),
    .setLevel(-1.5),
    .setLevel(.greatestFiniteMagnitude),
    .requestExportToken(requestID: 0),
    .requestExportToken(requestID: .max),
    .frameRecords(requestID: 1, display: 0, count: 60),
    .commit(
        serial: 2,
        operations: [.setHost(1, contextId: 7, token: 0xFEED_F00D_DEAD_BEEF), .setHost(.max, contextId: 0, token: 0)]),
]

private let serverTable: [ServerMessage] = [
    .welcome(version: 1, serverVersion: "laminad 0.1", contextId: 1, displays: []),
    .welcome(version: .max, serverVersion: "", contextId: 1, displays: displays),
    .welcome(
        version: 1, serverVersion: "vé🚀",
        contextId: 1,
        displays: (0..<UInt32(WireLimits.maxDisplays)).map {
            DisplayInfo(id: $0, width: $0 * 100, height: $0 &* 7, refreshRate: Double($0) + 0.5)
        }),
    .commitApplied(serial: 0),
    .commitApplied(serial: .max),
    .commitPresented(serial: 5, time: 1.25),
    .commitPresented(serial: .max, time: .greatestFiniteMagnitude),
    .commitPresented(serial: 0, time: -.infinity),
    .error(code: .protocolViolation, message: "bad"),
    .error(code: .internalError, message: ""),
    .error(code: .cycle, message: "layer 5 would contain itself — ошибка"),
    .error(code: .limitExceeded, message: String(repeating: "z", count: WireLimits.maxStringBytes)),
    .captureResult(requestID: 1, width: 640, height: 480, stride: 2560, time: 3.5),
    .captureResult(requestID: .max, width: .max, height: .max, stride: .max, time: -0.0),
    .pong(requestID: 7, serverVersion: "1.0"),
    .pong(requestID: .max, serverVersion: "ünï"),
    .treeDescription(requestID: 1, text: ""),
    .treeDescription(requestID: 2, text: "root #1\n  child #2 bounds=(0,0,10,10) «name» 🌳\n"),
    .treeDescription(requestID: 3, text: String(repeating: "line of tree text\n", count: 5_000)),
    .statsReply(requestID: 1, clients: []),
    .statsReply(
        requestID: .max,
        clients: [
            ClientStatistics(name: "demo", pid: 4321, layers: 1000, animations: 2, images: 1, textureBytes: 21845),
            ClientStatistics(name: "ünï", pid: -1, layers: 0, animations: 0, images: .max, textureBytes: .max),
        ]),
    .displaysChanged([]),
    .displaysChanged(displays),
    .exportToken(requestID: 1, token: 0x0123_4567_89AB_CDEF),
    .exportToken(requestID: .max, token: .max),
    .frameRecordsReply(
        requestID: 2,
        records: [
            FrameRecord(
                time: 1, display: 0, layersVisited: 3, instancesEmitted: 4, pixelsDrawn: 5, displayPixels: 6,
                offscreenPasses: 0, cpuMilliseconds: 0.5, gpuMilliseconds: nil, missedDeadline: false)
        ]),
    .warning(code: .tokenMismatch, message: "host layer 3: context 2: token does not match"),
    .warning(code: .internalError, message: ""),
]

private let errorCodes: [ServerErrorCode] = [
    .protocolViolation, .unsupportedVersion, .malformedMessage, .unknownMessage, .unknownOperation,
    .unknownProperty, .unknownLayer, .duplicateLayer, .cycle, .invalidValue, .oversizedMessage, .limitExceeded,
    .badDisplay, .badFileDescriptor, .internalError, .unknownImage, .duplicateImage, .tokenMismatch,
    .contextIdUnavailable,
]

private let allMessages: [AnyMessage] = clientTable.map(AnyMessage.client) + serverTable.map(AnyMessage.server)

/// A commit with several operations of different kinds, for the truncation tests.
private let mixedCommit: ClientMessage = .commit(
    serial: 0x1122_3344_5566_7788,
    operations: [
        .createLayer(1),
        .createLayer(2),
        .set(2, .bounds(CGRect(x: 1, y: 2, width: 3, height: 4))),
        .set(2, .name("chïld")),
        .set(2, .backgroundColor(odd)),
        .set(2, .borderColor(nil)),
        .set(1, .transform(distinctTransform)),
        .set(1, .maskedCorners(.all)),
        .set(1, .isHidden(true)),
        .setSublayers(1, [2]),
        .setRoot(display: 0, layer: 1),
        .destroyLayer(9),
    ])

/// Bit-for-bit comparison of the floating-point values a property carries (== cannot see -0 or NaN).
private func bitPatterns(_ p: LayerProperty) -> [UInt64] {
    func b(_ v: CGFloat) -> UInt64 { Double(v).bitPattern }
    func t(_ m: CATransform3D) -> [UInt64] {
        [
            m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24,
            m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43, m.m44,
        ].map(b)
    }
    func c(_ c: RGBAColor?) -> [UInt64] { c.map { [$0.red, $0.green, $0.blue, $0.alpha].map(\.bitPattern) } ?? [] }
    switch p {
    case .bounds(let r): return [r.origin.x, r.origin.y, r.size.width, r.size.height].map(b)
    case .position(let q), .anchorPoint(let q): return [b(q.x), b(q.y)]
    case .anchorPointZ(let v), .zPosition(let v), .cornerRadius(let v), .borderWidth(let v): return [b(v)]
    case .transform(let m), .sublayerTransform(let m): return t(m)
    case .opacity(let o): return [UInt64(o.bitPattern)]
    case .backgroundColor(let col), .borderColor(let col): return c(col)
    case .beginTime(let v), .timeOffset(let v), .speed(let v): return [v.bitPattern]
    case .contentsRect(let r), .contentsCenter(let r):
        return [r.origin.x, r.origin.y, r.size.width, r.size.height].map(b)
    case .contentsScale(let v), .rasterizationScale(let v): return [b(v)]
    case .minificationFilterBias(let v): return [UInt64(v.bitPattern)]
    case .contents(let id): return [id]
    case .isHidden, .masksToBounds, .maskedCorners, .name, .isGeometryFlipped, .cornerCurve, .contentsGravity,
        .allowsEdgeAntialiasing, .allowsGroupOpacity, .edgeAntialiasingMask, .minificationFilter, .magnificationFilter,
        .isOpaque, .isDoubleSided, .shouldRasterize:
        return []
    }
}

private func decodeSet(_ property: LayerProperty) throws -> LayerProperty {
    let decoded = try MessageCodec.decodeClient(MessageCodec.encode(.transactionPart([.set(1, property)])))
    guard case .transactionPart(let ops) = decoded, ops.count == 1, case .set(1, let back) = ops[0] else {
        Issue.record("unexpected decode \(decoded)")
        return property
    }
    return back
}

// MARK: - Tests

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
        #expect(Set(seen.keys) == Set(1...16))
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

    // MARK: Unknown codes, bad strings, counts

    @Test(arguments: [UInt16(0), 15, 100, 101, 104, 107, 108, 0x7FFF, 0xFFFF])
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

    @Test(arguments: [UInt8(0), 9, 10, 0x80, 0xFF])
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

    @Test(arguments: [UInt8(0), 37, 38, 0x7F, 0xFF])
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

    // MARK: Error descriptions name the field

    static let truncationCases: [(AnyMessage, Int, String)] = {
        // A 138-byte operation in front makes room, so the count check passes and the cut lands in the next operation.
        let pad = LayerOperation.set(1, .transform(distinctTransform))
        let at = 12 + 138
        func c(_ ops: [LayerOperation]) -> AnyMessage { .client(.commit(serial: 1, operations: [pad] + ops)) }
        return [
            (.client(.hello(version: WireLimits.protocolVersion, clientName: "abc")), 2, "hello.version"),
            (.client(.hello(version: WireLimits.protocolVersion, clientName: "abc")), 6, "hello.clientName"),
            (.client(.hello(version: WireLimits.protocolVersion, clientName: "abc")), 9, "hello.clientName"),
            (.client(.hello(version: WireLimits.protocolVersion, clientName: "abc")), 13, "hello.contextId"),
            (.client(.hello(version: WireLimits.protocolVersion, clientName: "abc")), 18, "hello.exportToken"),
            (.client(.capture(requestID: 1, display: 2, time: 3)), 4, "capture.requestID"),
            (.client(.capture(requestID: 1, display: 2, time: 3)), 10, "capture.display"),
            (.client(.capture(requestID: 1, display: 2, time: 3)), 12, "capture.hasTime"),
            (.client(.capture(requestID: 1, display: 2, time: 3)), 15, "capture.time"),
            (
                .client(.captureLayer(requestID: 1, layer: 2, width: 3, height: 4, scale: 1)), 7,
                "captureLayer.requestID"
            ),
            (.client(.captureLayer(requestID: 1, layer: 2, width: 3, height: 4, scale: 1)), 15, "captureLayer.layer"),
            (.client(.captureLayer(requestID: 1, layer: 2, width: 3, height: 4, scale: 1)), 19, "captureLayer.width"),
            (.client(.captureLayer(requestID: 1, layer: 2, width: 3, height: 4, scale: 1)), 23, "captureLayer.height"),
            (.client(.captureLayer(requestID: 1, layer: 2, width: 3, height: 4, scale: 1)), 31, "captureLayer.scale"),
            (.client(.ping(requestID: 1)), 7, "ping.requestID"),
            (.client(.describeTree(requestID: 1)), 0, "describeTree.requestID"),
            (.client(.commit(serial: 1, operations: [])), 3, "commit.serial"),
            (.client(.commit(serial: 1, operations: [])), 9, "operations"),
            (.client(.commit(serial: 1, operations: [.createLayer(1)])), 14, "operations"),
            (.client(.transactionPart([.createLayer(1)])), 2, "operations"),
            (c([.createLayer(7)]), at + 3, "createLayer.id"),
            (c([.destroyLayer(7)]), at + 5, "destroyLayer.id"),
            (c([.set(7, .opacity(1))]), at + 4, "set.id"),
            (c([.set(7, .opacity(1))]), at + 9, "set.property"),
            (c([.set(7, .opacity(1))]), at + 12, "opacity"),
            (c([.set(7, .bounds(.zero))]), at + 10 + 20, "bounds.size.width"),
            (c([.set(7, .bounds(.zero))]), at + 10 + 25, "bounds.size.height"),
            (c([.set(7, .position(.zero))]), at + 10 + 9, "position.y"),
            (c([.set(7, .anchorPoint(.zero))]), at + 10 + 1, "anchorPoint.x"),
            (c([.set(7, .anchorPointZ(0))]), at + 10 + 1, "anchorPointZ"),
            (c([.set(7, .zPosition(0))]), at + 10 + 1, "zPosition"),
            (c([.set(7, .transform(distinctTransform))]), at + 10 + 8 * 11 + 3, "transform.m34"),
            (c([.set(7, .sublayerTransform(distinctTransform))]), at + 10 + 8 * 12, "sublayerTransform.m41"),
            (c([.set(7, .isHidden(true))]), at + 10, "hidden"),
            (c([.set(7, .backgroundColor(odd))]), at + 10, "backgroundColor.present"),
            (c([.set(7, .backgroundColor(odd))]), at + 11 + 20, "backgroundColor.blue"),
            (c([.set(7, .cornerRadius(1))]), at + 10 + 7, "cornerRadius"),
            (c([.set(7, .maskedCorners(.all))]), at + 10 + 3, "maskedCorners"),
            (c([.set(7, .borderWidth(1))]), at + 10, "borderWidth"),
            (c([.set(7, .borderColor(odd))]), at + 11 + 30, "borderColor.alpha"),
            (c([.set(7, .masksToBounds(true))]), at + 10, "masksToBounds"),
            (c([.set(7, .name("hello"))]), at + 10, "name.present"),
            (c([.set(7, .name("hello"))]), at + 11 + 2, "name"),
            (c([.set(7, .name("hello"))]), at + 11 + 4 + 2, "name"),
            (c([.setSublayers(7, [1, 2])]), at + 5, "setSublayers.id"),
            (c([.setSublayers(7, [1, 2])]), at + 11, "setSublayers.sublayers"),
            (c([.setSublayers(7, [1, 2])]), at + 13 + 9, "setSublayers.sublayers"),
            (c([.setRoot(display: 2, layer: 3)]), at + 3, "setRoot.display"),
            (c([.setRoot(display: 2, layer: 3)]), at + 9, "setRoot.layer"),
            (.server(.welcome(version: 1, serverVersion: "v", contextId: 1, displays: displays)), 2, "welcome.version"),
            (
                .server(.welcome(version: 1, serverVersion: "v", contextId: 1, displays: displays)), 6,
                "welcome.serverVersion"
            ),
            (
                .server(.welcome(version: 1, serverVersion: "v", contextId: 1, displays: displays)), 11,
                "welcome.contextId"
            ),
            (
                .server(.welcome(version: 1, serverVersion: "v", contextId: 1, displays: displays)), 15,
                "welcome.displays"
            ),
            (
                .server(.welcome(version: 1, serverVersion: "v", contextId: 1, displays: displays)), 30,
                "welcome.displays"
            ),
            (
                .server(.welcome(version: 1, serverVersion: "v", contextId: 1, displays: [displays[1]])), 17 + 28,
                "display.name"
            ),
            (
                .server(.welcome(version: 1, serverVersion: "v", contextId: 1, displays: [displays[1]])),
                17 + 24 + 4 + 8 + 2, "display.connector"
            ),
            (.server(.displaysChanged([displays[0]])), 3, "displaysChanged.displays"),
            (.server(.displaysChanged([displays[0]])), 4 + 28, "display.name"),
            (.server(.exportToken(requestID: 1, token: 2)), 12, "exportToken.token"),
            (.server(.warning(code: .tokenMismatch, message: "x")), 1, "warning.code"),
            (.server(.warning(code: .tokenMismatch, message: "x")), 4, "warning.message"),
            (.client(.setLevel(2)), 7, "setLevel.level"),
            (.client(.requestExportToken(requestID: 1)), 3, "requestExportToken.requestID"),
            (c([.setHost(7, contextId: 2, token: 3)]), at + 5, "setHost.layer"),
            (c([.setHost(7, contextId: 2, token: 3)]), at + 9 + 3, "setHost.contextId"),
            (c([.setHost(7, contextId: 2, token: 3)]), at + 13 + 7, "setHost.token"),
            (.server(.commitApplied(serial: 1)), 1, "commitApplied.serial"),
            (.server(.commitPresented(serial: 1, time: 2)), 7, "commitPresented.serial"),
            (.server(.commitPresented(serial: 1, time: 2)), 9, "commitPresented.time"),
            (.server(.error(code: .cycle, message: "x")), 1, "error.code"),
            (.server(.error(code: .cycle, message: "x")), 3, "error.message"),
            (
                .server(.captureResult(requestID: 1, width: 2, height: 3, stride: 8, time: 1)), 5,
                "captureResult.requestID"
            ),
            (.server(.captureResult(requestID: 1, width: 2, height: 3, stride: 8, time: 1)), 9, "captureResult.width"),
            (
                .server(.captureResult(requestID: 1, width: 2, height: 3, stride: 8, time: 1)), 13,
                "captureResult.height"
            ),
            (
                .server(.captureResult(requestID: 1, width: 2, height: 3, stride: 8, time: 1)), 17,
                "captureResult.stride"
            ),
            (.server(.captureResult(requestID: 1, width: 2, height: 3, stride: 8, time: 1)), 25, "captureResult.time"),
            (.server(.pong(requestID: 1, serverVersion: "1.0")), 10, "pong.serverVersion"),
            (.server(.treeDescription(requestID: 1, text: "abc")), 4, "treeDescription.requestID"),
            (.server(.treeDescription(requestID: 1, text: "abc")), 13, "treeDescription.text"),
        ]
    }()

    @Test(arguments: truncationCases)
    func truncationNamesTheField(_ message: AnyMessage, _ cut: Int, _ field: String) {
        let bytes = cutPayload(message.encoded, to: cut)
        do {
            let m = try message.decodeSameDirection(bytes)
            Issue.record("decoded \(m)")
        } catch {
            #expect(error == .truncated(field: field))
            #expect(error.description.contains("'\(field)'"))
            #expect(error.description.contains("truncated"))
        }
    }

    @Test func errorDescriptionsNameTheirValues() {
        #expect(WireError.truncated(field: "commit.serial").description.contains("commit.serial"))
        let trailing = WireError.trailingBytes(type: "commit", count: 3).description
        #expect(trailing.contains("commit") && trailing.contains("3"))
        #expect(WireError.unknownMessage(4242).description.contains("4242"))
        #expect(WireError.unknownOperation(77).description.contains("77"))
        #expect(WireError.unknownProperty(99).description.contains("99"))
        #expect(WireError.badString(field: "hello.clientName").description.contains("hello.clientName"))
        let count = WireError.countTooLarge(field: "setSublayers.sublayers", count: 123_456, limit: 100_000).description
        #expect(count.contains("setSublayers.sublayers") && count.contains("123456") && count.contains("100000"))
        let length = WireError.lengthMismatch(declared: 17, actual: 5).description
        #expect(length.contains("17") && length.contains("5"))

        // From real decodes.
        let serial = cutPayload(MessageCodec.encode(ClientMessage.commit(serial: 1, operations: [])), to: 4)
        do {
            _ = try MessageCodec.decodeClient(serial)
            Issue.record("decoded a cut commit")
        } catch {
            #expect(error.description.contains("commit.serial"))
        }
        let trailingBytes = framed(
            type: 3, payload(of: MessageCodec.encode(ClientMessage.commit(serial: 1, operations: []))) + [1, 2])
        do {
            _ = try MessageCodec.decodeClient(trailingBytes)
            Issue.record("decoded a commit with trailing bytes")
        } catch {
            #expect(error.description.contains("'commit'") && error.description.contains("2 "))
        }
    }

    // MARK: LayerProperty.invalidReason

    static let invalidProperties: [(LayerProperty, String)] = [
        (.bounds(CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1)), "bounds"),
        (.bounds(CGRect(x: 0, y: CGFloat.infinity, width: 1, height: 1)), "bounds"),
        (.bounds(CGRect(x: 0, y: 0, width: -CGFloat.infinity, height: 1)), "bounds"),
        (.bounds(CGRect(x: 0, y: 0, width: 1, height: CGFloat.nan)), "bounds"),
        (.bounds(CGRect(x: 0, y: 0, width: -1, height: 1)), "negative"),
        (.bounds(CGRect(x: 0, y: 0, width: 1, height: -CGFloat.leastNonzeroMagnitude)), "negative"),
        (.position(CGPoint(x: CGFloat.nan, y: 0)), "position"),
        (.position(CGPoint(x: 0, y: -CGFloat.infinity)), "position"),
        (.anchorPoint(CGPoint(x: CGFloat.infinity, y: 0)), "anchorPoint"),
        (.anchorPointZ(.nan), "anchorPointZ"),
        (.zPosition(.infinity), "zPosition"),
        (
            .transform(
                CATransform3D(
                    m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                    m31: 0, m32: 0, m33: 1, m34: .nan, m41: 0, m42: 0, m43: 0, m44: 1)), "transform"
        ),
        (
            .transform(
                CATransform3D(
                    m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                    m31: 0, m32: 0, m33: 1, m34: 0, m41: .infinity, m42: 0, m43: 0, m44: 1)), "transform"
        ),
        (
            .sublayerTransform(
                CATransform3D(
                    m11: -.infinity, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                    m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)), "sublayerTransform"
        ),
        (.opacity(.nan), "opacity"),
        (.opacity(.infinity), "opacity"),
        (.opacity(-.infinity), "opacity"),
        (.cornerRadius(-1), "cornerRadius"),
        (.cornerRadius(.nan), "cornerRadius"),
        (.cornerRadius(.infinity), "cornerRadius"),
        (.borderWidth(-0.5), "borderWidth"),
        (.borderWidth(-.infinity), "borderWidth"),
        (.backgroundColor(RGBAColor(red: 1.0000001, green: 0, blue: 0, alpha: 1)), "backgroundColor"),
        (.backgroundColor(RGBAColor(red: 0, green: -0.001, blue: 0, alpha: 1)), "backgroundColor"),
        (.backgroundColor(RGBAColor(red: 0, green: 0, blue: .nan, alpha: 1)), "backgroundColor"),
        (.borderColor(RGBAColor(red: 0, green: 0, blue: 0, alpha: 2)), "borderColor"),
        (.borderColor(RGBAColor(red: 0, green: 0, blue: 0, alpha: .infinity)), "borderColor"),
        (.maskedCorners(CACornerMask(rawValue: 16)), "maskedCorners"),
        (.maskedCorners(CACornerMask(rawValue: 0x1F)), "maskedCorners"),
        (.maskedCorners(CACornerMask(rawValue: 1 << 40)), "maskedCorners"),
        (.name(String(repeating: "n", count: WireLimits.maxStringBytes + 1)), "name"),
        (.name(String(repeating: "é", count: WireLimits.maxStringBytes / 2 + 1)), "name"),
    ]

    @Test(arguments: invalidProperties)
    func invalidValuesHaveAReason(_ property: LayerProperty, _ mentions: String) throws {
        let reason = try #require(property.invalidReason)
        #expect(reason.contains(mentions), "\(reason)")
    }

    static let validProperties: [LayerProperty] =
        propertyTable.filter { p in
            // The round-trip table holds some deliberately invalid values; keep the valid ones.
            switch p {
            case .bounds(let r):
                r.origin.x.isFinite && r.origin.y.isFinite && r.size.width.isFinite && r.size.height.isFinite
                    && r.size.width >= 0 && r.size.height >= 0
            case .zPosition(let v), .anchorPointZ(let v): v.isFinite
            case .opacity(let o): o.isFinite
            case .backgroundColor(let c), .borderColor(let c): c?.isValid ?? true
            case .maskedCorners(let m): m.rawValue <= 15
            case .borderWidth(let v), .cornerRadius(let v): v >= 0 && v.isFinite
            default: true
            }
        } + [
            .bounds(CGRect(x: -1e300, y: -5, width: 0, height: -0.0)),
            .position(CGPoint(x: -1e300, y: 1e300)),
            .cornerRadius(-0.0),
            .borderWidth(.greatestFiniteMagnitude),
            .backgroundColor(RGBAColor(red: 0, green: 1, blue: -0.0, alpha: 1)),
            .opacity(0.5),
        ]

    @Test(arguments: validProperties)
    func validValuesHaveNoReason(_ property: LayerProperty) {
        #expect(property.invalidReason == nil)
    }

    @Test func validTableIsNotTrivial() {
        #expect(Self.validProperties.count > 40)
        #expect(Set(Self.validProperties.map(\.code)) == Set(1...16))
    }

    // MARK: LayerProperty.differences

    @Test func differencesFromNilListsEveryProperty() {
        let state = LayerState()
        let all = LayerProperty.differences(from: nil, to: state)
        #expect(all.map(\.code) == Array(1...36))
        var rebuilt = LayerState()
        rebuilt.name = "will be overwritten"
        rebuilt.opacity = 0.1
        for p in all { p.apply(to: &rebuilt) }
        #expect(rebuilt == state)

        var custom = LayerState()
        for p in Self.nonDefault { p.apply(to: &custom) }
        var fromScratch = LayerState()
        let listed = LayerProperty.differences(from: nil, to: custom)
        #expect(listed.count == 36)
        for p in listed { p.apply(to: &fromScratch) }
        #expect(fromScratch == custom)
    }

    @Test func equalStatesHaveNoDifferences() {
        #expect(LayerProperty.differences(from: LayerState(), to: LayerState()).isEmpty)
        var custom = LayerState()
        for p in Self.nonDefault { p.apply(to: &custom) }
        #expect(LayerProperty.differences(from: custom, to: custom).isEmpty)
    }

    /// One non-default value of each property (borderColor's default is black, so nil differs).
    static let nonDefault: [LayerProperty] = [
        .bounds(CGRect(x: 1, y: 2, width: 3, height: 4)),
        .position(CGPoint(x: 5, y: 6)),
        .anchorPoint(CGPoint(x: 0, y: 1)),
        .anchorPointZ(2),
        .zPosition(-3),
        .transform(distinctTransform),
        .sublayerTransform(CATransform3DMakeScale(2, 2, 1)),
        .opacity(0.25),
        .isHidden(true),
        .backgroundColor(red),
        .cornerRadius(8),
        .maskedCorners([.layerMinXMinYCorner]),
        .borderWidth(1),
        .borderColor(nil),
        .masksToBounds(true),
        .name("named"),
        .isGeometryFlipped(true),
        .cornerCurve(.continuous),
    ]

    @Test(arguments: nonDefault)
    func oneChangedPropertyGivesExactlyThatOne(_ property: LayerProperty) {
        var changed = LayerState()
        property.apply(to: &changed)
        #expect(LayerProperty.differences(from: LayerState(), to: changed) == [property])
        // And back.
        let back = LayerProperty.differences(from: changed, to: LayerState())
        #expect(back.count == 1)
        #expect(back.first?.code == property.code)
        // Starting from a state where everything else differs from the default too.
        var base = LayerState()
        for p in Self.nonDefault where p.code != property.code { p.apply(to: &base) }
        var both = base
        property.apply(to: &both)
        #expect(LayerProperty.differences(from: base, to: both) == [property])
    }

    @Test func twoChangedPropertiesComeInCodeOrder() {
        var changed = LayerState()
        LayerProperty.name("a").apply(to: &changed)
        LayerProperty.bounds(CGRect(x: 0, y: 0, width: 1, height: 1)).apply(to: &changed)
        #expect(
            LayerProperty.differences(from: LayerState(), to: changed)
                == [.bounds(CGRect(x: 0, y: 0, width: 1, height: 1)), .name("a")])
    }

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

// What the CodecTests files share: the message tables, and helpers that frame, cut and decode messages.
import Foundation
import LaminaCore
import LaminaTesting
import Testing

@testable import LaminaProtocol

// MARK: - Helpers

typealias AnyMessage = CodecTests.AnyMessage

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
                case .registerSurface: "registerSurface"
                case .releaseSurface: "releaseSurface"
                case .surfaceFeedback: "surfaceFeedback"
                case .requestSurfaceCapabilities: "requestSurfaceCapabilities"
                case .registerDeviceImage: "registerDeviceImage"
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
                case .tiledLayerView: "tiledLayerView"
                case .surfacePresented: "surfacePresented"
                case .surfaceReleased: "surfaceReleased"
                case .surfaceDiscarded: "surfaceDiscarded"
                case .surfaceRefused: "surfaceRefused"
                case .surfaceCapabilities: "surfaceCapabilities"
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
func framed(type: UInt16, flags: UInt16 = 0, declaredLength: UInt32? = nil, _ payload: [UInt8]) -> [UInt8] {
    var w = WireWriter()
    w.u16(type)
    w.u16(flags)
    w.u32(declaredLength ?? UInt32(payload.count))
    return w.bytes + payload
}

/// The payload of an encoded message.
func payload(of message: [UInt8]) -> [UInt8] { Array(message.dropFirst(8)) }

/// The message type number of an encoded message.
func typeCode(of message: [UInt8]) -> UInt16 { UInt16(message[0]) | UInt16(message[1]) << 8 }

/// The message with its payload cut to `count` bytes and the header's length corrected to match.
func cutPayload(_ message: [UInt8], to count: Int) -> [UInt8] {
    framed(type: typeCode(of: message), Array(payload(of: message).prefix(count)))
}

/// A payload builder for hand-made (often malformed) messages.
func bytes(_ build: (inout WireWriter) -> Void) -> [UInt8] {
    var w = WireWriter()
    build(&w)
    return w.bytes
}

/// A test-local stream framer: accumulates bytes and cuts whole messages using the 8-byte header.
struct StreamFramer {
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
let distinctTransform = CATransform3D(
    m11: 1, m12: -2, m13: 3.5, m14: -0.0, m21: 5e-300, m22: 6e300, m23: -7, m24: 8,
    m31: .greatestFiniteMagnitude, m32: -.greatestFiniteMagnitude, m33: .leastNonzeroMagnitude, m34: -1.0 / 500,
    m41: 13, m42: 14, m43: 15, m44: 16)

let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
let odd = RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)

/// Every property case, with ordinary, edge and extreme values.
let propertyTable: [LayerProperty] = [
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
    // CAShapeLayer (codes 37–48)
    .path(nil),
    .path(CGPath(rect: CGRect(x: 10, y: 10, width: 40, height: 30))),
    .path(curvedPath),
    .path(CGMutablePath()),
    .fillColor(nil),
    .fillColor(odd),
    .fillRule(.evenOdd),
    .fillRule(CAShapeLayerFillRule("unknown rule")),
    .strokeColor(red),
    .lineWidth(4),
    .lineWidth(-.greatestFiniteMagnitude),
    .miterLimit(10),
    .lineCap(.round),
    .lineJoin(.bevel),
    .lineDashPattern(nil),
    .lineDashPattern([]),
    .lineDashPattern([5, 2.5, 0, -0.0]),
    .lineDashPhase(-3.5),
    .strokeStart(0.25),
    .strokeEnd(1.5),
    // CAGradientLayer (codes 49–53)
    .colors(nil),
    .colors([]),
    .colors([red, odd, .clear]),
    .locations(nil),
    .locations([0, 0.5, 1]),
    .startPoint(CGPoint(x: 0.5, y: 0)),
    .endPoint(CGPoint(x: -0.0, y: .greatestFiniteMagnitude)),
    .gradientType(.conic),
    .gradientType(CAGradientLayerType("")),
    .shadowColor(nil),
    .shadowColor(RGBAColor(red: 0.25, green: 0, blue: 1, alpha: 0.5)),
    .shadowOpacity(0.75),
    .shadowRadius(0),
    .shadowRadius(12.5),
    .shadowOffset(CGSize(width: -0.0, height: 3)),
    .shadowOffset(CGSize(width: CGFloat.greatestFiniteMagnitude, height: -1e-300)),
    .shadowPath(nil),
    .shadowPath(CGPath(roundedRect: CGRect(x: 1, y: 2, width: 30, height: 40), cornerWidth: 5, cornerHeight: 6)),
    // CATextLayer (codes 59–67)
    .textString(nil),
    .textString("Hello, 世界 مرحبا 😀"),
    .font("Helvetica-Bold"),
    .font(nil),
    .fontSize(36),
    .fontSize(-0.0),
    .foregroundColor(nil),
    .foregroundColor(odd),
    .isWrapped(true),
    .truncationMode("middle"),
    .alignmentMode("unknown mode"),
    .allowsFontSubpixelQuantization(true),
    .tintsContents(true),
]

/// A path with every kind of element, two subpaths and a close.
let curvedPath: CGPath = {
    let path = CGMutablePath()
    path.move(to: CGPoint(x: 1, y: 2))
    path.addLine(to: CGPoint(x: 3, y: -4))
    path.addQuadCurve(to: CGPoint(x: 5, y: 6), control: CGPoint(x: -7, y: 8))
    path.addCurve(to: CGPoint(x: 9, y: 10), control1: CGPoint(x: 11, y: 12), control2: CGPoint(x: 13, y: 14.5))
    path.closeSubpath()
    path.move(to: CGPoint(x: -0.0, y: 1e300))
    path.addLine(to: .zero)
    return path
}()

/// Every operation case.
let operationTable: [LayerOperation] = [
    .createLayer(1),
    .createLayer(.max),
    .createLayer(2, .shape),
    .createLayer(.max, .gradient),
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

let mixedOperations: [LayerOperation] =
    operationTable + propertyTable.enumerated().map { .set(LayerID($0.offset + 100), $0.element) }

let displays: [DisplayInfo] = [
    DisplayInfo(id: 0, width: 1920, height: 1080, refreshRate: 60, name: "offscreen-0"),
    DisplayInfo(id: .max, width: .max, height: 0, refreshRate: 59.94, name: "window-1", connector: ":99"),
    DisplayInfo(
        id: 2, width: 1, height: 1, refreshRate: 0.5,
        name: String(repeating: "n", count: WireLimits.maxDisplayNameBytes),
        connector: "ünï 🚀"),
]

let clientTable: [ClientMessage] = [
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
    .registerSurface(id: 1, width: 64, height: 48, stride: 256, format: SurfaceFormat.bgra8),
    .registerSurface(id: .max, width: .max, height: 0, stride: .max, format: .max),
    .registerSurface(
        id: 2, width: 1920, height: 1080, stride: 1920, format: SurfaceFormat.nv12VideoRange,
        planes: SurfacePlanes(lumaOffset: 0, chromaOffset: 2_073_600, chromaStride: 1920, matrix: SurfacePlanes.bt709)),
    .releaseSurface(id: 0),
    .releaseSurface(id: .max),
    .surfaceFeedback(id: 1, enabled: true),
    .surfaceFeedback(id: .max, enabled: false),
    .requestSurfaceCapabilities(requestID: 0),
    .requestSurfaceCapabilities(requestID: .max),
    .registerDeviceImage(
        DeviceImageDescription(
            id: 3, width: 256, height: 128, format: DrawableFormat.bgra8Unorm, usage: 0x16, flags: 0, tiling: 0,
            allocationSize: 131_072, deviceUUID: Array(1...16), driverUUID: Array(101...116))),
    .registerDeviceImage(
        DeviceImageDescription(
            id: .max, width: .max, height: .max, format: .max, usage: .max, flags: .max, tiling: .max,
            allocationSize: .max, deviceUUID: [UInt8](repeating: 0xFF, count: 16),
            driverUUID: [UInt8](repeating: 0, count: 16))),
    .commit(serial: 2, operations: [.surfaceChanged(1), .surfaceChanged(.max)]),
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
    .commit(serial: 3, operations: [.setMask(1, mask: 2), .setMask(.max, mask: nil), .setMask(2, mask: .max)]),
]

let serverTable: [ServerMessage] = [
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
            ClientStatistics(
                name: "ünï", pid: -1, layers: 0, animations: 0, images: .max, textureBytes: .max, surfaces: .max,
                surfaceBytes: .max, surfaceBytesCopied: .max),
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
    .tiledLayerView(layer: 7, rect: CGRect(x: 300, y: 500, width: 320, height: 240), scale: 2),
    .tiledLayerView(layer: .max, rect: .zero, scale: 0.5),
    .surfacePresented(id: 1, time: 12.5),
    .surfacePresented(id: .max, time: 0),
    .surfaceReleased(id: 1),
    .surfaceReleased(id: .max),
    .surfaceDiscarded(id: 1),
    .surfaceDiscarded(id: .max),
    .surfaceRefused(id: 1, code: .invalidSurfaceLayout, message: "surface 1: its planes overlap"),
    .surfaceRefused(id: .max, code: .deviceMismatch, message: ""),
    .surfaceCapabilities(requestID: 1, .none),
    .surfaceCapabilities(
        requestID: .max,
        SurfaceCapabilities(
            deviceUUID: Array(1...16), driverUUID: Array(201...216), rowAlignment: 64, hostPointerAlignment: 4096,
            memoryKinds: [.hostMemory, .opaqueFD, .dmaBuf], drawableFormats: DrawableFormat.allowed)),
]

let errorCodes: [ServerErrorCode] = [
    .protocolViolation, .unsupportedVersion, .malformedMessage, .unknownMessage, .unknownOperation,
    .unknownProperty, .unknownLayer, .duplicateLayer, .cycle, .invalidValue, .oversizedMessage, .limitExceeded,
    .badDisplay, .badFileDescriptor, .internalError, .unknownImage, .duplicateImage, .tokenMismatch,
    .contextIdUnavailable, .unknownLayerClass, .wrongLayerClass,
]

let allMessages: [AnyMessage] = clientTable.map(AnyMessage.client) + serverTable.map(AnyMessage.server)

/// A commit with several operations of different kinds, for the truncation tests.
let mixedCommit: ClientMessage = .commit(
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
func bitPatterns(_ p: LayerProperty) -> [UInt64] {
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
    case .fillColor(let col), .strokeColor(let col), .foregroundColor(let col): return c(col)
    case .fontSize(let v): return [b(v)]
    case .lineWidth(let v), .miterLimit(let v), .lineDashPhase(let v), .strokeStart(let v), .strokeEnd(let v):
        return [b(v)]
    case .lineDashPattern(let list), .locations(let list): return list.map { [1] + $0.map(\.bitPattern) } ?? []
    case .colors(let list): return list.map { [1] + $0.flatMap(c) } ?? []
    case .startPoint(let q), .endPoint(let q): return [b(q.x), b(q.y)]
    case .shadowColor(let col): return c(col)
    case .shadowOpacity(let o): return [UInt64(o.bitPattern)]
    case .shadowRadius(let v): return [b(v)]
    case .shadowOffset(let s): return [b(s.width), b(s.height)]
    case .instanceCount(let v), .instanceDelay(let v): return [v.bitPattern]
    case .instanceTransform(let m): return t(m)
    case .instanceColor(let col): return c(col)
    case .instanceRedOffset(let v), .instanceGreenOffset(let v), .instanceBlueOffset(let v),
        .instanceAlphaOffset(let v):
        return [UInt64(v.bitPattern)]
    case .emitterBirthRate(let v), .emitterLifetime(let v), .emitterVelocity(let v), .emitterScale(let v),
        .emitterSpin(let v):
        return [UInt64(v.bitPattern)]
    case .emitterZPosition(let v), .emitterDepth(let v), .emitterSeed(let v): return [v.bitPattern]
    case .filters(let list), .backgroundFilters(let list): return list.map(\.radius.bitPattern)
    case .compositingFilter(let v): return [v.bitPattern]
    case .emitterPosition(let q): return [b(q.x), b(q.y)]
    case .emitterSize(let s): return [b(s.width), b(s.height)]
    case .path(let path), .shadowPath(let path):
        return path.map { p in
            var bits: [UInt64] = [1]
            p.applyWithBlock { element in
                bits.append(UInt64(element.pointee.type.rawValue))
                let count: Int
                switch element.pointee.type {
                case .moveToPoint, .addLineToPoint: count = 1
                case .addQuadCurveToPoint: count = 2
                case .addCurveToPoint: count = 3
                case .closeSubpath: count = 0
                }
                for i in 0..<count { bits += [b(element.pointee.points[i].x), b(element.pointee.points[i].y)] }
            }
            return bits
        } ?? []
    case .fillRule, .lineCap, .lineJoin, .gradientType, .textString, .font, .isWrapped, .truncationMode,
        .alignmentMode, .allowsFontSubpixelQuantization, .tintsContents, .preservesDepth, .emitterPreservesDepth,
        .emitterShape, .emitterMode,
        .renderMode:
        return []
    case .isHidden, .masksToBounds, .maskedCorners, .name, .isGeometryFlipped, .cornerCurve, .contentsGravity,
        .allowsEdgeAntialiasing, .allowsGroupOpacity, .edgeAntialiasingMask, .minificationFilter, .magnificationFilter,
        .isOpaque, .isDoubleSided, .shouldRasterize:
        return []
    }
}

func decodeSet(_ property: LayerProperty) throws -> LayerProperty {
    let decoded = try MessageCodec.decodeClient(MessageCodec.encode(.transactionPart([.set(1, property)])))
    guard case .transactionPart(let ops) = decoded, ops.count == 1, case .set(1, let back) = ops[0] else {
        Issue.record("unexpected decode \(decoded)")
        return property
    }
    return back
}

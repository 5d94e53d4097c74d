import Foundation
import LaminaCore

/// Encodes and decodes messages. Layout: an 8-byte header (`u16` type, `u16` flags = 0, `u32` payload
/// length) and the payload, all little-endian. docs/protocol.md is the specification.
public enum MessageCodec {
    static let headerSize = 8

    // MARK: Encoding

    /// The bytes of a client message.
    public static func encode(_ message: ClientMessage) -> [UInt8] {
        var w = WireWriter()
        let type: MessageType
        switch message {
        case .hello(let version, let name, let contextId, let token):
            type = .hello
            w.u32(version)
            w.string(name)
            w.u32(contextId)
            w.u64(token)
        case .transactionPart(let ops):
            type = .transactionPart
            encode(ops, into: &w)
        case .commit(let serial, let ops):
            type = .commit
            w.u64(serial)
            encode(ops, into: &w)
        case .capture(let id, let display, let time):
            type = .capture
            w.u64(id)
            w.u32(display)
            w.bool(time != nil)
            w.f64(time ?? 0)
        case .captureLayer(let id, let layer, let width, let height, let scale):
            type = .captureLayer
            w.u64(id); w.u64(layer); w.u32(width); w.u32(height); w.f64(scale)
        case .ping(let id):
            type = .ping
            w.u64(id)
        case .describeTree(let id):
            type = .describeTree
            w.u64(id)
        case .frameEvents(let enabled):
            type = .frameEvents
            w.bool(enabled)
        case .uploadImage(let id, let width, let height, let stride):
            type = .uploadImage
            w.u64(id); w.u32(width); w.u32(height); w.u32(stride)
        case .releaseImage(let id):
            type = .releaseImage
            w.u64(id)
        case .stats(let id):
            type = .stats
            w.u64(id)
        case .frameRecords(let id, let display, let count):
            type = .frameRecords
            w.u64(id); w.u32(display); w.u32(count)
        case .setLevel(let level):
            type = .setLevel
            w.f64(Double(level))
        case .requestExportToken(let id):
            type = .requestExportToken
            w.u64(id)
        case .registerSurface(let id, let width, let height, let stride, let format, let planes):
            type = .registerSurface
            w.u64(id); w.u32(width); w.u32(height); w.u32(stride); w.u32(format)
            if SurfaceFormat.isBiPlanarYCbCr(format) {
                let planes = planes ?? SurfacePlanes(lumaOffset: 0, chromaOffset: 0, chromaStride: 0, matrix: 0)
                w.u32(planes.lumaOffset); w.u32(planes.chromaOffset); w.u32(planes.chromaStride)
                w.u32(planes.matrix); w.u32(planes.chromaLocation)
            }
        case .releaseSurface(let id):
            type = .releaseSurface
            w.u64(id)
        case .surfaceFeedback(let id, let enabled):
            type = .surfaceFeedback
            w.u64(id)
            w.u8(enabled ? 1 : 0)
        case .requestSurfaceCapabilities(let id):
            type = .requestSurfaceCapabilities
            w.u64(id)
        case .registerDeviceImage(let image):
            type = .registerDeviceImage
            encode(image, into: &w)
        }
        return frame(type, w.bytes)
    }

    /// The bytes of a server message.
    public static func encode(_ message: ServerMessage) -> [UInt8] {
        var w = WireWriter()
        let type: MessageType
        switch message {
        case .welcome(let version, let serverVersion, let contextId, let displays):
            type = .welcome
            w.u32(version)
            w.string(serverVersion)
            w.u32(contextId)
            encode(displays, into: &w)
        case .commitApplied(let serial):
            type = .commitApplied
            w.u64(serial)
        case .commitPresented(let serial, let time):
            type = .commitPresented
            w.u64(serial)
            w.f64(time)
        case .error(let code, let text):
            type = .error
            w.u16(code.rawValue)
            w.string(text.truncatedToUTF8(WireLimits.maxStringBytes))
        case .captureResult(let id, let width, let height, let stride, let time):
            type = .captureResult
            w.u64(id); w.u32(width); w.u32(height); w.u32(stride); w.f64(time)
        case .pong(let id, let version):
            type = .pong
            w.u64(id)
            w.string(version)
        case .treeDescription(let id, let text):
            type = .treeDescription
            w.u64(id)
            w.string(text)
        case .animationEvents(let events):
            type = .animationEvents
            w.u32(UInt32(events.count))
            for e in events {
                w.u64(e.animationID); w.u8(e.kind.rawValue); w.f64(e.time)
            }
        case .frame(let time, let target):
            type = .frame
            w.f64(time); w.f64(target)
        case .tiledLayerView(let layer, let rect, let scale):
            type = .tiledLayerView
            w.u64(layer)
            w.f64(rect.origin.x); w.f64(rect.origin.y); w.f64(rect.width); w.f64(rect.height)
            w.f64(scale)
        case .surfacePresented(let id, let time):
            type = .surfacePresented
            w.u64(id)
            w.f64(time)
        case .surfaceReleased(let id):
            type = .surfaceReleased
            w.u64(id)
        case .surfaceDiscarded(let id):
            type = .surfaceDiscarded
            w.u64(id)
        case .surfaceRefused(let id, let code, let text):
            type = .surfaceRefused
            w.u64(id)
            w.u16(code.rawValue)
            w.string(text.truncatedToUTF8(WireLimits.maxStringBytes))
        case .surfaceCapabilities(let id, let capabilities):
            type = .surfaceCapabilities
            w.u64(id)
            encode(capabilities, into: &w)
        case .frameRecordsReply(let id, let records):
            type = .frameRecordsReply
            w.u64(id)
            w.u32(UInt32(records.count))
            for f in records { encode(f, into: &w) }
        case .statsReply(let id, let clients):
            type = .statsReply
            w.u64(id)
            w.u32(UInt32(clients.count))
            for c in clients {
                w.string(c.name); w.i32(c.pid); w.u64(c.layers); w.u64(c.animations); w.u64(c.images)
                w.u64(c.textureBytes); w.u64(c.surfaces); w.u64(c.surfaceBytes); w.u64(c.surfaceBytesCopied)
            }
        case .displaysChanged(let displays):
            type = .displaysChanged
            encode(displays, into: &w)
        case .exportToken(let id, let token):
            type = .exportToken
            w.u64(id); w.u64(token)
        case .warning(let code, let text):
            type = .warning
            w.u16(code.rawValue)
            w.string(text.truncatedToUTF8(WireLimits.maxStringBytes))
        }
        return frame(type, w.bytes)
    }

    static func frame(_ type: MessageType, _ payload: [UInt8]) -> [UInt8] {
        var w = WireWriter()
        w.u16(type.rawValue)
        w.u16(0)
        w.u32(UInt32(payload.count))
        return w.bytes + payload
    }

    // MARK: Decoding

    /// Reads the header; checks the declared length against the message's size.
    static func header(_ bytes: [UInt8]) throws(WireError) -> (UInt16, WireReader) {
        var r = WireReader(bytes)
        let type = try r.u16("header.type")
        let flags = try r.u16("header.flags")
        guard flags == 0 else { throw .badFlags(flags) }
        let length = Int(try r.u32("header.length"))
        guard length == r.remaining else { throw .lengthMismatch(declared: length, actual: r.remaining) }
        return (type, r)
    }

    /// The version a `hello` names, read from its first payload bytes alone: nil when `bytes` is not
    /// a `hello` (by its header's type) or is too short to name one. Another version's `hello` may be
    /// laid out otherwise and fail `decodeClient`; the server still refuses it by its version.
    public static func helloVersion(_ bytes: [UInt8]) -> UInt32? {
        guard var (type, r) = try? header(bytes), type == MessageType.hello.rawValue else { return nil }
        return try? r.u32("hello.version")
    }

    /// Decodes a client message; throws a `WireError` naming the field or code at fault.
    public static func decodeClient(_ bytes: [UInt8]) throws(WireError) -> ClientMessage {
        var (typeCode, r) = try header(bytes)
        guard let type = MessageType(rawValue: typeCode) else { throw .unknownMessage(typeCode) }
        let message: ClientMessage
        switch type {
        case .hello:
            message = .hello(
                version: try r.u32("hello.version"),
                clientName: try r.string("hello.clientName", limit: WireLimits.maxStringBytes),
                contextId: try r.u32("hello.contextId"), exportToken: try r.u64("hello.exportToken"))
        case .transactionPart:
            message = .transactionPart(try operations(&r))
        case .commit:
            let serial = try r.u64("commit.serial")
            message = .commit(serial: serial, operations: try operations(&r))
        case .capture:
            let id = try r.u64("capture.requestID")
            let display = try r.u32("capture.display")
            let hasTime = try r.bool("capture.hasTime")
            let time = try r.f64("capture.time")
            message = .capture(requestID: id, display: display, time: hasTime ? time : nil)
        case .captureLayer:
            message = .captureLayer(
                requestID: try r.u64("captureLayer.requestID"), layer: try r.u64("captureLayer.layer"),
                width: try r.u32("captureLayer.width"), height: try r.u32("captureLayer.height"),
                scale: try r.f64("captureLayer.scale"))
        case .ping:
            message = .ping(requestID: try r.u64("ping.requestID"))
        case .describeTree:
            message = .describeTree(requestID: try r.u64("describeTree.requestID"))
        case .frameEvents:
            message = .frameEvents(enabled: try r.bool("frameEvents.enabled"))
        case .uploadImage:
            message = .uploadImage(
                id: try r.u64("uploadImage.id"), width: try r.u32("uploadImage.width"),
                height: try r.u32("uploadImage.height"), stride: try r.u32("uploadImage.stride"))
        case .releaseImage:
            message = .releaseImage(id: try r.u64("releaseImage.id"))
        case .stats:
            message = .stats(requestID: try r.u64("stats.requestID"))
        case .frameRecords:
            message = .frameRecords(
                requestID: try r.u64("frameRecords.requestID"), display: try r.u32("frameRecords.display"),
                count: try r.u32("frameRecords.count"))
        case .setLevel:
            message = .setLevel(Float(try r.f64("setLevel.level")))
        case .requestExportToken:
            message = .requestExportToken(requestID: try r.u64("requestExportToken.requestID"))
        case .registerSurface:
            let id = try r.u64("registerSurface.id")
            let width = try r.u32("registerSurface.width")
            let height = try r.u32("registerSurface.height")
            let stride = try r.u32("registerSurface.stride")
            let format = try r.u32("registerSurface.format")
            var planes: SurfacePlanes?
            if SurfaceFormat.isBiPlanarYCbCr(format) {
                planes = SurfacePlanes(
                    lumaOffset: try r.u32("registerSurface.lumaOffset"),
                    chromaOffset: try r.u32("registerSurface.chromaOffset"),
                    chromaStride: try r.u32("registerSurface.chromaStride"),
                    matrix: try r.u32("registerSurface.matrix"),
                    chromaLocation: try r.u32("registerSurface.chromaLocation"))
            }
            message = .registerSurface(
                id: id, width: width, height: height, stride: stride, format: format, planes: planes)
        case .releaseSurface:
            message = .releaseSurface(id: try r.u64("releaseSurface.id"))
        case .surfaceFeedback:
            let id = try r.u64("surfaceFeedback.id")
            let flag = try r.u8("surfaceFeedback.enabled")
            guard flag <= 1 else { throw .badValue(field: "surfaceFeedback.enabled") }
            message = .surfaceFeedback(id: id, enabled: flag == 1)
        case .requestSurfaceCapabilities:
            message = .requestSurfaceCapabilities(requestID: try r.u64("requestSurfaceCapabilities.requestID"))
        case .registerDeviceImage:
            message = .registerDeviceImage(try deviceImage(&r))
        default:
            throw .unknownMessage(typeCode)
        }
        guard r.remaining == 0 else { throw .trailingBytes(type: "\(type)", count: r.remaining) }
        return message
    }

    /// Decodes a server message.
    public static func decodeServer(_ bytes: [UInt8]) throws(WireError) -> ServerMessage {
        var (typeCode, r) = try header(bytes)
        guard let type = MessageType(rawValue: typeCode) else { throw .unknownMessage(typeCode) }
        let message: ServerMessage
        switch type {
        case .welcome:
            let version = try r.u32("welcome.version")
            let serverVersion = try r.string("welcome.serverVersion", limit: WireLimits.maxStringBytes)
            let contextId = try r.u32("welcome.contextId")
            let displays = try displays(&r, field: "welcome.displays")
            message = .welcome(version: version, serverVersion: serverVersion, contextId: contextId, displays: displays)
        case .commitApplied:
            message = .commitApplied(serial: try r.u64("commitApplied.serial"))
        case .commitPresented:
            message = .commitPresented(
                serial: try r.u64("commitPresented.serial"), time: try r.f64("commitPresented.time"))
        case .error:
            let raw = try r.u16("error.code")
            let text = try r.string("error.message", limit: WireLimits.maxStringBytes)
            message = .error(code: ServerErrorCode(rawValue: raw) ?? .internalError, message: text)
        case .captureResult:
            message = .captureResult(
                requestID: try r.u64("captureResult.requestID"),
                width: try r.u32("captureResult.width"), height: try r.u32("captureResult.height"),
                stride: try r.u32("captureResult.stride"), time: try r.f64("captureResult.time"))
        case .pong:
            message = .pong(
                requestID: try r.u64("pong.requestID"),
                serverVersion: try r.string("pong.serverVersion", limit: WireLimits.maxStringBytes))
        case .treeDescription:
            message = .treeDescription(
                requestID: try r.u64("treeDescription.requestID"),
                text: try r.string("treeDescription.text", limit: WireLimits.maxMessageBytes))
        case .animationEvents:
            let n = try r.count("animationEvents.events", limit: WireLimits.maxMessageBytes, minimumElementSize: 17)
            var events: [AnimationEvent] = []
            for _ in 0..<n {
                let id = try r.u64("animationEvent.id")
                let raw = try r.u8("animationEvent.kind")
                guard let kind = AnimationEvent.Kind(rawValue: raw) else {
                    throw .badValue(field: "animationEvent.kind")
                }
                events.append(AnimationEvent(animationID: id, kind: kind, time: try r.f64("animationEvent.time")))
            }
            message = .animationEvents(events)
        case .frame:
            message = .frame(time: try r.f64("frame.time"), targetTime: try r.f64("frame.targetTime"))
        case .tiledLayerView:
            let layer = try r.u64("tiledLayerView.layer")
            let rect = CGRect(
                x: try r.f64("tiledLayerView.x"), y: try r.f64("tiledLayerView.y"),
                width: try r.f64("tiledLayerView.width"), height: try r.f64("tiledLayerView.height"))
            message = .tiledLayerView(layer: layer, rect: rect, scale: try r.f64("tiledLayerView.scale"))
        case .surfacePresented:
            message = .surfacePresented(
                id: try r.u64("surfacePresented.id"), time: try r.f64("surfacePresented.time"))
        case .surfaceReleased:
            message = .surfaceReleased(id: try r.u64("surfaceReleased.id"))
        case .surfaceDiscarded:
            message = .surfaceDiscarded(id: try r.u64("surfaceDiscarded.id"))
        case .surfaceRefused:
            let id = try r.u64("surfaceRefused.id")
            let raw = try r.u16("surfaceRefused.code")
            let text = try r.string("surfaceRefused.message", limit: WireLimits.maxStringBytes)
            message = .surfaceRefused(id: id, code: ServerErrorCode(rawValue: raw) ?? .internalError, message: text)
        case .surfaceCapabilities:
            let id = try r.u64("surfaceCapabilities.requestID")
            message = .surfaceCapabilities(requestID: id, try capabilities(&r))
        case .frameRecordsReply:
            let id = try r.u64("frameRecordsReply.requestID")
            let n = try r.count(
                "frameRecordsReply.records", limit: WireLimits.maxFrameRecords,
                minimumElementSize: Self.frameRecordBytes)
            var records: [FrameRecord] = []
            for _ in 0..<n { records.append(try frameRecord(&r)) }
            message = .frameRecordsReply(requestID: id, records: records)
        case .statsReply:
            let id = try r.u64("statsReply.requestID")
            let n = try r.count("statsReply.clients", limit: WireLimits.maxMessageBytes, minimumElementSize: 64)
            var clients: [ClientStatistics] = []
            for _ in 0..<n {
                clients.append(
                    ClientStatistics(
                        name: try r.string("statsReply.name", limit: WireLimits.maxStringBytes),
                        pid: Int32(bitPattern: try r.u32("statsReply.pid")), layers: try r.u64("statsReply.layers"),
                        animations: try r.u64("statsReply.animations"), images: try r.u64("statsReply.images"),
                        textureBytes: try r.u64("statsReply.textureBytes"), surfaces: try r.u64("statsReply.surfaces"),
                        surfaceBytes: try r.u64("statsReply.surfaceBytes"),
                        surfaceBytesCopied: try r.u64("statsReply.surfaceBytesCopied")))
            }
            message = .statsReply(requestID: id, clients: clients)
        case .displaysChanged:
            message = .displaysChanged(try displays(&r, field: "displaysChanged.displays"))
        case .exportToken:
            message = .exportToken(
                requestID: try r.u64("exportToken.requestID"), token: try r.u64("exportToken.token"))
        case .warning:
            let raw = try r.u16("warning.code")
            let text = try r.string("warning.message", limit: WireLimits.maxStringBytes)
            message = .warning(code: ServerErrorCode(rawValue: raw) ?? .internalError, message: text)
        default:
            throw .unknownMessage(typeCode)
        }
        guard r.remaining == 0 else { throw .trailingBytes(type: "\(type)", count: r.remaining) }
        return message
    }
}

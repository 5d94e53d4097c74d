import Foundation
import LaminaCore
import LaminaProtocol
import Logging

/// A client's messages: each packet is checked (size, descriptors), decoded and handed to the
/// handler of its type. The handlers of the session's own requests are here; transactions are in
/// Server+Transactions.swift, images in Server+Images.swift, captures in Server+Frames.swift.
extension Server {
    /// Decodes one packet of `session` and runs its handler. A thrown `SessionError` disconnects the
    /// client with that error (`fail`); nothing of other clients is touched.
    func handle(_ packet: ReceivedPacket, from session: ClientSession) throws {
        let message = try decode(packet, from: session)
        if case .hello(let version, let name, let contextId, let token) = message {
            return try greet(session, version: version, name: name, contextId: contextId, token: token)
        }
        guard session.greeted else {
            throw SessionError(.protocolViolation, "the first message must be hello, got \(message.kindName)")
        }
        switch message {
        case .hello: break
        case .transactionPart(let operations): try holdPart(operations, bytes: packet.bytes.count, for: session)
        case .commit(let serial, let operations): try commit(serial: serial, operations, for: session)
        case .capture(let requestID, let display, let time):
            try captureRequested(requestID: requestID, display: display, time: time, for: session)
        case .captureLayer(let requestID, let layer, let width, let height, let scale):
            try captureLayer(
                requestID: requestID, layer: layer, width: width, height: height, scale: scale, for: session)
        case .ping(let requestID):
            try send(.pong(requestID: requestID, serverVersion: configuration.serverVersion), to: session)
        case .frameEvents(let enabled): setFrameEvents(enabled, for: session)
        case .uploadImage(let id, let width, let height, let stride):
            try uploadImage(id: id, width: width, height: height, stride: stride, fd: packet.fds[0], for: session)
        case .releaseImage(let id): try releaseImage(id: id, for: session)
        case .registerSurface(let id, let width, let height, let stride, let format, let planes):
            try registering(id, for: session) {
                try registerSurface(
                    id: id, width: width, height: height, stride: stride, format: format, planes: planes,
                    fd: packet.fds[0], for: session)
            }
        case .releaseSurface(let id):
            if !forgetRefusal(id, for: session) { try releaseSurface(id: id, for: session) }
        case .surfaceFeedback(let id, let enabled):
            // Feedback on a refused surface: nothing will be shown, nothing to report.
            if !isRefused(id, for: session) { try setSurfaceFeedback(id: id, enabled: enabled, for: session) }
        case .requestSurfaceCapabilities(let requestID):
            try send(.surfaceCapabilities(requestID: requestID, surfaceCapabilities), to: session)
        case .registerDeviceImage(let image):
            try registering(image.id, for: session) { try registerDeviceImage(image, fd: packet.fds[0], for: session) }
        case .stats(let requestID):
            try send(.statsReply(requestID: requestID, clients: statistics(for: session)), to: session)
        case .setLevel(let level): try setLevel(level, for: session)
        case .requestExportToken(let requestID): try sendExportToken(requestID: requestID, to: session)
        case .describeTree(let requestID): try describeTree(requestID: requestID, for: session)
        case .frameRecords(let requestID, let display, let count):
            try sendFrameRecords(requestID: requestID, display: display, count: count, to: session)
        }
    }

    /// The packet's message, once its size and descriptors are right: only an image upload or a
    /// surface registration carries a descriptor, exactly one; any other is closed and refused.
    func decode(_ packet: ReceivedPacket, from session: ClientSession) throws -> ClientMessage {
        if packet.wasTruncated {
            throw SessionError(
                .oversizedMessage,
                "message larger than \(WireLimits.maxMessageBytes) bytes or with too many file descriptors")
        }
        let message: ClientMessage
        do {
            message = try MessageCodec.decodeClient(packet.bytes)
        } catch {
            // Another version's hello may be laid out otherwise: it is refused by its version.
            if !session.greeted, let version = MessageCodec.helloVersion(packet.bytes),
                version != WireLimits.protocolVersion
            {
                throw Self.unsupported(version)
            }
            throw SessionError(error)
        }
        if case .uploadImage(let id, _, _, _) = message {
            guard packet.fds.count == 1 else {
                throw SessionError(
                    .badFileDescriptor,
                    "uploadImage of image \(id) carries \(packet.fds.count) file descriptors; it needs exactly one memfd"
                )
            }
        } else if case .registerSurface(let id, _, _, _, _, _) = message {
            guard packet.fds.count == 1 else {
                throw SessionError(
                    .badFileDescriptor,
                    "registerSurface of surface \(id) carries \(packet.fds.count) file descriptors; it needs exactly one memfd"
                )
            }
        } else if case .registerDeviceImage(let image) = message {
            guard packet.fds.count == 1 else {
                throw SessionError(
                    .badFileDescriptor,
                    "registerDeviceImage of image \(image.id) carries \(packet.fds.count) file descriptors; it "
                        + "needs exactly one exported memory descriptor")
            }
        } else if !packet.fds.isEmpty {
            throw SessionError(
                .badFileDescriptor,
                "\(message.kindName) carries \(packet.fds.count) file descriptor(s); only uploadImage, "
                    + "registerSurface and registerDeviceImage carry one")
        }
        return message
    }

    /// `hello`: the handshake, once per client; answers `welcome` with the context id it was given
    /// (the one it claims, after a server restart, where that is free) and the displays.
    func greet(_ session: ClientSession, version: UInt32, name: String, contextId: UInt32, token: UInt64) throws {
        guard !session.greeted else { throw SessionError(.protocolViolation, "second hello") }
        guard version == WireLimits.protocolVersion else { throw Self.unsupported(version) }
        let refusal = try assignContext(to: session, claiming: contextId, token: token)
        session.greeted = true
        session.name = name
        try send(
            .welcome(
                version: WireLimits.protocolVersion, serverVersion: configuration.serverVersion,
                contextId: session.contextId, displays: displayInfos), to: session)
        if let refusal { deliver(.warning(code: .contextIdUnavailable, message: refusal), to: session) }
        logger.info("client greeted", metadata: ["client": "\(session.label)", "context": "\(session.contextId)"])
    }

    /// The error for a `hello` of protocol version `version`, which this server does not speak.
    static func unsupported(_ version: UInt32) -> SessionError {
        SessionError(
            .unsupportedVersion,
            "protocol version \(version) is not supported; this server speaks \(WireLimits.protocolVersion)")
    }

    /// `frameEvents`: turns the client's `frame` events (its display links) on or off.
    func setFrameEvents(_ enabled: Bool, for session: ClientSession) {
        session.wantsFrames = enabled
        if enabled { scheduleFrame(on: displays[Int(session.homeDisplay)]) }
    }

    /// `setLevel`: where the client's trees stack among other clients' (docs/protocol.md §12).
    func setLevel(_ level: Float, for session: ClientSession) throws {
        guard level.isFinite else { throw SessionError(.invalidValue, "setLevel: level \(level) is not finite") }
        guard level != session.level else { return }
        session.level = level
        for id in displaysShowing(session).sorted() { scheduleFrame(on: displays[Int(id)]) }
    }

    /// `requestExportToken`: the token a `CALayerHost` of another client names this client's tree
    /// by; from the first request on, the tree shows only in host layers.
    func sendExportToken(requestID: UInt64, to session: ClientSession) throws {
        let token = session.exportToken ?? Self.makeExportToken()
        if session.exportToken == nil {
            for id in displaysShowing(session).union(session.tree.roots.keys).sorted() {
                scheduleFrame(on: displays[Int(id)])
            }
        }
        session.exportToken = token
        try send(.exportToken(requestID: requestID, token: token), to: session)
    }

    /// `describeTree`: the client's own tree as `laminactl tree` prints it (other clients' layer
    /// names are theirs).
    func describeTree(requestID: UInt64, for session: ClientSession) throws {
        let text = TreeDescriber.describe([(session.label, session.tree)])
        let limited = text.truncatedToUTF8(WireLimits.maxMessageBytes - 64)
        try send(.treeDescription(requestID: requestID, text: limited), to: session)
    }
}

extension ClientMessage {
    /// The message's type, for error texts.
    var kindName: String {
        switch self {
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
    }
}

import Foundation
import Glibc
import LaminaCore
import LaminaProtocol
import Logging

/// The render server: accepts clients on a Unix socket, applies their transactions to their render
/// trees, and presents frames on its output at the output's refresh rate, only when something changed.
///
/// Everything runs on the thread that calls `run()`: sockets, transactions, display lists, rendering.
/// `stop()` may be called from any thread.
public final class Server: @unchecked Sendable {
    /// What the server needs to start.
    public struct Configuration: Sendable {
        public var socketPath: String
        public var serverVersion: String
        /// Premultiplied colour of display pixels no layer covers.
        public var clearColor: SIMD4<Float>
        public init(socketPath: String, serverVersion: String, clearColor: SIMD4<Float> = SIMD4(0, 0, 0, 1)) {
            self.socketPath = socketPath
            self.serverVersion = serverVersion
            self.clearColor = clearColor
        }
    }

    let configuration: Configuration
    let output: any Output
    let listener: SeqPacketSocket
    let wakeup = WakeupPipe()
    var logger: Logger
    var sessions: [ClientSession] = []
    var nextSessionID = 1
    var running = true
    var needsFrame = true
    var nextFrameTime: Double?
    let stopLock = NSLock()
    var stopRequested = false
    /// Called after each presented frame with its media time (tests and benchmarks observe frames here).
    public var onFramePresented: ((Double) -> Void)?
    /// Frames presented since start.
    public private(set) var framesPresented = 0

    /// Binds the socket (creating its folder with mode 0700, replacing a stale socket file, refusing a
    /// live one) and prepares to serve `output`.
    public init(configuration: Configuration, output: any Output, logger: Logger) throws {
        self.configuration = configuration
        self.output = output
        self.logger = logger
        listener = try SeqPacketSocket.listen(path: configuration.socketPath)
        try listener.setNonBlocking(true)
    }

    /// The displays this server drives (display 0 is the output).
    public var displays: [DisplayInfo] {
        [DisplayInfo(id: 0, width: UInt32(output.mode.width), height: UInt32(output.mode.height),
                     refreshRate: output.mode.refreshRate)]
    }

    /// Asks `run()` to return after its current iteration. Thread-safe.
    public func stop() {
        stopLock.withLock { stopRequested = true }
        wakeup.wake()
    }

    /// Serves until `stop()`. Closes every client and the socket (removing its file) before returning.
    public func run() {
        logger.info("serving", metadata: ["socket": "\(configuration.socketPath)", "output": "\(output.mode)"])
        while !stopLock.withLock({ stopRequested }) {
            pollOnce()
        }
        for session in sessions { session.socket.close() }
        sessions.removeAll()
        listener.close()
        logger.info("stopped")
    }

    func pollOnce() {
        var fds = [pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: listener.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        for session in sessions {
            fds.append(pollfd(fd: session.socket.fileDescriptor, events: Int16(POLLIN), revents: 0))
        }
        var timeout: Int32 = -1
        if needsFrame {
            let now = CACurrentMediaTime()
            let due = nextFrameTime ?? now
            nextFrameTime = due
            // At most a minute at a time: a frame far in the future is waited for in steps.
            timeout = Int32(min(60_000, max(0, ((due - now) * 1000).rounded(.up))))
        }
        let ready: Int
        do { ready = try poll(&fds, timeout: timeout) } catch { ready = 0; logger.error("poll failed: \(error)") }
        if ready > 0 {
            if fds[0].revents != 0 { wakeup.drain() }
            if fds[1].revents != 0 { acceptClients() }
            // Sessions may close while handling messages: match pollfds by descriptor.
            let readable = Set(fds.dropFirst(2).filter { $0.revents != 0 }.map(\.fd))
            for session in sessions where readable.contains(session.socket.fileDescriptor) {
                serve(session)
            }
        }
        if needsFrame, let due = nextFrameTime, CACurrentMediaTime() >= due {
            presentFrame()
        }
    }

    func acceptClients() {
        while true {
            do {
                guard let socket = try listener.accept() else { return }
                try socket.setNonBlocking(true)
                let session = ClientSession(id: nextSessionID, socket: socket)
                nextSessionID += 1
                sessions.append(session)
                logger.debug("client connected", metadata: ["client": "\(session.id)"])
            } catch {
                logger.error("accept failed: \(error)")
                return
            }
        }
    }

    /// Reads and handles the client's pending messages (a bounded number per turn, for fairness).
    func serve(_ session: ClientSession) {
        for _ in 0..<64 {
            let packet: ReceivedPacket?
            do {
                packet = try session.socket.receive(maxBytes: WireLimits.maxMessageBytes, maxFDs: 4)
            } catch {
                disconnect(session, reason: "receive failed: \(error)")
                return
            }
            guard let packet else { return }
            if packet.isEndOfStream {
                disconnect(session, reason: "client closed the connection")
                return
            }
            do {
                try handle(packet, from: session)
            } catch let error as SessionError {
                fail(session, error)
                return
            } catch {
                fail(session, SessionError(.internalError, "\(error)"))
                return
            }
        }
    }

    func handle(_ packet: ReceivedPacket, from session: ClientSession) throws {
        if packet.wasTruncated {
            throw SessionError(.oversizedMessage,
                               "message larger than \(WireLimits.maxMessageBytes) bytes or with too many file descriptors")
        }
        if !packet.fds.isEmpty {
            throw SessionError(.badFileDescriptor,
                               "message carries \(packet.fds.count) file descriptor(s); protocol v1 expects none from clients")
        }
        let message: ClientMessage
        do {
            message = try MessageCodec.decodeClient(packet.bytes)
        } catch {
            throw SessionError(error)
        }
        if case .hello(let version, let name) = message {
            guard !session.greeted else { throw SessionError(.protocolViolation, "second hello") }
            guard version == WireLimits.protocolVersion else {
                throw SessionError(.unsupportedVersion,
                                   "protocol version \(version) is not supported; this server speaks \(WireLimits.protocolVersion)")
            }
            session.greeted = true
            session.name = name
            try send(.welcome(version: WireLimits.protocolVersion, serverVersion: configuration.serverVersion,
                              displays: displays), to: session)
            logger.info("client greeted", metadata: ["client": "\(session.label)"])
            return
        }
        guard session.greeted else {
            throw SessionError(.protocolViolation, "the first message must be hello, got \(message.kindName)")
        }
        switch message {
        case .hello:
            break
        case .transactionPart(let operations):
            guard session.pendingOperations.count + operations.count <= WireLimits.maxOperationsPerTransaction else {
                throw SessionError(.limitExceeded,
                                   "transaction has more than \(WireLimits.maxOperationsPerTransaction) operations")
            }
            session.pendingOperations += operations
        case .commit(let serial, let operations):
            let all = session.pendingOperations + operations
            session.pendingOperations = []
            guard all.count <= WireLimits.maxOperationsPerTransaction else {
                throw SessionError(.limitExceeded,
                                   "transaction has more than \(WireLimits.maxOperationsPerTransaction) operations")
            }
            do {
                session.tree = try session.tree.applying(all, displayCount: displays.count)
            } catch {
                throw SessionError(error.code, "commit \(serial): \(error)")
            }
            session.unpresentedSerial = max(session.unpresentedSerial ?? 0, serial)
            try send(.commitApplied(serial: serial), to: session)
            scheduleFrame()
        case .capture(let requestID, let display, let time):
            guard Int(display) < displays.count else { throw SessionError(.badDisplay, "capture of display \(display), which does not exist") }
            if let time, !time.isFinite { throw SessionError(.invalidValue, "capture time is NaN or infinite") }
            try capture(requestID: requestID, display: display, time: time ?? CACurrentMediaTime(), for: session)
        case .ping(let requestID):
            try send(.pong(requestID: requestID, serverVersion: configuration.serverVersion), to: session)
        case .frameEvents(let enabled):
            session.wantsFrames = enabled
            if enabled { scheduleFrame() }
        case .describeTree(let requestID):
            let text = TreeDescriber.describe(sessions.map { ($0.label, $0.tree) })
            let limited = text.truncatedToUTF8(WireLimits.maxMessageBytes - 64)
            try send(.treeDescription(requestID: requestID, text: limited), to: session)
        }
    }

    func send(_ message: ServerMessage, fds: [Int32] = [], to session: ClientSession) throws {
        do {
            try session.socket.send(MessageCodec.encode(message), fds: fds)
        } catch {
            throw SessionError(.internalError, "cannot send to the client (is it reading its events?): \(error)")
        }
    }

    /// Reports the error to the client, then disconnects it and frees its layers.
    func fail(_ session: ClientSession, _ error: SessionError) {
        logger.warning("client error", metadata: ["client": "\(session.label)", "code": "\(error.code)",
                                                   "message": "\(error.message)"])
        try? session.socket.send(MessageCodec.encode(ServerMessage.error(code: error.code, message: error.message)))
        disconnect(session, reason: error.message)
    }

    func disconnect(_ session: ClientSession, reason: String) {
        guard let index = sessions.firstIndex(where: { $0 === session }) else { return }
        sessions.remove(at: index)
        session.socket.close()
        logger.info("client disconnected", metadata: ["client": "\(session.label)", "reason": "\(reason)"])
        if !session.tree.roots.isEmpty { scheduleFrame() }
    }

    /// Asks for a frame at the next tick of the output's refresh grid (after `previous`, the time
    /// of the frame just presented, when given), or at the first tick at or after `wake`. A frame
    /// already asked for at an earlier time stays.
    func scheduleFrame(after previous: Double? = nil, notBefore wake: Double? = nil) {
        // A failed frame is retried at the next tick, since needsFrame stays set until a frame succeeds.
        // Frames land on the output's refresh grid.
        let interval = 1 / max(output.mode.refreshRate, 1)
        let now = CACurrentMediaTime()
        var due = (now / interval).rounded(.up) * interval
        if let previous, due <= previous + interval / 2 { due = previous + interval }
        if let wake, wake > due { due = (wake / interval).rounded(.up) * interval }
        if needsFrame, nextFrameTime.map({ $0 <= due }) ?? true { return }
        needsFrame = true
        nextFrameTime = due
    }

    func displayList(display: UInt32, time: Double) -> DisplayList {
        DisplayListBuilder.build(trees: sessions.map(\.tree), display: display, width: output.mode.width,
                                 height: output.mode.height, clearColor: configuration.clearColor, time: time)
    }

    func presentFrame() {
        let time = nextFrameTime ?? CACurrentMediaTime()
        do {
            try output.present(displayList(display: 0, time: time))
        } catch {
            // Retry at the next refresh tick.
            logger.error("frame failed: \(error)")
            nextFrameTime = time + 1 / max(output.mode.refreshRate, 1)
            return
        }
        needsFrame = false
        nextFrameTime = nil
        framesPresented += 1
        let interval = 1 / max(output.mode.refreshRate, 1)
        var another = false
        var wake: Double?
        for session in sessions {
            var messages: [ServerMessage] = []
            // One event names the newest presented commit; every earlier one is presented too.
            if let serial = session.unpresentedSerial {
                session.unpresentedSerial = nil
                messages.append(.commitPresented(serial: serial, time: time))
            }
            let (events, running, nextStart) = session.tree.advanceAnimations(to: time)
            if let nextStart { wake = min(wake ?? nextStart, nextStart) }
            // Events beyond one message's worth are sent in several messages.
            for start in stride(from: 0, to: events.count, by: 4096) {
                messages.append(.animationEvents(Array(events[start..<min(start + 4096, events.count)])))
            }
            if session.wantsFrames { messages.append(.frame(time: time, targetTime: time + interval)) }
            another = another || running || session.wantsFrames
            do {
                for message in messages { try send(message, to: session) }
            } catch let error as SessionError {
                fail(session, error)
            } catch {
                fail(session, SessionError(.internalError, "\(error)"))
            }
        }
        onFramePresented?(time)
        if another {
            scheduleFrame(after: time)
        } else if let wake {
            // Only animations that have not started yet: sleep until the first one starts.
            scheduleFrame(after: time, notBefore: wake)
        }
    }

    func capture(requestID: UInt64, display: UInt32, time: Double, for session: ClientSession) throws {
        let bitmap: Bitmap
        do {
            bitmap = try output.capture(displayList(display: display, time: time))
        } catch {
            throw SessionError(.internalError, "capture failed: \(error)")
        }
        let memory = try SharedMemory.create(name: "lamina-capture", size: bitmap.pixels.count) { buffer in
            bitmap.pixels.withUnsafeBytes { buffer.copyMemory(from: $0) }
        }
        try send(.captureResult(requestID: requestID, width: UInt32(bitmap.width), height: UInt32(bitmap.height),
                                stride: UInt32(bitmap.stride), time: time),
                 fds: [memory.fileDescriptor], to: session)
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
        case .ping: "ping"
        case .describeTree: "describeTree"
        case .frameEvents: "frameEvents"
        }
    }
}

import Foundation
import Glibc
import LaminaCore
import LaminaProtocol
import Logging

/// The render server: accepts clients on a Unix socket, applies their transactions to their render
/// trees, and presents frames on each display at its output's refresh rate, only when something
/// shown there changed.
///
/// Everything runs on the thread that calls `run()` (or `pollOnce(timeout:)`): sockets,
/// transactions, display lists, rendering. `stop()` may be called from any thread. The server reads
/// time only through its `MediaClock`.
public final class Server: @unchecked Sendable {
    /// What the server needs to start.
    public struct Configuration: Sendable {
        /// The path of the listening Unix socket.
        public var socketPath: String
        /// The version text sent in `welcome` and `pong`.
        public var serverVersion: String
        /// Premultiplied colour of display pixels no layer covers.
        public var clearColor: SIMD4<Float>
        /// A configuration with the given socket path, version and clear colour.
        public init(socketPath: String, serverVersion: String, clearColor: SIMD4<Float> = SIMD4(0, 0, 0, 1)) {
            self.socketPath = socketPath
            self.serverVersion = serverVersion
            self.clearColor = clearColor
        }
    }

    let configuration: Configuration
    /// The displays this server drives, one per output, numbered from 0 in the order given.
    public let displays: [Display]
    /// The server's only source of media time.
    let clock: any MediaClock
    let listener: SeqPacketSocket
    let wakeup = WakeupPipe()
    var logger: Logger
    var sessions: [ClientSession] = []
    var nextSessionID = 1
    var running = true
    let stopLock = NSLock()
    var stopRequested = false
    /// Called after each presented frame with its display and media time (tests and benchmarks
    /// observe frames here).
    public var onFramePresented: ((_ display: UInt32, _ time: Double) -> Void)?
    /// Frames presented since start, over all displays.
    public var framesPresented: Int { displays.reduce(0) { $0 + $1.framesPresented } }

    /// Binds the socket (creating its folder with mode 0700, replacing a stale socket file, refusing a
    /// live one) and prepares to serve `outputs` as displays 0, 1, … in that order, reading time from
    /// `clock`. Without a `logger`, only warnings and errors are logged (in-process tests).
    ///
    /// - Precondition: `outputs` holds 1 to `WireLimits.maxDisplays` outputs.
    public init(
        configuration: Configuration, outputs: [any Output], clock: any MediaClock = SystemMediaClock(),
        logger: Logger = Server.quietLogger()
    ) throws {
        precondition(
            (1...WireLimits.maxDisplays).contains(outputs.count),
            "a server drives 1 to \(WireLimits.maxDisplays) outputs, not \(outputs.count)")
        self.configuration = configuration
        displays = outputs.enumerated().map { Display(id: UInt32($0.offset), output: $0.element) }
        self.clock = clock
        self.logger = logger
        listener = try SeqPacketSocket.listen(path: configuration.socketPath)
        try listener.setNonBlocking(true)
    }

    /// A server with one display, `output`, on the system clock.
    public convenience init(configuration: Configuration, output: any Output, logger: Logger) throws {
        try self.init(configuration: configuration, outputs: [output], logger: logger)
    }

    /// A logger that reports only warnings and worse.
    public static func quietLogger() -> Logger {
        var logger = Logger(label: "lamina.server")
        logger.logLevel = .warning
        return logger
    }

    /// The displays as the handshake describes them.
    var displayInfos: [DisplayInfo] { displays.map(\.info) }

    /// Asks `run()` to return after its current iteration. Thread-safe.
    public func stop() {
        stopLock.withLock { stopRequested = true }
        wakeup.wake()
    }

    /// Serves until `stop()`. Closes every client and the socket (removing its file) before returning.
    public func run() {
        let modes = displays.map { "\($0.id): \($0.output.mode)" }.joined(separator: ", ")
        logger.info("serving", metadata: ["socket": "\(configuration.socketPath)", "displays": "\(modes)"])
        while !stopLock.withLock({ stopRequested }) {
            pollOnce()
        }
        for session in sessions { session.socket.close() }
        sessions.removeAll()
        listener.close()
        logger.info("stopped")
    }

    /// Runs one turn of the loop: waits for a client, an output event, a wake-up or the next due frame
    /// (at most `limit` seconds when given; 0 does not block), handles what is ready, then presents
    /// every display whose frame is due. Returns whether anything was read or presented.
    ///
    /// `run()` calls it until stopped; tests with a manual clock call it (or `runUntilIdle()`) instead.
    @discardableResult
    public func pollOnce(timeout limit: Double? = nil) -> Bool {
        var fds = [
            pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: listener.fileDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        // Outputs with an event source say when their refresh comes; the clock drives the others.
        let now = clock.now()
        var wait: Double?
        var eventDisplays: [(display: Display, index: Int)] = []
        for display in displays where display.needsFrame {
            if display.nextFrameTime == nil { display.setFrameTime(now) }
        }
        for display in displays {
            if let fd = display.output.eventFileDescriptor {
                eventDisplays.append((display, fds.count))
                fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
            } else if display.needsFrame, let due = display.nextFrameTime {
                wait = min(wait ?? .infinity, max(0, due - now))
            }
        }
        let firstSession = fds.count
        for session in sessions {
            fds.append(pollfd(fd: session.socket.fileDescriptor, events: Int16(POLLIN), revents: 0))
        }
        if let limit { wait = min(wait ?? .infinity, max(0, limit)) }
        // At most a minute at a time: a frame far in the future is waited for in steps.
        let timeout = wait.map { Int32(min(60_000, ($0 * 1000).rounded(.up))) } ?? -1
        let ready: Int
        do { ready = try poll(&fds, timeout: timeout) } catch { ready = 0; logger.error("poll failed: \(error)") }
        var due: [Display] = []
        if ready > 0 {
            if fds[0].revents != 0 { wakeup.drain() }
            if fds[1].revents != 0 { acceptClients() }
            // Sessions may close while handling messages: match pollfds by descriptor.
            let readable = Set(fds[firstSession...].filter { $0.revents != 0 }.map(\.fd))
            for session in sessions where readable.contains(session.socket.fileDescriptor) {
                serve(session)
            }
            for (display, index) in eventDisplays where fds[index].revents != 0 {
                if display.output.handleEvents().contains(where: display.isDue) { due.append(display) }
            }
        }
        let later = clock.now()
        for display in displays where display.output.eventFileDescriptor == nil {
            if display.needsFrame, let time = display.nextFrameTime, later >= time { due.append(display) }
        }
        for display in displays where due.contains(where: { $0 === display }) {
            presentFrame(on: display)
        }
        return ready > 0 || !due.isEmpty
    }

    /// Runs turns of the loop without blocking until one reads nothing and presents nothing: every
    /// message already sent has been handled and every frame due at the clock's time presented.
    /// For tests that drive a server with a manual clock on their own thread.
    public func runUntilIdle() {
        while pollOnce(timeout: 0) {}
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
            throw SessionError(
                .oversizedMessage,
                "message larger than \(WireLimits.maxMessageBytes) bytes or with too many file descriptors")
        }
        if !packet.fds.isEmpty {
            throw SessionError(
                .badFileDescriptor,
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
                throw SessionError(
                    .unsupportedVersion,
                    "protocol version \(version) is not supported; this server speaks \(WireLimits.protocolVersion)")
            }
            session.greeted = true
            session.name = name
            try send(
                .welcome(
                    version: WireLimits.protocolVersion, serverVersion: configuration.serverVersion,
                    displays: displayInfos), to: session)
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
                throw SessionError(
                    .limitExceeded,
                    "transaction has more than \(WireLimits.maxOperationsPerTransaction) operations")
            }
            session.pendingOperations += operations
        case .commit(let serial, let operations):
            let all = session.pendingOperations + operations
            session.pendingOperations = []
            guard all.count <= WireLimits.maxOperationsPerTransaction else {
                throw SessionError(
                    .limitExceeded,
                    "transaction has more than \(WireLimits.maxOperationsPerTransaction) operations")
            }
            let before = session.tree.roots.keys
            do {
                session.tree = try session.tree.applying(all, displayCount: displays.count)
            } catch {
                throw SessionError(error.code, "commit \(serial): \(error)")
            }
            // The commit is presented once every display that showed or shows this client's tree has
            // presented a frame after it (its home display when it shows nothing).
            var touched = Set(before).union(session.tree.roots.keys)
            if touched.isEmpty { touched = [session.homeDisplay] }
            session.unpresentedSerial = max(session.unpresentedSerial ?? 0, serial)
            session.awaitingDisplays.formUnion(touched)
            try send(.commitApplied(serial: serial), to: session)
            for id in touched.sorted() { scheduleFrame(on: displays[Int(id)]) }
        case .capture(let requestID, let display, let time):
            guard Int(display) < displays.count else {
                throw SessionError(.badDisplay, "capture of display \(display), which does not exist")
            }
            if let time, !time.isFinite { throw SessionError(.invalidValue, "capture time is NaN or infinite") }
            try capture(
                requestID: requestID, display: displays[Int(display)], time: time ?? clock.now(),
                for: session)
        case .ping(let requestID):
            try send(.pong(requestID: requestID, serverVersion: configuration.serverVersion), to: session)
        case .frameEvents(let enabled):
            session.wantsFrames = enabled
            if enabled { scheduleFrame(on: displays[Int(session.homeDisplay)]) }
        case .describeTree(let requestID):
            let text = TreeDescriber.describe(sessions.map { ($0.label, $0.tree) })
            let limited = text.truncatedToUTF8(WireLimits.maxMessageBytes - 64)
            try send(.treeDescription(requestID: requestID, text: limited), to: session)
        }
    }

    /// The most packets `disconnect` reads and discards from a departing client's queue. The kernel
    /// already bounds that queue by the socket's buffer; this bounds the work whatever it holds.
    static let drainLimit = 4096

    func send(_ message: ServerMessage, fds: [Int32] = [], to session: ClientSession) throws {
        do {
            try session.socket.send(MessageCodec.encode(message), fds: fds)
        } catch {
            throw SessionError(.internalError, "cannot send to the client (is it reading its events?): \(error)")
        }
    }

    /// Sends an event of `presentFrame`. A `commitPresented` that does not fit in the socket buffer
    /// (the client is not reading its events) is dropped: the next one names a newer serial, and
    /// every earlier serial is presented too. Any other failure throws like `send`.
    func sendEvent(_ message: ServerMessage, to session: ClientSession) throws {
        guard case .commitPresented(let serial, _) = message else { return try send(message, to: session) }
        do {
            try session.socket.send(MessageCodec.encode(message))
        } catch let error as SystemError where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            logger.debug(
                "commitPresented dropped: the client is not reading",
                metadata: ["client": "\(session.label)", "serial": "\(serial)"])
        } catch {
            throw SessionError(.internalError, "cannot send to the client (is it reading its events?): \(error)")
        }
    }

    /// Reports the error to the client, then disconnects it and frees its layers.
    func fail(_ session: ClientSession, _ error: SessionError) {
        logger.warning(
            "client error",
            metadata: [
                "client": "\(session.label)", "code": "\(error.code)",
                "message": "\(error.message)",
            ])
        try? session.socket.send(MessageCodec.encode(ServerMessage.error(code: error.code, message: error.message)))
        disconnect(session, reason: error.message)
    }

    /// Closes the client's connection, frees its layers and schedules a frame on the displays it showed.
    ///
    /// Closing a socket with unread client messages would make the client's next receive fail with
    /// `ECONNRESET` ahead of an `error` just sent, so the socket is shut down first (the client's
    /// later sends fail with `EPIPE` and nothing more is queued), what the client had queued is read
    /// and discarded without blocking (at most `drainLimit` packets), and only then is it closed.
    func disconnect(_ session: ClientSession, reason: String) {
        guard let index = sessions.firstIndex(where: { $0 === session }) else { return }
        sessions.remove(at: index)
        try? session.socket.shutdown()
        for _ in 0..<Self.drainLimit {
            // One byte is enough to dequeue a packet; descriptors that came with it are closed.
            guard let packet = try? session.socket.receive(maxBytes: 1, maxFDs: 4), !packet.isEndOfStream else {
                break
            }
        }
        session.socket.close()
        logger.info("client disconnected", metadata: ["client": "\(session.label)", "reason": "\(reason)"])
        for id in session.tree.roots.keys.sorted() { scheduleFrame(on: displays[Int(id)]) }
    }

    /// Asks `display` for a frame at the next tick of its refresh grid (after `previous`, the time of
    /// the frame just presented there, when given), or at the first tick at or after `wake`. A frame
    /// already asked for at an earlier time stays.
    func scheduleFrame(on display: Display, after previous: Double? = nil, notBefore wake: Double? = nil) {
        display.scheduleFrame(now: clock.now(), after: previous, notBefore: wake)
    }

    func displayList(for display: Display, time: Double) -> DisplayList {
        DisplayListBuilder.build(
            trees: sessions.map(\.tree), display: display.id, width: display.output.mode.width,
            height: display.output.mode.height, clearColor: configuration.clearColor, time: time)
    }

    /// Presents `display`'s waiting frame at its scheduled time, then tells the clients it concerns:
    /// `commitPresented` once every display a commit touched has presented, and, for the clients whose
    /// home display this is, animation events and display-link frames. Schedules the next frame while
    /// animations run or display links wait.
    func presentFrame(on display: Display) {
        let time = display.nextFrameTime ?? clock.now()
        do {
            try display.output.present(displayList(for: display, time: time))
        } catch {
            // Retry at the next refresh tick.
            logger.error("frame failed", metadata: ["display": "\(display.id)", "error": "\(error)"])
            display.setFrameTime(time + display.interval)
            return
        }
        display.didPresent(at: time)
        var another: Set<UInt32> = []
        var wake: [UInt32: Double] = [:]
        for session in sessions {
            var messages: [ServerMessage] = []
            // One event names the newest presented commit; every earlier one is presented too.
            if let serial = session.unpresentedSerial, session.awaitingDisplays.remove(display.id) != nil,
                session.awaitingDisplays.isEmpty
            {
                session.unpresentedSerial = nil
                messages.append(.commitPresented(serial: serial, time: time))
            }
            if session.homeDisplay == display.id {
                let (events, running, nextStart) = session.tree.advanceAnimations(to: time)
                // The session's other displays follow its animations too.
                let shown = Set(session.tree.roots.keys).union([display.id])
                if let nextStart {
                    for id in shown { wake[id] = min(wake[id] ?? nextStart, nextStart) }
                }
                // Events beyond one message's worth are sent in several messages.
                for start in stride(from: 0, to: events.count, by: 4096) {
                    messages.append(.animationEvents(Array(events[start..<min(start + 4096, events.count)])))
                }
                if session.wantsFrames {
                    messages.append(.frame(time: time, targetTime: time + display.interval))
                }
                if running || session.wantsFrames { another.formUnion(shown) }
            }
            do {
                for message in messages { try sendEvent(message, to: session) }
            } catch let error as SessionError {
                fail(session, error)
            } catch {
                fail(session, SessionError(.internalError, "\(error)"))
            }
        }
        onFramePresented?(display.id, time)
        for other in displays {
            let previous = other === display ? time : nil
            if another.contains(other.id) {
                scheduleFrame(on: other, after: previous)
            } else if let start = wake[other.id] {
                // Only animations that have not started yet: sleep until the first one starts.
                scheduleFrame(on: other, after: previous, notBefore: start)
            }
        }
    }

    func capture(requestID: UInt64, display: Display, time: Double, for session: ClientSession) throws {
        let bitmap: Bitmap
        do {
            bitmap = try display.output.capture(displayList(for: display, time: time))
        } catch {
            throw SessionError(.internalError, "capture failed: \(error)")
        }
        let memory = try SharedMemory.create(name: "lamina-capture", size: bitmap.pixels.count) { buffer in
            bitmap.pixels.withUnsafeBytes { buffer.copyMemory(from: $0) }
        }
        try send(
            .captureResult(
                requestID: requestID, width: UInt32(bitmap.width), height: UInt32(bitmap.height),
                stride: UInt32(bitmap.stride), time: time),
            fds: [memory.fileDescriptor], to: session)
    }
}

extension ClientSession {
    /// The display whose frames advance this client's animations and drive its display links: the
    /// lowest display that shows one of its roots, else display 0.
    var homeDisplay: UInt32 { tree.roots.keys.min() ?? 0 }
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

import Foundation
import Glibc
import LaminaCore
import LaminaProtocol
import Logging

/// The render server: accepts clients on a Unix socket, applies their transactions to their render
/// trees, and presents frames on each display at its output's refresh rate, only when something
/// shown there changed.
///
/// The loop runs on the thread that calls `run()` (or `pollOnce(timeout:)`): sockets, transactions,
/// frame scheduling, animation events. Two workers take the long jobs off it and hand the results
/// back through the wake-up pipe: `CommitWorker` applies large transactions, and `FrameWorker`
/// builds display lists and draws frames and captures from snapshots of the trees, so no client's
/// scene holds the loop (docs/architecture.md, "Threads"). `stop()` may be called from any thread.
/// The server reads media time only through its `MediaClock`.
public final class Server: @unchecked Sendable {
    /// What the server needs to start.
    public struct Configuration: Sendable {
        /// The path of the listening Unix socket.
        public var socketPath: String
        /// The version text sent in `welcome` and `pong`.
        public var serverVersion: String
        /// Premultiplied colour of display pixels no layer covers.
        public var clearColor: SIMD4<Float>
        /// Who may connect: the socket file's mode (0600 for the server's user, or 0660 and a group).
        public var socketAccess: SocketAccess
        /// The per-client and global resource bounds (docs/protocol.md §11).
        public var limits = ResourceLimits()
        /// Seconds of media time a new connection has to send `hello` before it gets
        /// `protocolViolation` and is closed.
        public var handshakeTimeout = 5.0
        /// Transactions with at least this many operations (held parts included) are applied on the
        /// commit worker's thread while the loop goes on; smaller ones are applied on the loop.
        public var workerCommitOperations = 20_000
        /// Seconds between calls of `Server.onHeartbeat` from the loop's own thread (nil: never). A
        /// service manager's watchdog is fed from it, so a loop that hangs stops feeding it.
        public var heartbeatInterval: Double?
        /// A test hook: the device UUID the server announces and checks device images against in
        /// place of its device's (nil: the device's own). laminad sets it from
        /// `LAMINA_TEST_DEVICE_UUID` (32 hex digits), so a test can see a mismatch refused.
        public var deviceUUIDOverride: [UInt8]?
        /// A configuration with the given socket path, version, clear colour and socket access.
        public init(
            socketPath: String, serverVersion: String, clearColor: SIMD4<Float> = SIMD4(0, 0, 0, 1),
            socketAccess: SocketAccess = .owner
        ) {
            self.socketPath = socketPath
            self.serverVersion = serverVersion
            self.clearColor = clearColor
            self.socketAccess = socketAccess
        }
    }

    let configuration: Configuration
    /// The displays this server drives, one per output, numbered from 0 in the order given, then
    /// those added while running (`addOutput`); each display's index is its number. A display stays
    /// in the list after its output closed, until a display added later takes its number
    /// (`addOutput`) and replaces it.
    public internal(set) var displays: [Display]
    /// Displays that `addOutput` replaced, let go of on the frame worker at the next turn of the loop
    /// (`releaseRetiredDisplays`).
    var retiredDisplays: [Display] = []
    /// The server's only source of media time.
    let clock: any MediaClock
    let listener: SeqPacketSocket
    let wakeup = WakeupPipe()
    var logger: Logger
    var sessions: [ClientSession] = []
    /// What all clients hold, charged against `configuration.limits`.
    var budget: ResourceBudget
    /// Applies large transactions off the loop's thread.
    let commits: CommitWorker
    /// Builds display lists and draws frames and captures off the loop's thread.
    let frames: FrameWorker
    /// What the renderer's device accepts for surfaces and device images (with the configuration's
    /// UUID override), as `surfaceCapabilities` replies announce it.
    let surfaceCapabilities: SurfaceCapabilities
    /// Captures being drawn on the frame worker, over all clients.
    var capturesDrawing = 0
    var nextSessionID = 1
    /// Gives the clients' context ids, new or back after a restart.
    var contextIds = ContextIdAllocator()
    /// Whether a client has left since the heap was last trimmed (`trimHeapIfDue`).
    var heapTrimDue = false
    /// The media time of the last heap trim.
    var lastHeapTrim = -Double.infinity
    /// Pauses watching the listener while accepting fails for lack of descriptors.
    var acceptThrottle = AcceptThrottle()
    /// The user the server runs as: its clients, and root's, may capture every client's content.
    let serverUID = geteuid()
    var running = true
    /// Why the renderer's device was lost, once the loop found it so and stopped
    /// (`Server+DeviceLoss.swift`); nil otherwise. Read it after `run()` returns.
    public internal(set) var deviceLoss: (any Error)?
    let stopLock = NSLock()
    var stopRequested = false
    /// Called after each presented frame with its display and media time (tests and benchmarks
    /// observe frames here).
    public var onFramePresented: ((_ display: UInt32, _ time: Double) -> Void)?
    /// Called on the loop's thread every `configuration.heartbeatInterval` seconds of media time, after
    /// that turn's work: proof that the loop still turns (laminad sends systemd's `WATCHDOG=1` from it).
    public var onHeartbeat: (() -> Void)?
    /// When the loop next calls `onHeartbeat`.
    var nextHeartbeat: Double?
    /// File descriptors the loop watches for others (`watch(fileDescriptor:handler:)`), with what it
    /// calls when one is readable.
    var watches: [(fileDescriptor: Int32, handler: () -> Void)] = []
    /// Frames presented since start, over all displays.
    public var framesPresented: Int { displays.reduce(0) { $0 + $1.framesPresented } }

    /// Binds the socket (creating its folder with mode 0700, refusing a folder others may write, taking
    /// the path's lock, replacing a stale socket file, refusing a path another server owns, setting the
    /// file's mode from `configuration.socketAccess`) and prepares to serve `outputs` as displays 0, 1,
    /// … in that order, reading time from `clock`. Without a `logger`, only warnings and errors are logged (in-process tests).
    /// Clients' images are imported with `renderer` (the one the outputs draw with); without one they
    /// are checked and counted but never drawn.
    ///
    /// - Precondition: `outputs` holds 1 to `WireLimits.maxDisplays` outputs.
    ///
    /// With `listener`, the server serves that already listening socket instead (socket activation:
    /// the service manager owns its path, so the server neither binds, locks nor unlinks it).
    public init(
        configuration: Configuration, outputs: [any Output], clock: any MediaClock = SystemMediaClock(),
        logger: Logger = Server.quietLogger(), renderer: (any Renderer)? = nil,
        listener inherited: SeqPacketSocket? = nil
    ) throws {
        precondition(
            (1...WireLimits.maxDisplays).contains(outputs.count),
            "a server drives 1 to \(WireLimits.maxDisplays) outputs, not \(outputs.count)")
        self.configuration = configuration
        displays = outputs.enumerated().map { Display(id: UInt32($0.offset), output: $0.element) }
        self.clock = clock
        self.logger = logger
        budget = ResourceBudget(limits: configuration.limits)
        commits = CommitWorker(wakeup: wakeup)
        frames = FrameWorker(wakeup: wakeup, renderer: renderer)
        var capabilities = renderer?.surfaceCapabilities ?? .none
        if let uuid = configuration.deviceUUIDOverride { capabilities.deviceUUID = uuid }
        surfaceCapabilities = capabilities
        listener =
            try inherited
            ?? SeqPacketSocket.listen(path: configuration.socketPath, access: configuration.socketAccess)
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

    /// The displays as the handshake describes them: those whose output has not closed.
    var displayInfos: [DisplayInfo] { displays.filter { !$0.isClosed }.map(\.info) }

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
            trimHeapIfDue()
        }
        frames.waitUntilIdle()
        releaseRetiredDisplays()
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
        releaseRetiredDisplays()
        // Outputs with an event source say when their refresh comes; the clock drives the others.
        let now = clock.now()
        var wait: Double?
        // A negative descriptor is skipped by poll: the listener rests while accepting cannot succeed.
        let watchListener = acceptThrottle.isWatching(now: now, sessionCount: sessions.count)
        if !watchListener, let retry = acceptThrottle.retryTime { wait = max(0, retry - now) }
        var fds = [
            pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: watchListener ? listener.fileDescriptor : -1, events: Int16(POLLIN), revents: 0),
        ]
        var eventDisplays: [(display: Display, index: Int)] = []
        // A display's first frame lands on its refresh grid too, so later frames that follow it
        // (`scheduleFrame(after:)`) do.
        for display in displays where display.needsFrame && !display.isClosed {
            if display.nextFrameTime == nil {
                display.setFrameTime((now / display.interval).rounded(.up) * display.interval)
            }
        }
        for display in displays where !display.isClosed {
            if let fd = display.output.eventFileDescriptor {
                eventDisplays.append((display, fds.count))
                fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
            } else if display.needsFrame, display.frameInFlight == nil, let due = display.nextFrameTime {
                wait = min(wait ?? .infinity, max(0, due - now))
            }
        }
        let firstWatch = fds.count
        for watch in watches { fds.append(pollfd(fd: watch.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
        // The heartbeat wakes the loop too: the first at once, then every interval.
        if configuration.heartbeatInterval != nil {
            let beat = nextHeartbeat ?? now
            nextHeartbeat = beat
            wait = min(wait ?? .infinity, max(0, beat - now))
        }
        // A new connection has `handshakeTimeout` to say hello; the loop wakes at the earliest deadline.
        for session in sessions where !session.greeted {
            let connected = session.connectedAt ?? now
            session.connectedAt = connected
            wait = min(wait ?? .infinity, max(0, connected + configuration.handshakeTimeout - now))
        }
        let firstSession = fds.count
        for session in sessions {
            // A client whose commit is on the worker is not read until it is applied (its messages
            // stay in order); one with queued replies is watched for room to send them.
            // A client that failed is not read either while its error waits for its captures.
            var events = session.isReadable ? Int16(POLLIN) : 0
            if !session.outbox.isEmpty { events |= Int16(POLLOUT) }
            guard events != 0 else { continue }
            fds.append(pollfd(fd: session.socket.fileDescriptor, events: events, revents: 0))
        }
        // Events still to apply: look at the sockets, then go on at once.
        if sessions.contains(where: \.isReadyToAdvance) { wait = 0 }
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
            let writable = Set(fds[firstSession...].filter { $0.revents & Int16(POLLOUT) != 0 }.map(\.fd))
            for session in sessions where writable.contains(session.socket.fileDescriptor) {
                flushOutbox(of: session)
            }
            let readable = Set(fds[firstSession...].filter { $0.revents & ~Int16(POLLOUT) != 0 }.map(\.fd))
            for session in sessions where readable.contains(session.socket.fileDescriptor) {
                if session.isReadable {
                    serve(session)
                } else if !session.outbox.isEmpty {
                    flushOutbox(of: session)  // hung up or failed while its commit is applied
                }
            }
            for (display, index) in eventDisplays where fds[index].revents != 0 {
                if let event = display.output.handleEvents().last(where: display.isDue) {
                    display.dueEventTime = event.time
                    due.append(display)
                }
                // A window that was exposed shows the current frame again at the next refresh.
                if display.output.takeRedrawRequest() { scheduleFrame(on: display) }
            }
        }
        if ready > 0 {
            // A handler may add displays (a connector plugged in) or close outputs: after the events.
            let readyWatches = watches.indices.filter { fds[firstWatch + $0].revents != 0 }.map { watches[$0].handler }
            for handler in readyWatches { handler() }
        }
        // An output that has gone (its window closed, its connector unplugged) stops its display only.
        closeGoneOutputs()
        let finished = commits.takeFinished()
        for outcome in finished { finishCommit(outcome) }
        // Before this turn's frames add more: the rest of earlier frames' events.
        let advanced = continueAdvancing()
        let drawn = frames.takeFinished()
        let imports = frames.takeImports()
        // After a device loss, no failed frame, capture or import is a client's doing: none is blamed.
        let lostBefore = deviceLoss != nil
        if stopIfDeviceLost() { return !lostBefore }
        for outcome in drawn { finishDrawing(outcome) }
        for id in imports.finished {
            sessions.first(where: { $0.id == id })?.importsInFlight -= 1
        }
        for failure in imports.failures {
            guard let session = sessions.first(where: { $0.id == failure.session }) else { continue }
            if failure.isSurface {
                refuseImport(failure, for: session)
            } else {
                let message = "image \(failure.id): the renderer refused it: \(failure.error)"
                fail(session, SessionError(failure.code, message))
            }
        }
        let later = clock.now()
        for session in sessions where !session.greeted {
            if let connected = session.connectedAt, later >= connected + configuration.handshakeTimeout {
                fail(
                    session,
                    SessionError(
                        .protocolViolation, "no hello within \(configuration.handshakeTimeout) s of connecting"))
            }
        }
        for display in displays where display.output.eventFileDescriptor == nil && !display.isClosed {
            if display.needsFrame, let time = display.nextFrameTime, later >= time { due.append(display) }
        }
        for display in displays where due.contains(where: { $0 === display }) {
            startFrame(on: display)
        }
        if let interval = configuration.heartbeatInterval, let beat = nextHeartbeat, later >= beat {
            nextHeartbeat = later + interval
            onHeartbeat?()
        }
        return ready > 0 || !due.isEmpty || !finished.isEmpty || !drawn.isEmpty || !imports.finished.isEmpty || advanced
    }

    /// Runs turns of the loop without blocking until one reads nothing and presents nothing: every
    /// message already sent has been handled and every frame due at the clock's time presented.
    /// For tests that drive a server with a manual clock on their own thread.
    /// Commits on the commit worker and frames and captures on the frame worker are waited for.
    public func runUntilIdle() {
        while true {
            if pollOnce(timeout: 0) { continue }
            let busy =
                sessions.contains(where: { $0.commitInFlight != nil || $0.importsInFlight > 0 }) || capturesDrawing > 0
                || displays.contains(where: { $0.frameInFlight != nil })
            // A lost device finishes nothing more: what was in flight stays so.
            guard busy, deviceLoss == nil else { return }
            pollOnce(timeout: 0.1)
        }
    }

    /// Accepts every pending client, recording its peer credentials. When the process or the system
    /// is out of descriptors, stops watching the listener for a while (`AcceptThrottle`) and logs that
    /// at most once per `AcceptThrottle.logInterval`; clients already connected are served as before.
    func acceptClients() {
        while true {
            do {
                guard let socket = try listener.accept() else { return }
                acceptThrottle.accepted()
                try socket.setNonBlocking(true)
                let session = ClientSession(id: nextSessionID, socket: socket, peer: socket.peerCredentials)
                nextSessionID += 1
                sessions.append(session)
                logger.debug(
                    "client connected",
                    metadata: ["client": "\(session.id)", "uid": "\(session.peer.map { "\($0.uid)" } ?? "?")"])
            } catch let error as SystemError where error.errno == EMFILE || error.errno == ENFILE {
                if let failures = acceptThrottle.failed(now: clock.now(), sessionCount: sessions.count) {
                    let retry = AcceptThrottle.retryInterval
                    logger.error(
                        "cannot accept clients: \(error); waiting for a client to leave (at most \(retry) s)",
                        metadata: ["failures": "\(failures)", "clients": "\(sessions.count)"])
                }
                return
            } catch {
                logger.error("accept failed: \(error)")
                return
            }
        }
    }

    /// Reads and handles the client's pending messages (a bounded number per turn, for fairness): at
    /// most 64 messages, `bytesPerTurn` bytes or `secondsPerTurn` of work, whichever comes first.
    func serve(_ session: ClientSession) {
        var bytes = 0
        // Time spent, not media time: the monotonic clock itself, even when a manual clock drives
        // the server's frames.
        let start = CACurrentMediaTime()
        for _ in 0..<64 where bytes < Self.bytesPerTurn && CACurrentMediaTime() - start < Self.secondsPerTurn {
            let packet: ReceivedPacket?
            do {
                packet = try session.socket.receive(maxBytes: WireLimits.maxMessageBytes, maxFDs: 4)
            } catch {
                disconnect(session, reason: "receive failed: \(error)")
                return
            }
            guard let packet else { return }
            bytes += packet.bytes.count
            if packet.isEndOfStream {
                disconnect(session, reason: "client closed the connection")
                return
            }
            do {
                try handle(packet, from: session)
                if !session.isReadable { return }
            } catch let error as SessionError {
                fail(session, error)
                return
            } catch {
                fail(session, SessionError(.internalError, "\(error)"))
                return
            }
        }
    }

    /// Bytes of one client's messages read in one turn of the loop, after which the others get
    /// their turn (about 4 transaction parts, a few milliseconds of decoding).
    static let bytesPerTurn = 256 * 1024

    /// Seconds of the loop's work on one client's messages in one turn, after which the others get
    /// their turn (a transaction part of animations takes about 2 ms to decode and check).
    static let secondsPerTurn = 0.002

    /// The most packets `disconnect` reads and discards from a departing client's queue. The kernel
    /// already bounds that queue by the socket's buffer; this bounds the work whatever it holds.
    static let drainLimit = 4096

    /// Sends `message` now, or queues it behind the messages the client's socket could not take yet.
    /// The queue is bounded (`ResourceLimits.outboxBytesPerClient`, `outboxMessagesPerClient`): a
    /// client that lets it fill is not reading, and gets `limitExceeded`.
    func send(_ message: ServerMessage, memory: SharedMemory? = nil, to session: ClientSession) throws {
        let outgoing = OutgoingMessage(bytes: MessageCodec.encode(message), memory: memory)
        if session.outbox.isEmpty {
            do {
                try session.socket.send(outgoing.bytes, fds: outgoing.fds)
                return
            } catch let error as SystemError where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
                // Queued below.
            } catch {
                throw SessionError(.internalError, "cannot send to the client: \(error)")
            }
        }
        let limits = configuration.limits
        guard session.outbox.count < limits.outboxMessagesPerClient,
            session.outboxBytes + outgoing.bytes.count <= limits.outboxBytesPerClient
        else {
            throw SessionError(
                .limitExceeded,
                "the client is not reading: \(session.outbox.count) messages (\(session.outboxBytes) bytes) "
                    + "wait to be sent, at most \(limits.outboxMessagesPerClient) "
                    + "(\(limits.outboxBytesPerClient) bytes) may")
        }
        session.outbox.append(outgoing)
        session.outboxBytes += outgoing.bytes.count
    }

    /// Sends the queued messages the client's socket takes now; disconnects the client if sending fails.
    func flushOutbox(of session: ClientSession) {
        while let first = session.outbox.first {
            do {
                try session.socket.send(first.bytes, fds: first.fds)
            } catch let error as SystemError where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
                return
            } catch {
                disconnect(session, reason: "cannot send to the client: \(error)")
                return
            }
            session.outbox.removeFirst()
            session.outboxBytes -= first.bytes.count
        }
    }

    /// Sends an event of a presented frame (`finishFrame`). A `commitPresented` that does not fit in
    /// the socket buffer (the client is not reading its events) is dropped: the next one names a
    /// newer serial, and every earlier serial is presented too. Any other failure throws like `send`.
    func sendEvent(_ message: ServerMessage, to session: ClientSession) throws {
        guard case .commitPresented(let serial, _) = message else { return try send(message, to: session) }
        // Behind queued messages it would arrive late and out of order: drop it like one that does not fit.
        guard session.outbox.isEmpty else {
            logger.debug(
                "commitPresented dropped: the client is not reading",
                metadata: ["client": "\(session.label)", "serial": "\(serial)"])
            return
        }
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

    /// Reports the error to the client, then disconnects it and frees its layers. Replies to captures
    /// the client asked for before the error go first: while some are being drawn, the client is no
    /// longer read and the error waits for them (the first error is the one reported).
    func fail(_ session: ClientSession, _ error: SessionError) {
        // Once disconnected, its descriptor's number may already name another client's socket.
        guard sessions.contains(where: { $0 === session }) else { return }
        if session.failure == nil {
            session.failure = error
            logger.warning(
                "client error",
                metadata: [
                    "client": "\(session.label)", "code": "\(error.code)",
                    "message": "\(error.message)",
                ])
        }
        guard session.capturesDrawing == 0, let error = session.failure else { return }
        // Queued messages go first, as far as the socket takes them, so the error stays last.
        flushOutbox(of: session)
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
        budget.release(&session.budget)
        if !session.images.isEmpty { frames.perform(.releaseAll(session: session.id)) }
        session.images = [:]
        session.outbox = []
        session.outboxBytes = 0
        session.pendingParts = []
        session.pendingOperationCount = 0
        try? session.socket.shutdown()
        for _ in 0..<Self.drainLimit {
            // One byte is enough to dequeue a packet; descriptors that came with it are closed.
            guard let packet = try? session.socket.receive(maxBytes: 1, maxFDs: 4), !packet.isEndOfStream else {
                break
            }
        }
        session.socket.close()
        // A large tree takes milliseconds to free: the commit worker frees it.
        let shown = displaysShowing(session).sorted()
        if session.tree.layers.count >= configuration.workerCommitOperations {
            commits.release(session.tree)
            session.tree = RenderTree()
        }
        heapTrimDue = true
        logger.info("client disconnected", metadata: ["client": "\(session.label)", "reason": "\(reason)"])
        for id in shown { scheduleFrame(on: displays[Int(id)]) }
    }

    /// After clients have left, returns the heap's freed pages to the system, at most once a second
    /// (`releaseFreedHeapMemory`). Called between turns of `run()`, once the turn's references to the
    /// departed clients' trees are gone; without it the allocator keeps what their trees used and the
    /// server's resident size only grows under client churn (docs/soak.md).
    func trimHeapIfDue() {
        guard heapTrimDue else { return }
        let now = clock.now()
        guard now - lastHeapTrim >= 1 else { return }
        heapTrimDue = false
        lastHeapTrim = now
        releaseFreedHeapMemory()
    }

    /// Asks `display` for a frame at the next tick of its refresh grid (after `previous`, the time of
    /// the frame just presented there, when given), or at the first tick at or after `wake`. A frame
    /// already asked for at an earlier time stays.
    func scheduleFrame(on display: Display, after previous: Double? = nil, notBefore wake: Double? = nil) {
        display.scheduleFrame(now: clock.now(), after: previous, notBefore: wake)
    }
}

extension ClientSession {
    /// The display whose frames advance this client's animations and drive its display links: the
    /// lowest display that shows one of its roots, else display 0.
    var homeDisplay: UInt32 { tree.roots.keys.min() ?? 0 }
}

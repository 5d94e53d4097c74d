import Foundation
import LaminaProtocol

/// The client side of one socket to the render server: sends messages and, on a reader thread,
/// receives events so the server never blocks on a client that is busy.
///
/// The reader thread, `lamina-events`, only decodes. It queues replies for the thread waiting in
/// `waitForReply` and events (animation events, frames) for `eventHandler`, under a private lock
/// that is never held while anything outside this class runs, so it never waits on an application
/// lock (`CATransaction.lock()` included) and a reply always reaches its waiting thread. Events are
/// applied in arrival order by `applyEvents()`, which takes the transaction lock: on a serial
/// dispatch queue as soon as that lock is free, and on a requesting thread before its reply is
/// returned when it can take the lock without waiting, so a request returns after the events that
/// arrived before its reply have been applied.
///
/// When the server goes away without an `error` event (it crashed, was killed or stopped), the reader
/// thread reconnects to the same path with back-off (10 ms, doubling to 1 s, until `close()`), says
/// `hello` again, asking to keep its context id and export token, and then, on the event queue with
/// the transaction lock held, makes the new socket the one messages go to and calls
/// `reconnectHandler` to resend the client's state. Until then,
/// `send` throws `CAContextError.disconnected` at once and waiting requests fail. A server `error`
/// event means this client was refused: the connection closes for good.
final class Connection: @unchecked Sendable {
    /// The socket the reader thread reads; replaced by it after a reconnect.
    private var socket: SeqPacketSocket
    /// The socket messages are sent on; nil while reconnecting. Guarded by `sendLock`, as is `socket`
    /// for threads other than the reader.
    private var sendSocket: SeqPacketSocket?
    private let sendLock = NSLock()
    let path: String
    private let clientName: String
    /// Guards `replies`, `events`, `applyScheduled`, `closedReason` and `serverError`; held only
    /// briefly, and never while taking another lock or running a handler.
    private let condition = NSCondition()
    private var replies: [(ServerMessage, [OwnedFD])] = []
    /// Events decoded but not yet handed to `eventHandler`, oldest first.
    private var events: [ServerMessage] = []
    /// The event queue has an `applyEvents()` to run that has not yet taken `events`.
    private var applyScheduled = false
    private(set) var closedReason: String?
    private(set) var serverError: (ServerErrorCode, String)?
    /// How many times the server went away and the reader started to reconnect.
    private var losses = 0
    /// `close()` was called: the reader neither reconnects nor waits any more.
    private var closing = false
    /// The displays the server last announced in `displaysChanged` (nil: none since `welcome`).
    /// Guarded by `condition`; set on the reader thread before any later reply is handed over.
    private var announcedDisplays: [DisplayInfo]?
    /// The server's warnings so far (`warning` messages), oldest first. Guarded by `condition`.
    private var receivedWarnings: [String] = []

    /// The context id a restarted server gave in its `welcome` (nil before any reconnect). Guarded by
    /// `condition`.
    private var reconnectWelcomeID: UInt32?

    /// The server's newest `surfaceCapabilities` reply (nil before one came). Guarded by `condition`.
    private var knownCapabilities: SurfaceCapabilities?

    /// The server's surface capabilities, waiting up to `timeout` seconds for the reply to the
    /// request sent after `welcome`.
    func surfaceCapabilities(timeout: Double) throws -> SurfaceCapabilities {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let knownCapabilities { return knownCapabilities }
            if let reason = closedReason { throw CAContextError.disconnected(reason) }
            guard condition.wait(until: deadline) else { throw CAContextError.timedOut(path: path) }
        }
    }

    /// The context id of the newest reconnect's `welcome`, if the client has reconnected.
    var reconnectedContextId: UInt32? { condition.withLock { reconnectWelcomeID } }

    /// What a reconnecting `hello` asks the new server to keep: the context id of the newest
    /// `welcome` (0 before the first) and the export token the server gave (0: none). Guarded by
    /// `condition`.
    private var claim: (contextId: UInt32, exportToken: UInt64) = (0, 0)

    /// Records the context id of the first `welcome`, which a reconnect asks to keep.
    func recordContextId(_ contextId: UInt32) {
        condition.withLock { claim.contextId = contextId }
    }

    /// Records the export token the server gave this context, which a reconnect asks to keep.
    func recordExportToken(_ token: UInt64) {
        condition.withLock { claim.exportToken = token }
    }

    /// The displays of the newest `displaysChanged`, if one came.
    var displaysAnnounced: [DisplayInfo]? { condition.withLock { announcedDisplays } }

    /// The texts of the server's warnings so far, oldest first.
    var warnings: [String] { condition.withLock { receivedWarnings } }
    private var reader: Thread?
    /// Applies queued events when no requesting thread does; one per connection, so events stay
    /// in order.
    private let eventQueue = DispatchQueue(label: "lamina-events-apply")
    /// Receives events (animation events, frames), in arrival order, with the transaction lock
    /// held, on the event queue or on a thread waiting for a reply. Set once, before events matter.
    var eventHandler: (@Sendable (ServerMessage) -> Void)?
    /// Resends the client's state after a reconnect, with the transaction lock held, on the event
    /// queue, the new socket already in use. Set once, before a reconnect matters.
    var reconnectHandler: (@Sendable () -> Void)?

    init(path: String, clientName: String) throws {
        self.path = path
        self.clientName = clientName
        do {
            socket = try SeqPacketSocket.connect(path: path)
        } catch {
            throw CAContextError.cannotConnect(path: path, reason: "\(error)")
        }
        sendSocket = socket
        let thread = Thread { [weak self] in self?.readLoop() }
        thread.name = "lamina-events"
        reader = thread
        thread.start()
    }

    /// Sends `message`. Once the connection is closed, throws `CAContextError.disconnected` with the
    /// reason the reader thread found (the server's error, when it sent one).
    func send(_ message: ClientMessage, fds: [Int32] = []) throws {
        try send(encoded: MessageCodec.encode(message), fds: fds)
    }

    /// Sends a message already encoded (`MessageCodec.encodeTransaction`), as `send(_:fds:)` does.
    func send(encoded bytes: [UInt8], fds: [Int32] = []) throws {
        if let reason = condition.withLock({ closedReason }) { throw CAContextError.disconnected(reason) }
        let (target, lossesBefore) = sendLock.withLock { (sendSocket, condition.withLock { losses }) }
        guard let target else { throw CAContextError.disconnected(Self.reconnectingReason) }
        do {
            try target.send(bytes, fds: fds)
        } catch {
            // The server has closed its end; the reader thread is about to read why (the error event
            // the server sent before closing). Report that rather than the send's own failure.
            throw CAContextError.disconnected(
                awaitClosedReason(timeout: 2, lossesBefore: lossesBefore) ?? "send failed: \(error)")
        }
    }

    /// Why sends and requests fail while the reader reconnects.
    static let reconnectingReason = "the render server went away; reconnecting"

    /// Whether the connection is down and the reader is reconnecting.
    var isReconnecting: Bool {
        sendLock.withLock { sendSocket == nil } && condition.withLock { closedReason == nil }
    }

    /// The reader thread's loop: decodes each message and queues it; never takes an outside lock.
    ///
    /// A server that closes a connection with client messages still unread makes the kernel report
    /// `ECONNRESET` on the next receive, once, ahead of the messages the server sent before closing.
    /// The loop reads on past it, so the server's `error` event still arrives.
    private func readLoop() {
        var resetSeen = false
        while true {
            let packet: ReceivedPacket?
            do {
                packet = try socket.receive(maxBytes: WireLimits.maxMessageBytes, maxFDs: 4)
            } catch let error as SystemError where error.errno == ECONNRESET && !resetSeen {
                resetSeen = true
                continue
            } catch {
                if reconnectAfterLoss() {
                    resetSeen = false
                    continue
                }
                finish(closingReason(fallback: "receive failed: \(error)"))
                return
            }
            guard let packet, !packet.isEndOfStream else {
                if reconnectAfterLoss() {
                    resetSeen = false
                    continue
                }
                finish(closingReason(fallback: "the server \(resetSeen ? "reset" : "closed") the connection"))
                return
            }
            resetSeen = false
            let message: ServerMessage
            do {
                message = try MessageCodec.decodeServer(packet.bytes)
            } catch {
                finish("undecodable message from the server: \(error)")
                return
            }
            switch message {
            case .animationEvents, .frame, .tiledLayerView, .commitPresented, .surfacePresented, .surfaceReleased,
                .surfaceDiscarded, .surfaceRefused:
                let schedule = condition.withLock {
                    events.append(message)
                    defer { applyScheduled = true }
                    return !applyScheduled
                }
                if schedule { eventQueue.async { [weak self] in self?.applyEvents() } }
            case .commitApplied:
                break
            case .displaysChanged(let displays):
                condition.withLock { announcedDisplays = displays }
            case .surfaceCapabilities(_, let capabilities):
                condition.withLock {
                    knownCapabilities = capabilities
                    condition.broadcast()
                }
                IOSurface.serverRowAlignment = Int(capabilities.rowAlignment)
            case .warning(let code, let text):
                condition.withLock { receivedWarnings.append(text) }
                LaminaDiagnostics.report(.serverWarning, "render server warning \(code): \(text)")
            case .error(let code, let text):
                condition.withLock {
                    serverError = (code, text)
                    condition.broadcast()
                }
                LaminaDiagnostics.report(.serverError, "render server error \(code): \(text)")
            default:
                condition.withLock {
                    replies.append((message, packet.fds))
                    condition.broadcast()
                }
            }
        }
    }

    /// The server went away. Unless it sent an `error` first (this client was refused) or the
    /// connection is closing, stops sends, fails waiting requests, and reconnects with back-off;
    /// true once a new server has answered `hello` (the reader goes on reading the new socket), false
    /// when the connection must close.
    private func reconnectAfterLoss() -> Bool {
        let give = condition.withLock { serverError == nil && !closing && reconnectHandler != nil }
        guard give else { return false }
        sendLock.withLock { sendSocket = nil }
        condition.withLock {
            losses += 1
            replies = []
            condition.broadcast()
        }
        // Shut down, not closed: a sender may still hold it, and its descriptor must not be reused
        // by the new socket before that send fails. It closes when the last reference goes.
        try? socket.shutdown()
        var delay = 0.01
        while true {
            let stop = condition.withLock {
                _ = condition.wait(until: Date(timeIntervalSinceNow: delay))
                return closing
            }
            if stop { return false }
            delay = min(delay * 2, 1)
            switch handshake() {
            case .success(let fresh):
                let install = sendLock.withLock { () -> Bool in
                    guard !condition.withLock({ closing }) else { return false }
                    socket = fresh
                    return true
                }
                guard install else {
                    fresh.close()
                    return false
                }
                eventQueue.async { [weak self] in self?.resume(fresh) }
                return true
            case .failure(.refused(let code, let text)):
                condition.withLock { serverError = (code, text) }
                LaminaDiagnostics.report(.serverError, "render server error \(code): \(text)")
                return false
            case .failure(.unavailable):
                continue
            }
        }
    }

    /// Why a reconnect attempt failed.
    private enum HandshakeFailure: Error {
        /// No server answers yet; try again later.
        case unavailable
        /// The server answered `hello` with an error: this client is refused.
        case refused(ServerErrorCode, String)
    }

    /// Connects to `path` and says `hello`; the socket once the server has answered `welcome`.
    private func handshake() -> Result<SeqPacketSocket, HandshakeFailure> {
        guard let fresh = try? SeqPacketSocket.connect(path: path) else { return .failure(.unavailable) }
        do {
            try fresh.setReceiveTimeout(seconds: 5)
            // The context asks to keep its id and export token, so host layers naming them show it again.
            let asked = condition.withLock { claim }
            try fresh.send(
                MessageCodec.encode(
                    .hello(
                        version: WireLimits.protocolVersion, clientName: clientName, contextId: asked.contextId,
                        exportToken: asked.exportToken)))
            while true {
                guard let packet = try fresh.receive(maxBytes: WireLimits.maxMessageBytes, maxFDs: 4),
                    !packet.isEndOfStream
                else { break }
                switch try MessageCodec.decodeServer(packet.bytes) {
                case .welcome(_, _, let contextId, let displays):
                    try fresh.setReceiveTimeout(seconds: 0)
                    // The restarted server's id for this context and its displays replace the old ones.
                    condition.withLock {
                        reconnectWelcomeID = contextId
                        claim.contextId = contextId
                        announcedDisplays = displays
                    }
                    return .success(fresh)
                case .error(let code, let text):
                    fresh.close()
                    return .failure(.refused(code, text))
                default:
                    continue
                }
            }
        } catch {}
        fresh.close()
        return .failure(.unavailable)
    }

    /// Makes `fresh` the socket messages go to and resends the client's state, both with the
    /// transaction lock held, so a commit goes either into the resent state or after it.
    private func resume(_ fresh: SeqPacketSocket) {
        CATransaction.lock()
        defer { CATransaction.unlock() }
        let current = sendLock.withLock { () -> Bool in
            guard socket === fresh, !condition.withLock({ closing || closedReason != nil }) else { return false }
            sendSocket = fresh
            return true
        }
        guard current else { return }
        reconnectHandler?()
    }

    /// Hands every queued event to `eventHandler`, oldest first, holding the transaction lock from
    /// taking the first to handling the last, so two threads applying events cannot reorder them.
    private func applyEvents() {
        CATransaction.lock()
        defer { CATransaction.unlock() }
        condition.withLock { applyScheduled = false }
        applyEventsLocked()
    }

    /// Like `applyEvents()`, but only if the transaction lock can be taken without waiting (the
    /// calling thread may already hold it); otherwise the event queue applies them.
    private func applyEventsIfUncontended() {
        guard CATransaction.tryLock() else { return }
        defer { CATransaction.unlock() }
        applyEventsLocked()
    }

    private func applyEventsLocked() {
        let pending = condition.withLock {
            defer { events = [] }
            return events
        }
        guard let handler = eventHandler else { return }
        for message in pending { handler(message) }
    }

    /// Why the connection closed: the server's error when it sent one, else `fallback`.
    private func closingReason(fallback: String) -> String {
        let error = condition.withLock { serverError }
        return error.map { "the server closed the connection after error \($0.0): \($0.1)" } ?? fallback
    }

    private func finish(_ reason: String) {
        condition.lock()
        closedReason = reason
        condition.broadcast()
        condition.unlock()
    }

    /// Waits up to `timeout` seconds for the reader thread to find the connection closed, and
    /// returns why (nil if it is still open then).
    /// A reconnect that starts meanwhile (`losses` passes `lossesBefore`) ends the wait too.
    private func awaitClosedReason(timeout: Double, lossesBefore: Int) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while closedReason == nil {
            if losses != lossesBefore { return Self.reconnectingReason }
            guard condition.wait(until: deadline) else { break }
        }
        return closedReason
    }

    /// Waits up to `timeout` seconds for the first reply `match` accepts and removes it.
    ///
    /// Before returning, it applies the events that arrived ahead of the reply, unless another
    /// thread holds the transaction lock (then the event queue applies them once it is free).
    func waitForReply<T>(timeout: Double = 30, _ match: (ServerMessage, [OwnedFD]) -> T?) throws -> T {
        let result = try takeReply(timeout: timeout, match)
        applyEventsIfUncontended()
        return result
    }

    private func takeReply<T>(timeout: Double, _ match: (ServerMessage, [OwnedFD]) -> T?) throws -> T {
        let deadline = Date(timeIntervalSinceNow: timeout)
        let lossesBefore = sendLock.withLock { condition.withLock { losses } }
        guard !isReconnecting else { throw CAContextError.disconnected(Self.reconnectingReason) }
        condition.lock()
        defer { condition.unlock() }
        while true {
            if losses != lossesBefore { throw CAContextError.disconnected(Self.reconnectingReason) }
            for (i, reply) in replies.enumerated() {
                if let result = match(reply.0, reply.1) {
                    replies.remove(at: i)
                    return result
                }
            }
            if let reason = closedReason { throw CAContextError.disconnected(reason) }
            guard condition.wait(until: deadline) else { throw CAContextError.timedOut(path: path) }
        }
    }

    /// Closes the connection for good: the reader stops, and never reconnects.
    func close() {
        condition.withLock {
            closing = true
            condition.broadcast()
        }
        let current = sendLock.withLock { socket }
        try? current.shutdown()
    }

    deinit {
        socket.close()
    }
}

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
final class Connection: @unchecked Sendable {
    let socket: SeqPacketSocket
    let path: String
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
    /// The displays the server last announced in `displaysChanged` (nil: none since `welcome`).
    /// Guarded by `condition`; set on the reader thread before any later reply is handed over.
    private var announcedDisplays: [DisplayInfo]?
    /// The server's warnings so far (`warning` messages), oldest first. Guarded by `condition`.
    private var receivedWarnings: [String] = []

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

    init(path: String) throws {
        self.path = path
        do {
            socket = try SeqPacketSocket.connect(path: path)
        } catch {
            throw CAContextError.cannotConnect(path: path, reason: "\(error)")
        }
        let thread = Thread { [weak self] in self?.readLoop() }
        thread.name = "lamina-events"
        reader = thread
        thread.start()
    }

    /// Sends `message`. Once the connection is closed, throws `CAContextError.disconnected` with the
    /// reason the reader thread found (the server's error, when it sent one).
    func send(_ message: ClientMessage, fds: [Int32] = []) throws {
        if let reason = condition.withLock({ closedReason }) { throw CAContextError.disconnected(reason) }
        do {
            try socket.send(MessageCodec.encode(message), fds: fds)
        } catch {
            // The server has closed its end; the reader thread is about to read why (the error event
            // the server sent before closing). Report that rather than the send's own failure.
            throw CAContextError.disconnected(awaitClosedReason(timeout: 2) ?? "send failed: \(error)")
        }
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
                finish(closingReason(fallback: "receive failed: \(error)"))
                return
            }
            guard let packet, !packet.isEndOfStream else {
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
            case .animationEvents, .frame:
                let schedule = condition.withLock {
                    events.append(message)
                    defer { applyScheduled = true }
                    return !applyScheduled
                }
                if schedule { eventQueue.async { [weak self] in self?.applyEvents() } }
            case .commitApplied, .commitPresented:
                break
            case .displaysChanged(let displays):
                condition.withLock { announcedDisplays = displays }
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
    private func awaitClosedReason(timeout: Double) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while closedReason == nil {
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
        condition.lock()
        defer { condition.unlock() }
        while true {
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

    func close() {
        try? socket.shutdown()
    }

    deinit {
        socket.close()
    }
}

import Foundation
import LaminaProtocol

/// The client side of one socket to the render server: sends messages and, on a reader thread,
/// receives events so the server never blocks on a client that is busy.
final class Connection: @unchecked Sendable {
    let socket: SeqPacketSocket
    let path: String
    private let condition = NSCondition()
    private var replies: [(ServerMessage, [OwnedFD])] = []
    private(set) var closedReason: String?
    private(set) var serverError: (ServerErrorCode, String)?
    private var reader: Thread?
    /// Receives events (animation events, frames) on the reader thread.
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

    func send(_ message: ClientMessage) throws {
        if let reason = closedReason { throw CAContextError.disconnected(reason) }
        do {
            try socket.send(MessageCodec.encode(message))
        } catch {
            throw CAContextError.disconnected(closedReason ?? "send failed: \(error)")
        }
    }

    private func readLoop() {
        while true {
            let packet: ReceivedPacket?
            do {
                packet = try socket.receive(maxBytes: WireLimits.maxMessageBytes, maxFDs: 4)
            } catch {
                finish("receive failed: \(error)")
                return
            }
            guard let packet, !packet.isEndOfStream else {
                finish(serverError.map { "the server closed the connection after error \($0.0): \($0.1)" }
                    ?? "the server closed the connection")
                return
            }
            let message: ServerMessage
            do {
                message = try MessageCodec.decodeServer(packet.bytes)
            } catch {
                finish("undecodable message from the server: \(error)")
                return
            }
            if case .animationEvents = message {
                eventHandler?(message)
                continue
            }
            if case .frame = message {
                eventHandler?(message)
                continue
            }
            condition.lock()
            switch message {
            case .commitApplied, .commitPresented:
                break
            case .error(let code, let text):
                serverError = (code, text)
                print("Lamina: render server error \(code): \(text)")
            default:
                replies.append((message, packet.fds))
            }
            condition.broadcast()
            condition.unlock()
        }
    }

    private func finish(_ reason: String) {
        condition.lock()
        closedReason = reason
        condition.broadcast()
        condition.unlock()
    }

    /// Waits up to `timeout` seconds for the first reply `match` accepts and removes it.
    func waitForReply<T>(timeout: Double = 30, _ match: (ServerMessage, [OwnedFD]) -> T?) throws -> T {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let i = replies.firstIndex(where: { match($0.0, $0.1) != nil }) {
                let reply = replies.remove(at: i)
                return match(reply.0, reply.1)!
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

/// Why a `CAContext` could not connect or talk to the render server.
public enum CAContextError: Error, CustomStringConvertible, Equatable {
    /// Connecting to the socket failed (no server, refused, bad path).
    case cannotConnect(path: String, reason: String)
    /// The server refused the handshake.
    case handshakeFailed(path: String, reason: String)
    /// The connection was closed; the text says why (a server error names the problem).
    case disconnected(String)
    /// The server did not answer in time.
    case timedOut(path: String)
    /// A capture reply could not be read.
    case badCapture(String)
    /// The context asked for a display the server does not have (`available` lists those it has).
    case unknownDisplay(UInt32, available: [UInt32])

    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason):
            "cannot connect to the Lamina render server at \(path): \(reason)"
        case .handshakeFailed(let path, let reason): "the render server at \(path) refused the handshake: \(reason)"
        case .disconnected(let reason): "disconnected from the render server: \(reason)"
        case .timedOut(let path): "the render server at \(path) did not answer in time"
        case .badCapture(let reason): "bad capture from the render server: \(reason)"
        case .unknownDisplay(let display, let available):
            "the render server has no display \(display); it has \(available.map(String.init).joined(separator: ", "))"
        }
    }
}

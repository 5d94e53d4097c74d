import Foundation
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

@testable import Lamina

/// A stand-in for laminad: one connection, the handshake, and a render tree fed by the commits.
final class FakeServer: @unchecked Sendable {
    let path: String
    private let listener: SeqPacketSocket
    private var peer: SeqPacketSocket?
    private let condition = NSCondition()
    private var tree = RenderTree()
    private var pending: [LayerOperation] = []
    private var serials: [UInt64] = []
    private var partCounts: [Int] = []
    private var failure: String?

    init() throws {
        path =
            FileManager.default.temporaryDirectory.path
            + "/lamina-commit-test-\(getpid())-\(UUID().uuidString.prefix(8)).sock"
        listener = try SeqPacketSocket.listen(path: path)
        try listener.setReceiveTimeout(seconds: 10)
        let thread = Thread { [self] in serve() }
        thread.name = "fake-lamina-server"
        thread.start()
    }

    private func serve() {
        do {
            guard let peer = try listener.accept() else { return record(failure: "no client connected") }
            condition.lock()
            self.peer = peer
            condition.unlock()
            guard let hello = try peer.receive(maxBytes: WireLimits.maxMessageBytes),
                case .hello = try MessageCodec.decodeClient(hello.bytes)
            else { return record(failure: "the first message was not hello") }
            try peer.send(
                MessageCodec.encode(
                    ServerMessage.welcome(
                        version: WireLimits.protocolVersion, serverVersion: "fake",
                        contextId: 1,
                        displays: [DisplayInfo(id: 0, width: 640, height: 480, refreshRate: 60)])))
            var parts = 0
            while let packet = try peer.receive(maxBytes: WireLimits.maxMessageBytes), !packet.isEndOfStream {
                switch try MessageCodec.decodeClient(packet.bytes) {
                case .transactionPart(let ops):
                    pending += ops
                    parts += 1
                case .commit(let serial, let ops):
                    let all = pending + ops
                    pending = []
                    condition.lock()
                    do {
                        tree = try tree.applying(all, displayCount: 1)
                    } catch {
                        failure = "commit \(serial) refused: \(error)"
                    }
                    serials.append(serial)
                    partCounts.append(parts + 1)
                    parts = 0
                    condition.broadcast()
                    condition.unlock()
                default:
                    break
                }
            }
        } catch {
            record(failure: "fake server: \(error)")
        }
    }

    private func record(failure text: String) {
        condition.lock()
        failure = text
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `count` commits have arrived; returns the tree, the serials and the message
    /// count of each commit, or nil on timeout.
    func waitForCommits(_ count: Int, timeout: Double = 10) -> (
        tree: RenderTree, serials: [UInt64], parts: [Int], failure: String?
    )? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while serials.count < count && failure == nil {
            guard condition.wait(until: deadline) else { return nil }
        }
        return (tree, serials, partCounts, failure)
    }

    func stop() {
        condition.lock()
        let peer = self.peer
        condition.unlock()
        try? peer?.shutdown()
        listener.close()
    }
}

/// Runs `body` with a fresh context on a fake server, holding the transaction lock so that no other
/// test's `flush()` commits (and so consumes) this context's changes in the middle.
func withContext(_ body: (CAContext, FakeServer) throws -> Void) throws {
    let server = try FakeServer()
    defer { server.stop() }
    CATransaction.lock()
    defer { CATransaction.unlock() }
    let context = try CAContext(socketPath: server.path, clientName: "CommitTests")
    try body(context, server)
}

import Foundation
@testable import Lamina
import LaminaCore
import LaminaProtocol
@testable import LaminaServer
import LaminaTesting
import Testing

/// Issue 9, defect 8: a server error must reach the client even when the client had more messages
/// queued, and a presentation event that does not fit in a client's socket buffer is dropped, not
/// fatal. In-process servers on a `ManualClock` with raw or library clients on real sockets.
@Suite struct ErrorDeliveryTests {
    /// The diagnostics reported while it lives (beside other tests' recorders, none replacing another's).
    final class Collector: @unchecked Sendable {
        let recorder = DiagnosticsRecorder()

        func restore() { recorder.stop() }

        /// The server errors reported whose text contains `text`.
        func serverErrors(containing text: String) -> [LaminaDiagnostic] {
            recorder.diagnostics.filter { $0.kind == .serverError && $0.message.contains(text) }
        }
    }

    /// A commit naming a layer that does not exist: refused with `unknownLayer`.
    static let badCommit = ClientMessage.commit(serial: 1, operations: [.set(12345, .opacity(0.5))])

    /// The server reads the bad commit first, with eight pings queued behind it. Closing the socket
    /// with them unread used to make the client's first receive fail with `ECONNRESET`; now the client
    /// reads the error event, then end-of-stream, and its later sends fail with `EPIPE`.
    @Test func errorArrivesAheadOfTheCloseWhileClientMessagesAreQueued() throws {
        let harness = try FrameClockTests.Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        let (client, _) = try harness.connect(name: "pipelining")
        try client.send(MessageCodec.encode(Self.badCommit))
        for id in 0..<8 { try client.send(MessageCodec.encode(ClientMessage.ping(requestID: UInt64(id)))) }
        harness.server.runUntilIdle()

        let first = try #require(try client.receive(maxBytes: WireLimits.maxMessageBytes))
        guard case .error(let code, let text) = try MessageCodec.decodeServer(first.bytes) else {
            Issue.record("expected the error event first")
            return
        }
        #expect(code == .unknownLayer)
        #expect(text.hasPrefix("commit 1: unknown layer id 12345"), "\(text)")
        #expect(try client.receive(maxBytes: WireLimits.maxMessageBytes)?.isEndOfStream == true)
        #expect(throws: SystemError(call: "sendmsg", errno: EPIPE)) {
            try client.send(MessageCodec.encode(ClientMessage.ping(requestID: 99)))
        }
        #expect(harness.server.sessions.isEmpty)
    }

    /// A `CAContext` pipelines a bad commit and eight pings: the server's error reaches the
    /// diagnostics hook, and both the pending ping and a later request fail with the server's code
    /// and text rather than a generic reset.
    @Test func libraryReportsTheServersErrorWhilePipelining() throws {
        let harness = try FrameClockTests.Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        let collector = Collector()
        defer { collector.restore() }
        let context = try Self.connect(to: harness)
        try context.connection.send(Self.badCommit)
        for id in 0..<8 { try context.connection.send(.ping(requestID: 900 + UInt64(id))) }
        harness.server.runUntilIdle()

        let expected = "the server closed the connection after error unknownLayer: commit 1: unknown layer id 12345"
        let pending = Self.disconnectReason {
            try context.connection.waitForReply(timeout: 5) { message, _ in
                if case .pong(900, _) = message { return true }
                return nil
            }
        }
        #expect(pending.hasPrefix(expected), "\(pending)")
        let later = Self.disconnectReason { try context.ping() }
        #expect(later.hasPrefix(expected), "\(later)")
        #expect(collector.serverErrors(containing: "unknownLayer: commit 1: unknown layer id 12345").count == 1)
    }

    /// Against a server that closes without reading what the client queued (an older `laminad`),
    /// the client's first receive fails with `ECONNRESET`; the library reads on and still reports
    /// the server's error through the hook and through the pending request.
    @Test func libraryReadsTheErrorPastAConnectionReset() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lamina-reset-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("socket").path
        let listener = try SeqPacketSocket.listen(path: path)
        let queued = DispatchSemaphore(value: 0)
        let serverDone = DispatchSemaphore(value: 0)
        let server = Thread {
            defer { serverDone.signal() }
            guard let peer = try? listener.accept(), (try? peer.receive(maxBytes: 65536)) != nil else { return }
            let welcome = ServerMessage.welcome(
                version: WireLimits.protocolVersion, serverVersion: "old",
                contextId: 1,
                displays: [DisplayInfo(id: 0, width: 8, height: 8, refreshRate: 60)])
            try? peer.send(MessageCodec.encode(welcome))
            queued.wait()
            try? peer.send(MessageCodec.encode(ServerMessage.error(code: .invalidValue, message: "fake fault 7")))
            peer.close()
        }
        server.start()
        let collector = Collector()
        defer { collector.restore() }
        let context = try CAContext(socketPath: path, clientName: "reset")
        for id in 0..<8 { try context.connection.send(.ping(requestID: UInt64(id))) }
        queued.signal()
        #expect(serverDone.wait(timeout: .now() + 10) == .success)

        let pending = Self.disconnectReason {
            try context.connection.waitForReply(timeout: 5) { message, _ in
                if case .pong = message { return true }
                return nil
            }
        }
        #expect(pending == "the server closed the connection after error invalidValue: fake fault 7")
        #expect(collector.serverErrors(containing: "fake fault 7").count == 1)
        listener.close()
    }

    /// A client that does not read its events: with its socket buffer full, the server drops the
    /// `commitPresented` for serial 1 instead of disconnecting the client; once the client reads, it
    /// is served as before and the next commit's `commitPresented` arrives.
    @Test func commitPresentedThatDoesNotFitIsDropped() throws {
        let harness = try FrameClockTests.Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        harness.server.runUntilIdle()
        let (client, _) = try harness.connect(name: "not reading")
        harness.clock.set(100.004)
        try harness.send(.commit(serial: 1, operations: FrameClockTests.redLayer(display: 0)), on: client)
        #expect(try harness.received(client) == [.commitApplied(serial: 1)])

        // Fill the server's side of the connection until a send would block.
        let session = try #require(harness.server.sessions.first)
        let filler = MessageCodec.encode(ServerMessage.pong(requestID: 0, serverVersion: "filler"))
        var filled = 0
        while (try? session.socket.send(filler)) != nil { filled += 1 }
        #expect(filled > 0)
        let due = try #require(harness.server.displays[0].nextFrameTime)
        harness.advance(to: due)
        #expect(harness.frames.last?.time == due)
        #expect(harness.server.sessions.count == 1, "the client was disconnected")

        // The client finds only the filler: no commitPresented, no error, no end of stream.
        var fillers = 0
        while let packet = try client.receive(maxBytes: WireLimits.maxMessageBytes) {
            #expect(!packet.isEndOfStream, "the server closed the connection")
            if packet.isEndOfStream { return }
            let message = try MessageCodec.decodeServer(packet.bytes)
            #expect(message == .pong(requestID: 0, serverVersion: "filler"))
            fillers += 1
        }
        #expect(fillers == filled)

        try harness.send(.ping(requestID: 42), on: client)
        #expect(try harness.received(client) == [.pong(requestID: 42, serverVersion: "test")])
        harness.clock.set(due + 0.004)
        try harness.send(.commit(serial: 2, operations: [.set(1, .opacity(0.5))]), on: client)
        #expect(try harness.received(client) == [.commitApplied(serial: 2)])
        let next = try #require(harness.server.displays[0].nextFrameTime)
        harness.advance(to: next)
        #expect(try harness.received(client) == [.commitPresented(serial: 2, time: next)])
    }

    /// The reason of the `CAContextError.disconnected` that `body` throws, or a description of what
    /// it did instead.
    static func disconnectReason(_ body: () throws -> some Any) -> String {
        do {
            let result = try body()
            return "returned \(result)"
        } catch CAContextError.disconnected(let reason) {
            return reason
        } catch {
            return "threw \(error)"
        }
    }

    /// A context connected to the harness's server, which is polled on this thread while the
    /// context's handshake waits on another.
    static func connect(to harness: FrameClockTests.Harness) throws -> CAContext {
        final class Box: @unchecked Sendable {
            let lock = NSLock()
            var result: Result<CAContext, any Error>?
        }
        let box = Box()
        let path = harness.socketPath
        Thread {
            let result = Result { try CAContext(socketPath: path, clientName: "pipelining") }
            box.lock.withLock { box.result = result }
        }.start()
        let deadline = Date(timeIntervalSinceNow: 10)
        while box.lock.withLock({ box.result }) == nil, Date() < deadline {
            harness.server.pollOnce(timeout: 0.01)
        }
        return try #require(box.lock.withLock { box.result }).get()
    }
}

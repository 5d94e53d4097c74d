import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

/// Resource budgets, the handshake timeout, slow readers and commits on the worker, against an
/// in-process `Server` on a `ManualClock` with raw protocol clients on real sockets.
@Suite struct ClientLimitsTests {
    /// A server on a temporary socket with one 40×30 null output, at media time 100.
    final class Harness {
        let clock = ManualClock(time: 100)
        let server: Server
        let directory: URL
        let socketPath: String

        init(_ adjust: (inout Server.Configuration) -> Void = { _ in }) throws {
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("lamina-limits-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            socketPath = directory.appendingPathComponent("socket").path
            var configuration = Server.Configuration(socketPath: socketPath, serverVersion: "test")
            adjust(&configuration)
            server = try Server(
                configuration: configuration,
                outputs: [try NullOutput(mode: DisplayMode(width: 40, height: 30, refreshRate: 60))], clock: clock)
            server.runUntilIdle()
        }

        deinit {
            try? FileManager.default.removeItem(at: directory)
        }

        /// A connected raw client that has not said hello.
        func connectSilently() throws -> SeqPacketSocket {
            let socket = try SeqPacketSocket.connect(path: socketPath)
            try socket.setNonBlocking(true)
            server.runUntilIdle()
            return socket
        }

        /// A greeted raw client, its welcome read.
        func connect(name: String) throws -> SeqPacketSocket {
            let socket = try connectSilently()
            try send(.hello(version: WireLimits.protocolVersion, clientName: name), on: socket)
            let welcome = try received(socket)
            guard welcome.count == 1, case .message(.welcome) = welcome[0] else { throw LimitsTestError.noWelcome }
            return socket
        }

        func send(_ message: ClientMessage, on socket: SeqPacketSocket) throws {
            try socket.send(MessageCodec.encode(message))
            server.runUntilIdle()
        }

        /// The messages waiting on `socket`, oldest first, but `commitPresented` (frames are not what
        /// these tests are about); `.closed` marks end of stream.
        func received(_ socket: SeqPacketSocket) throws -> [Received] {
            var messages: [Received] = []
            while let packet = try socket.receive(maxBytes: WireLimits.maxMessageBytes, maxFDs: 4) {
                if packet.isEndOfStream { return messages + [.closed] }
                let message = try MessageCodec.decodeServer(packet.bytes)
                if case .commitPresented = message { continue }
                messages.append(.message(message))
            }
            return messages
        }
    }

    enum Received: Equatable {
        case message(ServerMessage)
        case closed
    }

    enum LimitsTestError: Error {
        case noWelcome
    }

    static func errorCode(_ messages: [Received]) -> ServerErrorCode? {
        for case .message(.error(let code, _)) in messages { return code }
        return nil
    }

    /// `count` layers with ids from `first`, none shown.
    static func layers(from first: LayerID, count: Int) -> [LayerOperation] {
        (0..<count).map { .createLayer(first + LayerID($0)) }
    }

    @Test func aConnectionWithoutHelloIsClosedAtTheHandshakeTimeout() throws {
        let harness = try Harness { $0.handshakeTimeout = 5 }
        let silent = try harness.connectSilently()
        let greeted = try harness.connect(name: "greeted")
        harness.clock.set(104.999)
        harness.server.runUntilIdle()
        #expect(try harness.received(silent).isEmpty, "closed before its deadline")
        harness.clock.set(105)
        harness.server.runUntilIdle()
        let messages = try harness.received(silent)
        #expect(Self.errorCode(messages) == .protocolViolation)
        #expect(messages.last == .closed)
        if case .message(.error(_, let text)) = messages.first { #expect(text.contains("no hello within 5.0 s")) }
        // A greeted client has no deadline: it is idle, not late.
        try harness.send(.ping(requestID: 7), on: greeted)
        #expect(try harness.received(greeted) == [.message(.pong(requestID: 7, serverVersion: "test"))])
    }

    @Test func theHandshakeDeadlineBoundsThePollTimeout() throws {
        // On the system clock a silent connection is closed by the loop itself, well before the
        // one-minute cap on a wait with nothing else due.
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lamina-limits-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Server.Configuration(
            socketPath: directory.appendingPathComponent("socket").path, serverVersion: "test")
        configuration.handshakeTimeout = 0.2
        let server = try Server(
            configuration: configuration,
            outputs: [try NullOutput(mode: DisplayMode(width: 4, height: 4, refreshRate: 60))])
        let socket = try SeqPacketSocket.connect(path: configuration.socketPath)
        let start = Date()
        let thread = Thread { server.run() }
        thread.start()
        defer { server.stop() }
        try socket.setReceiveTimeout(seconds: 3)
        let packet = try #require(try socket.receive(maxBytes: WireLimits.maxMessageBytes))
        let elapsed = Date().timeIntervalSince(start)
        #expect(try MessageCodec.decodeServer(packet.bytes).isError(.protocolViolation))
        #expect(elapsed >= 0.2 && elapsed < 2, "closed after \(elapsed) s")
    }

    @Test func heldPartsPastTheGlobalBudgetDropOnlyTheClientThatPassedIt() throws {
        let part = ClientMessage.transactionPart(Self.layers(from: 1, count: 100))
        let partBytes = MessageCodec.encode(part).count
        let harness = try Harness {
            $0.limits.heldBytesTotal = partBytes * 3
        }
        let a = try harness.connect(name: "a")
        let b = try harness.connect(name: "b")
        try harness.send(part, on: a)
        try harness.send(.transactionPart(Self.layers(from: 101, count: 100)), on: a)
        #expect(try harness.received(a).isEmpty)
        try harness.send(.transactionPart(Self.layers(from: 1, count: 100)), on: b)
        // b's second part would make four held parts: b is refused, a keeps its two.
        try harness.send(.transactionPart(Self.layers(from: 101, count: 100)), on: b)
        let refused = try harness.received(b)
        #expect(Self.errorCode(refused) == .limitExceeded)
        #expect(refused.last == .closed)
        try harness.send(.transactionPart(Self.layers(from: 201, count: 100)), on: a)
        try harness.send(.commit(serial: 1, operations: []), on: a)
        #expect(try harness.received(a) == [.message(.commitApplied(serial: 1))])
    }

    @Test func heldPartsPastTheClientBudgetAreRefused() throws {
        let part = ClientMessage.transactionPart(Self.layers(from: 1, count: 100))
        let harness = try Harness { $0.limits.heldBytesPerClient = MessageCodec.encode(part).count * 2 - 1 }
        let a = try harness.connect(name: "a")
        try harness.send(part, on: a)
        try harness.send(.transactionPart(Self.layers(from: 101, count: 100)), on: a)
        let messages = try harness.received(a)
        #expect(Self.errorCode(messages) == .limitExceeded)
        if case .message(.error(_, let text)) = messages.first {
            #expect(text.contains("bytes of held transaction parts"))
        }
    }

    @Test func layersPastTheGlobalBudgetDropOnlyTheClientThatPassedItAndLeaversFreeTheirs() throws {
        let harness = try Harness { $0.limits.layersTotal = 10 }
        let a = try harness.connect(name: "a")
        let b = try harness.connect(name: "b")
        try harness.send(.commit(serial: 1, operations: Self.layers(from: 1, count: 6)), on: a)
        #expect(try harness.received(a) == [.message(.commitApplied(serial: 1))])
        try harness.send(.commit(serial: 1, operations: Self.layers(from: 1, count: 5)), on: b)
        let refused = try harness.received(b)
        #expect(Self.errorCode(refused) == .limitExceeded)
        #expect(refused.last == .closed)
        // b's refused commit left nothing charged: 4 more fit beside a's 6.
        let c = try harness.connect(name: "c")
        try harness.send(.commit(serial: 1, operations: Self.layers(from: 1, count: 4)), on: c)
        #expect(try harness.received(c) == [.message(.commitApplied(serial: 1))])
        // Once a leaves, its 6 are free again.
        a.hangUp()
        harness.server.runUntilIdle()
        try harness.send(.commit(serial: 2, operations: Self.layers(from: 5, count: 6)), on: c)
        #expect(try harness.received(c) == [.message(.commitApplied(serial: 2))])
    }

    @Test func aClientThatDoesNotReadItsCapturesGetsNoMore() throws {
        let harness = try Harness { $0.limits.capturesInFlightPerClient = 2 }
        let reader = try harness.connect(name: "reader")
        // A client that reads each reply captures as often as it likes.
        for id in 1...5 {
            try harness.send(.capture(requestID: UInt64(id), display: 0, time: nil), on: reader)
            let reply = try harness.received(reader)
            #expect(reply.count == 1)
            guard case .message(.captureResult(let requestID, 40, 30, _, _)) = reply.first else {
                Issue.record("no capture result: \(reply)")
                return
            }
            #expect(requestID == UInt64(id))
        }
        let hoarder = try harness.connect(name: "hoarder")
        for id in 1...3 {
            try hoarder.send(MessageCodec.encode(ClientMessage.capture(requestID: UInt64(id), display: 0, time: nil)))
        }
        harness.server.runUntilIdle()
        let messages = try harness.received(hoarder)
        let results = messages.filter { if case .message(.captureResult) = $0 { true } else { false } }
        #expect(results.count == 2)
        #expect(Self.errorCode(messages) == .limitExceeded)
        #expect(messages.last == .closed)
        // The reader is untouched.
        try harness.send(.ping(requestID: 9), on: reader)
        #expect(try harness.received(reader) == [.message(.pong(requestID: 9, serverVersion: "test"))])
    }

    @Test func repliesASlowReaderCannotTakeYetAreQueuedAndDeliveredInOrder() throws {
        let harness = try Harness { $0.limits.outboxMessagesPerClient = 2000 }
        let slow = try harness.connect(name: "slow")
        // Far more pongs than a socket buffer holds (about 200 small messages on Linux).
        let count = 600
        for start in stride(from: 0, to: count, by: 50) {
            for id in start..<start + 50 {
                try slow.send(MessageCodec.encode(ClientMessage.ping(requestID: UInt64(id))))
            }
            harness.server.runUntilIdle()
        }
        var ids: [UInt64] = []
        var rounds = 0
        while ids.count < count, rounds < 1000 {
            for message in try harness.received(slow) {
                guard case .message(.pong(let id, _)) = message else {
                    Issue.record("unexpected \(message)")
                    return
                }
                ids.append(id)
            }
            harness.server.runUntilIdle()
            rounds += 1
        }
        #expect(ids == (0..<UInt64(count)).map { $0 })
    }

    @Test func aSlowReaderPastTheQueueBoundIsDisconnected() throws {
        let harness = try Harness { $0.limits.outboxMessagesPerClient = 8 }
        let slow = try harness.connect(name: "slow")
        let other = try harness.connect(name: "other")
        for start in stride(from: 0, to: 600, by: 50) {
            for id in start..<start + 50 {
                try? slow.send(MessageCodec.encode(ClientMessage.ping(requestID: UInt64(id))))
            }
            harness.server.runUntilIdle()
        }
        var messages: [Received] = []
        for _ in 0..<100 {
            messages += try harness.received(slow)
            if messages.last == .closed { break }
            harness.server.runUntilIdle()
        }
        #expect(messages.last == .closed)
        #expect(messages.count < 600)
        try harness.send(.ping(requestID: 1), on: other)
        #expect(try harness.received(other) == [.message(.pong(requestID: 1, serverVersion: "test"))])
    }

    @Test func largeCommitsAreAppliedOnTheWorkerInOrderWithTheClientsOtherMessages() throws {
        let harness = try Harness { $0.workerCommitOperations = 50 }
        let a = try harness.connect(name: "a")
        let b = try harness.connect(name: "b")
        // Sent together: the commit goes to the worker, and the ping after it waits for it.
        try a.send(MessageCodec.encode(ClientMessage.commit(serial: 1, operations: Self.layers(from: 1, count: 100))))
        try a.send(MessageCodec.encode(ClientMessage.ping(requestID: 2)))
        try a.send(MessageCodec.encode(ClientMessage.commit(serial: 3, operations: Self.layers(from: 1, count: 60))))
        try b.send(MessageCodec.encode(ClientMessage.ping(requestID: 4)))
        harness.server.runUntilIdle()
        #expect(try harness.received(b) == [.message(.pong(requestID: 4, serverVersion: "test"))])
        let messages = try harness.received(a)
        // Serial 3 creates ids 1…60 again: refused on the worker as duplicates, after the first applied.
        #expect(messages.count == 4)
        #expect(
            Array(messages.prefix(2)) == [
                .message(.commitApplied(serial: 1)), .message(.pong(requestID: 2, serverVersion: "test")),
            ])
        #expect(Self.errorCode(messages) == .duplicateLayer)
        #expect(messages.last == .closed)
    }
}

extension ServerMessage {
    func isError(_ expected: ServerErrorCode) -> Bool {
        if case .error(let code, _) = self { code == expected } else { false }
    }
}

import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

/// Frames are built and drawn on the frame worker, off the server's loop (issue 9, point 5: no
/// client's scene may hold the loop for more than about a frame). An output whose `present` waits
/// at a gate stands for a frame that takes long to draw; the loop must go on serving meanwhile, and
/// what the frame reports afterwards must be true of the trees it was drawn from.
@Suite struct FrameWorkerTests {
    /// A null output whose `present` waits while the gate is closed (at most 10 s, so that a broken
    /// test cannot hang the run). The gate starts open.
    final class GatedOutput: Output, @unchecked Sendable {
        let inner: NullOutput
        private let condition = NSCondition()
        private var isOpen = true
        private var blocked = 0

        init(mode: DisplayMode) throws {
            inner = try NullOutput(mode: mode)
        }

        var mode: DisplayMode { inner.mode }

        /// How many `present` calls are waiting at the gate now.
        var presentsWaiting: Int { condition.withLock { blocked } }

        func present(_ list: DisplayList) throws {
            condition.withLock {
                blocked += 1
                let deadline = Date().addingTimeInterval(10)
                while !isOpen, condition.wait(until: deadline) {}
                blocked -= 1
            }
            try inner.present(list)
        }

        func capture(_ list: DisplayList) throws -> Bitmap {
            try inner.capture(list)
        }

        func closeGate() {
            condition.withLock { isOpen = false }
        }

        func openGate() {
            condition.withLock {
                isOpen = true
                condition.broadcast()
            }
        }
    }

    /// A server on a temporary socket with one output, on a manual clock at media time 100; the folder
    /// goes when the harness does.
    final class Harness {
        let directory: URL
        let clock = ManualClock(time: 100)
        let server: Server

        init(
            output: (any Output)? = nil, adjust: (inout Server.Configuration) -> Void = { _ in }
        ) throws {
            let output = try output ?? NullOutput(mode: DisplayMode(width: 40, height: 30, refreshRate: 60))
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("lamina-frames-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var configuration = Server.Configuration(
                socketPath: directory.appendingPathComponent("socket").path, serverVersion: "test")
            adjust(&configuration)
            server = try Server(configuration: configuration, outputs: [output], clock: clock)
        }

        deinit {
            try? FileManager.default.removeItem(at: directory)
        }

        /// A raw client that has said hello and read its welcome.
        func connect(name: String) throws -> SeqPacketSocket {
            let socket = try SeqPacketSocket.connect(path: directory.appendingPathComponent("socket").path)
            try socket.setNonBlocking(true)
            try socket.send(
                MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: name)))
            server.runUntilIdle()
            guard case .welcome? = try FrameWorkerTests.received(socket).first else {
                throw FrameWorkerTestError.noWelcome(name)
            }
            return socket
        }
    }

    enum FrameWorkerTestError: Error {
        case noWelcome(String)
    }

    /// Turns the server's loop until `done` holds, for at most 200 turns of up to 20 ms.
    static func turn(_ server: Server, until done: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<200 {
            if try done() { return true }
            server.pollOnce(timeout: 0.02)
        }
        return try done()
    }

    /// The messages waiting on `socket`, oldest first.
    static func received(_ socket: SeqPacketSocket) throws -> [ServerMessage] {
        var messages: [ServerMessage] = []
        while let packet = try socket.receive(maxBytes: WireLimits.maxMessageBytes), !packet.isEndOfStream {
            messages.append(try MessageCodec.decodeServer(packet.bytes))
        }
        return messages
    }

    @Test func theLoopServesOthersWhileAFrameIsDrawnAndReportsOnlyWhatTheFrameShowed() throws {
        let output = try GatedOutput(mode: DisplayMode(width: 40, height: 30, refreshRate: 60))
        defer { output.openGate() }
        let harness = try Harness(output: output)
        let (server, clock) = (harness.server, harness.clock)
        var frames: [Double] = []
        server.onFramePresented = { _, time in frames.append(time) }
        let drawer = try harness.connect(name: "drawer")
        let bystander = try harness.connect(name: "bystander")
        #expect(frames == [100], "the first frame, of the empty display")
        frames = []
        output.closeGate()

        // The drawer shows a layer: its frame starts on the worker and waits at the gate.
        try drawer.send(
            MessageCodec.encode(
                ClientMessage.commit(
                    serial: 1,
                    operations: [
                        .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 20, height: 10))),
                        .set(1, .backgroundColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))),
                        .setRoot(display: 0, layer: 1),
                    ])))
        clock.set(100.1)
        #expect(Self.turn(server) { output.presentsWaiting == 1 }, "the frame never reached the output")
        #expect(try Self.received(drawer) == [.commitApplied(serial: 1)])

        // Meanwhile the loop answers another client, and applies the drawer's next commit.
        try bystander.send(MessageCodec.encode(ClientMessage.ping(requestID: 7)))
        var pongs: [ServerMessage] = []
        #expect(
            try Self.turn(server) {
                pongs += try Self.received(bystander)
                return !pongs.isEmpty
            }, "no pong while a frame is drawn")
        #expect(pongs == [.pong(requestID: 7, serverVersion: "test")])
        try drawer.send(MessageCodec.encode(ClientMessage.commit(serial: 2, operations: [.set(1, .opacity(0.5))])))
        var drawerMessages: [ServerMessage] = []
        #expect(
            try Self.turn(server) {
                drawerMessages += try Self.received(drawer)
                return !drawerMessages.isEmpty
            }, "commit 2 was not applied while a frame is drawn")
        #expect(drawerMessages == [.commitApplied(serial: 2)])
        #expect(output.presentsWaiting == 1, "a second frame started while the first was drawn")
        #expect(frames.isEmpty)
        #expect(server.displays[0].frameInFlight != nil)

        // The frame ends late. It showed commit 1 only, so it reports nothing; the next frame shows
        // commit 2, for the newest refresh tick (100.5 s = 6030 / 60 Hz), and reports it.
        clock.set(100.5)
        output.openGate()
        server.runUntilIdle()
        #expect(frames.count == 2)
        #expect(frames.first.map { $0 > 100 && $0 <= 100.1 + 1.0 / 60 } == true, "first frame at \(frames)")
        #expect(abs((frames.last ?? 0) - 100.5) < 1e-9, "second frame at \(frames)")
        #expect(output.inner.presented.count == 3)
        let presented = try Self.received(drawer)
        #expect(presented == [.commitPresented(serial: 2, time: frames.last ?? 0)])
        #expect(server.displays[0].frameInFlight == nil)
        drawer.close()
        bystander.close()
    }

    @Test func manyAnimationsStartingTogetherAreReportedOnceAsFastAsTheClientReads() throws {
        // Two messages may wait to be sent: events made faster than the socket takes them would
        // overflow that at once.
        let harness = try Harness { $0.limits.outboxMessagesPerClient = 2 }
        let (server, clock) = (harness.server, harness.clock)
        let client = try harness.connect(name: "many")

        // 50 shown layers with 1,000 one-second animations each: 50,000 start at the next frame,
        // two and a half times what the loop applies in one turn (`changesPerTurn`, 20,000).
        let count = 50_000
        let record = AnimationRecord(
            timing: MediaTiming(beginTime: 100.5, duration: 1),
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath("opacity")!), BasicValues(from: .number(0), to: .number(1))))
        var operations: [LayerOperation] = [.createLayer(1)]
        for layer in 2...51 as ClosedRange<LayerID> { operations.append(.createLayer(layer)) }
        operations.append(.setSublayers(1, Array(2...51)))
        for index in 0..<count {
            let animation = AttachedAnimation(id: UInt64(index + 1), key: "k\(index % 1000)", record: record)
            operations.append(.addAnimation(LayerID(2 + index / 1000), animation))
        }
        operations.append(.setRoot(display: 0, layer: 1))
        for start in stride(from: 0, to: operations.count, by: 1000) {
            let part = Array(operations[start..<min(start + 1000, operations.count)])
            try client.send(
                MessageCodec.encode(
                    start + 1000 >= operations.count
                        ? ClientMessage.commit(serial: 1, operations: part) : .transactionPart(part)))
            server.runUntilIdle()
        }

        /// Runs the server, reading at most `batches` times; returns the events read, in order.
        func events(readingAtMost batches: Int) throws -> [AnimationEvent] {
            var events: [AnimationEvent] = []
            for _ in 0..<batches {
                server.runUntilIdle()
                let messages = try Self.received(client)
                if messages.isEmpty { break }
                for message in messages {
                    switch message {
                    case .animationEvents(let batch): events += batch
                    case .error(let code, let text): Issue.record("error \(code): \(text)")
                    default: break
                    }
                }
            }
            return events
        }

        clock.set(100.5)
        // Read once: the server stops making events while the client does not read them, and its
        // queue never overflows (which would disconnect the client with limitExceeded).
        let first = try events(readingAtMost: 1)
        #expect(first.count < count, "\(first.count) events made without the client reading")
        let started = first + (try events(readingAtMost: 1000))
        #expect(started.count == count)
        #expect(started.allSatisfy { $0.kind == .started && $0.time == 100.5 })
        // Each animation once: the ids are 1 … count, with no repeats.
        let ids = Set(started.map(\.animationID))
        #expect(ids.count == count && ids.min() == 1 && ids.max() == UInt64(count))

        // A second later every one has finished and is removed, each reported once.
        clock.set(101.5)
        let finished = try events(readingAtMost: 1000)
        #expect(finished.count == count)
        #expect(finished.allSatisfy { $0.kind == .finishedAndRemoved && $0.time == 101.5 })
        #expect(Set(finished.map(\.animationID)).count == count)
        clock.set(102.5)
        #expect(try events(readingAtMost: 10).isEmpty)
        client.close()
    }

    @Test func aCaptureDrawnOnTheWorkerIsStillAnsweredBeforeTheRequestsAfterIt() throws {
        let harness = try Harness()
        let server = harness.server
        let client = try harness.connect(name: "order")
        // Sent together: the ping is read only once the capture's reply has gone (docs/protocol.md §3).
        try client.send(MessageCodec.encode(ClientMessage.capture(requestID: 1, display: 0, time: nil)))
        try client.send(MessageCodec.encode(ClientMessage.ping(requestID: 2)))
        try client.send(MessageCodec.encode(ClientMessage.describeTree(requestID: 3)))
        server.runUntilIdle()
        let replies = try Self.received(client)
        #expect(replies.count == 3)
        guard replies.count == 3 else { return }
        if case .captureResult(1, 40, 30, _, _) = replies[0] {} else { Issue.record("first: \(replies[0])") }
        #expect(replies[1] == .pong(requestID: 2, serverVersion: "test"))
        if case .treeDescription(3, _) = replies[2] {} else { Issue.record("third: \(replies[2])") }
        client.close()
    }
}

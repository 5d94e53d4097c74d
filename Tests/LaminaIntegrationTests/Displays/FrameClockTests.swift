import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

/// The frame clock without a GPU and without sleeping: an in-process `Server` with `NullOutput`s
/// drawing through a `RecordingRenderer`, driven by a `ManualClock`, and raw protocol clients on
/// real sockets. Every frame time asserted is a tick of the display's refresh grid, k / Hz.
@Suite struct FrameClockTests {
    /// A server on a temporary socket with one null output per mode, starting at media time `start`.
    final class Harness {
        let clock: ManualClock
        let outputs: [NullOutput]
        let server: Server
        let directory: URL
        let socketPath: String
        /// Every presented frame as (display, media time), in order.
        var frames: [(display: UInt32, time: Double)] = []

        /// With `importing`, every output draws with that renderer and the server imports clients'
        /// images and surfaces with it (so layers sample them); without, each output has a recording
        /// renderer of its own and the server only keeps track of images.
        init(modes: [DisplayMode], start: Double = 100, importing renderer: (any Renderer)? = nil) throws {
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("lamina-clock-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            socketPath = directory.appendingPathComponent("socket").path
            clock = ManualClock(time: start)
            outputs = try modes.map { mode in
                if let renderer { try NullOutput(mode: mode, renderer: renderer) } else { try NullOutput(mode: mode) }
            }
            server = try Server(
                configuration: .init(socketPath: socketPath, serverVersion: "test"),
                outputs: outputs, clock: clock, renderer: renderer)
            server.onFramePresented = { [unowned self] display, time in frames.append((display, time)) }
        }

        deinit {
            try? FileManager.default.removeItem(at: directory)
        }

        /// Connects a raw client, lets the server greet it and returns it with the displays it was told of.
        func connect(name: String) throws -> (SeqPacketSocket, [DisplayInfo]) {
            let socket = try SeqPacketSocket.connect(path: socketPath)
            try socket.setNonBlocking(true)
            try socket.send(
                MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: name)))
            server.runUntilIdle()
            guard case .welcome(_, _, _, let displays)? = try received(socket).first else {
                throw FrameClockError.noWelcome
            }
            return (socket, displays)
        }

        /// Sends `message`, then lets the server handle it and present whatever is due.
        func send(_ message: ClientMessage, on socket: SeqPacketSocket) throws {
            try socket.send(MessageCodec.encode(message))
            server.runUntilIdle()
        }

        /// Moves the clock to `time` and presents what is due by then.
        func advance(to time: Double) {
            clock.set(time)
            server.runUntilIdle()
        }

        /// The messages waiting on `socket`, oldest first.
        func received(_ socket: SeqPacketSocket) throws -> [ServerMessage] {
            var messages: [ServerMessage] = []
            while let packet = try socket.receive(maxBytes: WireLimits.maxMessageBytes, maxFDs: 4),
                !packet.isEndOfStream
            {
                messages.append(try MessageCodec.decodeServer(packet.bytes))
            }
            return messages
        }
    }

    enum FrameClockError: Error {
        case noWelcome
    }

    /// A 20×10 opaque red layer centred at (15, 10), so it covers pixels x 5..<25, y 5..<15, shown on `display`.
    static func redLayer(display: UInt32) -> [LayerOperation] {
        [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 20, height: 10))),
            .set(1, .position(CGPoint(x: 15, y: 10))),
            .set(1, .backgroundColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))),
            .setRoot(display: display, layer: 1),
        ]
    }

    func firstMessagesHaveCommitPresented(_ messages: [ServerMessage]) -> Bool {
        messages.contains { if case .commitPresented = $0 { true } else { false } }
    }

    static func isClose(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    @Test func commitIsPresentedAtTheNextRefreshTickOfTheInjectedClock() throws {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        // The start frame is presented at once, at the clock's time.
        harness.server.runUntilIdle()
        #expect(harness.frames.count == 1)
        #expect(harness.frames.first?.time == 100)

        let (client, displays) = try harness.connect(name: "one")
        #expect(displays == [DisplayInfo(id: 0, width: 40, height: 30, refreshRate: 60, name: "null-0")])
        harness.clock.set(100.004)
        try harness.send(.commit(serial: 1, operations: Self.redLayer(display: 0)), on: client)
        #expect(try harness.received(client) == [.commitApplied(serial: 1)])
        // 100.004 s × 60 Hz = tick 6000.24, so the frame waits for tick 6001.
        let due = try #require(harness.server.displays[0].nextFrameTime)
        #expect(Self.isClose(due, 6001.0 / 60))
        harness.advance(to: due - 0.0001)
        #expect(harness.frames.count == 1, "presented before its refresh")
        #expect(try harness.received(client).isEmpty)

        harness.advance(to: due)
        #expect(harness.frames.count == 2)
        #expect(harness.frames.last?.time == due)
        #expect(try harness.received(client) == [.commitPresented(serial: 1, time: due)])
        // The recording renderer drew the list into the output's visible target: red exactly on the layer.
        let target = try #require(harness.outputs[0].visible as? RecordingTarget)
        #expect(target.renderCount == 2)
        #expect(target.bitmap.rgba(x: 5, y: 5) == (255, 0, 0, 255))
        #expect(target.bitmap.rgba(x: 24, y: 14) == (255, 0, 0, 255))
        #expect(target.bitmap.rgba(x: 4, y: 5) == (0, 0, 0, 255))
        #expect(target.bitmap.rgba(x: 25, y: 14) == (0, 0, 0, 255))
        #expect(target.bitmap.rgba(x: 5, y: 15) == (0, 0, 0, 255))

        // Nothing changes: a second later nothing more was presented.
        harness.advance(to: due + 1)
        #expect(harness.frames.count == 2)
        #expect(harness.outputs[0].presented.count == 2)
    }

    @Test func displayLinkFramesFollowTheRefreshGridAndCarryTheirTimes() throws {
        let harness = try Harness(modes: [DisplayMode(width: 8, height: 8, refreshRate: 50)])
        harness.server.runUntilIdle()
        let (client, _) = try harness.connect(name: "link")
        harness.clock.set(100.001)
        try harness.send(.frameEvents(enabled: true), on: client)
        // Step the clock by a fifth of a refresh for 0.1 s: five frames, at ticks 5001...5005 of 50 Hz.
        for step in 1...25 { harness.advance(to: 100.001 + Double(step) * 0.004) }
        let times = harness.frames.dropFirst().map(\.time)
        let expected = (5001...5005).map { Double($0) / 50 }
        #expect(times.count == expected.count, "frames at \(times)")
        #expect(zip(times, expected).allSatisfy { Self.isClose($0, $1) }, "frames at \(times), expected \(expected)")
        let events = try harness.received(client).compactMap { message -> (Double, Double)? in
            if case .frame(let time, let target) = message { return (time, target) }
            return nil
        }
        #expect(events.count == expected.count)
        for ((time, target), want) in zip(events, expected) {
            #expect(Self.isClose(time, want) && Self.isClose(target, want + 0.02), "frame \(time) → \(target)")
        }
    }

    @Test func failedPresentIsRetriedAtTheNextTick() throws {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)], start: 10.005)
        harness.server.runUntilIdle()
        let (client, _) = try harness.connect(name: "retry")
        harness.outputs[0].failingPresents = 1
        try harness.send(.commit(serial: 7, operations: Self.redLayer(display: 0)), on: client)
        _ = try harness.received(client)
        // 10.005 s × 60 Hz = tick 600.3: the display's first frame and the commit's are both at
        // tick 601, which fails, and the frame moves to tick 602.
        #expect(harness.frames.isEmpty, "a frame before the first tick of the grid")
        let first = try #require(harness.server.displays[0].nextFrameTime)
        #expect(Self.isClose(first, 601.0 / 60))
        harness.advance(to: first)
        #expect(harness.frames.isEmpty)
        #expect(harness.outputs[0].failingPresents == 0, "the failing present was not attempted")
        let second = try #require(harness.server.displays[0].nextFrameTime)
        #expect(Self.isClose(second, 602.0 / 60))
        harness.advance(to: second)
        #expect(harness.frames.count == 1)
        let presented = try harness.received(client)
        guard case .commitPresented(7, let time)? = presented.first else {
            Issue.record("expected commitPresented 7, got \(presented)")
            return
        }
        #expect(Self.isClose(time, 602.0 / 60))
    }

    @Test func twoDisplaysPresentEachAtItsOwnCadence() throws {
        let harness = try Harness(modes: [
            DisplayMode(width: 40, height: 30, refreshRate: 60),
            DisplayMode(width: 32, height: 24, refreshRate: 25),
        ])
        harness.server.runUntilIdle()
        #expect(harness.frames.map(\.display) == [0, 1], "each display presents its start frame")
        let (first, displays) = try harness.connect(name: "zero")
        #expect(
            displays == [
                DisplayInfo(id: 0, width: 40, height: 30, refreshRate: 60, name: "null-0"),
                DisplayInfo(id: 1, width: 32, height: 24, refreshRate: 25, name: "null-1"),
            ])
        let (second, _) = try harness.connect(name: "one")
        try harness.send(.commit(serial: 1, operations: Self.redLayer(display: 1)), on: second)
        try harness.send(.frameEvents(enabled: true), on: first)
        try harness.send(.frameEvents(enabled: true), on: second)
        harness.frames.removeAll()
        var secondBefore = try harness.received(second)
        _ = try harness.received(first)
        // 0.208 s in steps of 1/600 s: 12 refreshes at 60 Hz (ticks 6001...6012) and 5 at 25 Hz
        // (ticks 2501...2505; the next, 2506, is at 100.24 s).
        for step in 1...125 { harness.advance(to: 100 + Double(step) / 600) }
        let zero = harness.frames.filter { $0.display == 0 }.map(\.time)
        let one = harness.frames.filter { $0.display == 1 }.map(\.time)
        let zeroExpected = (6001...6012).map { Double($0) / 60 }
        let oneExpected = (2501...2505).map { Double($0) / 25 }
        #expect(
            zero.count == zeroExpected.count && zip(zero, zeroExpected).allSatisfy { Self.isClose($0, $1) },
            "display 0 at \(zero)")
        #expect(
            one.count == oneExpected.count && zip(one, oneExpected).allSatisfy { Self.isClose($0, $1) },
            "display 1 at \(one)")
        // Each client's display link ticks with its own display; the commit on display 1 is presented there.
        let firstMessages = try harness.received(first)
        let secondMessages = try harness.received(second)
        secondBefore += secondMessages
        let presented = secondBefore.compactMap { if case .commitPresented(1, let t) = $0 { t } else { nil } }
        #expect(presented.count == 1, "commitPresented events: \(presented)")
        if let time = presented.first {
            #expect(abs(time * 25 - (time * 25).rounded()) < 1e-6, "presented at \(time), off the 25 Hz grid")
        }
        #expect(!firstMessagesHaveCommitPresented(firstMessages))
        let firstFrames = firstMessages.compactMap { if case .frame(let t, _) = $0 { t } else { nil } }
        let secondFrames = secondMessages.compactMap { if case .frame(let t, _) = $0 { t } else { nil } }
        #expect(firstFrames.count == zero.count && zip(firstFrames, zero).allSatisfy { Self.isClose($0, $1) })
        #expect(secondFrames.count == one.count && zip(secondFrames, one).allSatisfy { Self.isClose($0, $1) })
        // The red layer is drawn on display 1 only.
        let zeroTarget = try #require(harness.outputs[0].visible as? RecordingTarget)
        let oneTarget = try #require(harness.outputs[1].visible as? RecordingTarget)
        #expect(oneTarget.bitmap.rgba(x: 10, y: 10) == (255, 0, 0, 255))
        #expect(zeroTarget.bitmap.rgba(x: 10, y: 10) == (0, 0, 0, 255))
        #expect((harness.outputs[1].presented.last?.instanceCount ?? 0) > 0)
        #expect(harness.outputs[0].presented.last?.instanceCount == 0)
    }
}

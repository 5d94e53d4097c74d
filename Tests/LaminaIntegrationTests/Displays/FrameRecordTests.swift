import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

/// Frame counters (issue 19, point 4): each presented frame of a display is recorded with the
/// layers the builder visited, the instances it emitted, the pixels drawn, the display's pixels,
/// offscreen passes, CPU time, GPU time where known and whether it missed its refresh; a client
/// reads the newest ones with `frameRecords`. Counters are asserted, never times.
@Suite struct FrameRecordTests {
    typealias Harness = FrameWorkerTests.Harness

    /// Asks the server for display `display`'s newest `count` records over `socket` and returns the reply.
    static func records(
        _ harness: Harness, _ socket: SeqPacketSocket, display: UInt32 = 0, count: UInt32 = 600
    ) throws -> [ServerMessage] {
        try socket.send(MessageCodec.encode(ClientMessage.frameRecords(requestID: 9, display: display, count: count)))
        var replies: [ServerMessage] = []
        _ = try FrameWorkerTests.turn(harness.server) {
            replies += try FrameWorkerTests.received(socket)
            return replies.contains { if case .frameRecordsReply = $0 { true } else { false } }
        }
        return replies
    }

    /// The frame records in a reply (empty when the reply is something else).
    static func frames(_ replies: [ServerMessage]) -> [FrameRecord] {
        for case .frameRecordsReply(9, let records) in replies { return records }
        return []
    }

    /// A root of 20×10 with two coloured sublayers, on display 0.
    static let threeLayers: [LayerOperation] = [
        .createLayer(1), .createLayer(2), .createLayer(3),
        .set(1, .bounds(CGRect(x: 0, y: 0, width: 20, height: 10))), .set(1, .position(CGPoint(x: 20, y: 15))),
        .set(1, .backgroundColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))),
        .set(2, .bounds(CGRect(x: 0, y: 0, width: 4, height: 4))), .set(2, .position(CGPoint(x: 5, y: 5))),
        .set(2, .backgroundColor(RGBAColor(red: 0, green: 1, blue: 0, alpha: 1))),
        .set(3, .bounds(CGRect(x: 0, y: 0, width: 4, height: 4))), .set(3, .position(CGPoint(x: 15, y: 5))),
        .set(3, .backgroundColor(RGBAColor(red: 0, green: 0, blue: 1, alpha: 1))),
        .setSublayers(1, [2, 3]), .setRoot(display: 0, layer: 1),
    ]

    @Test func eachPresentedFrameIsRecordedWithItsCountersAndAnIdleDisplayAddsNone() throws {
        let output = try NullOutput(mode: DisplayMode(width: 40, height: 30, refreshRate: 60))
        let harness = try Harness(output: output)
        let client = try harness.connect(name: "counted")
        // The first frame, of the empty display, visited no layer and drew the whole display.
        let first = Self.frames(try Self.records(harness, client))
        #expect(first.count == 1)
        #expect(first.first?.layersVisited == 0)
        #expect(first.first?.pixelsDrawn == 1200 && first.first?.displayPixels == 1200)

        try client.send(MessageCodec.encode(ClientMessage.commit(serial: 1, operations: Self.threeLayers)))
        harness.clock.set(100.1)
        harness.server.runUntilIdle()
        let records = Self.frames(try Self.records(harness, client))
        #expect(records.count == 2, "\(records)")
        let frame = try #require(records.last)
        #expect(frame.layersVisited == 3)
        #expect(frame.instancesEmitted == output.presented.last?.instanceCount)
        #expect(frame.instancesEmitted >= 3, "three filled layers")
        #expect(frame.displayPixels == 40 * 30)
        // Only what changed is drawn: the root, 20×10 at (10, 10), and its sublayers inside it, each
        // with a pixel of margin for anti-aliased edges: one 22×12 rectangle.
        #expect(frame.pixelsDrawn == 22 * 12)
        #expect(frame.offscreenPasses == 0)
        #expect(frame.gpuMilliseconds == nil, "the null output has no GPU")
        #expect(!frame.missedDeadline)
        #expect(frame.time > 100 && frame.time <= 100.1 + 1.0 / 60)
        #expect(frame.display == 0)

        // Nothing changes: no frame is drawn, none recorded.
        harness.clock.set(101)
        harness.server.runUntilIdle()
        #expect(Self.frames(try Self.records(harness, client)).count == 2)
        // Asking for one gives the newest.
        #expect(Self.frames(try Self.records(harness, client, count: 1)) == [frame])
        client.close()
    }

    @Test func aFrameThatStartsForALaterRefreshThanScheduledMissedItsDeadline() throws {
        let harness = try Harness()
        let client = try harness.connect(name: "late")
        // The commit is applied at 100.21 s; its frame is due at the next refresh (6013 / 60 Hz), but
        // the loop next turns at 100.5 s.
        harness.clock.set(100.21)
        try client.send(MessageCodec.encode(ClientMessage.commit(serial: 1, operations: Self.threeLayers)))
        harness.server.pollOnce(timeout: 0)
        #expect(harness.server.displays[0].frameInFlight == nil, "the frame started early")
        harness.clock.set(100.5)
        harness.server.runUntilIdle()
        let all = Self.frames(try Self.records(harness, client))
        let late = try #require(all.last)
        #expect(all.count == 2, "\(all)")
        #expect(abs(late.time - 100.5) < 1e-9)
        #expect(late.missedDeadline)
        client.close()
    }

    @Test(arguments: [
        (ClientMessage.frameRecords(requestID: 1, display: 5, count: 1), ServerErrorCode.badDisplay),
        (ClientMessage.frameRecords(requestID: 1, display: 0, count: 601), ServerErrorCode.invalidValue),
    ])
    func aBadRequestIsRefusedWithANamedError(message: ClientMessage, code: ServerErrorCode) throws {
        let harness = try Harness()
        let client = try harness.connect(name: "bad")
        try client.send(MessageCodec.encode(message))
        var replies: [ServerMessage] = []
        _ = try FrameWorkerTests.turn(harness.server) {
            replies += try FrameWorkerTests.received(client)
            return !replies.isEmpty
        }
        guard case .error(let got, let text)? = replies.first else {
            Issue.record("expected an error, got \(replies)")
            return
        }
        #expect(got == code)
        #expect(text.contains("frameRecords"))
        client.close()
    }

    /// Retained frames (issue 19, point 1) through the server: after the first frame of 201 layers,
    /// a commit that moves one of them is drawn by visiting that layer alone.
    @Test func aFrameAfterACommitThatMovesOneLayerVisitsOnlyIt() throws {
        let output = try NullOutput(mode: DisplayMode(width: 200, height: 100, refreshRate: 60))
        let harness = try Harness(output: output)
        let client = try harness.connect(name: "retained")
        var ops: [LayerOperation] = [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 200, height: 100))),
            .set(1, .position(CGPoint(x: 100, y: 50))),
        ]
        for i in 0..<200 {
            let id = LayerID(i + 2)
            ops += [
                .createLayer(id), .set(id, .bounds(CGRect(x: 0, y: 0, width: 4, height: 4))),
                .set(id, .position(CGPoint(x: Double(i % 20) * 10 + 5, y: Double(i / 20) * 10 + 5))),
                .set(id, .backgroundColor(RGBAColor(red: 0, green: 0, blue: 1, alpha: 1))),
            ]
        }
        ops += [.setSublayers(1, (2..<202).map { LayerID($0) }), .setRoot(display: 0, layer: 1)]
        try client.send(MessageCodec.encode(ClientMessage.commit(serial: 1, operations: ops)))
        harness.clock.set(100.1)
        harness.server.runUntilIdle()
        let first = try #require(Self.frames(try Self.records(harness, client)).last)
        #expect(first.layersVisited == 201)
        try client.send(
            MessageCodec.encode(
                ClientMessage.commit(serial: 2, operations: [.set(57, .position(CGPoint(x: 103, y: 57)))])))
        harness.clock.set(100.5)
        harness.server.runUntilIdle()
        let records = Self.frames(try Self.records(harness, client))
        let moved = try #require(records.last)
        #expect(records.count == 3, "\(records)")
        #expect(moved.layersVisited == 1)
        #expect(moved.instancesEmitted == first.instancesEmitted)
        #expect(moved.pixelsDrawn > 0 && moved.pixelsDrawn <= 2 * 6 * 6, "the mover's old and new places")
    }
}

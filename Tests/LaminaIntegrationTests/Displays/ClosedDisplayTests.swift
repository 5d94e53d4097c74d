import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

/// A display whose output closes (a window closed by the user) stops alone: in-process, with null
/// outputs, a recording renderer and a manual clock (`FrameClockTests.Harness`), so every frame is
/// accounted for without sleeping.
@Suite struct ClosedDisplayTests {
    /// A client with the red layer of `FrameClockTests` as root of display 0 and a 10×10 green layer
    /// at (5, 5) as root of display 1.
    static let onBothDisplays: [LayerOperation] =
        FrameClockTests.redLayer(display: 0) + [
            .createLayer(2), .set(2, .bounds(CGRect(x: 0, y: 0, width: 10, height: 10))),
            .set(2, .position(CGPoint(x: 5, y: 5))),
            .set(2, .backgroundColor(RGBAColor(red: 0, green: 1, blue: 0, alpha: 1))),
            .setRoot(display: 1, layer: 2),
        ]

    @Test func closedDisplayGetsNoMoreFramesWhileTheOtherGoesOn() throws {
        let harness = try FrameClockTests.Harness(modes: [
            DisplayMode(width: 40, height: 30, refreshRate: 60), DisplayMode(width: 40, height: 30, refreshRate: 60),
        ])
        harness.server.runUntilIdle()
        #expect(harness.frames.map(\.display) == [0, 1], "each display presents its start frame")
        let (client, _) = try harness.connect(name: "both")
        harness.clock.set(100.004)
        try harness.send(.commit(serial: 1, operations: Self.onBothDisplays), on: client)
        #expect(try harness.received(client) == [.commitApplied(serial: 1)])

        // Display 1 closes before the commit's refresh (tick 6001 of 60 Hz): the loop notices on
        // its next turn, and the commit counts as presented once display 0 has shown it.
        harness.outputs[1].isClosed = true
        harness.server.runUntilIdle()
        #expect(harness.server.displays[1].isClosed)
        #expect(!harness.server.displays[0].isClosed)
        #expect(harness.server.displays[1].nextFrameTime == nil)
        // The client learns the displays that remain (the hot-plug event) as soon as the loop
        // notices, ahead of the frame.
        #expect(
            try harness.received(client) == [
                .displaysChanged([DisplayInfo(id: 0, width: 40, height: 30, refreshRate: 60, name: "null-0")])
            ])
        harness.frames.removeAll()
        harness.advance(to: 6001.0 / 60)
        #expect(harness.frames.map(\.display) == [0])
        #expect(try harness.received(client) == [.commitPresented(serial: 1, time: 6001.0 / 60)])

        // Later commits touching both displays are presented on display 0 alone, and acknowledged.
        try harness.send(.commit(serial: 2, operations: [.set(2, .position(CGPoint(x: 6, y: 6)))]), on: client)
        try harness.send(.commit(serial: 3, operations: [.set(1, .position(CGPoint(x: 16, y: 10)))]), on: client)
        harness.advance(to: 100.1)
        #expect(harness.frames.allSatisfy { $0.display == 0 }, "frames: \(harness.frames)")
        #expect(harness.outputs[1].presented.count == 1, "display 1 presented after it closed")
        let messages = try harness.received(client)
        #expect(messages.contains { if case .commitPresented(3, _) = $0 { true } else { false } }, "\(messages)")

        // A client that connects now is told only of the open display. A capture of the closed
        // display is refused with an error naming it (and, as every error, ends that client's
        // connection); a capture of display 0 still works for another client.
        let (asker, told) = try harness.connect(name: "asker")
        #expect(told.map(\.id) == [0])
        try harness.send(.capture(requestID: 1, display: 1, time: nil), on: asker)
        let refusal = try harness.received(asker)
        guard case .error(.badDisplay, let message)? = refusal.first else {
            Issue.record("expected badDisplay, got \(refusal)")
            return
        }
        #expect(message == "capture of display 1, whose output (40x30@60) was closed")
        try harness.send(.capture(requestID: 2, display: 0, time: nil), on: client)
        let captured = try harness.received(client)
        #expect(captured.contains { if case .captureResult(2, 40, 30, _, _) = $0 { true } else { false } })
    }
}

import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

/// Which number a display added while the server runs takes (`Server.addOutput`): a connector
/// plugged in again (an output with its closed display's `attachment`) takes that display's number
/// back and shows the trees on it with no commit, numbers are never used up, and only 16 open
/// displays refuse a new one. In-process, with null outputs, a recording renderer and a manual
/// clock (`FrameClockTests.Harness`), so every frame is accounted for without sleeping.
@Suite struct DisplayNumberTests {
    static let mode = DisplayMode(width: 40, height: 30, refreshRate: 60)
    static let connector = "/dev/dri/card1 Virtual-1"

    /// The display infos of `ids`, each a null output of `mode`.
    static func infos(_ ids: [UInt32]) -> [DisplayInfo] {
        ids.map { DisplayInfo(id: $0, width: 40, height: 30, refreshRate: 60, name: "null-\($0)") }
    }

    /// The red pixels of `FrameClockTests.redLayer` (x 5..<25, y 5..<15) in `target`, the clear
    /// colour just outside them.
    static func showsRedLayer(_ target: any RenderTarget) -> Bool {
        guard let bitmap = (target as? RecordingTarget)?.bitmap else { return false }
        return bitmap.rgba(x: 5, y: 5) == (255, 0, 0, 255) && bitmap.rgba(x: 24, y: 14) == (255, 0, 0, 255)
            && bitmap.rgba(x: 4, y: 5) == (0, 0, 0, 255) && bitmap.rgba(x: 25, y: 14) == (0, 0, 0, 255)
    }

    @Test func sameAttachmentTakesItsClosedNumberBackAndShowsItsTreeWithoutACommit() throws {
        let harness = try FrameClockTests.Harness(modes: [Self.mode])
        harness.server.runUntilIdle()
        let plugged = try NullOutput(mode: Self.mode, attachment: Self.connector)
        #expect(harness.server.addOutput(plugged) == 1)
        let (client, told) = try harness.connect(name: "kiosk")
        #expect(told.map(\.id) == [0, 1])
        try harness.send(.commit(serial: 1, operations: FrameClockTests.redLayer(display: 1)), on: client)
        harness.advance(to: 101)
        #expect(Self.showsRedLayer(plugged.visible))
        #expect(try harness.received(client).contains { if case .commitPresented(1, _) = $0 { true } else { false } })

        // Unplugged: display 1 closes, the client is told, its root stays on number 1.
        plugged.isClosed = true
        harness.server.runUntilIdle()
        #expect(try harness.received(client) == [.displaysChanged(Self.infos([0]))])
        let drawnBeforeClosing = plugged.presented.count
        harness.advance(to: 102)
        // A commit while it is closed (the layer moved by a pixel and back) is applied, and
        // presented only once the display is back.
        try harness.send(.commit(serial: 2, operations: [.set(1, .position(CGPoint(x: 16, y: 10)))]), on: client)
        try harness.send(.commit(serial: 3, operations: [.set(1, .position(CGPoint(x: 15, y: 10)))]), on: client)
        harness.advance(to: 102.005)
        #expect(try harness.received(client) == [.commitApplied(serial: 2), .commitApplied(serial: 3)])

        // Plugged in again at 102.01: the same connector takes number 1 back, every client is told,
        // and the client's tree is drawn there at the first tick of its grid (6121 / 60) with no commit.
        harness.clock.set(102.01)
        harness.frames.removeAll()
        let replugged = try NullOutput(mode: Self.mode, attachment: Self.connector)
        #expect(harness.server.addOutput(replugged) == 1)
        #expect(harness.server.displays.map(\.id) == [0, 1])
        #expect(harness.server.displays[1].output === replugged)
        #expect(!harness.server.displays[1].isClosed)
        harness.server.runUntilIdle()
        #expect(try harness.received(client) == [.displaysChanged(Self.infos([0, 1]))])
        // Its schedule starts afresh: nothing presented, its first frame at its own grid's next tick.
        #expect(harness.server.displays[1].framesPresented == 0)
        #expect(harness.server.displays[1].lastPresented == nil)
        let first = try #require(harness.server.displays[1].nextFrameTime)
        #expect(FrameClockTests.isClose(first, 6121.0 / 60))
        harness.advance(to: first)
        #expect(harness.frames.map(\.display) == [1])
        #expect(replugged.presented.count == 1)
        #expect(Self.showsRedLayer(replugged.visible))
        #expect(plugged.presented.count == drawnBeforeClosing, "the unplugged output was drawn to after it closed")
        #expect(try harness.received(client) == [.commitPresented(serial: 3, time: first)])

        // A capture of display 1 is drawn on the new output, the client's tree in it.
        try harness.send(.capture(requestID: 7, display: 1, time: nil), on: client)
        let captured = try harness.received(client)
        #expect(captured.contains { if case .captureResult(7, 40, 30, _, _) = $0 { true } else { false } })
        #expect(Self.showsRedLayer(replugged.scratch))

        // A client connecting now is told of both.
        let (_, later) = try harness.connect(name: "later")
        #expect(later.map(\.id) == [0, 1])
    }

    @Test func closedDisplayIsRefusedForCapturesUntilItsNumberComesBack() throws {
        let harness = try FrameClockTests.Harness(modes: [Self.mode])
        harness.server.runUntilIdle()
        let plugged = try NullOutput(mode: Self.mode, attachment: Self.connector)
        #expect(harness.server.addOutput(plugged) == 1)
        plugged.isClosed = true
        harness.server.runUntilIdle()
        let (asker, _) = try harness.connect(name: "asker")
        try harness.send(.capture(requestID: 1, display: 1, time: nil), on: asker)
        let refusal = try harness.received(asker)
        guard case .error(.badDisplay, let message)? = refusal.first else {
            Issue.record("expected badDisplay, got \(refusal)")
            return
        }
        #expect(message == "capture of display 1, whose output (40x30@60) was closed")

        let (client, _) = try harness.connect(name: "client")
        #expect(harness.server.addOutput(try NullOutput(mode: Self.mode, attachment: Self.connector)) == 1)
        try harness.send(.capture(requestID: 2, display: 1, time: nil), on: client)
        let captured = try harness.received(client)
        #expect(captured.contains { if case .captureResult(2, 40, 30, _, _) = $0 { true } else { false } })
    }

    @Test func differentAttachmentGetsANewNumber() throws {
        let harness = try FrameClockTests.Harness(modes: [Self.mode])
        harness.server.runUntilIdle()
        let plugged = try NullOutput(mode: Self.mode, attachment: Self.connector)
        #expect(harness.server.addOutput(plugged) == 1)
        plugged.isClosed = true
        harness.server.runUntilIdle()

        // Another connector, and an output with no attachment: new numbers; the closed one stays
        // closed and unlisted.
        let other = try NullOutput(mode: Self.mode, attachment: "/dev/dri/card1 Virtual-2")
        #expect(harness.server.addOutput(other) == 2)
        #expect(harness.server.addOutput(try NullOutput(mode: Self.mode)) == 3)
        #expect(harness.server.displays[1].isClosed)
        let (_, told) = try harness.connect(name: "watcher")
        #expect(told.map(\.id) == [0, 2, 3])

        // The first connector again: its number 1.
        #expect(harness.server.addOutput(try NullOutput(mode: Self.mode, attachment: Self.connector)) == 1)
        #expect(harness.server.displays.map(\.isClosed) == [false, false, false, false])
    }

    @Test func twentyReplugsOfOneConnectorKeepNumberOne() throws {
        let harness = try FrameClockTests.Harness(modes: [Self.mode])
        harness.server.runUntilIdle()
        let (client, _) = try harness.connect(name: "kiosk")
        weak var earlier: NullOutput?
        var time = 100.0
        for cycle in 0..<20 {
            let output = try NullOutput(mode: Self.mode, attachment: Self.connector)
            #expect(harness.server.addOutput(output) == 1, "cycle \(cycle)")
            if cycle == 0 {
                try harness.send(.commit(serial: 1, operations: FrameClockTests.redLayer(display: 1)), on: client)
            }
            time += 0.5
            harness.advance(to: time)
            // Each new monitor shows the tree committed once, on the first.
            #expect(!output.presented.isEmpty, "cycle \(cycle)")
            #expect(Self.showsRedLayer(output.visible), "cycle \(cycle)")
            output.isClosed = true
            harness.server.runUntilIdle()
            // The output the display before had is let go of (it is not kept for the server's life).
            #expect(earlier == nil, "cycle \(cycle)")
            earlier = output
        }
        #expect(harness.server.displays.count == 2)
        let messages = try harness.received(client)
        let announced = messages.compactMap { if case .displaysChanged(let list) = $0 { list.map(\.id) } else { nil } }
        #expect(announced == Array(repeating: [[0, 1], [0]], count: 20).flatMap { $0 })
    }

    @Test func withEveryNumberGivenTheLowestClosedIsReusedAndSixteenOpenRefuse() throws {
        let harness = try FrameClockTests.Harness(modes: [Self.mode])
        harness.server.runUntilIdle()
        var added: [UInt32: NullOutput] = [:]
        for number in 1..<UInt32(WireLimits.maxDisplays) {
            let output = try NullOutput(mode: Self.mode, attachment: "/dev/dri/card1 Virtual-\(number)")
            #expect(harness.server.addOutput(output) == number)
            added[number] = output
        }
        // A client shows its tree on display 3.
        let (client, _) = try harness.connect(name: "kiosk")
        try harness.send(.commit(serial: 1, operations: FrameClockTests.redLayer(display: 3)), on: client)
        harness.advance(to: 101)
        #expect(try harness.received(client).contains(.commitApplied(serial: 1)))
        #expect(Self.showsRedLayer(try #require(added[3]).visible))

        // Displays 7, 5 and 3 close: a connector never seen takes the lowest closed number, 3, and
        // shows the client's tree there; a closed display's own connector takes its number (7) back
        // ahead of the lowest (5).
        for number: UInt32 in [7, 5, 3] { added[number]?.isClosed = true }
        harness.server.runUntilIdle()
        let stranger = try NullOutput(mode: Self.mode, attachment: "/dev/dri/card2 HDMI-A-1")
        #expect(harness.server.addOutput(stranger) == 3)
        #expect(harness.server.addOutput(try NullOutput(mode: Self.mode, attachment: "/dev/dri/card1 Virtual-7")) == 7)
        harness.advance(to: 102)
        #expect(Self.showsRedLayer(stranger.visible))
        #expect(harness.server.addOutput(try NullOutput(mode: Self.mode)) == 5)
        #expect(harness.server.displays.count == WireLimits.maxDisplays)
        #expect(harness.server.displays.allSatisfy { !$0.isClosed })
        #expect(harness.server.displays.map(\.id) == Array(0..<UInt32(WireLimits.maxDisplays)))
        harness.server.runUntilIdle()
        _ = try harness.received(client)

        // Sixteen open displays: refused without building the output, nothing announced.
        var built = false
        let refused = try harness.server.addOutput {
            built = true
            return try NullOutput(mode: Self.mode, attachment: Self.connector)
        }
        #expect(refused == nil)
        #expect(!built)
        harness.server.runUntilIdle()
        #expect(try harness.received(client).isEmpty)
    }

    @Test func frameOfAReplacedDisplayStillBeingDrawnIsIgnored() throws {
        let harness = try FrameClockTests.Harness(modes: [Self.mode])
        harness.server.runUntilIdle()
        let plugged = try NullOutput(mode: Self.mode, attachment: Self.connector)
        #expect(harness.server.addOutput(plugged) == 1)
        harness.server.runUntilIdle()
        let (client, _) = try harness.connect(name: "kiosk")
        harness.clock.set(100.004)
        try harness.send(.commit(serial: 1, operations: FrameClockTests.redLayer(display: 1)), on: client)
        // One turn at the commit's refresh starts its frame on the worker; the output goes before
        // the frame is reported, and the connector is back at once.
        harness.clock.set(try #require(harness.server.displays[1].nextFrameTime))
        harness.server.pollOnce(timeout: 0)
        #expect(harness.server.displays[1].frameInFlight != nil)
        plugged.isClosed = true
        let replugged = try NullOutput(mode: Self.mode, attachment: Self.connector)
        #expect(harness.server.addOutput(replugged) == 1)
        harness.frames.removeAll()
        harness.server.runUntilIdle()
        // Only the new display's own first frame counts as display 1's.
        #expect(plugged.presented.count == 2)
        #expect(replugged.presented.count == 1)
        #expect(Self.showsRedLayer(replugged.visible))
        #expect(harness.frames.filter { $0.display == 1 }.count == 1)
        #expect(harness.server.displays[1].framesPresented == 1)
    }

    @Test func homeClientsDisplayLinkGoesOnWhenItsDisplayComesBack() throws {
        let harness = try FrameClockTests.Harness(modes: [Self.mode])
        harness.server.runUntilIdle()
        let plugged = try NullOutput(mode: Self.mode, attachment: Self.connector)
        #expect(harness.server.addOutput(plugged) == 1)
        let (client, _) = try harness.connect(name: "linked")
        try harness.send(.commit(serial: 1, operations: FrameClockTests.redLayer(display: 1)), on: client)
        try harness.send(.frameEvents(enabled: true), on: client)
        harness.advance(to: 100.1)
        #expect(try harness.received(client).contains { if case .frame = $0 { true } else { false } })

        // While its home display is closed, no frame; once its connector is back, frames again.
        plugged.isClosed = true
        harness.server.runUntilIdle()
        _ = try harness.received(client)
        harness.advance(to: 100.5)
        #expect(!(try harness.received(client).contains { if case .frame = $0 { true } else { false } }))
        #expect(harness.server.addOutput(try NullOutput(mode: Self.mode, attachment: Self.connector)) == 1)
        harness.advance(to: 100.6)
        let messages = try harness.received(client)
        #expect(messages.contains { if case .frame = $0 { true } else { false } }, "\(messages)")
    }
}

import Foundation
import Glibc
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

/// Displays added while the server runs (a KMS connector plugged in): in-process, with null outputs,
/// a recording renderer and a manual clock (`FrameClockTests.Harness`), so every frame is accounted
/// for without sleeping.
@Suite struct AddedDisplayTests {
    @Test func addedDisplayIsAnnouncedPresentsAndTakesRootsAndCaptures() throws {
        let harness = try FrameClockTests.Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        harness.server.runUntilIdle()
        let (client, told) = try harness.connect(name: "watcher")
        #expect(told.map(\.id) == [0])
        harness.frames.removeAll()

        // Added at 100.01: the next number, announced at once to the connected client with the
        // display that was there.
        harness.clock.set(100.01)
        let output = try NullOutput(mode: DisplayMode(width: 40, height: 30, refreshRate: 50))
        #expect(harness.server.addOutput(output) == 1)
        #expect(harness.server.displays.map(\.id) == [0, 1])
        harness.server.runUntilIdle()
        #expect(
            try harness.received(client) == [
                .displaysChanged([
                    DisplayInfo(id: 0, width: 40, height: 30, refreshRate: 60, name: "null-0"),
                    DisplayInfo(id: 1, width: 40, height: 30, refreshRate: 50, name: "null-1"),
                ])
            ])

        // Its start frame comes at the next tick of its 50 Hz grid (5001 / 50), not before.
        let start = try #require(harness.server.displays[1].nextFrameTime)
        #expect(FrameClockTests.isClose(start, 5001.0 / 50))
        #expect(harness.frames.isEmpty)
        harness.advance(to: start)
        #expect(harness.frames.map(\.display) == [1])
        #expect(output.presented.count == 1)

        // A root set on it at 100.03 is presented there at the next tick (5002 / 50): red exactly on
        // the layer (x 5..<25, y 5..<15), the clear colour around it.
        harness.clock.set(100.03)
        try harness.send(.commit(serial: 1, operations: FrameClockTests.redLayer(display: 1)), on: client)
        #expect(try harness.received(client) == [.commitApplied(serial: 1)])
        let next = try #require(harness.server.displays[1].nextFrameTime)
        #expect(FrameClockTests.isClose(next, 5002.0 / 50))
        harness.advance(to: next)
        #expect(harness.frames.map(\.display) == [1, 1])
        #expect(try harness.received(client) == [.commitPresented(serial: 1, time: next)])
        let target = try #require(output.visible as? RecordingTarget)
        #expect(target.bitmap.rgba(x: 5, y: 5) == (255, 0, 0, 255))
        #expect(target.bitmap.rgba(x: 24, y: 14) == (255, 0, 0, 255))
        #expect(target.bitmap.rgba(x: 4, y: 5) == (0, 0, 0, 255))
        #expect(target.bitmap.rgba(x: 25, y: 14) == (0, 0, 0, 255))

        // It can be captured at its size; a client connecting now is told of both displays.
        try harness.send(.capture(requestID: 7, display: 1, time: nil), on: client)
        let captured = try harness.received(client)
        #expect(captured.contains { if case .captureResult(7, 40, 30, _, _) = $0 { true } else { false } })
        let (_, later) = try harness.connect(name: "later")
        #expect(later.map(\.id) == [0, 1])
    }

    @Test func watchedDescriptorRunsItsHandlerOnTheLoop() throws {
        let mode = DisplayMode(width: 8, height: 8, refreshRate: 60)
        let harness = try FrameClockTests.Harness(modes: [mode])
        harness.server.runUntilIdle()
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        var calls = 0
        harness.server.watch(fileDescriptor: ends[0]) { [weak harness] in
            var byte: UInt8 = 0
            _ = read(ends[0], &byte, 1)
            calls += 1
            if let harness, let output = try? NullOutput(mode: mode) { harness.server.addOutput(output) }
        }
        // Nothing readable: the handler is not called.
        harness.server.pollOnce(timeout: 0)
        #expect(calls == 0)
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        harness.server.runUntilIdle()
        #expect(calls == 1)
        #expect(harness.server.displays.map(\.id) == [0, 1])
    }
}

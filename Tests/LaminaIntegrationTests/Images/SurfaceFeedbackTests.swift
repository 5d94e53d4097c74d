import Foundation
import LaminaCore
import LaminaProtocol
import LaminaTesting
import Testing

@testable import LaminaServer

/// The server's feedback on shared surfaces (`surfaceFeedback`, `surfacePresented`,
/// `surfaceReleased`; docs/protocol.md §4.1), without a GPU and without sleeping: the in-process
/// server of `FrameClockTests.Harness` (null output, recording renderer, manual clock) and raw
/// clients. Every presented time is a frame the harness saw presented.
@Suite struct SurfaceFeedbackTests {
    typealias Harness = FrameClockTests.Harness

    /// A harness with one 40×30 display at 60 Hz and a raw client that registered surfaces `ids`
    /// (16×16 BGRA, in memfds the returned array keeps alive) and asked feedback on them.
    static func setUp(ids: [UInt64], feedback: Bool = true, renderer: any Renderer = RecordingRenderer()) throws -> (
        harness: Harness, socket: SeqPacketSocket, memories: [SurfaceMemory]
    ) {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)], importing: renderer)
        let (socket, _) = try harness.connect(name: "feedback")
        var memories: [SurfaceMemory] = []
        for id in ids {
            let memory = try SurfaceMemory.create(name: "feedback-\(id)", size: 4096)
            try socket.send(
                MessageCodec.encode(
                    ClientMessage.registerSurface(
                        id: id, width: 16, height: 16, stride: 64, format: SurfaceFormat.bgra8)),
                fds: [memory.fileDescriptor])
            memories.append(memory)
            if feedback { try socket.send(MessageCodec.encode(ClientMessage.surfaceFeedback(id: id, enabled: true))) }
        }
        harness.server.runUntilIdle()
        _ = try harness.received(socket)
        return (harness, socket, memories)
    }

    /// A recording renderer whose frames are numbered and finish on the device only when the test
    /// says so (`finishAll()`), as a GPU's may after the next frame is drawn.
    final class LaggingRenderer: Renderer {
        let inner = RecordingRenderer()
        private let lock = NSLock()
        private var drawn: UInt64 = 0
        private var finished: UInt64 = 0
        var lastRenderedFrame: UInt64 { lock.withLock { drawn } }
        /// Every frame drawn so far has finished (the worker polls `finishedFrame()` from its thread).
        func finishAll() { lock.withLock { finished = drawn } }
        var deviceName: String { inner.deviceName }
        func makeTarget(width: Int, height: Int) throws -> any RenderTarget {
            try inner.makeTarget(width: width, height: height)
        }
        func makeTarget(drawingInto image: RenderImageID) throws -> any RenderTarget {
            try inner.makeTarget(drawingInto: image)
        }
        func render(_ list: DisplayList, into target: any RenderTarget) throws {
            try inner.render(list, into: target)
            lock.withLock { drawn += 1 }
        }
        func readPixels(_ target: any RenderTarget) throws -> Bitmap { try inner.readPixels(target) }
        func importImage(_ pixels: ImagePixels, filtering: ImageFiltering) throws -> RenderImageID {
            try inner.importImage(pixels, filtering: filtering)
        }
        func releaseImage(_ image: RenderImageID) throws { try inner.releaseImage(image) }
        func importSurface(_ surface: SurfacePixels) throws -> ImportedSurface { try inner.importSurface(surface) }
        func refreshSurface(_ image: RenderImageID) throws -> Int { try inner.refreshSurface(image) }
        func finishedFrame() throws -> UInt64 { lock.withLock { finished } }
    }

    /// A 16×16 layer 1 at the top left of display 0 showing `id`.
    static func show(_ id: UInt64) -> [LayerOperation] {
        [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 16, height: 16))),
            .set(1, .position(CGPoint(x: 8, y: 8))), .set(1, .contents(id)), .setRoot(display: 0, layer: 1),
        ]
    }

    /// The feedback among `messages`: (id, presented time or nil for a release), in order.
    static func feedback(_ messages: [ServerMessage]) -> [(id: UInt64, time: Double?)] {
        messages.compactMap { message in
            switch message {
            case .surfacePresented(let id, let time): (id, time)
            case .surfaceReleased(let id): (id, nil)
            default: nil
            }
        }
    }

    @Test func theFirstFrameShowingARevisionIsReportedWithItsTime() throws {
        let (harness, socket, memories) = try Self.setUp(ids: [40])
        try harness.send(.commit(serial: 1, operations: Self.show(40)), on: socket)
        harness.advance(to: 100.1)
        let first = try harness.received(socket)
        let shownAt = try #require(harness.frames.first?.time)
        // One presented event, with the time of the frame that showed it (a tick of the 60 Hz grid).
        #expect(Self.feedback(first).map(\.id) == [40] && Self.feedback(first).first?.time == shownAt, "\(first)")
        #expect(abs(shownAt * 60 - (shownAt * 60).rounded()) < 1e-6)
        // It comes before the commit's own presented event.
        let order = first.map { message in
            if case .surfacePresented = message { 0 } else if case .commitPresented = message { 1 } else { -1 }
        }
        #expect(order.filter { $0 >= 0 } == [0, 1], "\(first)")
        // A frame for another reason, the surface unchanged: nothing.
        try harness.send(.commit(serial: 2, operations: [.set(1, .opacity(0.5))]), on: socket)
        harness.advance(to: 100.2)
        #expect(Self.feedback(try harness.received(socket)).isEmpty)
        // A marked new frame of the surface: presented again, at the frame that shows it.
        let framesBefore = harness.frames.count
        try harness.send(.commit(serial: 3, operations: [.surfaceChanged(40)]), on: socket)
        harness.advance(to: 100.3)
        let again = Self.feedback(try harness.received(socket))
        let newFrame = try #require(harness.frames.dropFirst(framesBefore).first?.time)
        #expect(again.count == 1 && again.first?.id == 40 && again.first?.time == newFrame, "\(again)")
        withExtendedLifetime(memories) {}
    }

    /// The ids of the `surfaceDiscarded` among `messages`, in order.
    static func discarded(_ messages: [ServerMessage]) -> [UInt64] {
        messages.compactMap { message in
            if case .surfaceDiscarded(let id) = message { id } else { nil }
        }
    }

    @Test func aRevisionReplacedBeforeAnyFrameShowedItIsDiscardedOnce() throws {
        let (harness, socket, memories) = try Self.setUp(ids: [40, 41, 42])
        try harness.send(.commit(serial: 1, operations: Self.show(40)), on: socket)
        harness.advance(to: 100.1)
        _ = try harness.received(socket)
        // Two presents reach the server between two frames (read in one turn of its loop): 41's new
        // frame, then 42's in its place.
        let framesBefore = harness.frames.count
        for (serial, id) in [(UInt64(2), UInt64(41)), (3, 42)] {
            try socket.send(
                MessageCodec.encode(
                    ClientMessage.commit(serial: serial, operations: [.surfaceChanged(id), .set(1, .contents(id))])))
        }
        harness.advance(to: 100.2)
        let messages = try harness.received(socket)
        #expect(harness.frames.count == framesBefore + 1, "one frame saw both commits")
        let time = try #require(harness.frames.last?.time)
        // One presented (42, at the frame's time), one discarded (41: no frame will show that
        // revision), and 40, shown before, released.
        #expect(Self.feedback(messages).filter { $0.time != nil }.map(\.id) == [42], "\(messages)")
        #expect(Self.feedback(messages).first?.time == time)
        #expect(Self.discarded(messages) == [41], "\(messages)")
        #expect(Self.feedback(messages).filter { $0.time == nil }.map(\.id) == [40], "\(messages)")
        // Before the frame's commitPresented, as surfacePresented.
        let discardAt = messages.firstIndex { if case .surfaceDiscarded = $0 { true } else { false } }
        let presentedAt = messages.firstIndex { if case .commitPresented = $0 { true } else { false } }
        #expect(discardAt != nil && presentedAt != nil && discardAt! < presentedAt!, "\(messages)")
        // Once per revision: later frames say nothing more of 41.
        try harness.send(.commit(serial: 4, operations: [.set(1, .opacity(0.5))]), on: socket)
        harness.advance(to: 100.3)
        #expect(Self.discarded(try harness.received(socket)).isEmpty)
        withExtendedLifetime(memories) {}
    }

    /// A pool buffer's first present registers it and names it as `contents` with no `surfaceChanged`
    /// (the registration carries its first frame). Replaced before any frame, it is discarded too: a
    /// commit naming a surface counts a revision. Before, its revision stayed 0 and was never judged,
    /// so the client counted it as shown at the frame of its commit. The surfaces registered and not
    /// yet named (41 and 42 at the first frame) are not discarded.
    @Test func aFreshSurfaceReplacedBeforeAnyFrameShowedItIsDiscarded() throws {
        let (harness, socket, memories) = try Self.setUp(ids: [40, 41, 42])
        try harness.send(.commit(serial: 1, operations: Self.show(40)), on: socket)
        harness.advance(to: 100.1)
        #expect(Self.discarded(try harness.received(socket)).isEmpty)
        for (serial, id) in [(UInt64(2), UInt64(41)), (3, 42)] {
            try socket.send(
                MessageCodec.encode(ClientMessage.commit(serial: serial, operations: [.set(1, .contents(id))])))
        }
        harness.advance(to: 100.2)
        let messages = try harness.received(socket)
        #expect(Self.feedback(messages).filter { $0.time != nil }.map(\.id) == [42], "\(messages)")
        #expect(Self.discarded(messages) == [41], "\(messages)")
        withExtendedLifetime(memories) {}
    }

    /// The discard check costs a frame nothing while the frame samples every new revision (a layer
    /// presenting every frame): a client's trees are searched only for a new revision the frame did
    /// not draw (docs/surfaces.md, "Discarded").
    @Test func framesThatShowEveryNewRevisionSearchNoTree() throws {
        let (harness, socket, memories) = try Self.setUp(ids: [40, 41])
        var time = 100.1
        func frame(_ operations: [LayerOperation], serial: UInt64) throws -> [ServerMessage] {
            try harness.send(.commit(serial: serial, operations: operations), on: socket)
            harness.advance(to: time)
            time += 0.1
            return try harness.received(socket)
        }
        func searches() -> Int { harness.server.frames.perform { harness.server.frames.feedback.treeSearches } }
        _ = try frame(Self.show(40), serial: 1)
        _ = try frame([.surfaceChanged(40)], serial: 2)
        _ = try frame([.set(1, .contents(41))], serial: 3)
        _ = try frame([.surfaceChanged(41)], serial: 4)
        #expect(searches() == 0)
        // 40 named and replaced by 41's new frame before a frame: searched once, and discarded.
        try socket.send(MessageCodec.encode(ClientMessage.commit(serial: 5, operations: [.set(1, .contents(40))])))
        let messages = try frame([.set(1, .contents(41)), .surfaceChanged(41)], serial: 6)
        #expect(Self.discarded(messages) == [40], "\(messages)")
        #expect(searches() == 1)
        withExtendedLifetime(memories) {}
    }

    @Test func aRevisionStillNamedByTheTreeIsNotDiscarded() throws {
        let (harness, socket, memories) = try Self.setUp(ids: [40, 41])
        // 41 gets a new frame while a second layer names it, hidden: no frame samples it, but the
        // tree still may show it, so it is not discarded.
        try harness.send(
            .commit(
                serial: 1,
                operations: Self.show(40) + [
                    .createLayer(2), .set(2, .bounds(CGRect(x: 0, y: 0, width: 4, height: 4))),
                    .set(2, .contents(41)), .set(2, .isHidden(true)), .setSublayers(1, [2]),
                    .surfaceChanged(41),
                ]), on: socket)
        harness.advance(to: 100.1)
        let first = try harness.received(socket)
        #expect(Self.discarded(first).isEmpty, "\(first)")
        #expect(Self.feedback(first).map(\.id) == [40], "\(first)")
        // Once nothing names it, the unshown revision is discarded.
        try harness.send(.commit(serial: 2, operations: [.set(2, .contents(0))]), on: socket)
        harness.advance(to: 100.2)
        #expect(Self.discarded(try harness.received(socket)) == [41])
        withExtendedLifetime(memories) {}
    }

    @Test func aSurfaceNoFrameShowsAnyMoreIsReleasedOnce() throws {
        let (harness, socket, memories) = try Self.setUp(ids: [40, 41])
        try harness.send(.commit(serial: 1, operations: Self.show(40)), on: socket)
        harness.advance(to: 100.1)
        _ = try harness.received(socket)
        // 41 replaces 40: 41 is presented, then 40 released (the recording renderer finishes each
        // frame as it draws it).
        try harness.send(.commit(serial: 2, operations: [.set(1, .contents(41))]), on: socket)
        harness.advance(to: 100.2)
        let swapped = Self.feedback(try harness.received(socket))
        let time = try #require(harness.frames.last?.time)
        #expect(swapped.count == 2, "\(swapped)")
        #expect(swapped.first?.id == 41 && swapped.first?.time == time)
        #expect(swapped.last?.id == 40 && swapped.last?.time == nil)
        // Later frames say nothing more of 40; showing it again presents it again.
        try harness.send(.commit(serial: 3, operations: [.set(1, .opacity(0.5))]), on: socket)
        harness.advance(to: 100.3)
        #expect(Self.feedback(try harness.received(socket)).isEmpty)
        try harness.send(.commit(serial: 4, operations: [.set(1, .contents(40))]), on: socket)
        harness.advance(to: 100.4)
        let back = Self.feedback(try harness.received(socket))
        #expect(back.map(\.id) == [40, 41] && back.first?.time == harness.frames.last?.time && back.last?.time == nil)
        withExtendedLifetime(memories) {}
    }

    @Test func noReleaseBeforeTheFramesThatSampledTheSurfaceHaveFinished() throws {
        let renderer = LaggingRenderer()
        let (harness, socket, memories) = try Self.setUp(ids: [40, 41], renderer: renderer)
        try harness.send(.commit(serial: 1, operations: Self.show(40)), on: socket)
        harness.advance(to: 100.1)
        #expect(Self.feedback(try harness.received(socket)).map(\.id) == [40])
        // 41 replaces 40, but the frames that sampled 40 are still on the device: no release yet.
        try harness.send(.commit(serial: 2, operations: [.set(1, .contents(41))]), on: socket)
        harness.advance(to: 100.2)
        let swapped = Self.feedback(try harness.received(socket))
        #expect(swapped.count == 1 && swapped.first?.id == 41 && swapped.first?.time != nil, "\(swapped)")
        // Still not finished at the next frame.
        try harness.send(.commit(serial: 3, operations: [.set(1, .opacity(0.5))]), on: socket)
        harness.advance(to: 100.3)
        #expect(Self.feedback(try harness.received(socket)).isEmpty)
        // Once they have finished, the next look (here the next frame) releases 40, once.
        renderer.finishAll()
        try harness.send(.commit(serial: 4, operations: [.set(1, .opacity(0.75))]), on: socket)
        harness.advance(to: 100.4)
        let released = Self.feedback(try harness.received(socket))
        #expect(released.count == 1 && released.first?.id == 40 && released.first?.time == nil, "\(released)")
        try harness.send(.commit(serial: 5, operations: [.set(1, .opacity(1))]), on: socket)
        harness.advance(to: 100.5)
        #expect(Self.feedback(try harness.received(socket)).isEmpty)
        withExtendedLifetime(memories) {}
    }

    @Test func feedbackGoesOnlyToTheOwnerAndOnlyWhenAskedFor() throws {
        let (harness, socket, memories) = try Self.setUp(ids: [40, 41], feedback: false)
        try harness.send(.surfaceFeedback(id: 41, enabled: true), on: socket)
        let (other, _) = try harness.connect(name: "other")
        try harness.send(.commit(serial: 1, operations: Self.show(40)), on: socket)
        harness.advance(to: 100.1)
        #expect(Self.feedback(try harness.received(socket)).isEmpty, "no feedback was asked on 40")
        try harness.send(.commit(serial: 2, operations: [.set(1, .contents(41))]), on: socket)
        harness.advance(to: 100.2)
        #expect(Self.feedback(try harness.received(socket)).map(\.id) == [41])
        #expect(Self.feedback(try harness.received(other)).isEmpty, "another client hears nothing")
        // Stopped: nothing more.
        try harness.send(.surfaceFeedback(id: 41, enabled: false), on: socket)
        try harness.send(.commit(serial: 3, operations: [.set(1, .contents(40))]), on: socket)
        harness.advance(to: 100.3)
        try harness.send(.commit(serial: 4, operations: [.set(1, .contents(41))]), on: socket)
        harness.advance(to: 100.4)
        #expect(Self.feedback(try harness.received(socket)).isEmpty)
        withExtendedLifetime(memories) {}
    }

    @Test(arguments: [
        (UInt64(77), "surfaceFeedback of surface 77, which is not registered or already released"),
        (UInt64(0), "surfaceFeedback of surface 0"),
    ])
    func feedbackOnAnUnknownSurfaceIsANamedError(_ id: UInt64, _ text: String) throws {
        let (harness, socket, memories) = try Self.setUp(ids: [40])
        let (other, _) = try harness.connect(name: "bystander")
        try harness.send(.surfaceFeedback(id: id, enabled: true), on: socket)
        let errors = try harness.received(socket).compactMap { message -> (ServerErrorCode, String)? in
            if case .error(let code, let message) = message { (code, message) } else { nil }
        }
        #expect(errors.count == 1 && errors.first?.0 == .unknownSurface, "\(errors)")
        #expect(errors.first?.1.contains(text) == true, "\(errors)")
        // Only that client goes: the other still gets answers.
        try harness.send(.ping(requestID: 5), on: other)
        #expect(try harness.received(other).contains { if case .pong(5, _) = $0 { true } else { false } })
        withExtendedLifetime(memories) {}
    }

    @Test func feedbackOnAReleasedSurfaceIsANamedError() throws {
        let (harness, socket, memories) = try Self.setUp(ids: [40], feedback: false)
        try harness.send(.releaseSurface(id: 40), on: socket)
        try harness.send(.surfaceFeedback(id: 40, enabled: true), on: socket)
        let errors = try harness.received(socket).compactMap { message -> String? in
            if case .error(.unknownSurface, let message) = message { message } else { nil }
        }
        #expect(errors == ["surfaceFeedback of surface 40, which is not registered or already released"])
        withExtendedLifetime(memories) {}
    }

    @Test func aFlagOtherThanZeroOrOneIsAMalformedMessageNamingTheField() throws {
        let (harness, socket, memories) = try Self.setUp(ids: [40], feedback: false)
        let bytes = MessageCodec.encode(ClientMessage.surfaceFeedback(id: 40, enabled: true))
        try socket.send(Array(bytes.dropLast()) + [2])
        harness.server.runUntilIdle()
        let errors = try harness.received(socket).compactMap { message -> (ServerErrorCode, String)? in
            if case .error(let code, let message) = message { (code, message) } else { nil }
        }
        #expect(errors.count == 1 && errors.first?.0 == .malformedMessage, "\(errors)")
        #expect(errors.first?.1.contains("surfaceFeedback.enabled") == true, "\(errors)")
        withExtendedLifetime(memories) {}
    }
}

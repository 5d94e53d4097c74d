import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

/// A surface registration the server's loop accepts and its renderer refuses on import, in process
/// with a recording renderer (16,384 texels a side) and the server's own limit raised to 20,000: the
/// refusal (`surfaceRefused`) comes before the reply to the commit sent right after the registration,
/// that commit leaves the refused id out, and its frame samples the previous surface still
/// (docs/surfaces.md, "Refused surfaces"). A surface whose new frame the renderer cannot copy (the copy
/// path: a device error, here injected) is refused the same way, and its layer keeps its last frame.
@Suite struct SurfaceImportRefusalTests {
    /// A device error as the Vulkan renderer would throw it from a copy (`refreshSurface`).
    struct CopyFailure: Error, CustomStringConvertible {
        var description: String { "vkQueueSubmit: VK_ERROR_OUT_OF_DEVICE_MEMORY" }
    }

    /// The recording renderer, with every surface on the copy path (not zero copy) and a switch that
    /// makes its copies of a new frame fail. Used from the frame worker's thread, set from the test's.
    final class CopyingRenderer: Renderer, @unchecked Sendable {
        let inner = RecordingRenderer()
        private let lock = NSLock()
        private var failing = false
        /// Makes every later `refreshSurface` throw `CopyFailure`.
        func failCopies() { lock.withLock { failing = true } }
        var deviceName: String { inner.deviceName }
        func makeTarget(width: Int, height: Int) throws -> any RenderTarget {
            try inner.makeTarget(width: width, height: height)
        }
        func makeTarget(drawingInto image: RenderImageID) throws -> any RenderTarget {
            try inner.makeTarget(drawingInto: image)
        }
        func render(_ list: DisplayList, into target: any RenderTarget) throws { try inner.render(list, into: target) }
        func readPixels(_ target: any RenderTarget) throws -> Bitmap { try inner.readPixels(target) }
        func importImage(_ pixels: ImagePixels, filtering: ImageFiltering) throws -> RenderImageID {
            try inner.importImage(pixels, filtering: filtering)
        }
        func releaseImage(_ image: RenderImageID) throws { try inner.releaseImage(image) }
        func importSurface(_ surface: SurfacePixels) throws -> ImportedSurface {
            var imported = try inner.importSurface(surface)
            imported.isZeroCopy = false
            imported.bytesCopied = surface.width * surface.height * 4
            return imported
        }
        func refreshSurface(_ image: RenderImageID) throws -> Int {
            if lock.withLock({ failing }) { throw CopyFailure() }
            _ = try inner.refreshSurface(image)
            return 16
        }
    }

    let directory: URL
    let clock = ManualClock(time: 100)
    let renderer = CopyingRenderer()
    let server: Server

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lamina-import-refusal-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Server.Configuration(
            socketPath: directory.appendingPathComponent("socket").path, serverVersion: "test")
        configuration.limits.imageSideMax = 20_000
        let output = try NullOutput(mode: DisplayMode(width: 40, height: 30, refreshRate: 60), renderer: renderer)
        server = try Server(configuration: configuration, outputs: [output], clock: clock, renderer: renderer)
    }

    /// A greeted raw client (its `welcome` read).
    func connect() throws -> SeqPacketSocket {
        let socket = try SeqPacketSocket.connect(path: directory.appendingPathComponent("socket").path)
        try socket.setNonBlocking(true)
        try socket.send(MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: "c")))
        server.runUntilIdle()
        _ = try messages(on: socket)
        return socket
    }

    /// Registers a BGRA surface `id` of `width` × 1 pixels on a memfd that holds it.
    func register(_ id: UInt64, width: UInt32, on socket: SeqPacketSocket) throws {
        let memory = try SurfaceMemory.create(name: "surface", size: Int(width) * 4)
        try withExtendedLifetime(memory) {
            try socket.send(
                MessageCodec.encode(
                    ClientMessage.registerSurface(
                        id: id, width: width, height: 1, stride: width * 4, format: SurfaceFormat.bgra8)),
                fds: [memory.fileDescriptor])
        }
    }

    /// Sends commit `serial` and runs the server through it and the frame it schedules.
    func commit(_ serial: UInt64, _ operations: [LayerOperation], on socket: SeqPacketSocket) throws {
        try socket.send(MessageCodec.encode(ClientMessage.commit(serial: serial, operations: operations)))
        server.runUntilIdle()
        clock.advance(by: 1.0 / 60)
        server.runUntilIdle()
    }

    /// The messages waiting on `socket`, oldest first, but `commitPresented`; an issue is recorded
    /// when the server closed the connection.
    func messages(on socket: SeqPacketSocket) throws -> [ServerMessage] {
        var messages: [ServerMessage] = []
        while let packet = try socket.receive(maxBytes: WireLimits.maxMessageBytes, maxFDs: 4) {
            if packet.isEndOfStream {
                Issue.record("the server closed the connection after \(messages)")
                break
            }
            let message = try MessageCodec.decodeServer(packet.bytes)
            if case .commitPresented = message { continue }
            messages.append(message)
        }
        return messages
    }

    /// Registers surface 1 (4 × 1) on `socket` and commits layer 1 showing it as the display's root
    /// (serial 1), which must be applied.
    func showSurface(on socket: SeqPacketSocket) throws {
        try register(1, width: 4, on: socket)
        try commit(
            1,
            [
                .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 4, height: 1))), .set(1, .contents(1)),
                .setRoot(display: 0, layer: 1),
            ], on: socket)
        #expect(try messages(on: socket) == [.commitApplied(serial: 1)])
    }

    /// Whether the last frame drawn samples `image`.
    func lastFrameSamples(_ image: RenderImageID) -> Bool {
        renderer.inner.renders.last?.list.batches.contains { $0.texture?.image == image } ?? false
    }

    @Test func aSurfaceTheRendererRefusesIsRefusedBeforeTheCommitNamingItIsApplied() throws {
        let socket = try connect()
        try showSurface(on: socket)
        #expect(renderer.inner.images.count == 1)
        let shown = try #require(renderer.inner.images.keys.first)
        #expect(lastFrameSamples(shown))
        let frames = renderer.inner.renders.count
        // Within the server's 20,000 pixels a side, over the renderer's 16,384: refused on import.
        try register(2, width: 16_385, on: socket)
        try commit(2, [.set(1, .contents(2)), .surfaceChanged(2), .set(1, .opacity(0.5))], on: socket)
        let received = try messages(on: socket)
        #expect(received.count == 2, "\(received)")
        guard received.count == 2, case .surfaceRefused(2, let code, let text) = received[0] else {
            Issue.record("no surfaceRefused first: \(received)")
            return
        }
        #expect(code == .invalidValue)
        #expect(text.contains("image 2: the renderer refused it: image size 16385x1 exceeds the device limit of 16384"))
        #expect(received[1] == .commitApplied(serial: 2))
        // The commit's frame (its opacity changed) samples the first surface still; nothing else was imported.
        #expect(renderer.inner.renders.count > frames)
        #expect(lastFrameSamples(shown))
        #expect(renderer.inner.images.count == 1)
        // The refused id is no surface: released by the client, it is forgotten; a later commit is applied.
        try socket.send(MessageCodec.encode(ClientMessage.releaseSurface(id: 2)))
        try commit(3, [.set(1, .opacity(1))], on: socket)
        #expect(try messages(on: socket) == [.commitApplied(serial: 3)])
        #expect(lastFrameSamples(shown))
    }

    /// A copied surface whose new frame the renderer cannot copy: the frame worker's failure reaches
    /// the loop as a refusal (`surfaceRefused` naming the id and the device's error, code 1
    /// `invalidValue` as for every import the renderer refuses), the client stays connected, the layer
    /// keeps sampling the surface's image (its last good frame), a later `surfaceChanged` of the id is
    /// left out (no further copy is tried), and another client's commits are applied.
    @Test func aSurfaceFrameTheRendererCannotCopyIsRefusedAndTheLayerKeepsItsLastFrame() throws {
        let socket = try connect()
        let other = try connect()
        try showSurface(on: socket)
        let shown = try #require(renderer.inner.images.keys.first)
        #expect(lastFrameSamples(shown))
        // A marked frame is copied (the recording renderer counts the copy).
        try commit(2, [.surfaceChanged(1)], on: socket)
        #expect(try messages(on: socket) == [.commitApplied(serial: 2)])
        #expect(renderer.inner.surfaceRefreshes[shown] == 1)
        // The next marked frame cannot be copied: refused by name, after the commit that marked it.
        renderer.failCopies()
        try commit(3, [.surfaceChanged(1), .set(1, .opacity(0.5))], on: socket)
        let received = try messages(on: socket)
        #expect(received.count == 2, "\(received)")
        #expect(received.first == .commitApplied(serial: 3), "\(received)")
        guard received.count == 2, case .surfaceRefused(1, let code, let text) = received[1] else {
            Issue.record("no surfaceRefused: \(received)")
            return
        }
        #expect(code == .invalidValue)
        #expect(text == "image 1: the renderer refused it: vkQueueSubmit: VK_ERROR_OUT_OF_DEVICE_MEMORY")
        // The client stays: its next commit is applied (the refused id's surfaceChanged left out, so no
        // copy is tried again) and a ping is answered; the layer still samples its last good frame.
        let frames = renderer.inner.renders.count
        try commit(4, [.surfaceChanged(1), .set(1, .opacity(1))], on: socket)
        try socket.send(MessageCodec.encode(ClientMessage.ping(requestID: 9)))
        server.runUntilIdle()
        let after = try messages(on: socket)
        #expect(after.first == .commitApplied(serial: 4), "\(after)")
        #expect(after.contains { if case .pong(9, _) = $0 { true } else { false } }, "\(after)")
        #expect(renderer.inner.renders.count > frames)
        #expect(lastFrameSamples(shown))
        #expect(renderer.inner.surfaceRefreshes[shown] == 1)
        // Another client is not touched.
        try commit(
            1,
            [
                .createLayer(5), .set(5, .bounds(CGRect(x: 0, y: 0, width: 2, height: 2))),
                .setRoot(display: 0, layer: 5),
            ],
            on: other)
        #expect(try messages(on: other) == [.commitApplied(serial: 1)])
    }
}

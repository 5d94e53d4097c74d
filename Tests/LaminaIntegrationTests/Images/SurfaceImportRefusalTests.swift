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
/// (docs/surfaces.md, "Refused surfaces").
@Suite struct SurfaceImportRefusalTests {
    let directory: URL
    let clock = ManualClock(time: 100)
    let renderer = RecordingRenderer()
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

    /// Whether the last frame drawn samples `image`.
    func lastFrameSamples(_ image: RenderImageID) -> Bool {
        renderer.renders.last?.list.batches.contains { $0.texture?.image == image } ?? false
    }

    @Test func aSurfaceTheRendererRefusesIsRefusedBeforeTheCommitNamingItIsApplied() throws {
        let socket = try connect()
        try register(1, width: 4, on: socket)
        try commit(
            1,
            [
                .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 4, height: 1))), .set(1, .contents(1)),
                .setRoot(display: 0, layer: 1),
            ], on: socket)
        #expect(try messages(on: socket) == [.commitApplied(serial: 1)])
        #expect(renderer.images.count == 1)
        let shown = try #require(renderer.images.keys.first)
        #expect(lastFrameSamples(shown))
        let frames = renderer.renders.count
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
        #expect(renderer.renders.count > frames)
        #expect(lastFrameSamples(shown))
        #expect(renderer.images.count == 1)
        // The refused id is no surface: released by the client, it is forgotten; a later commit is applied.
        try socket.send(MessageCodec.encode(ClientMessage.releaseSurface(id: 2)))
        try commit(3, [.set(1, .opacity(1))], on: socket)
        #expect(try messages(on: socket) == [.commitApplied(serial: 3)])
        #expect(lastFrameSamples(shown))
    }
}

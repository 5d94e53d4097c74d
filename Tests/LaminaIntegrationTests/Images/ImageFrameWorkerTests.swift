import Foundation
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

/// The renderer's side of uploaded images, in process with a recording renderer: the frame worker
/// imports each upload before the next frame (mipmapped, for trilinear filtering) and frees what the
/// client released or left behind.
@Suite struct ImageFrameWorkerTests {
    let directory: URL
    let clock = ManualClock(time: 100)
    let renderer = RecordingRenderer()
    let server: Server

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lamina-images-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let configuration = Server.Configuration(
            socketPath: directory.appendingPathComponent("socket").path, serverVersion: "test")
        let output = try NullOutput(mode: DisplayMode(width: 40, height: 30, refreshRate: 60), renderer: renderer)
        server = try Server(configuration: configuration, outputs: [output], clock: clock, renderer: renderer)
    }

    func connect() throws -> SeqPacketSocket {
        let socket = try SeqPacketSocket.connect(path: directory.appendingPathComponent("socket").path)
        try socket.setNonBlocking(true)
        try socket.send(MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: "c")))
        server.runUntilIdle()
        return socket
    }

    /// Sends a 6 × 3 image as `id`.
    func upload(_ id: UInt64, on socket: SeqPacketSocket) throws {
        let memory = try SharedMemory.create(name: "pixels", size: 6 * 3 * 4) { _ in }
        try withExtendedLifetime(memory) {
            try socket.send(
                MessageCodec.encode(ClientMessage.uploadImage(id: id, width: 6, height: 3, stride: 24)),
                fds: [memory.fileDescriptor])
        }
    }

    /// Commits `operations` and waits for the frame they schedule, one refresh later.
    func commit(_ operations: [LayerOperation], on socket: SeqPacketSocket) throws {
        try socket.send(MessageCodec.encode(ClientMessage.commit(serial: 1, operations: operations)))
        server.runUntilIdle()
        clock.advance(by: 1.0 / 60)
        server.runUntilIdle()
    }

    @Test func uploadsAreImportedBeforeTheNextFrameAndReleasedOnceUnused() throws {
        let socket = try connect()
        try upload(1, on: socket)
        try commit([.createLayer(1), .set(1, .contents(1)), .setRoot(display: 0, layer: 1)], on: socket)
        #expect(renderer.images.count == 1)
        let imported = try #require(renderer.images.values.first)
        #expect(imported.width == 6 && imported.height == 3 && imported.filtering == .mipmapped)
        try socket.send(MessageCodec.encode(ClientMessage.releaseImage(id: 1)))
        // Still shown: kept until the commit that stops showing it.
        try commit([], on: socket)
        #expect(renderer.images.count == 1)
        try commit([.set(1, .contents(0))], on: socket)
        #expect(renderer.images.isEmpty)
    }

    @Test func aDepartedClientsImagesAreFreed() throws {
        let socket = try connect()
        try upload(1, on: socket)
        try upload(2, on: socket)
        try commit([.createLayer(1), .set(1, .contents(2)), .setRoot(display: 0, layer: 1)], on: socket)
        #expect(renderer.images.count == 2)
        socket.hangUp()
        server.runUntilIdle()
        clock.advance(by: 1.0 / 60)
        server.runUntilIdle()
        #expect(renderer.images.isEmpty)
    }
}

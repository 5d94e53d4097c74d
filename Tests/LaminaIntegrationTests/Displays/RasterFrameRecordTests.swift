import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import LaminaVulkan
import Testing

/// The raster cache in the frame records a client reads (`frameRecords`, `laminactl frames`): a server
/// drawing with the Vulkan renderer (validation on) counts, per presented frame, the passes it kept
/// and the rasterized layers it showed from their kept image (hits) or drew again (misses).
@Suite(.serialized) struct RasterFrameRecordTests {
    /// Layer 1: the root, 40×30; layer 2: 16×16 at (4, 4), rasterized, holding layer 3 (8×8);
    /// layer 4: 6×6 at (30, 20), not rasterized.
    static let scene: [LayerOperation] = [
        .createLayer(1), .createLayer(2), .createLayer(3), .createLayer(4),
        .set(1, .bounds(CGRect(x: 0, y: 0, width: 40, height: 30))), .set(1, .position(CGPoint(x: 20, y: 15))),
        .set(2, .bounds(CGRect(x: 0, y: 0, width: 16, height: 16))), .set(2, .position(CGPoint(x: 12, y: 12))),
        .set(2, .backgroundColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))), .set(2, .shouldRasterize(true)),
        .set(3, .bounds(CGRect(x: 0, y: 0, width: 8, height: 8))), .set(3, .position(CGPoint(x: 4, y: 4))),
        .set(3, .backgroundColor(RGBAColor(red: 0, green: 0, blue: 1, alpha: 1))),
        .set(4, .bounds(CGRect(x: 0, y: 0, width: 6, height: 6))), .set(4, .position(CGPoint(x: 33, y: 23))),
        .set(4, .backgroundColor(RGBAColor(red: 0, green: 1, blue: 0, alpha: 1))),
        .setSublayers(2, [3]), .setSublayers(1, [2, 4]), .setRoot(display: 0, layer: 1),
    ]

    @Test func frameRecordsCountRasterHitsAndMisses() throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("lamina-raster-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let clock = ManualClock(time: 100)
            let configuration = Server.Configuration(
                socketPath: directory.appendingPathComponent("socket").path, serverVersion: "test")
            let output = try NullOutput(mode: DisplayMode(width: 40, height: 30, refreshRate: 60), renderer: renderer)
            let server = try Server(configuration: configuration, outputs: [output], clock: clock, renderer: renderer)
            let socket = try SeqPacketSocket.connect(path: directory.appendingPathComponent("socket").path)
            try socket.setNonBlocking(true)
            try socket.send(
                MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: "raster")))
            server.runUntilIdle()
            var serial: UInt64 = 0
            func commit(_ operations: [LayerOperation]) throws {
                serial += 1
                try socket.send(MessageCodec.encode(ClientMessage.commit(serial: serial, operations: operations)))
                server.runUntilIdle()
                clock.advance(by: 1.0 / 60)
                server.runUntilIdle()
            }
            try commit(Self.scene)
            // Another layer changes: the raster is shown from its kept image.
            try commit([.set(4, .backgroundColor(RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)))])
            // The rasterized layer moves: still a hit.
            try commit([.set(2, .position(CGPoint(x: 14, y: 13)))])
            // Its sublayer changes: a miss.
            try commit([.set(3, .backgroundColor(RGBAColor(red: 0, green: 1, blue: 1, alpha: 1)))])
            try socket.send(MessageCodec.encode(ClientMessage.frameRecords(requestID: 9, display: 0, count: 4)))
            var replies: [ServerMessage] = []
            _ = try FrameWorkerTests.turn(server) {
                replies += try FrameWorkerTests.received(socket)
                return replies.contains { if case .frameRecordsReply = $0 { true } else { false } }
            }
            var records: [FrameRecord] = []
            for case .frameRecordsReply(9, let r) in replies { records = r }
            try #require(records.count == 4, "\(records)")
            #expect(records.map(\.offscreenPasses) == [1, 1, 1, 1])
            #expect(records.map(\.rasterCacheMisses) == [1, 0, 0, 1])
            #expect(records.map(\.rasterCacheHits) == [0, 1, 1, 0])
            #expect(records.map(\.offscreenPassesKept) == [0, 1, 1, 0])
            #expect(validation.messages.isEmpty, "validation: \(validation.messages)")
        }
    }
}

import CLaminaShims
import Foundation
import Glibc
import LaminaCore
import LaminaProtocol
import LaminaTesting
import Testing

/// A refused registration followed at once by a commit that names the refused id every way an
/// operation can (a layer's `contents`, `surfaceChanged`, a contents animation, emitter cells), sent
/// by a raw client before any answer, as a pipelining client would: the refusal comes first, even one
/// found by the device after the server's loop accepted the registration; the commit is applied
/// without what names the id; the layer keeps its last good contents and a later commit shows
/// (docs/surfaces.md, "Refused surfaces").
@Suite(.serialized) final class SurfaceRefusalCommitTests: VictimSuite {
    /// A refused registration: what to send (on the client's socket, with the server's surface
    /// capabilities), the id it registers, the code and a text its `surfaceRefused` must hold.
    struct Refusal: CustomTestStringConvertible, Sendable {
        var name: String
        var id: UInt64
        var send: @Sendable (SeqPacketSocket, SurfaceCapabilities) throws -> Void
        var code: ServerErrorCode
        var text: String
        var testDescription: String { name }
    }

    /// Sends `registerDeviceImage` of `VulkanDeviceLayerTests.image` (id 30, 64 × 64 BGRA) from the
    /// server's UUIDs, changed by `change`, on a plain memfd of `memfdBytes`.
    static func sendDeviceImage(
        _ socket: SeqPacketSocket, _ capabilities: SurfaceCapabilities, memfdBytes: Int = 1 << 16,
        _ change: (inout DeviceImageDescription) -> Void = { _ in }
    ) throws {
        let fd = OwnedFD(clamina_memfd_create("refused-device-image"))
        _ = ftruncate(fd.rawValue, off_t(memfdBytes))
        let image = VulkanDeviceLayerTests.image(capabilities.deviceUUID, capabilities.driverUUID, change)
        try withExtendedLifetime(fd) {
            try socket.send(MessageCodec.encode(ClientMessage.registerDeviceImage(image)), fds: [fd.rawValue])
        }
    }

    static let refusals: [Refusal] = [
        // Found by lavapipe on the frame worker, after the loop accepted the registration.
        Refusal(
            name: "device refuses a plain memfd as exported memory", id: 30,
            send: { socket, capabilities in try sendDeviceImage(socket, capabilities) }, code: .deviceImageRefused,
            text: "image 30: the renderer refused it: the device refused its memory as an opaque fd"),
        Refusal(
            name: "device refuses an allocation other than the image needs", id: 30,
            send: { socket, capabilities in try sendDeviceImage(socket, capabilities) { $0.allocationSize = 20_000 } },
            code: .deviceImageRefused, text: "its allocation of 20000 bytes is not the 16384 bytes the image needs"),
        // Memfds shorter than their layout.
        Refusal(
            name: "memfd shorter than the rows", id: 2,
            send: { socket, _ in try SurfaceTests.send(socket, SurfaceTests.register(2, 4, 4), surfaceBytes: 60) },
            code: .badFileDescriptor, text: "surface 2: the memfd holds 60 bytes, the rows need 64"),
        Refusal(
            name: "NV12 planes past a short memfd", id: 6,
            send: { socket, _ in
                let bytes = NV12SurfaceTests.register(6, planes: NV12SurfaceTests.planes())
                try SurfaceTests.send(socket, bytes, surfaceBytes: 1024)
            }, code: .badFileDescriptor, text: "NV12 surface 6 needs 976 bytes for its luma plane and 1488"),
        Refusal(
            name: "memfd smaller than the device image's allocation", id: 30,
            send: { socket, capabilities in try sendDeviceImage(socket, capabilities, memfdBytes: 100) },
            code: .badFileDescriptor, text: "a file of 100 bytes, smaller than the 16384 bytes allocated"),
        // Refused on the loop at once (a value over the server's limit).
        Refusal(
            name: "surface wider than the server allows", id: 7,
            send: { socket, _ in
                try SurfaceTests.send(socket, SurfaceTests.register(7, 8193, 1), surfaceBytes: 8193 * 4)
            }, code: .invalidValue, text: "surface 7 is 8193x1 pixels, over the 8192 pixels a side allowed"),
    ]

    /// Sends commit `serial` of `operations` and reads up to its `commitApplied`; false, with an issue
    /// recorded, when the server sent an error or closed instead.
    func commit(_ serial: UInt64, _ operations: [LayerOperation], on socket: SeqPacketSocket) throws -> Bool {
        try socket.send(MessageCodec.encode(ClientMessage.commit(serial: serial, operations: operations)))
        return try reply(to: serial, on: socket)
    }

    /// Reads `socket` up to `commitApplied(serial)`; false, with an issue recorded, when the server
    /// sent an error or closed first.
    func reply(to serial: UInt64, on socket: SeqPacketSocket) throws -> Bool {
        while true {
            guard let message = try ImageUploadTests.nextReply(on: socket) else {
                Issue.record("closed before commit \(serial) was applied")
                return false
            }
            switch message {
            case .commitApplied(serial): return true
            case .error(let code, let text):
                Issue.record("disconnected with \(code): \(text)")
                return false
            case .surfaceRefused(let id, let code, let text):
                Issue.record("unexpected surfaceRefused(\(id), \(code)): \(text)")
            default: continue
            }
        }
    }

    /// Expects the display's pixel at (`x`, `y`) to be opaque `color` (red, green, blue).
    func expectPixel(
        _ x: Int, _ y: Int, _ color: (UInt8, UInt8, UInt8), sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let p = try victim.capture().pixel(x: x, y: y)
        #expect(
            p.red == color.0 && p.green == color.1 && p.blue == color.2 && p.alpha == 255, "pixel (\(x), \(y)): \(p)",
            sourceLocation: sourceLocation)
    }

    /// The victim's background, (0, 0.5, 1) in 8 bits.
    func expectVictim(_ x: Int, _ y: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let p = try victim.capture().pixel(x: x, y: y)
        #expect(
            p.red == 0 && (127...128).contains(p.green) && p.blue == 255 && p.alpha == 255, "pixel (\(x), \(y)): \(p)",
            sourceLocation: sourceLocation)
    }

    @Test(arguments: refusals)
    func aRefusedIdNamedInACommitLeavesTheLayerWithItsLastGoodContents(_ c: Refusal) throws {
        let capabilities = try victim.surfaceCapabilities()
        let socket = try ImageUploadTests.rawClient(server, name: "keeper")
        // A 16 × 16 red surface (BGRA bytes 0, 0, 255, 255) on layer 1, whose frame is (8, 8, 16, 16).
        let red = try SurfaceMemory.create(name: "keeper-red", size: 16 * 16 * 4)
        for i in stride(from: 0, to: red.size, by: 4) {
            red.mutableBytes[i + 2] = 255
            red.mutableBytes[i + 3] = 255
        }
        try withExtendedLifetime(red) {
            try socket.send(
                MessageCodec.encode(
                    ClientMessage.registerSurface(id: 1, width: 16, height: 16, stride: 64, format: SurfaceFormat.bgra8)
                ), fds: [red.fileDescriptor])
        }
        let shown: [LayerOperation] = [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 16, height: 16))),
            .set(1, .position(CGPoint(x: 16, y: 16))), .set(1, .contents(1)), .setRoot(display: 0, layer: 1),
            .surfaceChanged(1),
        ]
        guard try commit(1, shown, on: socket) else { return }
        try expectPixel(12, 12, (255, 0, 0))
        // The bad registration, then at once (before any answer) a commit naming its id in every
        // operation that can name an image.
        try c.send(socket, capabilities)
        var cell = EmitterCellState()
        cell.birthRate = 10
        cell.lifetime = 1
        cell.contents = c.id
        let naming: [LayerOperation] = [
            .set(1, .contents(c.id)), .surfaceChanged(c.id),
            .addAnimation(1, ImageUploadTests.contentsAnimation(from: 1, to: c.id)),
            .createLayer(2, .emitter), .setEmitterCells(2, [cell]), .setSublayers(1, [2]),
        ]
        try socket.send(MessageCodec.encode(ClientMessage.commit(serial: 2, operations: naming)))
        // The refusal comes before the commit's reply: the commit was applied knowing it.
        var refusal: (id: UInt64, code: ServerErrorCode, text: String)?
        while refusal == nil {
            guard let message = try ImageUploadTests.nextReply(on: socket) else {
                Issue.record("closed without a surfaceRefused")
                return
            }
            switch message {
            case .surfaceRefused(let id, let code, let text): refusal = (id, code, text)
            case .commitApplied(2):
                Issue.record("commit 2 was applied before the refusal")
                return
            case .error(let code, let text):
                Issue.record("disconnected with \(code): \(text)")
                return
            default: continue
            }
        }
        #expect(refusal!.id == c.id && refusal!.code == c.code, "\(refusal!)")
        #expect(refusal!.text.contains(c.text), "refusal text '\(refusal!.text)' does not contain '\(c.text)'")
        guard try reply(to: 2, on: socket) else { return }
        // Still connected: a later commit moves the layer to (32, 16, 16, 16), still showing red.
        guard try commit(3, [.set(1, .position(CGPoint(x: 40, y: 24)))], on: socket) else { return }
        try expectPixel(40, 24, (255, 0, 0))
        try expectPixel(33, 17, (255, 0, 0))
        try expectPixel(46, 30, (255, 0, 0))
        // Where the layer was, and around it, the victim's pixels, untouched.
        try expectVictim(12, 12)
        try expectVictim(4, 40)
        #expect(try victim.statistics().contains { $0.name == "keeper" })
        #expect(server.isRunning)
    }
}

import CLaminaShims
import Foundation
import Glibc
@testable import Lamina
import LaminaProtocol
import LaminaTesting
import Testing

/// Shared surfaces (`IOSurface`) between a client and a real `laminad`: the client writes pixels into
/// the memfd, sets the surface as contents, and the server samples the memory in place (zero copy on
/// lavapipe), redrawing the layers showing it when a commit says the surface changed.
@Suite(.serialized) final class SurfaceTests: VictimSuite {
    /// A `width`×`height` 'BGRA' surface named for this test, filled with `color`.
    static func surface(
        _ width: Int, _ height: Int, bytesPerRow: Int? = nil, name: String, color: (UInt8, UInt8, UInt8)
    ) throws -> IOSurface {
        var properties: [IOSurfacePropertyKey: Any] = [
            .width: width, .height: height, .pixelFormat: UInt32(0x4247_5241), .bytesPerElement: 4, .name: name,
        ]
        if let bytesPerRow { properties[.bytesPerRow] = bytesPerRow }
        let surface = try #require(IOSurface(properties: properties))
        fill(surface, color)
        return surface
    }

    /// Writes opaque `color` (red, green, blue) into every pixel of `surface`, between lock and unlock.
    static func fill(_ surface: IOSurface, _ color: (UInt8, UInt8, UInt8)) {
        #expect(surface.lock(options: [], seed: nil) == KERN_SUCCESS)
        for y in 0..<surface.height {
            let row = surface.baseAddress + y * surface.bytesPerRow
            for x in 0..<surface.width {
                row.storeBytes(of: color.2, toByteOffset: x * 4, as: UInt8.self)
                row.storeBytes(of: color.1, toByteOffset: x * 4 + 1, as: UInt8.self)
                row.storeBytes(of: color.0, toByteOffset: x * 4 + 2, as: UInt8.self)
                row.storeBytes(of: 255, toByteOffset: x * 4 + 3, as: UInt8.self)
            }
        }
        #expect(surface.unlock(options: [], seed: nil) == KERN_SUCCESS)
    }

    /// The statistics line of the client named `name`.
    static func statistics(_ name: String, from context: CAContext) throws -> ClientStatistics {
        try #require(try context.statistics().first { $0.name == name }, "no statistics for \(name)")
    }

    /// Expects the captured pixel (x, y) of `context`'s display to be opaque `color`.
    static func expectPixel(
        _ context: CAContext, _ x: Int, _ y: Int, _ color: (UInt8, UInt8, UInt8),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let p = try context.capture().pixel(x: x, y: y)
        #expect(
            p.red == color.0 && p.green == color.1 && p.blue == color.2 && p.alpha == 255, "pixel (\(x), \(y)): \(p)",
            sourceLocation: sourceLocation)
    }

    /// The frames presented on the context's display after media time `after`, waiting up to 5 s for
    /// at least one (polling the server's frame records).
    static func framesPresented(after: Double, on context: CAContext) throws -> [FrameRecord] {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            // Frames that draw nothing are left out: a display link of another test in this process
            // turns on frame events for every live context, and then the server presents a frame each
            // refresh with nothing new in it.
            let newer = try context.frameRecords(count: 600).filter { $0.time > after && $0.pixelsDrawn > 0 }
            if !newer.isEmpty { return newer }
            usleep(10_000)
        }
        return []
    }

    /// The time of the newest frame that drew something on the context's display once such frames
    /// have stopped coming (no new one for 100 ms; at most 5 s): the commits sent so far are all on
    /// screen.
    static func settledFrameTime(_ context: CAContext) throws -> Double {
        func newestDrawing() throws -> Double {
            try context.frameRecords(count: 600).last { $0.pixelsDrawn > 0 }?.time ?? 0
        }
        var newest = try newestDrawing()
        var quiet = 0
        let deadline = Date().addingTimeInterval(5)
        while quiet < 5, Date() < deadline {
            usleep(20_000)
            let now = try newestDrawing()
            quiet = now == newest ? quiet + 1 : 0
            newest = now
        }
        return newest
    }

    /// Expects the captured pixel (x, y) of `context`'s display to be the victim's blue (0, 0.5, 1).
    static func expectVictimBlue(_ context: CAContext, _ x: Int, _ y: Int) throws {
        let p = try context.capture().pixel(x: x, y: y)
        #expect(p.red == 0 && (127...128).contains(p.green) && p.blue == 255 && p.alpha == 255, "\(p)")
    }

    /// A 16×16 layer at (8, 8) showing `surface`, in a context named `name` stacked above the victim.
    static func show(_ surface: IOSurface, in context: CAContext) throws -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let layer = CALayer()
        layer.frame = CGRect(x: 8, y: 8, width: 16, height: 16)
        layer.contents = surface
        root.addSublayer(layer)
        context.layer = root
        try context.synchronize()
        return layer
    }

    /// Whether the tests run on lavapipe, where a 64-byte row pitch is a linear image's, so a surface
    /// of 16 pixels is sampled in place (zero copy). Other devices align linear rows more coarsely
    /// (an NVIDIA H200 did), and laminad copies such a surface at each marked frame instead.
    static var expectsZeroCopy: Bool {
        let icd = ProcessInfo.processInfo.environment["VK_ICD_FILENAMES"] ?? ""
        return icd.contains("lvp_icd")
    }

    @Test func aSurfaceSetAsContentsShowsItsPixelsAndEachMarkedFrameRedrawsOnlyItsLayer() throws {
        let context = try server.connect(name: "surface")
        let surface = try Self.surface(16, 16, name: "shows-\(getpid())", color: (255, 0, 0))
        #expect(surface.width == 16 && surface.height == 16 && surface.bytesPerElement == 4)
        #expect(surface.pixelFormat == 0x4247_5241 && surface.bytesPerRow == 64)
        #expect(surface.allocationSize == 4096)
        let layer = try Self.show(surface, in: context)
        #expect(layer.contents as? IOSurface === surface)
        try Self.expectPixel(context, 10, 10, (255, 0, 0))
        try Self.expectPixel(context, 23, 23, (255, 0, 0))
        try Self.expectVictimBlue(context, 30, 30)
        let registered = try Self.statistics("surface", from: context)
        #expect(registered.surfaces == 1 && registered.surfaceBytes == 4096 && registered.images == 0)
        // Zero copy (on lavapipe), or one copy of the 16 rows of 64 bytes at registration.
        let zeroCopy = registered.surfaceBytesCopied == 0
        #expect(zeroCopy || registered.surfaceBytesCopied == 1024)
        if Self.expectsZeroCopy { #expect(zeroCopy) }
        // A new frame, marked with WebKit's spelling of Apple's private call: the next frame redraws
        // the layer's 16×16 pixels (not the display's 3,072), and the capture shows the new pixels.
        let before = try Self.settledFrameTime(context)
        Self.fill(surface, (0, 255, 0))
        layer.setContentsChanged()
        try context.synchronize()
        let marked = try Self.framesPresented(after: before, on: context)
        #expect(marked.contains { (256...1536).contains($0.pixelsDrawn) }, "frames: \(marked.map(\.pixelsDrawn))")
        try Self.expectPixel(context, 10, 10, (0, 255, 0))
        try context.capture().writePNG(to: NSTemporaryDirectory() + "lamina-surface-marked.png")
        // Another frame, marked by assigning the same surface again (Apple's documented way).
        let second = try Self.settledFrameTime(context)
        Self.fill(surface, (0, 0, 255))
        layer.contents = surface
        try context.synchronize()
        let reassigned = try Self.framesPresented(after: second, on: context)
        #expect(reassigned.contains { (256...1536).contains($0.pixelsDrawn) }, "\(reassigned.map(\.pixelsDrawn))")
        try Self.expectPixel(context, 20, 12, (0, 0, 255))
        // Zero copy: the server never copied the surface's bytes; else one copy per marked frame.
        let after = try Self.statistics("surface", from: context)
        #expect(after.surfaceBytesCopied == (zeroCopy ? 0 : 3 * 1024) && after.surfaces == 1)
    }

    @Test func anUnmarkedWriteSendsNothingButAZeroCopyDrawMayShowIt() throws {
        // The contract (docs/surfaces.md): a new frame is guaranteed on screen at the commit that marks
        // it (setContentsChanged or contents = surface), as on Apple platforms; a frame drawn before
        // that may show it already, since the server samples the memory itself.
        let context = try server.connect(name: "unmarked")
        let surface = try Self.surface(16, 16, name: "unmarked-\(getpid())", color: (255, 0, 0))
        let layer = try Self.show(surface, in: context)
        try Self.expectPixel(context, 12, 12, (255, 0, 0))
        let zeroCopy = try Self.statistics("unmarked", from: context).surfaceBytesCopied == 0
        if Self.expectsZeroCopy { #expect(zeroCopy) }
        let before = try Self.settledFrameTime(context)
        Self.fill(surface, (0, 255, 0))
        CATransaction.flush()
        // Nothing was sent: no commit, so no frame was presented for it.
        #expect(try Self.settledFrameTime(context) == before)
        // A capture draws the layer now, sampling the surface where it lies: the write shows. Where
        // the server copies the surface (another device's row alignment), the last marked frame shows.
        try Self.expectPixel(context, 12, 12, zeroCopy ? (0, 255, 0) : (255, 0, 0))
        withExtendedLifetime(layer) {}
    }

    @Test func aStrideTheDeviceCannotSampleIsCopiedAtEachMarkedFrameAndCounted() throws {
        // A row pitch of 68 bytes is no linear image's (they are aligned), so the server copies the
        // 16 × 4 bytes of each of the 16 rows into a texture: once at registration, once per change.
        let context = try server.connect(name: "copied")
        let surface = try Self.surface(16, 16, bytesPerRow: 68, name: "copied-\(getpid())", color: (255, 0, 0))
        #expect(surface.bytesPerRow == 68)
        let layer = try Self.show(surface, in: context)
        try Self.expectPixel(context, 10, 10, (255, 0, 0))
        #expect(try Self.statistics("copied", from: context).surfaceBytesCopied == 1024)
        Self.fill(surface, (0, 255, 0))
        layer.setContentsChanged()
        try context.synchronize()
        try Self.expectPixel(context, 23, 23, (0, 255, 0))
        #expect(try Self.statistics("copied", from: context).surfaceBytesCopied == 2048)
        try context.capture().writePNG(to: NSTemporaryDirectory() + "lamina-surface-copied.png")
    }

    @Test func aReleasedSurfaceIsUnmappedAndAHungUpClientsSurfacesAreFreed() throws {
        /// Whether laminad maps a memfd whose name contains `name` (`/proc/PID/maps`).
        func serverMaps(_ name: String) throws -> Bool {
            // /proc files report size 0: read them to the end rather than by their size.
            let file = try #require(FileHandle(forReadingAtPath: "/proc/\(server.processIdentifier)/maps"))
            defer { try? file.close() }
            return String(decoding: file.readDataToEndOfFile(), as: UTF8.self).contains(name)
        }
        /// Waits up to 5 s for laminad to map, or stop mapping, `name`. The renderer frees a released
        /// image once it sees the frames that sampled it finished, which it learns when it draws again:
        /// the victim's captures give it frames to draw while it is otherwise idle.
        func waitUntil(maps: Bool, _ name: String) throws -> Bool {
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                if try serverMaps(name) == maps { return true }
                _ = try victim.capture()
                usleep(10_000)
            }
            return false
        }
        // Released by the client: unmapped once no frame draws it.
        let context = try server.connect(name: "releaser")
        let name = "released-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let surface = try Self.surface(16, 16, name: name, color: (255, 0, 0))
        let layer = try Self.show(surface, in: context)
        #expect(try waitUntil(maps: true, name))
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.contents = nil
        CATransaction.commit()
        try context.synchronize()
        let released = try Self.statistics("releaser", from: context)
        #expect(released.surfaces == 0 && released.surfaceBytes == 0)
        #expect(try waitUntil(maps: false, name), "laminad still maps the released surface")
        // A client that hangs up (as a killed one does) without releasing: freed with it.
        let socket = try ImageUploadTests.rawClient(server, name: "killed")
        let killedName = "killed-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let memory = try SurfaceMemory.create(name: killedName, size: 4096)
        try socket.send(
            MessageCodec.encode(
                ClientMessage.registerSurface(id: 5, width: 16, height: 16, stride: 64, format: SurfaceFormat.bgra8)),
            fds: [memory.fileDescriptor])
        try socket.send(
            MessageCodec.encode(
                ClientMessage.commit(
                    serial: 1,
                    operations: [
                        .createLayer(1), .set(1, .contents(5)),
                        .set(1, .bounds(CGRect(x: 0, y: 0, width: 16, height: 16))),
                        .setRoot(display: 0, layer: 1), .surfaceChanged(5),
                    ])))
        #expect(try ImageUploadTests.nextReply(on: socket) == .commitApplied(serial: 1))
        #expect(try waitUntil(maps: true, killedName))
        #expect(try Self.statistics("killed", from: victim).surfaces == 1)
        socket.close()
        #expect(try waitUntil(maps: false, killedName), "laminad still maps the surface of a client that left")
        #expect(try !victim.statistics().contains { $0.name == "killed" })
        #expect(server.isRunning)
        try Self.expectVictimBlue(victim, 40, 40)
    }

    // MARK: Hostile registrations

    static func register(
        _ id: UInt64, _ width: UInt32, _ height: UInt32, stride: UInt32? = nil, format: UInt32 = SurfaceFormat.bgra8
    ) -> [UInt8] {
        MessageCodec.encode(
            ClientMessage.registerSurface(
                id: id, width: width, height: height, stride: stride ?? width * 4, format: format))
    }

    /// Sends `bytes` with a fresh surface memfd (size-sealed, writable) of `size` bytes.
    static func send(_ socket: SeqPacketSocket, _ bytes: [UInt8], surfaceBytes size: Int) throws {
        let memory = try SurfaceMemory.create(name: "hostile", size: size)
        try withExtendedLifetime(memory) { try socket.send(bytes, fds: [memory.fileDescriptor]) }
    }

    /// Well-formed registrations whose values the server cannot take: refused by name
    /// (`surfaceRefused`), the client stays connected (docs/protocol.md §4.1).
    static let refusedCases: [ImageUploadTests.Case] = [
        .init(
            name: "stride below width × 4",
            send: { socket in try send(socket, register(3, 4, 4, stride: 12), surfaceBytes: 4096) },
            code: .invalidValue, text: "surface 3 has a stride of 12 bytes"),
        .init(
            name: "stride not a multiple of 4",
            send: { socket in try send(socket, register(4, 4, 4, stride: 18), surfaceBytes: 4096) },
            code: .invalidValue, text: "surface 4 has a stride of 18 bytes"),
        .init(
            name: "format other than BGRA",
            send: { socket in try send(socket, register(5, 4, 4, format: 0x5247_4241), surfaceBytes: 4096) },
            code: .invalidValue, text: "surface 5 has pixel format 0x52474241"),
        .init(
            name: "wider than the server allows",
            send: { socket in try send(socket, register(6, 8193, 1), surfaceBytes: 8193 * 4) },
            code: .invalidValue, text: "surface 6 is 8193x1 pixels, over the 8192 pixels a side allowed"),
        .init(
            name: "memfd shorter than the rows",
            send: { socket in try send(socket, register(2, 4, 4), surfaceBytes: 60) },
            code: .badFileDescriptor, text: "surface 2: the memfd holds 60 bytes, the rows need 64"),
    ]

    @Test(arguments: refusedCases)
    func aWellFormedRegistrationTheServerCannotTakeIsRefusedByNameAndTheClientStays(_ c: ImageUploadTests.Case) throws {
        let socket = try ImageUploadTests.rawClient(server, name: "refused")
        try c.send(socket)
        #expect(try ImageUploadTests.expectSurfaceRefused(c, on: socket) != nil)
        let p = try victim.capture().pixel(x: 10, y: 10)
        #expect(p.red == 0 && (127...128).contains(p.green) && p.blue == 255 && p.alpha == 255, "victim's pixels: \(p)")
        #expect(try victim.statistics().contains { $0.name == "refused" })
        #expect(server.isRunning)
    }

    /// Registrations the client is disconnected for (malformed, or past a limit).
    static let cases: [ImageUploadTests.Case] = [
        .init(
            name: "memfd not sealed against shrinking",
            send: { socket in
                let fd = OwnedFD(clamina_memfd_create("unsealed"))
                _ = ftruncate(fd.rawValue, 4096)
                try withExtendedLifetime(fd) { try socket.send(register(1, 4, 4), fds: [fd.rawValue]) }
            }, code: .badFileDescriptor, text: "surface 1: the descriptor is not a memfd sealed against shrinking"),
        .init(
            name: "id 0",
            send: { socket in try send(socket, register(0, 4, 4), surfaceBytes: 4096) },
            code: .invalidValue, text: "surface id 0 is reserved"),
        .init(
            name: "duplicate id",
            send: { socket in
                try send(socket, register(7, 4, 4), surfaceBytes: 4096)
                try send(socket, register(7, 4, 4), surfaceBytes: 4096)
            }, code: .duplicateImage, text: "registerSurface 7: the id already names a surface"),
        .init(
            name: "no fd",
            send: { socket in try socket.send(register(8, 4, 4)) },
            code: .badFileDescriptor, text: "registerSurface of surface 8 carries 0 file descriptors"),
        .init(
            name: "two fds",
            send: { socket in
                let (a, b) = (
                    try SurfaceMemory.create(name: "a", size: 64), try SurfaceMemory.create(name: "b", size: 64)
                )
                try withExtendedLifetime((a, b)) {
                    try socket.send(register(9, 4, 4), fds: [a.fileDescriptor, b.fileDescriptor])
                }
            }, code: .badFileDescriptor, text: "registerSurface of surface 9 carries 2 file descriptors"),
        .init(
            name: "unknown id in release",
            send: { socket in try socket.send(MessageCodec.encode(ClientMessage.releaseSurface(id: 96))) },
            code: .unknownSurface, text: "releaseSurface of surface 96"),
        .init(
            name: "image id in releaseSurface",
            send: { socket in
                try ImageUploadTests.send(socket, ImageUploadTests.upload(10, 4, 4), sealedBytes: 64)
                try socket.send(MessageCodec.encode(ClientMessage.releaseSurface(id: 10)))
            }, code: .unknownSurface, text: "releaseSurface of surface 10"),
        .init(
            name: "unknown id in surfaceChanged",
            send: { socket in try socket.send(ImageUploadTests.commit([.surfaceChanged(95)])) },
            code: .unknownSurface, text: "unknown surface id 95"),
        .init(
            name: "surfaceChanged of a released surface",
            send: { socket in
                try send(socket, register(11, 4, 4), surfaceBytes: 4096)
                try socket.send(MessageCodec.encode(ClientMessage.releaseSurface(id: 11)))
                try socket.send(ImageUploadTests.commit([.surfaceChanged(11)]))
            }, code: .unknownSurface, text: "unknown surface id 11"),
        .init(
            name: "surface budget exceeded",
            send: { socket in
                // 64 surfaces a client (docs/protocol.md §11): the 65th is refused.
                for id in 1...65 { try send(socket, register(UInt64(100 + id), 4, 4), surfaceBytes: 4096) }
            }, code: .limitExceeded, text: "surface 165: surfaces would reach 65, over this client's limit of 64"),
        .init(
            name: "surface bytes exceeded",
            send: { socket in
                // Two sparse 256 MiB memfds fill the 512 MiB a client may map; a third page passes it.
                try send(socket, register(12, 8192, 8192), surfaceBytes: 8192 * 8192 * 4)
                try send(socket, register(13, 8192, 8192), surfaceBytes: 8192 * 8192 * 4)
                try send(socket, register(14, 4, 4), surfaceBytes: 4096)
            }, code: .limitExceeded, text: "surface 14: surface bytes would reach 536875008"),
    ]

    @Test(arguments: cases)
    func badRegistrationIsRefusedAndOnlyThatClientIsDropped(_ c: ImageUploadTests.Case) throws {
        let socket = try ImageUploadTests.rawClient(server, name: "hostile")
        try c.send(socket)
        guard try ImageUploadTests.expectRefusal(c, on: socket) else { return }
        let p = try victim.capture().pixel(x: 10, y: 10)
        #expect(p.red == 0 && (127...128).contains(p.green) && p.blue == 255 && p.alpha == 255, "victim's pixels: \(p)")
        #expect(try !victim.statistics().contains { $0.name == "hostile" })
        #expect(server.isRunning)
    }
}

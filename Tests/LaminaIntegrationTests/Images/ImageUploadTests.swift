import CLaminaShims
import Foundation
import Glibc
@testable import Lamina
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

/// Images travel from the client to a real `laminad` in sealed memfds: one upload per image however
/// many layers show it, a release once nothing shows it, `stats` to see both, and every bad upload
/// refused with a named error that disconnects only its sender while another client keeps rendering.
@Suite(.serialized) final class ImageUploadTests: VictimSuite {
    /// The statistics line of the client named `name`, as the server's user sees every client.
    static func statistics(_ name: String, from context: CAContext) throws -> ClientStatistics {
        try #require(try context.statistics().first { $0.name == name }, "no statistics for \(name)")
    }

    /// Texture bytes of a `width` × `height` image: level 0 and a third more for its mip chain
    /// (docs/protocol.md §11).
    static func textureBytes(_ width: Int, _ height: Int) -> UInt64 {
        UInt64(width * height * 4 + width * height * 4 / 3)
    }

    @Test func oneImageOnAThousandLayersIsUploadedOnceAndReleasedWhenUnused() throws {
        // E08: one image shown by 1,000 layers travels once; the server holds one texture.
        let context = try server.connect(name: "thousand")
        let image = try #require(CGImage(width: 8, height: 4, premultipliedRGBA: [UInt8](repeating: 255, count: 128)))
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        var layers: [CALayer] = []
        for i in 0..<1000 {
            let layer = CALayer()
            layer.frame = CGRect(x: i % 64, y: (i / 64) % 48, width: 1, height: 1)
            layer.contents = image
            root.addSublayer(layer)
            layers.append(layer)
        }
        context.layer = root
        try context.synchronize()
        let shown = try Self.statistics("thousand", from: context)
        #expect(shown.layers == 1001 && shown.images == 1 && shown.textureBytes == Self.textureBytes(8, 4))
        #expect(shown.pid == getpid())
        #expect(context.uploadedImages == [image.contentsID])
        // Half the layers drop it: still one texture. All of them: released, none left. (No implicit
        // cross-fades: their fromValue would name the image until they finish.)
        func withoutActions(_ body: () -> Void) {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            body()
            CATransaction.commit()
        }
        withoutActions { for layer in layers.prefix(500) { layer.contents = nil } }
        try context.synchronize()
        #expect(try Self.statistics("thousand", from: context).images == 1)
        withoutActions { for layer in layers { layer.contents = nil } }
        try context.synchronize()
        let released = try Self.statistics("thousand", from: context)
        #expect(released.images == 0 && released.textureBytes == 0 && released.layers == 1001)
        #expect(context.uploadedImages.isEmpty)
        // Shown again: uploaded again under the same id.
        withoutActions { layers[0].contents = image }
        try context.synchronize()
        #expect(try Self.statistics("thousand", from: context).images == 1)
        // The victim sees every client (same user) and itself.
        #expect(try victim.statistics().contains { $0.name == "victim" && $0.images == 0 })
    }

    @Test func aTransitionKeepsTheReleasedImageUntilItEnds() throws {
        // E49: a CATransition as the contents action draws the old image from the layer's snapshot, so
        // the server keeps it after the client releases it, and frees it once the transition is removed.
        let context = try server.connect(name: "transition")
        let a = try #require(CGImage(width: 4, height: 4, premultipliedRGBA: [UInt8](repeating: 200, count: 64)))
        let b = try #require(CGImage(width: 2, height: 2, premultipliedRGBA: [UInt8](repeating: 100, count: 16)))
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        layer.contents = a
        context.layer = layer
        try context.synchronize()
        /// Shows `image`, with a 100 s transition from the old contents when `transition` is set (and
        /// no implicit cross-fade, whose fromValue would keep naming the old image).
        func show(_ image: CGImage, transition: Bool) throws {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            if transition {
                let fade = CATransition()
                fade.duration = 100
                layer.add(fade, forKey: "transition")
            }
            layer.contents = image
            CATransaction.commit()
            try context.synchronize()
        }
        let (bytesA, bytesB) = (Self.textureBytes(4, 4), Self.textureBytes(2, 2))
        try show(b, transition: true)
        // The client released a (no layer or animation of its own names it); the snapshot still does.
        #expect(context.uploadedImages == [b.contentsID])
        let during = try Self.statistics("transition", from: context)
        #expect(during.images == 2 && during.textureBytes == bytesA + bytesB)
        // Shown again meanwhile: a is uploaded again and the server revives the one it kept; b, which
        // nothing draws any more, is freed.
        try show(a, transition: false)
        #expect(context.uploadedImages == [a.contentsID])
        let revived = try Self.statistics("transition", from: context)
        #expect(revived.images == 1 && revived.textureBytes == bytesA)
        // A new transition replaces the old one (same key): a is kept by the new snapshot until removed.
        try show(b, transition: true)
        #expect(try Self.statistics("transition", from: context).images == 2)
        layer.removeAllAnimations()
        try context.synchronize()
        let after = try Self.statistics("transition", from: context)
        #expect(after.images == 1 && after.textureBytes == bytesB)
    }

    @Test func aSealedMemfdCannotBeChangedAfterItIsSent() throws {
        // The pixels are sealed before they are sent: the sender itself can no longer resize, write or
        // map them writable (memfd_create(2), F_SEAL_WRITE/SHRINK/GROW: EPERM), so the server's copy
        // stays what it checked.
        let socket = try Self.rawClient(server, name: "tamperer")
        let memory = try SharedMemory.create(name: "pixels", size: 64) {
            $0.initializeMemory(as: UInt8.self, repeating: 7)
        }
        try socket.send(
            MessageCodec.encode(ClientMessage.uploadImage(id: 1, width: 4, height: 4, stride: 16)),
            fds: [memory.fileDescriptor])
        let fd = memory.fileDescriptor
        errno = 0
        #expect(ftruncate(fd, 0) == -1 && errno == EPERM)
        #expect(ftruncate(fd, 4096) == -1 && errno == EPERM)
        var byte: UInt8 = 1
        #expect(pwrite(fd, &byte, 1, 0) == -1 && errno == EPERM)
        let mapped = mmap(nil, 64, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        #expect(mapped == MAP_FAILED && errno == EPERM)
        #expect(memory.bytes.allSatisfy { $0 == 7 })
        // The server took it: a layer shows it, and the client holds one texture.
        try socket.send(
            MessageCodec.encode(
                ClientMessage.commit(
                    serial: 1,
                    operations: [
                        .createLayer(1), .set(1, .contents(1)),
                        .set(1, .bounds(CGRect(x: 0, y: 0, width: 4, height: 4))),
                    ])))
        #expect(try Self.nextReply(on: socket) == .commitApplied(serial: 1))
        try socket.send(MessageCodec.encode(ClientMessage.stats(requestID: 2)))
        guard case .statsReply(2, let clients) = try Self.nextReply(on: socket) else {
            Issue.record("expected a stats reply")
            return
        }
        #expect(clients.first { $0.name == "tamperer" }?.images == 1)
        #expect(server.isRunning)
    }

    // MARK: Hostile uploads

    /// A raw client that has said hello.
    static func rawClient(_ server: TestServer, name: String) throws -> SeqPacketSocket {
        let socket = try SeqPacketSocket.connect(path: server.socketPath)
        try socket.setReceiveTimeout(seconds: 10)
        try socket.send(MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: name)))
        let welcome = try #require(try socket.receive(maxBytes: 65536))
        guard case .welcome = try MessageCodec.decodeServer(welcome.bytes) else { throw WireError.unknownMessage(0) }
        return socket
    }

    /// The next message that is not a presentation event; nil when the connection closed.
    static func nextReply(on socket: SeqPacketSocket) throws -> ServerMessage? {
        while true {
            let packet = try #require(try socket.receive(maxBytes: 200_000), "no reply before the timeout")
            if packet.isEndOfStream { return nil }
            let message = try MessageCodec.decodeServer(packet.bytes)
            if case .commitPresented = message { continue }
            return message
        }
    }

    /// A sealed memfd of `size` bytes.
    static func sealed(_ size: Int) throws -> SharedMemory {
        try SharedMemory.create(name: "image", size: size) { _ in }
    }

    /// Sends `bytes` with a sealed memfd of `size` bytes, kept open until it is sent.
    static func send(_ socket: SeqPacketSocket, _ bytes: [UInt8], sealedBytes size: Int) throws {
        let memory = try sealed(size)
        try withExtendedLifetime(memory) { try socket.send(bytes, fds: [memory.fileDescriptor]) }
    }

    static func upload(_ id: UInt64, _ width: UInt32, _ height: UInt32, stride: UInt32? = nil) -> [UInt8] {
        MessageCodec.encode(
            ClientMessage.uploadImage(id: id, width: width, height: height, stride: stride ?? width * 4))
    }

    static func commit(_ ops: [LayerOperation]) -> [UInt8] {
        MessageCodec.encode(ClientMessage.commit(serial: 9, operations: ops))
    }

    static func contentsAnimation(from: UInt64, to: UInt64) -> AttachedAnimation {
        let target = PropertyTarget(keyPath: LayerKeyPath("contents")!)
        let record = AnimationRecord(
            timing: MediaTiming(duration: 1), content: .basic(target, BasicValues(from: .image(from), to: .image(to))))
        return AttachedAnimation(id: 1, key: "contents", record: record)
    }

    /// A bad input: what to send, the error code it must get and a text the message must contain.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var send: @Sendable (SeqPacketSocket) throws -> Void
        var code: ServerErrorCode
        var text: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "unsealed memfd",
            send: { socket in
                let fd = OwnedFD(clamina_memfd_create("unsealed"))
                _ = ftruncate(fd.rawValue, 64)
                try withExtendedLifetime(fd) { try socket.send(upload(1, 4, 4), fds: [fd.rawValue]) }
            }, code: .badFileDescriptor, text: "image 1: the descriptor is not a memfd sealed"),
        Case(
            name: "pipe",
            send: { socket in
                var ends: [Int32] = [0, 0]
                _ = pipe(&ends)
                let (read, write) = (OwnedFD(ends[0]), OwnedFD(ends[1]))
                try withExtendedLifetime((read, write)) { try socket.send(upload(2, 4, 4), fds: [read.rawValue]) }
            }, code: .badFileDescriptor, text: "image 2: the descriptor is not a memfd sealed"),
        Case(
            name: "regular file",
            send: { socket in
                let path = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-img-\(getpid())").path
                let fd = OwnedFD(open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600))
                unlink(path)
                _ = ftruncate(fd.rawValue, 64)
                try withExtendedLifetime(fd) { try socket.send(upload(3, 4, 4), fds: [fd.rawValue]) }
            }, code: .badFileDescriptor, text: "image 3: the descriptor is not a memfd sealed"),
        Case(
            name: "memfd smaller than stated",
            send: { socket in
                try send(socket, upload(4, 4, 4), sealedBytes: 60)
            }, code: .badFileDescriptor, text: "image 4: the memfd holds 60 bytes, the pixels need 64"),
        Case(
            name: "no fd", send: { socket in try socket.send(upload(5, 4, 4)) },
            code: .badFileDescriptor, text: "uploadImage of image 5 carries 0 file descriptors"),
        Case(
            name: "two fds",
            send: { socket in
                let (a, b) = (try sealed(64), try sealed(64))
                try withExtendedLifetime((a, b)) {
                    try socket.send(upload(6, 4, 4), fds: [a.fileDescriptor, b.fileDescriptor])
                }
            }, code: .badFileDescriptor, text: "uploadImage of image 6 carries 2 file descriptors"),
        Case(
            name: "fd on another message",
            send: { socket in
                try send(socket, MessageCodec.encode(ClientMessage.releaseImage(id: 7)), sealedBytes: 64)
            }, code: .badFileDescriptor,
            text: "releaseImage carries 1 file descriptor(s); only uploadImage, registerSurface and "
                + "registerDeviceImage carry one"
        ),
        Case(
            name: "duplicate id",
            send: { socket in
                try send(socket, upload(8, 4, 4), sealedBytes: 64)
                try send(socket, upload(8, 4, 4), sealedBytes: 64)
            }, code: .duplicateImage, text: "image 8 is already uploaded"),
        Case(
            name: "id 0",
            send: { socket in try send(socket, upload(0, 4, 4), sealedBytes: 64) },
            code: .invalidValue, text: "image id 0 is reserved"),
        Case(
            name: "unknown id in contents",
            send: { socket in try socket.send(commit([.createLayer(1), .set(1, .contents(99))])) },
            code: .unknownImage, text: "unknown image id 99"),
        Case(
            name: "unknown id in release",
            send: { socket in try socket.send(MessageCodec.encode(ClientMessage.releaseImage(id: 98))) },
            code: .unknownImage, text: "releaseImage of image 98"),
        Case(
            name: "released id in contents",
            send: { socket in
                try send(socket, upload(10, 4, 4), sealedBytes: 64)
                try socket.send(MessageCodec.encode(ClientMessage.releaseImage(id: 10)))
                try socket.send(commit([.createLayer(1), .set(1, .contents(10))]))
            }, code: .unknownImage, text: "unknown image id 10"),
        Case(
            name: "unknown id in an animation",
            send: { socket in
                try send(socket, upload(11, 4, 4), sealedBytes: 64)
                try socket.send(commit([.createLayer(1), .addAnimation(1, contentsAnimation(from: 11, to: 97))]))
            }, code: .unknownImage, text: "unknown image id 97"),
        Case(
            name: "oversized image",
            send: { socket in try send(socket, upload(12, 8193, 1), sealedBytes: 8193 * 4) },
            code: .invalidValue, text: "image 12 is 8193x1 pixels, over the 8192 pixels a side allowed"),
        Case(
            name: "empty image",
            send: { socket in try send(socket, upload(13, 0, 4), sealedBytes: 64) },
            code: .invalidValue, text: "image 13 is empty"),
        Case(
            name: "stride too small",
            send: { socket in try send(socket, upload(14, 4, 4, stride: 15), sealedBytes: 64) },
            code: .invalidValue, text: "image 14 has a stride of 15 bytes, below width × 4 = 16"),
        Case(
            name: "texture budget exceeded",
            send: { socket in
                // 8192 × 8192 × 4 × 4/3 bytes pass the 256 MiB a client may hold (the memfd stays sparse).
                try send(socket, upload(15, 8192, 8192), sealedBytes: 8192 * 8192 * 4)
            }, code: .limitExceeded, text: "image 15: texture bytes would reach 357913941, over this client's limit"),
    ]

    @Test(arguments: cases)
    func badUploadIsRefusedAndOnlyThatClientIsDropped(_ c: Case) throws {
        let socket = try Self.rawClient(server, name: "hostile")
        try c.send(socket)
        guard try ImageUploadTests.expectRefusal(c, on: socket) else { return }
        // The victim keeps rendering its own pixels, and the hostile client holds nothing any more.
        let p = try victim.capture().pixel(x: 10, y: 10)
        #expect(p.red == 0 && (127...128).contains(p.green) && p.blue == 255 && p.alpha == 255, "victim's pixels: \(p)")
        #expect(try !victim.statistics().contains { $0.name == "hostile" })
        #expect(server.isRunning)
    }

    /// Reads `socket` until the server's `surfaceRefused`, and expects it to be `c`'s (its code, and a
    /// text holding `c.text`). Then the client goes on as a client would: a commit showing the refused
    /// id with a new frame of it, and a ping, answered by a pong with no error (the commit left out
    /// what named the id). Returns the refused id; nil when the server sent an error or closed
    /// (recorded as an issue).
    @discardableResult
    static func expectSurfaceRefused(_ c: Case, on socket: SeqPacketSocket) throws -> UInt64? {
        var refused: UInt64?
        while refused == nil {
            guard let message = try nextReply(on: socket) else {
                Issue.record("closed without a surfaceRefused")
                return nil
            }
            switch message {
            case .surfaceRefused(let id, let code, let text):
                #expect(code == c.code, "\(text)")
                #expect(text.contains(c.text), "refusal text '\(text)' does not contain '\(c.text)'")
                refused = id
            case .error(let code, let text):
                Issue.record("disconnected with \(code): \(text)")
                return nil
            default: continue
            }
        }
        let id = refused!
        try socket.send(commit([.createLayer(41), .set(41, .contents(id)), .surfaceChanged(id)]))
        try socket.send(MessageCodec.encode(ClientMessage.ping(requestID: 77)))
        while true {
            guard let message = try nextReply(on: socket) else {
                Issue.record("closed after surfaceRefused")
                return nil
            }
            switch message {
            case .pong(77, _): return id
            case .error(let code, let text):
                Issue.record("disconnected after the refusal with \(code): \(text)")
                return nil
            default: continue
            }
        }
    }

    /// Reads `socket` until the server's error, and expects it to be `c`'s (its code, and a text
    /// holding `c.text`) with the connection closed after it; false when the server closed without an
    /// error (recorded as an issue).
    static func expectRefusal(_ c: Case, on socket: SeqPacketSocket) throws -> Bool {
        var error: ServerMessage?
        while error == nil {
            guard let message = try nextReply(on: socket) else {
                Issue.record("closed without an error message")
                return false
            }
            if case .error = message { error = message }
        }
        guard case .error(let code, let text) = error! else { return false }
        #expect(code == c.code, "\(text)")
        #expect(text.contains(c.text), "error text '\(text)' does not contain '\(c.text)'")
        #expect(try socket.receive(maxBytes: 65536)?.isEndOfStream == true, "the connection should be closed")
        return true
    }
}

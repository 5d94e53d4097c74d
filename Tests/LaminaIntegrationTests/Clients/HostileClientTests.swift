import Foundation
@testable import Lamina
import LaminaProtocol
import LaminaTesting
import Testing

/// Bad input from one client gets an error that names the problem, then that client alone is
/// disconnected and its layers are freed; another client's tree keeps rendering.
@Suite(.serialized) final class HostileClientTests: VictimSuite {
    /// A bad input: how to make it, the error code it must get and a text the message must contain.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var sendHello = true
        var bytes: @Sendable (_ victimRootID: LayerID) -> [UInt8]
        var fds = false
        var code: ServerErrorCode
        var text: String
        var testDescription: String { name }
    }

    static func frame(type: UInt16, payload: [UInt8], declaredLength: Int? = nil) -> [UInt8] {
        var w = WireWriter()
        w.u16(type)
        w.u16(0)
        w.u32(UInt32(declaredLength ?? payload.count))
        return w.bytes + payload
    }

    static func layerCapture(layer: LayerID, width: UInt32, height: UInt32, scale: Double) -> [UInt8] {
        MessageCodec.encode(
            ClientMessage.captureLayer(requestID: 9, layer: layer, width: width, height: height, scale: scale))
    }

    static func commit(_ ops: [LayerOperation]) -> [UInt8] {
        MessageCodec.encode(ClientMessage.commit(serial: 7, operations: ops))
    }

    static let cases: [Case] = [
        Case(
            name: "truncated field", bytes: { _ in frame(type: 3, payload: [1, 2, 3, 4, 5]) },
            code: .malformedMessage, text: "commit.serial"),
        Case(
            name: "length mismatch",
            bytes: { _ in frame(type: 5, payload: [1, 2, 3, 4, 5, 6, 7, 8], declaredLength: 12) },
            code: .malformedMessage, text: "declares a 12-byte payload"),
        Case(
            name: "unknown message type", bytes: { _ in frame(type: 77, payload: []) },
            code: .unknownMessage, text: "unknown message type 77"),
        Case(
            name: "unknown operation",
            bytes: { _ in
                var w = WireWriter()
                w.u64(1); w.u32(1); w.u8(99); w.u64(0)
                return frame(type: 3, payload: w.bytes)
            }, code: .unknownOperation, text: "unknown transaction operation 99"),
        Case(
            name: "unknown property",
            bytes: { _ in
                var w = WireWriter()
                w.u64(1); w.u32(2); w.u8(1); w.u64(5); w.u8(3); w.u64(5); w.u8(200)
                return frame(type: 3, payload: w.bytes)
            }, code: .unknownProperty, text: "unknown layer property code 200"),
        Case(
            name: "unknown id", bytes: { _ in commit([.set(12345, .opacity(0.5))]) },
            code: .unknownLayer, text: "unknown layer id 12345"),
        Case(
            name: "foreign id", bytes: { victimID in commit([.set(victimID, .isHidden(true))]) },
            code: .unknownLayer, text: "unknown layer id"),
        Case(
            name: "foreign id as sublayer",
            bytes: { victimID in commit([.createLayer(1), .setSublayers(1, [victimID])]) },
            code: .unknownLayer, text: "unknown layer id"),
        Case(
            name: "cycle",
            bytes: { _ in
                commit([.createLayer(1), .createLayer(2), .setSublayers(1, [2]), .setSublayers(2, [1])])
            }, code: .cycle, text: "cycle"),
        Case(
            name: "self as sublayer", bytes: { _ in commit([.createLayer(1), .setSublayers(1, [1])]) },
            code: .cycle, text: "lists itself"),
        Case(
            name: "NaN geometry",
            bytes: { _ in
                commit([.createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: CGFloat.nan, height: 10)))])
            }, code: .invalidValue, text: "bounds has a NaN or infinite component"),
        Case(
            name: "infinite geometry",
            bytes: { _ in
                commit([.createLayer(1), .set(1, .position(CGPoint(x: CGFloat.infinity, y: 0)))])
            }, code: .invalidValue, text: "position has a NaN or infinite component"),
        Case(
            name: "NaN transform",
            bytes: { _ in
                var t = CATransform3DIdentity
                t.m34 = .nan
                return commit([.createLayer(1), .set(1, .transform(t))])
            }, code: .invalidValue, text: "transform has a NaN or infinite entry"),
        Case(
            name: "oversized message", bytes: { _ in frame(type: 5, payload: [UInt8](repeating: 0, count: 150_000)) },
            code: .oversizedMessage, text: "larger than 131072 bytes"),
        Case(
            name: "no hello first", sendHello: false,
            bytes: { _ in MessageCodec.encode(ClientMessage.ping(requestID: 1)) },
            code: .protocolViolation, text: "first message must be hello"),
        Case(
            name: "unsupported version", sendHello: false,
            bytes: { _ in MessageCodec.encode(ClientMessage.hello(version: 99, clientName: "future")) },
            code: .unsupportedVersion, text: "protocol version 99 is not supported"),
        Case(
            name: "version 1 hello", sendHello: false,
            bytes: { _ in
                var payload = WireWriter()
                payload.u32(1)
                payload.string("old")
                var header = WireWriter()
                header.u16(MessageType.hello.rawValue)
                header.u16(0)
                header.u32(UInt32(payload.bytes.count))
                return header.bytes + payload.bytes
            },
            code: .unsupportedVersion,
            text: "protocol version 1 is not supported; this server speaks \(WireLimits.protocolVersion)"),
        Case(
            name: "file descriptor from a client",
            bytes: { _ in MessageCodec.encode(ClientMessage.ping(requestID: 1)) },
            fds: true, code: .badFileDescriptor, text: "file descriptor"),
        Case(
            name: "root on a missing display",
            bytes: { _ in commit([.createLayer(1), .setRoot(display: 3, layer: 1)]) },
            code: .badDisplay, text: "display 3 does not exist"),
        Case(
            name: "captureLayer of an unknown layer",
            bytes: { _ in layerCapture(layer: 12345, width: 8, height: 8, scale: 1) },
            code: .unknownLayer, text: "captureLayer of layer 12345, which this client does not have"),
        Case(
            name: "captureLayer of another client's layer",
            bytes: { victimID in layerCapture(layer: victimID, width: 8, height: 8, scale: 1) },
            code: .unknownLayer, text: "which this client does not have"),
        Case(
            name: "captureLayer of zero width",
            bytes: { _ in layerCapture(layer: 500, width: 0, height: 8, scale: 1) },
            code: .invalidValue, text: "captureLayer size 0x8 is not between 1x1 and display 0's 64x48"),
        Case(
            name: "captureLayer larger than the display",
            bytes: { _ in layerCapture(layer: 500, width: 65, height: .max, scale: 1) },
            code: .invalidValue, text: "captureLayer size 65x4294967295 is not between 1x1"),
        Case(
            name: "captureLayer with a NaN scale",
            bytes: { _ in layerCapture(layer: 500, width: 8, height: 8, scale: .nan) },
            code: .invalidValue, text: "captureLayer scale nan is not finite"),
        Case(
            name: "captureLayer with a negative scale",
            bytes: { _ in layerCapture(layer: 500, width: 8, height: 8, scale: -1) },
            code: .invalidValue, text: "captureLayer scale -1.0 is not finite"),
        Case(
            name: "duplicate id", bytes: { _ in commit([.createLayer(1), .createLayer(1)]) },
            code: .duplicateLayer, text: "layer id 1 already exists"),
        Case(
            name: "animation value of the wrong kind",
            bytes: { _ in
                commit([
                    .createLayer(1),
                    .addAnimation(
                        1,
                        animation(
                            .basic(
                                PropertyTarget(keyPath: LayerKeyPath("opacity")!),
                                BasicValues(to: .point(.zero))))),
                ])
            }, code: .invalidValue, text: "opacity takes a number, got a CGPoint"),
        Case(
            name: "NaN animation duration",
            bytes: { _ in
                var a = animation(
                    .basic(PropertyTarget(keyPath: LayerKeyPath("opacity")!), BasicValues(to: .number(0))))
                a.record.timing.duration = .nan
                return commit([.createLayer(1), .addAnimation(1, a)])
            }, code: .invalidValue, text: "duration is NaN or infinite"),
        Case(
            name: "NaN keyframe value",
            bytes: { _ in
                commit([
                    .createLayer(1),
                    .addAnimation(
                        1,
                        animation(
                            .keyframe(
                                PropertyTarget(keyPath: LayerKeyPath("position.x")!),
                                Keyframes(values: [.number(0), .number(.nan)])))),
                ])
            }, code: .invalidValue, text: "NaN, infinite or out-of-range"),
        Case(
            name: "unknown animation kind",
            bytes: { _ in
                var w = WireWriter()
                w.u64(1); w.u32(2); w.u8(1); w.u64(1)
                w.u8(6); w.u64(1); w.u64(1); w.string("k")
                for _ in 0..<6 { w.f64(0) }
                w.bool(false); w.string("removed"); w.bool(false); w.bool(true); w.u8(42)
                return frame(type: 3, payload: w.bytes)
            }, code: .malformedMessage, text: "addAnimation.animation.kind"),
        Case(
            name: "animation on an unknown layer",
            bytes: { _ in
                commit([.addAnimation(777, animation(.transition(TransitionParameters())))])
            }, code: .unknownLayer, text: "unknown layer id 777"),
        Case(
            name: "groups nested too deep",
            bytes: { _ in
                var record = AnimationRecord(timing: MediaTiming(duration: 1), content: .group([]))
                for _ in 0..<12 {
                    record = AnimationRecord(timing: MediaTiming(duration: 1), content: .group([record]))
                }
                return commit([
                    .createLayer(1), .addAnimation(1, AttachedAnimation(id: 1, key: "deep", record: record)),
                ])
            }, code: .limitExceeded, text: "group depth"),
        Case(
            name: "duplicate animation id",
            bytes: { _ in
                let a = animation(.transition(TransitionParameters()))
                var b = a
                b.key = "other"
                return commit([.createLayer(1), .addAnimation(1, a), .addAnimation(1, b)])
            }, code: .invalidValue, text: "animation id 1 is already attached"),
        Case(
            name: "scale value function given one number",
            bytes: { _ in
                commit([
                    .createLayer(1),
                    .addAnimation(
                        1,
                        animation(
                            .basic(
                                PropertyTarget(keyPath: LayerKeyPath("transform")!, valueFunction: .scale),
                                BasicValues(to: .number(2))))),
                ])
            }, code: .invalidValue, text: "transform takes three numbers, got a number"),
        Case(
            name: "NaN in a vector value",
            bytes: { _ in
                commit([
                    .createLayer(1),
                    .addAnimation(
                        1,
                        animation(
                            .basic(
                                PropertyTarget(keyPath: LayerKeyPath("transform")!, valueFunction: .translate),
                                BasicValues(to: .vector(SIMD3(1, .nan, 0)))))),
                ])
            }, code: .invalidValue, text: "NaN"),
        Case(
            name: "unknown transition type",
            bytes: { _ in
                commit([
                    .createLayer(1),
                    .addAnimation(1, animation(.transition(TransitionParameters(type: CATransitionType("spin"))))),
                ])
            }, code: .invalidValue, text: "unknown transition type 'spin'"),
        Case(
            name: "emitter cells on a plain layer",
            bytes: { _ in commit([.createLayer(1), .setEmitterCells(1, [EmitterCellState()])]) },
            code: .wrongLayerClass, text: "emitterCells"),
        Case(
            name: "emitter cell with an unknown image",
            bytes: { _ in
                var cell = EmitterCellState()
                cell.contents = 4242
                return commit([.createLayer(1, .emitter), .setEmitterCells(1, [cell])])
            }, code: .unknownImage, text: "4242"),
        Case(
            name: "65 emitter cells",
            bytes: { _ in
                commit([
                    .createLayer(1, .emitter), .setEmitterCells(1, Array(repeating: EmitterCellState(), count: 65)),
                ])
            }, code: .invalidValue, text: "more than 64 emitter cells"),
        Case(
            name: "emitter cells nested past the decoder's depth",
            bytes: { _ in
                var cell = EmitterCellState()
                for _ in 0..<20 {
                    var parent = EmitterCellState()
                    parent.cells = [cell]
                    cell = parent
                }
                return commit([.createLayer(1, .emitter), .setEmitterCells(1, [cell])])
            }, code: .malformedMessage, text: "setEmitterCells.depth"),
        Case(
            name: "emitter cell with a negative duration",
            bytes: { _ in
                var cell = EmitterCellState()
                cell.duration = -2
                return commit([.createLayer(1, .emitter), .setEmitterCells(1, [cell])])
            }, code: .invalidValue, text: "emitter cell duration -2.0 is negative"),
        Case(
            name: "emitter cell animation with a value function",
            bytes: { _ in
                let cell = EmitterCellKeyPath(names: ["spark"], field: 14)!
                let target = PropertyTarget(keyPath: cell.standIn, valueFunction: .rotateZ, cell: cell)
                return commit([
                    .createLayer(1, .emitter), .addAnimation(1, animation(.basic(target, BasicValues(to: .number(1))))),
                ])
            }, code: .invalidValue, text: "emitterCells.spark.spin takes no valueFunction"),
        Case(
            name: "emitter cell animation of an unknown cell value",
            bytes: { _ in
                let cell = EmitterCellKeyPath(names: ["spark"], field: 0)!
                let target = PropertyTarget(keyPath: cell.standIn, cell: cell)
                var bytes = commit([
                    .createLayer(1, .emitter), .addAnimation(1, animation(.basic(target, BasicValues(to: .number(1))))),
                ])
                // The target's field byte follows property 62; 16 (the colour's red) names no key.
                let at = bytes.indices.dropLast(2).last { bytes[$0] == 62 && bytes[$0 + 1] == 0 && bytes[$0 + 2] == 1 }!
                bytes[at + 1] = 16
                return bytes
            }, code: .malformedMessage, text: "cellField"),
    ]

    static func animation(_ content: AnimationRecord.Content) -> AttachedAnimation {
        AttachedAnimation(id: 1, key: "k", record: AnimationRecord(timing: MediaTiming(duration: 1), content: content))
    }

    @Test(arguments: cases)
    func badInputIsReportedAndOnlyThatClientIsDropped(_ c: Case) throws {
        let socket = try SeqPacketSocket.connect(path: server.socketPath)
        try socket.setReceiveTimeout(seconds: 10)
        if c.sendHello {
            try socket.send(
                MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: "hostile")))
            let welcome = try #require(try socket.receive(maxBytes: 65536))
            guard case .welcome = try MessageCodec.decodeServer(welcome.bytes) else {
                Issue.record("expected welcome")
                return
            }
            // A valid tree first, so the test can see it freed: an opaque red layer over the whole display,
            // drawn above the victim's while it lives.
            try socket.send(
                Self.commit([
                    .createLayer(500), .set(500, .name("hostile-layer")),
                    .set(500, .bounds(CGRect(x: 0, y: 0, width: 64, height: 48))),
                    .set(500, .position(CGPoint(x: 32, y: 24))),
                    .set(500, .backgroundColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))),
                    .setRoot(display: 0, layer: 500),
                ]))
            let applied = try #require(try socket.receive(maxBytes: 65536))
            #expect(try MessageCodec.decodeServer(applied.bytes) == .commitApplied(serial: 7))
            // Issue 9, defect 7: a client sees only its own tree, so the hostile client asks for its own
            // (this used to ask the victim, which could read every client's layer names).
            try socket.send(MessageCodec.encode(ClientMessage.describeTree(requestID: 3)))
            var description: String?
            while description == nil {
                let packet = try #require(try socket.receive(maxBytes: 65536), "no tree before the timeout")
                if case .treeDescription(3, let text) = try MessageCodec.decodeServer(packet.bytes) {
                    description = text
                }
            }
            #expect(description?.contains("hostile-layer") == true, "\(description ?? "")")
            #expect(description?.contains("victim") == false, "another client's tree leaked:\n\(description ?? "")")
            let covered = try victim.capture().pixel(x: 10, y: 10)
            #expect(
                covered.red == 255 && covered.green == 0 && covered.blue == 0, "hostile layer not shown: \(covered)")
        }
        let extra = c.fds ? [try SharedMemory.create(name: "bad", size: 16) { _ in }] : []
        try socket.send(c.bytes(victimRoot.layerID), fds: extra.map(\.fileDescriptor))

        // Skip any presentation events, then expect the error.
        var error: ServerMessage?
        while error == nil {
            let packet = try #require(try socket.receive(maxBytes: 65536), "no reply before the timeout")
            #expect(!packet.isEndOfStream, "closed without an error message")
            if packet.isEndOfStream { return }
            let message = try MessageCodec.decodeServer(packet.bytes)
            if case .error = message { error = message }
        }
        guard case .error(let code, let text) = error! else { return }
        #expect(code == c.code, "\(text)")
        #expect(text.contains(c.text), "error text '\(text)' does not contain '\(c.text)'")
        let after = try socket.receive(maxBytes: 65536)
        #expect(after?.isEndOfStream == true, "the connection should be closed after an error")

        // The victim still works; the hostile client's layers are gone (its red no longer covers the victim's).
        let tree = try victim.describeTree()
        #expect(!tree.contains("hostile"), "the bad client's layers were not freed:\n\(tree)")
        let image = try victim.capture()
        let p = image.pixel(x: 10, y: 10)
        #expect(p.red == 0 && (127...128).contains(p.green) && p.blue == 255 && p.alpha == 255, "victim's pixels: \(p)")
        #expect(server.isRunning)
    }

    /// Issue 9, defects 1 and 2: a paced path with a control point at 1e40 killed the server while the
    /// message was decoded, and 3,900 far-flung curves cost hundreds of megabytes. Such paths are valid
    /// input: the server applies them (measuring each within its sample budget) and stays up.
    @Test(arguments: [1, 2_000])
    func farFlungPacedPathsAreApplied(curves: Int) throws {
        let socket = try SeqPacketSocket.connect(path: server.socketPath)
        try socket.setReceiveTimeout(seconds: 10)
        try socket.send(
            MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: "far")))
        _ = try #require(try socket.receive(maxBytes: 65536))
        let path = CGMutablePath()
        path.move(to: .zero)
        for i in 0..<curves {
            path.addQuadCurve(to: CGPoint(x: Double(i + 1), y: 0), control: CGPoint(x: 0, y: i % 2 == 0 ? 1e40 : -1e40))
        }
        let keyframes = Keyframes(values: [], path: path, calculationMode: .paced)
        let animation = Self.animation(.keyframe(PropertyTarget(keyPath: LayerKeyPath("position")!), keyframes))
        try socket.send(Self.commit([.createLayer(1), .setRoot(display: 0, layer: 1), .addAnimation(1, animation)]))
        var applied = false
        while !applied {
            let packet = try #require(try socket.receive(maxBytes: 65536), "no reply before the timeout")
            #expect(!packet.isEndOfStream, "the server closed the connection")
            if packet.isEndOfStream { return }
            let message = try MessageCodec.decodeServer(packet.bytes)
            if case .error(_, let text) = message { Issue.record("refused: \(text)") }
            applied = message == .commitApplied(serial: 7)
        }
        _ = try victim.ping()
        #expect(try victim.capture().pixel(x: 10, y: 10).blue == 255)
        #expect(server.isRunning)
        socket.close()
    }

    /// Finite but extreme geometry is valid input: drawing it must not trap anywhere between the
    /// layer's values and the batcher's grid cells (issue 9's audit of Double-to-Int conversions).
    @Test(arguments: [1e6, 1e18, 1e300])
    func extremeFiniteGeometryIsDrawn(big: Double) throws {
        let context = try server.connect(name: "extreme")
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let cases: [(CALayer) -> Void] = [
            { $0.frame = CGRect(x: -big, y: -big, width: 2 * big, height: 2 * big) },
            { $0.frame = CGRect(x: 0, y: 0, width: big, height: 10) },
            { $0.frame = CGRect(x: big, y: 0, width: 10, height: 10) },
            {
                $0.frame = CGRect(x: 0, y: 0, width: 20, height: 20); $0.transform = CATransform3DMakeScale(big, big, 1)
            },
            {
                $0.frame = CGRect(x: 0, y: 0, width: 20, height: 20); $0.cornerRadius = big; $0.borderWidth = big
            },
            {
                $0.frame = CGRect(x: 5, y: 5, width: 20, height: 20); $0.transform.m34 = -1 / big; $0.transform.m14 = 1
            },
            {
                $0.frame = CGRect(x: 5, y: 5, width: 20, height: 20);
                $0.transform = CATransform3DMakeRotation(0.3, 1, 1, 0)
                $0.transform.m41 = big; $0.masksToBounds = true
                let inner = CALayer(); inner.frame = CGRect(x: 0, y: 0, width: big, height: big)
                inner.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1); $0.addSublayer(inner)
            },
        ]
        for configure in cases {
            let layer = CALayer()
            layer.backgroundColor = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5)
            layer.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            configure(layer)
            root.addSublayer(layer)
        }
        context.layer = root
        _ = try context.capture()
        _ = try victim.ping()
        #expect(server.isRunning)
    }

    @Test func serverSurvivesAllOfThemAndValidationStaysClean() throws {
        for c in Self.cases {
            let socket = try SeqPacketSocket.connect(path: server.socketPath)
            if c.sendHello {
                try socket.send(
                    MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: "hostile"))
                )
            }
            try? socket.send(c.bytes(victimRoot.layerID))
            socket.close()
        }
        _ = try victim.ping()
        let image = try victim.capture()
        #expect(image.pixel(x: 32, y: 24).blue == 255)
        let report = server.stop()
        #expect(report.exitStatus == 0, "\(report.log)")
        #expect(report.validationMessages.isEmpty, "\(report.validationMessages)")
    }
}

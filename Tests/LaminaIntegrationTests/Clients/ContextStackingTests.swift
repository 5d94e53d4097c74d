import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

/// Many clients on one display: trees stacked by level then age, contexts exported to host layers,
/// tokens, cycles, and isolation. In-process, with a null output, a recording renderer (which
/// draws fills) and a manual clock (`FrameClockTests.Harness`), so every pixel is the visible
/// frame's and no test sleeps.
@Suite struct ContextStackingTests {
    typealias Harness = FrameClockTests.Harness

    static let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let green = RGBAColor(red: 0, green: 1, blue: 0, alpha: 1)
    static let blue = RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// Layer `id` of `size` centred at `position`, coloured `color`, as the root of display 0
    /// (unless `root` is false).
    static func square(
        _ id: LayerID, _ color: RGBAColor, size: CGFloat = 20, at position: CGPoint, root: Bool = true
    ) -> [LayerOperation] {
        [
            .createLayer(id), .set(id, .bounds(CGRect(x: 0, y: 0, width: size, height: size))),
            .set(id, .position(position)), .set(id, .backgroundColor(color)),
        ] + (root ? [.setRoot(display: 0, layer: id)] : [])
    }

    /// Connects a raw client and returns it with the context id its `welcome` names.
    static func connect(_ harness: Harness, name: String) throws -> (SeqPacketSocket, UInt32) {
        let socket = try SeqPacketSocket.connect(path: harness.socketPath)
        try socket.setNonBlocking(true)
        try socket.send(MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: name)))
        harness.server.runUntilIdle()
        guard case .welcome(_, _, let contextId, _)? = try harness.received(socket).first else {
            throw FrameClockTests.FrameClockError.noWelcome
        }
        return (socket, contextId)
    }

    /// The visible frame's pixel at (x, y) as (r, g, b, a), after presenting what is due at `time`.
    static func pixel(_ harness: Harness, _ x: Int, _ y: Int) throws -> (UInt8, UInt8, UInt8, UInt8) {
        let target = try #require(harness.outputs[0].visible as? RecordingTarget)
        return target.bitmap.rgba(x: x, y: y)
    }

    /// Asks for an export token and returns it.
    static func exportToken(_ harness: Harness, _ socket: SeqPacketSocket) throws -> UInt64 {
        try harness.send(.requestExportToken(requestID: 77), on: socket)
        let replies = try harness.received(socket)
        let reply = replies.first { if case .exportToken = $0 { true } else { false } }
        guard case .exportToken(77, let token)? = reply else {
            Issue.record("expected an export token, got \(replies)")
            return 0
        }
        return token
    }

    @Test func contextIdsAreAssignedAtHelloAndDistinct() throws {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        let (_, first) = try Self.connect(harness, name: "first")
        let (_, second) = try Self.connect(harness, name: "second")
        #expect(first != 0 && second != 0 && first != second)
    }

    /// The higher level is drawn on top whatever the connection order; equal levels stack by age
    /// (older below); a level change restacks at the next frame.
    @Test func higherLevelIsOnTopRegardlessOfConnectionOrder() throws {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        let (older, _) = try Self.connect(harness, name: "older")
        let (newer, _) = try Self.connect(harness, name: "newer")
        // Red covers x 0..<20, y 0..<20; green x 10..<30, y 0..<20: they overlap at x 10..<20.
        try harness.send(.commit(serial: 1, operations: Self.square(1, Self.red, at: CGPoint(x: 10, y: 10))), on: older)
        try harness.send(
            .commit(serial: 1, operations: Self.square(1, Self.green, at: CGPoint(x: 20, y: 10))), on: newer)
        harness.advance(to: 100.1)
        #expect(try Self.pixel(harness, 15, 5) == (0, 255, 0, 255), "equal levels: the newer client is on top")
        #expect(try Self.pixel(harness, 5, 5) == (255, 0, 0, 255))

        try harness.send(.setLevel(1), on: older)
        harness.advance(to: 100.2)
        #expect(try Self.pixel(harness, 15, 5) == (255, 0, 0, 255), "the older client at level 1 is on top")
        #expect(try Self.pixel(harness, 25, 5) == (0, 255, 0, 255))

        try harness.send(.setLevel(2.5), on: newer)
        harness.advance(to: 100.3)
        #expect(try Self.pixel(harness, 15, 5) == (0, 255, 0, 255), "level 2.5 is above level 1")

        try harness.send(.setLevel(-3), on: newer)
        harness.advance(to: 100.4)
        #expect(try Self.pixel(harness, 15, 5) == (255, 0, 0, 255), "level -3 is below level 1")
        #expect(try harness.received(older).allSatisfy { if case .error = $0 { false } else { true } })
    }

    @Test func aLevelThatIsNotFiniteIsRefused() throws {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        let (client, _) = try Self.connect(harness, name: "nan")
        try harness.send(.setLevel(.nan), on: client)
        #expect(
            try harness.received(client) == [.error(code: .invalidValue, message: "setLevel: level nan is not finite")])
    }

    /// An exported context shows inside another client's host layer, as if its root were the host's
    /// sublayer, and no longer on its own; the host's client sees only the pixels, never the layers.
    @Test func exportedContextShowsInsideAHostLayerWithTheRightToken() throws {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        let (exported, exportedID) = try Self.connect(harness, name: "exported")
        let (host, _) = try Self.connect(harness, name: "host")
        // The exported tree: a 10×10 green layer at (5, 5), named "secret".
        try harness.send(
            .commit(
                serial: 1,
                operations: Self.square(1, Self.green, size: 10, at: CGPoint(x: 5, y: 5)) + [.set(1, .name("secret"))]),
            on: exported)
        let token = try Self.exportToken(harness, exported)
        #expect(token != 0)
        #expect(try Self.exportToken(harness, exported) == token, "the same token every time")
        // The host: a 20×20 blue layer at (30, 20) (x 20..<40, y 10..<30) showing the exported context.
        try harness.send(
            .commit(
                serial: 1,
                operations: Self.square(1, Self.blue, at: CGPoint(x: 30, y: 20)) + [
                    .setHost(1, contextId: exportedID, token: token)
                ]), on: host)
        harness.advance(to: 100.1)
        #expect(try harness.received(host).allSatisfy { if case .warning = $0 { false } else { true } })
        // Green at the host's (0..<10, 0..<10): device x 20..<30, y 10..<20; blue elsewhere in the host.
        #expect(try Self.pixel(harness, 20, 10) == (0, 255, 0, 255))
        #expect(try Self.pixel(harness, 29, 19) == (0, 255, 0, 255))
        #expect(try Self.pixel(harness, 30, 19) == (0, 0, 255, 255))
        #expect(try Self.pixel(harness, 25, 25) == (0, 0, 255, 255))
        // Not at its own place: an exported tree shows only in hosts.
        #expect(try Self.pixel(harness, 5, 5) == (0, 0, 0, 255))
        // The host's client describes its own tree: the host names the context, not its layers.
        try harness.send(.describeTree(requestID: 5), on: host)
        guard case .treeDescription(5, let text)? = try harness.received(host).first else {
            Issue.record("no tree description")
            return
        }
        #expect(text.contains("hosts=context \(exportedID)"))
        #expect(!text.contains("secret"))

        // A change in the exported tree reaches the host's display at the next frame.
        try harness.send(.commit(serial: 2, operations: [.set(1, .backgroundColor(Self.red))]), on: exported)
        harness.advance(to: 100.2)
        #expect(try Self.pixel(harness, 20, 10) == (255, 0, 0, 255))
        // The exported client leaves: the host shows nothing of it from the next frame.
        exported.hangUp()
        harness.advance(to: 100.3)
        #expect(try Self.pixel(harness, 20, 10) == (0, 0, 255, 255))
    }

    /// Without the right token the host shows nothing, and its client is warned, once, naming the
    /// context id; the connection goes on. A context id nobody exports reads the same.
    @Test func wrongTokenShowsNothingAndWarns() throws {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        let (exported, exportedID) = try Self.connect(harness, name: "exported")
        let (host, _) = try Self.connect(harness, name: "host")
        try harness.send(
            .commit(serial: 1, operations: Self.square(1, Self.green, size: 10, at: CGPoint(x: 5, y: 5))),
            on: exported)
        let token = try Self.exportToken(harness, exported)
        try harness.send(
            .commit(
                serial: 1,
                operations: Self.square(1, Self.blue, at: CGPoint(x: 30, y: 20)) + [
                    .setHost(1, contextId: exportedID, token: token &+ 1)
                ]), on: host)
        harness.advance(to: 100.1)
        let warning = ServerMessage.warning(
            code: .tokenMismatch, message: "host layer 1: context \(exportedID): token does not match")
        #expect(try harness.received(host).filter { if case .warning = $0 { true } else { false } } == [warning])
        #expect(try Self.pixel(harness, 20, 10) == (0, 0, 255, 255))
        // The same problem is not reported again; the connection is still served.
        try harness.send(.commit(serial: 2, operations: [.set(1, .opacity(1))]), on: host)
        try harness.send(.ping(requestID: 9), on: host)
        let later = try harness.received(host)
        #expect(later.contains(.pong(requestID: 9, serverVersion: "test")))
        #expect(!later.contains(warning))
        // A context id that does not exist gets the same words.
        try harness.send(.commit(serial: 3, operations: [.setHost(1, contextId: 999, token: token)]), on: host)
        #expect(
            try harness.received(host).contains(
                .warning(code: .tokenMismatch, message: "host layer 1: context 999: token does not match")))
        // The right token shows it.
        try harness.send(.commit(serial: 4, operations: [.setHost(1, contextId: exportedID, token: token)]), on: host)
        harness.advance(to: 100.2)
        #expect(try Self.pixel(harness, 20, 10) == (0, 255, 0, 255))
    }

    /// A hosts B and B hosts A: shown through a third client, each tree is drawn once and the loop
    /// is cut where a context would appear inside itself.
    @Test func hostCyclesAreCut() throws {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        let (a, aID) = try Self.connect(harness, name: "a")
        let (b, bID) = try Self.connect(harness, name: "b")
        let (viewer, _) = try Self.connect(harness, name: "viewer")
        let aToken = try Self.exportToken(harness, a)
        let bToken = try Self.exportToken(harness, b)
        // A: a 10×10 red host at (5, 5) showing B; B: a 4×4 green host at (2, 2) showing A.
        try harness.send(
            .commit(
                serial: 1,
                operations: Self.square(1, Self.red, size: 10, at: CGPoint(x: 5, y: 5)) + [
                    .setHost(1, contextId: bID, token: bToken)
                ]), on: a)
        try harness.send(
            .commit(
                serial: 1,
                operations: Self.square(1, Self.green, size: 4, at: CGPoint(x: 2, y: 2)) + [
                    .setHost(1, contextId: aID, token: aToken)
                ]), on: b)
        // The viewer's host at (10, 10) (x 0..<20, y 0..<20) shows A.
        try harness.send(
            .commit(
                serial: 1,
                operations: Self.square(1, Self.blue, at: CGPoint(x: 10, y: 10)) + [
                    .setHost(1, contextId: aID, token: aToken)
                ]), on: viewer)
        harness.advance(to: 100.1)
        // A's red 0..<10, and inside it B's green 0..<4; A inside B is cut (drawn, A's red would
        // cover B's green at 0..<10 again).
        #expect(try Self.pixel(harness, 0, 0) == (0, 255, 0, 255))
        #expect(try Self.pixel(harness, 3, 3) == (0, 255, 0, 255))
        #expect(try Self.pixel(harness, 4, 4) == (255, 0, 0, 255))
        #expect(try Self.pixel(harness, 10, 10) == (0, 0, 255, 255))
    }

    /// Contexts nest at most three deep, the top-level tree included: a viewer shows A, A shows B,
    /// and B's host of C draws nothing (C's blue would cover B's green).
    @Test func hostsNestAtMostThreeContextsDeep() throws {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        let (viewer, _) = try Self.connect(harness, name: "viewer")
        var ids: [UInt32] = []
        var tokens: [UInt64] = []
        var sockets: [SeqPacketSocket] = []
        for name in ["a", "b", "c"] {
            let (socket, id) = try Self.connect(harness, name: name)
            sockets.append(socket)
            ids.append(id)
            tokens.append(try Self.exportToken(harness, socket))
        }
        // Each of A and B: a 20×20 layer at (10, 10) hosting the next; C: a blue 20×20 layer.
        try harness.send(
            .commit(
                serial: 1,
                operations: Self.square(1, Self.red, at: CGPoint(x: 10, y: 10)) + [
                    .setHost(1, contextId: ids[1], token: tokens[1])
                ]), on: sockets[0])
        try harness.send(
            .commit(
                serial: 1,
                operations: Self.square(1, Self.green, at: CGPoint(x: 10, y: 10)) + [
                    .setHost(1, contextId: ids[2], token: tokens[2])
                ]), on: sockets[1])
        try harness.send(
            .commit(serial: 1, operations: Self.square(1, Self.blue, at: CGPoint(x: 10, y: 10))), on: sockets[2])
        try harness.send(
            .commit(
                serial: 1,
                operations: Self.square(1, Self.red, at: CGPoint(x: 10, y: 10)) + [
                    .setHost(1, contextId: ids[0], token: tokens[0])
                ]), on: viewer)
        harness.advance(to: 100.1)
        #expect(try Self.pixel(harness, 5, 5) == (0, 255, 0, 255), "B, two contexts in, is drawn; C is not")
        // The nesting limit is not a token problem: B was not warned.
        #expect(try harness.received(sockets[1]).allSatisfy { if case .warning = $0 { false } else { true } })
    }

    /// The hosted tree is drawn as the host's sublayer: under its opacity and its `masksToBounds`
    /// clip. A 20×20 green tree in a 10×10 host at half opacity that clips: half green inside the
    /// host, nothing outside it.
    @Test func hostedTreeTakesTheHostsOpacityAndClip() throws {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        let (exported, exportedID) = try Self.connect(harness, name: "exported")
        let (host, _) = try Self.connect(harness, name: "host")
        try harness.send(
            .commit(serial: 1, operations: Self.square(1, Self.green, at: CGPoint(x: 10, y: 10))), on: exported)
        let token = try Self.exportToken(harness, exported)
        // The host: 10×10 at (15, 15) (x 10..<20, y 10..<20), no background.
        try harness.send(
            .commit(
                serial: 1,
                operations: [
                    .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 10, height: 10))),
                    .set(1, .position(CGPoint(x: 15, y: 15))), .set(1, .opacity(0.5)), .set(1, .masksToBounds(true)),
                    .setHost(1, contextId: exportedID, token: token), .setRoot(display: 0, layer: 1),
                ]), on: host)
        harness.advance(to: 100.1)
        let inside = try Self.pixel(harness, 15, 15)
        #expect(inside.0 == 0 && abs(Int(inside.1) - 128) <= 1 && inside.3 == 255, "\(inside)")
        #expect(try Self.pixel(harness, 25, 15) == (0, 0, 0, 255), "clipped to the host's bounds")
        #expect(try Self.pixel(harness, 15, 25) == (0, 0, 0, 255), "clipped to the host's bounds")
    }

    @Test func setHostOfAnUnknownLayerIsRefused() throws {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        let (client, _) = try Self.connect(harness, name: "hostile")
        try harness.send(.commit(serial: 1, operations: [.setHost(42, contextId: 1, token: 1)]), on: client)
        let messages = try harness.received(client)
        guard case .error(.unknownLayer, let text)? = messages.last else {
            Issue.record("expected unknownLayer, got \(messages)")
            return
        }
        #expect(text.contains("42"))
    }
}

import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

/// A context reconnecting to a restarted server asks, in its `hello`, for the context id and export
/// token it had (docs/protocol.md §3.1): the server gives the id back only if it has never given it
/// itself, never counts it out afterwards, keeps the token, and refuses hostile claims. In-process,
/// with raw clients, a null output, a recording renderer and a manual clock (`FrameClockTests.Harness`).
@Suite struct ContextRestoreTests {
    typealias Harness = FrameClockTests.Harness

    static let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let green = RGBAColor(red: 0, green: 1, blue: 0, alpha: 1)

    /// Connects a raw client whose `hello` claims `contextId` and `token`; returns it with its
    /// `welcome`'s context id and the messages that followed the `welcome`.
    static func connect(
        _ harness: Harness, name: String, claiming contextId: UInt32 = 0, token: UInt64 = 0
    ) throws -> (socket: SeqPacketSocket, contextId: UInt32, after: [ServerMessage]) {
        let socket = try SeqPacketSocket.connect(path: harness.socketPath)
        try socket.setNonBlocking(true)
        try socket.send(
            MessageCodec.encode(
                ClientMessage.hello(
                    version: WireLimits.protocolVersion, clientName: name, contextId: contextId, exportToken: token)))
        harness.server.runUntilIdle()
        let messages = try harness.received(socket)
        guard case .welcome(_, _, let given, _)? = messages.first else {
            throw FrameClockTests.FrameClockError.noWelcome
        }
        return (socket, given, Array(messages.dropFirst()))
    }

    /// Asks for the export token and returns it.
    static func exportToken(_ harness: Harness, _ socket: SeqPacketSocket) throws -> UInt64? {
        try harness.send(.requestExportToken(requestID: 9), on: socket)
        for case .exportToken(9, let token) in try harness.received(socket) { return token }
        return nil
    }

    /// A 20×20 square of `color` at the top left of display 0, as the client's root.
    static func square(_ color: RGBAColor) -> [LayerOperation] {
        [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 20, height: 20))),
            .set(1, .position(CGPoint(x: 10, y: 10))), .set(1, .backgroundColor(color)),
            .setRoot(display: 0, layer: 1),
        ]
    }

    /// A 20×20 host layer at the top left of display 0 showing context `contextId` with `token`.
    static func host(_ contextId: UInt32, _ token: UInt64) -> [LayerOperation] {
        [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 20, height: 20))),
            .set(1, .position(CGPoint(x: 10, y: 10))), .setHost(1, contextId: contextId, token: token),
            .setRoot(display: 0, layer: 1),
        ]
    }

    /// The visible frame's pixel at (x, y) as (r, g, b, a).
    static func pixel(_ harness: Harness, _ x: Int, _ y: Int) throws -> (UInt8, UInt8, UInt8, UInt8) {
        let target = try #require(harness.outputs[0].visible as? RecordingTarget)
        return target.bitmap.rgba(x: x, y: y)
    }

    /// A claimed id the server has not given is given back with the claimed token: a host naming
    /// them shows the claimant's red square at once, and `requestExportToken` answers the same
    /// token. The counter skips the id afterwards: the next new context gets the id after it.
    @Test func claimedIdIsGivenBackWithItsTokenAndNeverCountedOut() throws {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        let first = try Self.connect(harness, name: "first")
        let claimed = first.contextId + 1
        let token: UInt64 = 0x0123_4567_89AB_CDEF
        let restored = try Self.connect(harness, name: "restored", claiming: claimed, token: token)
        #expect(restored.contextId == claimed)
        #expect(restored.after.isEmpty, "no warning: \(restored.after)")
        #expect(try Self.exportToken(harness, restored.socket) == token)
        let later = try Self.connect(harness, name: "later")
        #expect(later.contextId == claimed + 1, "the counter skips the given-back id")

        try harness.send(.commit(serial: 1, operations: Self.square(Self.red)), on: restored.socket)
        try harness.send(.commit(serial: 1, operations: Self.host(claimed, token)), on: later.socket)
        harness.advance(to: 100.1)
        #expect(try Self.pixel(harness, 10, 10) == (255, 0, 0, 255), "the host shows the given-back context")
        #expect(try Self.pixel(harness, 30, 10) == (0, 0, 0, 255))
        #expect(try harness.received(later.socket).allSatisfy { if case .warning = $0 { false } else { true } })
    }

    /// The host may come back before the context it shows: it is warned that the token does not
    /// match (nothing to show yet), and shows the context's square once that context is back, with
    /// no further message from the host.
    @Test func hostBackBeforeTheExportedContextShowsItOnceItIsBack() throws {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        let anchor = try Self.connect(harness, name: "anchor")
        let exportedID = anchor.contextId + 10
        let token: UInt64 = 0xABCD
        let host = try Self.connect(harness, name: "host", claiming: anchor.contextId + 20)
        try harness.send(.commit(serial: 1, operations: Self.host(exportedID, token)), on: host.socket)
        harness.advance(to: 100.1)
        #expect(try Self.pixel(harness, 10, 10) == (0, 0, 0, 255), "nothing to show yet")
        let exported = try Self.connect(harness, name: "exported", claiming: exportedID, token: token)
        #expect(exported.contextId == exportedID)
        try harness.send(.commit(serial: 1, operations: Self.square(Self.green)), on: exported.socket)
        harness.advance(to: 100.2)
        #expect(try Self.pixel(harness, 10, 10) == (0, 255, 0, 255), "the host shows the context once it is back")
    }

    /// A claim of an id the server has given is refused with a `contextIdUnavailable` warning that
    /// names the new id, whether that context is live or has left (the same text), and the claimant
    /// cannot take over the id's host layers even with the right token: the host keeps showing the
    /// owner's red square, and shows nothing once the owner has left.
    @Test func claimOfAGivenIdIsRefusedWithAWarning() throws {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        let owner = try Self.connect(harness, name: "owner")
        let token = try #require(try Self.exportToken(harness, owner.socket))
        try harness.send(.commit(serial: 1, operations: Self.square(Self.red)), on: owner.socket)
        let host = try Self.connect(harness, name: "host")
        try harness.send(.commit(serial: 1, operations: Self.host(owner.contextId, token)), on: host.socket)

        let thief = try Self.connect(harness, name: "thief", claiming: owner.contextId, token: token)
        #expect(thief.contextId != owner.contextId)
        let expected =
            "hello: context \(owner.contextId) cannot be given back (this server has given it out); this client is context \(thief.contextId)"
        #expect(thief.after == [.warning(code: .contextIdUnavailable, message: expected)])
        try harness.send(.commit(serial: 1, operations: Self.square(Self.green)), on: thief.socket)
        harness.advance(to: 100.1)
        #expect(try Self.pixel(harness, 10, 10) == (255, 0, 0, 255), "the host still shows the owner")

        owner.socket.hangUp()
        harness.server.runUntilIdle()
        let late = try Self.connect(harness, name: "late thief", claiming: owner.contextId, token: token)
        #expect(late.contextId != owner.contextId)
        let lateText =
            "hello: context \(owner.contextId) cannot be given back (this server has given it out); this client is context \(late.contextId)"
        #expect(late.after == [.warning(code: .contextIdUnavailable, message: lateText)])
        try harness.send(.commit(serial: 1, operations: Self.square(Self.green)), on: late.socket)
        harness.advance(to: 100.2)
        #expect(try Self.pixel(harness, 10, 10) == (0, 0, 0, 255), "the departed owner's host shows nothing")
        try harness.send(.ping(requestID: 5), on: thief.socket)
        #expect(try harness.received(thief.socket).last == .pong(requestID: 5, serverVersion: "test"), "connected")
    }

    /// Claims no server could make are errors naming the field: the claimant alone is disconnected,
    /// another client goes on.
    @Test(arguments: [
        (UInt32(0), UInt64(5), "hello: export token without a context id (hello.contextId is 0)"),
        (
            WireLimits.maxContextId + 1, UInt64(0),
            "hello: context id \(WireLimits.maxContextId + 1) is over \(WireLimits.maxContextId); no server gives such an id"
        ),
        (
            UInt32.max, UInt64.max,
            "hello: context id \(UInt32.max) is over \(WireLimits.maxContextId); no server gives such an id"
        ),
    ])
    func absurdClaimsAreErrors(_ contextId: UInt32, _ token: UInt64, _ text: String) throws {
        let harness = try Harness(modes: [DisplayMode(width: 40, height: 30, refreshRate: 60)])
        let bystander = try Self.connect(harness, name: "bystander")
        let socket = try SeqPacketSocket.connect(path: harness.socketPath)
        try socket.setNonBlocking(true)
        try socket.send(
            MessageCodec.encode(
                ClientMessage.hello(
                    version: WireLimits.protocolVersion, clientName: "hostile", contextId: contextId,
                    exportToken: token)))
        harness.server.runUntilIdle()
        #expect(try harness.received(socket) == [.error(code: .invalidValue, message: text)])
        try harness.send(.ping(requestID: 3), on: bystander.socket)
        #expect(try harness.received(bystander.socket) == [.pong(requestID: 3, serverVersion: "test")])
        let next = try Self.connect(harness, name: "next")
        #expect(next.contextId == bystander.contextId + 1, "a refused hello takes no id")
    }
}

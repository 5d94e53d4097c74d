import Foundation
import Lamina
import LaminaProtocol
import LaminaTesting
import Testing

/// Many clients of one real laminad, through the `Lamina` library: the display list a context
/// learns at hello (and `laminactl displays`), stacking by `CAContext.level`, `CALayerHost`, and a
/// client that dies while another animates.
@Suite(.serialized) final class ClientContextsTests: AnimationSuite {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 200, height: 100)
    }

    deinit {
        server.stop()
    }

    /// A `size`×`size` layer of `color` with its top-left corner at (x, y).
    static func square(_ color: CGColor, x: CGFloat, y: CGFloat, size: CGFloat = 40) -> CALayer {
        let layer = CALayer()
        layer.frame = CGRect(x: x, y: y, width: size, height: size)
        layer.backgroundColor = color
        return layer
    }

    static var green: CGColor { CGColor(red: 0, green: 1, blue: 0, alpha: 1) }

    /// The context learns the server's displays at hello, with their names and connectors (empty
    /// offscreen), and its own context id; two contexts have different ids.
    @Test func displaysAndContextIdAtHello() throws {
        let first = try server.connect(name: "first")
        let second = try server.connect(name: "second")
        #expect(
            first.displays == [
                DisplayInfo(id: 0, width: 200, height: 100, refreshRate: 60, name: "offscreen-0", connector: "")
            ])
        #expect(first.contextId != 0 && second.contextId != 0 && first.contextId != second.contextId)
        finish()
    }

    /// `laminactl displays` prints one tab-separated line per display: id, name, mode, refresh, connector.
    @Test func laminactlListsTheDisplays() throws {
        let laminactl = try TestServer.laminadURL().deletingLastPathComponent().appendingPathComponent("laminactl")
        let process = Process()
        process.executableURL = laminactl
        process.arguments = ["displays", "--socket", server.socketPath]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(output == "id\tname\tmode\trefresh\tconnector\n0\toffscreen-0\t200x100\t60 Hz\t\n")
        finish()
    }

    /// Apple's private `CAContext.level` orders contexts' trees (no public documentation; the
    /// behaviour mirrored is window-server stacking: higher levels above lower, the same level by
    /// order): the higher level is on top whichever context connected first, and a change restacks.
    @Test func levelStacksContexts() throws {
        let older = try server.connect(name: "older")
        let newer = try server.connect(name: "newer")
        older.layer = Self.square(Self.red, x: 20, y: 20)
        newer.layer = Self.square(Self.blue, x: 40, y: 20)
        try older.synchronize()
        try newer.synchronize()
        // The overlap is x 40..<60: the newer context is on top at equal levels.
        #expect(rgb(try newer.capture(), 50, 30) == (0, 0, 255))
        older.level = 1
        try older.synchronize()
        #expect(rgb(try newer.capture(), 50, 30) == (255, 0, 0))
        #expect(rgb(try newer.capture(), 70, 30) == (0, 0, 255))
        newer.level = 2
        try newer.synchronize()
        #expect(rgb(try older.capture(), 50, 30) == (0, 0, 255))
        finish()
    }

    /// A `CALayerHost` (Apple's private class, `contextId` as there) shows an exported context's tree
    /// in its bounds; with a wrong token it shows nothing and its context gets a warning, and the
    /// connection goes on.
    @Test func layerHostShowsAnExportedContext() throws {
        let exported = try server.connect(name: "exported")
        let viewer = try server.connect(name: "viewer")
        exported.layer = Self.square(Self.green, x: 0, y: 0, size: 20)
        let token = try exported.exportToken()
        let root = Self.square(Self.white, x: 0, y: 0, size: 200)
        let host = CALayerHost()
        host.frame = CGRect(x: 100, y: 50, width: 40, height: 40)
        host.contextId = exported.contextId
        host.token = token
        root.addSublayer(host)
        viewer.layer = root
        try viewer.synchronize()
        let image = try viewer.capture()
        #expect(rgb(image, 105, 55) == (0, 255, 0), "the exported green square at the host's origin")
        #expect(rgb(image, 125, 75) == (255, 255, 255))
        #expect(rgb(image, 5, 5) == (255, 255, 255), "not drawn at its own place")
        #expect(viewer.serverWarnings.isEmpty)

        host.token = token &+ 1
        try viewer.synchronize()
        #expect(rgb(try viewer.capture(), 105, 55) == (255, 255, 255))
        let warnings = viewer.serverWarnings
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("host layer ") == true)
        #expect(warnings.first?.hasSuffix(": context \(exported.contextId): token does not match") == true)
        #expect(try viewer.ping().serverVersion.isEmpty == false, "the connection goes on")
        finish()
    }

    /// A client that dies (its socket closed mid-session) is freed once its hangup is read:
    /// another client's animation goes on as predicted at later times, the dead client's layers
    /// leave the screen, and the statistics no longer list it.
    @Test func deadClientIsFreedWhileAnotherAnimates() throws {
        // The dying client, raw: a 200×100 blue layer over everything (root of display 0).
        let dying = try SeqPacketSocket.connect(path: server.socketPath)
        try dying.send(
            MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: "dying")))
        try dying.send(
            MessageCodec.encode(
                ClientMessage.commit(
                    serial: 1,
                    operations: [
                        .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 200, height: 10))),
                        .set(1, .position(CGPoint(x: 100, y: 5))),
                        .set(1, .backgroundColor(RGBAColor(red: 0, green: 0, blue: 1, alpha: 1))),
                        .setRoot(display: 0, layer: 1),
                    ])))
        let context = try server.connect(name: "survivor")
        let (_, box) = try makeScene(context)
        let t0 = CACurrentMediaTime() + 10
        box.add(Self.move(begin: t0), forKey: "move")
        context.level = -1
        try context.synchronize()
        // Below the dying client's strip (y 0..<10), the survivor's white root shows elsewhere.
        #expect(rgb(try context.capture(at: t0 + 0.5), 100, 5) == (0, 0, 255))
        #expect(try context.statistics().map(\.name).sorted() == ["dying", "survivor"])

        dying.hangUp()
        try context.synchronize()
        // Two sockets have no order between them: the server may answer the survivor in the turn
        // before it reads the hangup (seen on a loaded machine), so ask until it has, within 10 s.
        var names = try context.statistics().map(\.name)
        let deadline = CACurrentMediaTime() + 10
        while names.contains("dying") && CACurrentMediaTime() < deadline {
            names = try context.statistics().map(\.name)
        }
        #expect(names == ["survivor"])
        // Half-way, position.x is 125: the box covers x 105..<145.
        let half = try context.capture(at: t0 + 0.5)
        #expect(rgb(half, 100, 5) == (255, 255, 255), "the dead client's strip is gone")
        #expect(leftEdge(half) == 105)
        #expect(rightEdge(half) == 144)
        let later = try context.capture(at: t0 + 0.75)
        #expect(leftEdge(later) == 117 || leftEdge(later) == 118)
        finish()
    }
}

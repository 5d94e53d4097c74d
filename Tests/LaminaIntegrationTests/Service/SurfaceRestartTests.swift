import Foundation
@testable import Lamina
import LaminaProtocol
import LaminaTesting
import Testing

/// Shared surfaces survive a laminad restart: the reconnecting context registers again every surface
/// its resent tree shows (the new server knows none), so a layer showing an `IOSurface` and a
/// `CAVulkanLayer`'s drawable show the same pixels again, and the pool goes on presenting.
@Suite(.serialized) final class SurfaceRestartTests {
    /// A fresh, short temporary folder for the shared socket.
    let folder: SocketFolder
    var socketPath: String { folder.socketPath }

    init() throws {
        folder = try SocketFolder("lamina-surface-restart")
    }

    @Test func surfacesAndDrawablesAreShownAgainAfterARestart() throws {
        let first = try TestServer(width: 64, height: 48, socketPath: socketPath)
        let context = try CAContext(socketPath: socketPath, clientName: "surface-restart")
        let reconnected = ServerRestartTests.ReconnectWaiter(context)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let plain = CALayer()
        plain.frame = CGRect(x: 32, y: 8, width: 16, height: 16)
        plain.contents = try SurfaceTests.surface(16, 16, name: "restart-plain", color: (255, 0, 0))
        let vulkan = CAVulkanLayer()
        vulkan.frame = CGRect(x: 8, y: 8, width: 16, height: 16)
        root.addSublayer(plain)
        root.addSublayer(vulkan)
        context.layer = root
        try context.synchronize()
        let drawable = try #require(vulkan.nextDrawable())
        SurfaceTests.fill(drawable.surface, (0, 255, 0))
        let log = VulkanLayerTests.Log()
        drawable.addPresentedHandler { log.add($0) }
        drawable.present()
        #expect(log.wait(for: 1).count == 1)
        try SurfaceTests.expectPixel(context, 40, 16, (255, 0, 0))
        try SurfaceTests.expectPixel(context, 16, 16, (0, 255, 0))
        CATransaction.lock()
        let registeredBefore = context.surfaceRegistrations
        CATransaction.unlock()

        first.kill()
        let second = try TestServer(width: 64, height: 48, socketPath: socketPath)
        defer { ServerRestartTests.finish(second) }
        try #require(reconnected.wait(), "the context did not reconnect within 30 s")
        // Both surfaces were registered again with the new server, and show their pixels.
        CATransaction.lock()
        #expect(context.surfaceRegistrations == registeredBefore + 2)
        CATransaction.unlock()
        try SurfaceTests.expectPixel(context, 40, 16, (255, 0, 0))
        try SurfaceTests.expectPixel(context, 16, 16, (0, 255, 0))
        #expect(try SurfaceTests.statistics("surface-restart", from: context).surfaces == 2)
        // The pool goes on: the next drawables are presented by the new server.
        for color in [(UInt8(0), UInt8(0), UInt8(255)), (255, 255, 0)] {
            let next = try #require(vulkan.nextDrawable())
            SurfaceTests.fill(next.surface, color)
            let shown = VulkanLayerTests.Log()
            next.addPresentedHandler { shown.add($0) }
            next.present()
            #expect(shown.wait(for: 1).first?.time ?? 0 > 0)
        }
        try SurfaceTests.expectPixel(context, 16, 16, (255, 255, 0))
        withExtendedLifetime(drawable) {}
    }
}

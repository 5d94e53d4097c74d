import Foundation
import Glibc
@testable import Lamina
import LaminaProtocol
import LaminaTesting
import Testing

/// laminad losing its Vulkan device (docs/deploy.md, "When the GPU is lost"): the test hook
/// `LAMINA_TEST_LOSE_DEVICE_AFTER_FRAMES` makes a frame's submit report `VK_ERROR_DEVICE_LOST`; the
/// server logs the call, closes its clients without an error, tells the service manager
/// (`STOPPING=1` and the reason in `STATUS=`) and exits with status 4, which the
/// shipped unit's `Restart=on-failure` restarts. A client showing a plain layer, an `IOSurface` and a
/// `CAVulkanLayer` takes it for a restart, reconnects to the next server on the same socket, registers
/// its surfaces again and shows the same pixels.
@Suite(.serialized) final class DeviceLossTests {
    /// A fresh, short temporary folder for the shared socket.
    let folder: SocketFolder
    var socketPath: String { folder.socketPath }

    init() throws {
        folder = try SocketFolder("lamina-device-loss")
    }

    /// The frames the first server draws before its device is lost: more than the scene below needs
    /// to be shown and captured (about five), so the loss comes while the test changes a layer.
    static let framesBeforeLoss = 30

    /// Expects `image` to show the scene: black where no layer is (the display's clear colour), the
    /// plain layer red over (40, 4)–(56, 20), the surface blue over (4, 24)–(20, 40), the
    /// `CAVulkanLayer`'s drawable green over (4, 4)–(20, 20), the ticker's `ticker` colour over
    /// (40, 28)–(48, 36).
    static func expectScene(
        _ image: CGImage, ticker: (UInt8, UInt8, UInt8), _ note: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let expected: [(x: Int, y: Int, color: (UInt8, UInt8, UInt8))] = [
            (30, 30, (0, 0, 0)), (60, 44, (0, 0, 0)),
            (40, 4, (255, 0, 0)), (55, 19, (255, 0, 0)), (56, 20, (0, 0, 0)),
            (4, 24, (0, 0, 255)), (19, 39, (0, 0, 255)), (20, 40, (0, 0, 0)),
            (4, 4, (0, 255, 0)), (19, 19, (0, 255, 0)), (20, 20, (0, 0, 0)),
            (44, 32, ticker),
        ]
        for (x, y, color) in expected {
            expectPixel(
                image, x, y, (Int(color.0), Int(color.1), Int(color.2), 255), tolerance: 0, note,
                sourceLocation: sourceLocation)
        }
    }

    @Test func laminadExitsOnDeviceLossAndItsClientsComeBackToTheNextServer() throws {
        let notify = try NotifySocket(path: folder.url.appendingPathComponent("notify").path)
        let first = try TestServer(
            width: 64, height: 48,
            environment: [
                "LAMINA_TEST_LOSE_DEVICE_AFTER_FRAMES": "\(Self.framesBeforeLoss)", "NOTIFY_SOCKET": notify.path,
            ],
            socketPath: socketPath)
        let context = try CAContext(socketPath: socketPath, clientName: "device-loss")
        let reconnected = ServerRestartTests.ReconnectWaiter(context)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let plain = CALayer()
        plain.frame = CGRect(x: 40, y: 4, width: 16, height: 16)
        plain.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let surfaceLayer = CALayer()
        surfaceLayer.frame = CGRect(x: 4, y: 24, width: 16, height: 16)
        surfaceLayer.contents = try SurfaceTests.surface(16, 16, name: "device-loss", color: (0, 0, 255))
        let vulkan = CAVulkanLayer()
        vulkan.frame = CGRect(x: 4, y: 4, width: 16, height: 16)
        // Changed while the first server runs, so that it draws frames until its device is lost.
        let ticker = CALayer()
        ticker.frame = CGRect(x: 40, y: 28, width: 8, height: 8)
        ticker.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        for layer in [plain, surfaceLayer, vulkan, ticker] { root.addSublayer(layer) }
        context.layer = root
        try context.synchronize()
        let drawable = try #require(vulkan.nextDrawable())
        SurfaceTests.fill(drawable.surface, (0, 255, 0))
        let log = VulkanLayerTests.Log()
        drawable.addPresentedHandler { log.add($0) }
        drawable.present()
        #expect(log.wait(for: 1).count == 1)
        let before = try context.capture()
        Self.expectScene(before, ticker: (255, 255, 255), "before the loss")
        try #require(first.isRunning, "the device was lost before the scene was shown: raise framesBeforeLoss")
        CATransaction.lock()
        let registeredBefore = context.surfaceRegistrations
        CATransaction.unlock()

        // Each commit draws a frame; the hook loses the device at one of them and laminad exits.
        var commits = 0
        while first.isRunning && commits < 10 * Self.framesBeforeLoss {
            commits += 1
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            ticker.backgroundColor = CGColor(red: 0, green: commits % 2 == 0 ? 1 : 0.5, blue: 0, alpha: 1)
            CATransaction.commit()
            CATransaction.flush()
            usleep(20_000)  // one refresh at 60 Hz: polls the process, times nothing
        }
        let report = first.stop()
        let serverLog: String = report.log
        let line =
            "Vulkan device lost: vkQueueSubmit2, VK_ERROR_DEVICE_LOST; exiting with status 4 so the service "
            + "manager restarts the server"
        #expect(report.exitStatus == 4, "laminad exit status \(report.exitStatus)")
        #expect(serverLog.contains(line), "\(serverLog)")
        #expect(serverLog.contains("validation messages: 0"))
        #expect(report.validationMessages.isEmpty, "validation: \(report.validationMessages)")
        // No client was blamed: the server closed the connection without an error, and frames that
        // failed with the device were not retried.
        #expect(!serverLog.contains("frame failed"))
        // The service manager is told why laminad stops.
        var notices: [String] = []
        while let message = notify.next(timeout: 0.5) { notices.append(message) }
        #expect(notices.contains("STOPPING=1\nSTATUS=\(line)"), "\(notices)")
        #expect(context.connection.serverError == nil)

        let second = try TestServer(width: 64, height: 48, socketPath: socketPath)
        defer { ServerRestartTests.finish(second) }
        try #require(reconnected.wait(), "the context did not reconnect within 30 s")
        #expect(context.reconnectCount == 1)
        // Both surfaces were registered again with the new server.
        CATransaction.lock()
        #expect(context.surfaceRegistrations == registeredBefore + 2)
        CATransaction.unlock()
        #expect(try SurfaceTests.statistics("device-loss", from: context).surfaces == 2)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        ticker.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        CATransaction.commit()
        try context.synchronize()
        let after = try context.capture()
        Self.expectScene(after, ticker: (255, 255, 255), "after the restart")
        #expect(after.width == before.width && after.height == before.height)
        #expect(after.premultipliedRGBA == before.premultipliedRGBA, "the same pixels as before the loss")
        withExtendedLifetime(drawable) {}
    }
}

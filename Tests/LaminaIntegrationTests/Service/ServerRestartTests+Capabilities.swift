import Foundation
@testable import Lamina
import LaminaProtocol
import LaminaTesting
import Testing

extension ServerRestartTests {
    /// A context asks a restarted server for its surface capabilities again: the answer replaces the
    /// first server's (here the second server announces another device UUID, `LAMINA_TEST_DEVICE_UUID`).
    @Test func theRestartedServersSurfaceCapabilitiesReplaceTheFirstOnes() throws {
        let first = try TestServer(width: 200, height: 100, socketPath: socketPath)
        let context = try CAContext(socketPath: socketPath, clientName: "restart")
        let reconnected = ReconnectWaiter(context)
        _ = try Self.makeScene(context)
        let before = try context.surfaceCapabilities()
        #expect(before.hasVulkanDevice)
        first.kill()
        let other = [UInt8](repeating: 0xAB, count: 16)
        let second = try TestServer(
            width: 200, height: 100, environment: ["LAMINA_TEST_DEVICE_UUID": String(repeating: "ab", count: 16)],
            socketPath: socketPath)
        defer { Self.finish(second) }
        try #require(reconnected.wait(), "the context did not reconnect within 30 s")
        Self.waitFor(timeout: 10) { (try? context.surfaceCapabilities().deviceUUID) == other }
        let after = try context.surfaceCapabilities()
        #expect(after.deviceUUID == other && before.deviceUUID != other)
        #expect(after.driverUUID == before.driverUUID)
    }
}

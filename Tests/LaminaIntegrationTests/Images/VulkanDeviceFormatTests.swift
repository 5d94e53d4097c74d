import CVulkan
import CVulkanXcb  // the test target imports both; a constant may come from either (they share vulkan_core.h)
import Foundation
@testable import Lamina
import LaminaProtocol
import LaminaTesting
import Testing

/// Device drawables of every format the server takes, on a server of their own whose validation
/// report is checked when it stops: both processes stay validation-clean.
@Suite(.serialized) struct VulkanDeviceFormatTests {
    @Test func everyAnnouncedFormatShowsItsColourAndBothProcessesStayClean() throws {
        let server = try TestServer(width: 64, height: 48)
        let app = try AppVulkanDevice()
        do {
            let context = try server.connect(name: "formats")
            let capabilities = try context.surfaceCapabilities()
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
            root.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            let layer = CAVulkanLayer()
            layer.frame = CGRect(x: 8, y: 8, width: 16, height: 16)
            layer.device = app.layerDevice
            root.addSublayer(layer)
            context.layer = root
            try context.synchronize()
            // Lavapipe imports and samples every allowed format (the list the server measured).
            #expect(Set(capabilities.drawableFormats) == Set(DrawableFormat.allowed), "\(capabilities.drawableFormats)")
            for (index, format) in capabilities.drawableFormats.enumerated() {
                layer.pixelFormat = VkFormat(rawValue: format)
                let drawable = try #require(layer.nextDrawable(), "no drawable of VkFormat \(format)")
                #expect(drawable.pixelFormat.rawValue == format)
                // Pure red and blue are the same in every format (sRGB encodes 0 and 1 as 0 and 1),
                // and tell a swapped channel order apart: the capture shows exactly them.
                let color: (Float, Float, Float) = index % 2 == 0 ? (1, 0, 0) : (0, 0, 1)
                try app.clear(drawable, to: (color.0, color.1, color.2, 1))
                drawable.present()
                let deadline = Date().addingTimeInterval(5)
                while drawable.presentedTime == 0, Date() < deadline { usleep(5_000) }
                #expect(drawable.presentedTime > 0, "VkFormat \(format) was not shown")
                let p = try context.capture().pixel(x: 16, y: 16)
                let expected = (UInt8(color.0 * 255), UInt8(color.1 * 255), UInt8(color.2 * 255))
                #expect(
                    p.red == expected.0 && p.green == expected.1 && p.blue == expected.2 && p.alpha == 255,
                    "VkFormat \(format): \(p)")
            }
            #expect(try context.statistics().first { $0.name == "formats" }?.surfaceBytesCopied == 0)
        }
        vkDeviceWaitIdle(app.device)
        #expect(AppVulkanDevice.validationMessages.isEmpty, "\(AppVulkanDevice.validationMessages)")
        let report = server.stop()
        #expect(report.validationMessages.isEmpty, "\(report.validationMessages)")
        #expect(report.exitStatus == 0, "\(report.log)")
    }
}

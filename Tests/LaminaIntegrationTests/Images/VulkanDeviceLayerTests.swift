import CLaminaShims
import CVulkan
import CVulkanXcb  // the test target imports both; a constant may come from either (they share vulkan_core.h)
import Foundation
import Glibc
@testable import Lamina
import LaminaProtocol
import LaminaTesting
import Testing

/// `CAVulkanLayer` with a `device` against a real `laminad`: the test renders on its own Vulkan
/// device (lavapipe, validation on), the drawables' images travel once as opaque fds, and the server
/// samples them in place. Also the surface capabilities the server announces, the UUID check on both
/// sides, and hostile registrations.
@Suite(.serialized) final class VulkanDeviceLayerTests: VictimSuite {
    /// A 16×16 CAVulkanLayer with `device` at (8, 8) in `context`'s tree.
    func layer(in context: CAContext, device: CAVulkanDevice) throws -> CAVulkanLayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let layer = CAVulkanLayer()
        layer.frame = CGRect(x: 8, y: 8, width: 16, height: 16)
        layer.device = device
        root.addSublayer(layer)
        context.layer = root
        try context.synchronize()
        return layer
    }

    /// Waits up to 5 s for `drawable` to be shown; its presented time.
    func presented(_ drawable: CAVulkanDrawable) -> Double {
        let deadline = Date().addingTimeInterval(5)
        while drawable.presentedTime == 0, Date() < deadline { usleep(5_000) }
        return drawable.presentedTime
    }

    @Test func theServerAnnouncesItsDeviceAndTheRowAlignmentOfZeroCopySurfaces() throws {
        let app = try AppVulkanDevice()
        let context = try server.connect(name: "capabilities")
        let capabilities = try context.surfaceCapabilities()
        // Same lavapipe build in both processes: the same UUIDs (VkPhysicalDeviceIDProperties).
        #expect(capabilities.deviceUUID == app.layerDevice.deviceUUID)
        #expect(capabilities.driverUUID == app.layerDevice.driverUUID)
        #expect(capabilities.hasVulkanDevice)
        #expect(capabilities.memoryKinds.contains(.opaqueFD) && capabilities.memoryKinds.contains(.hostMemory))
        // The row alignment is the pitch the device gives a one-pixel-wide linear BGRA image.
        let pitch = app.linearRowPitch()
        #expect(pitch > 0 && capabilities.rowAlignment == UInt32(pitch))
        #expect(capabilities.hostPointerAlignment > 0)
        #expect(capabilities.drawableFormats.contains(DrawableFormat.bgra8Unorm))
        #expect(capabilities.drawableFormats.allSatisfy(DrawableFormat.allowed.contains))
        // A surface made now rounds its rows up to that alignment.
        #expect(IOSurface.defaultRowAlignment == pitch)
        let surface = try #require(IOSurface(properties: [.width: 5, .height: 2]))
        #expect(surface.bytesPerRow == (20 + pitch - 1) / pitch * pitch)
        #expect(AppVulkanDevice.validationMessages.isEmpty, "\(AppVulkanDevice.validationMessages)")
    }

    @Test func drawablesRenderedOnTheAppsDeviceAreShownWithoutACopy() throws {
        let app = try AppVulkanDevice()
        let context = try server.connect(name: "device-layer")
        let layer = try layer(in: context, device: app.layerDevice)
        // Apple's defaults (developer.apple.com/documentation/quartzcore/cametallayer): pixelFormat
        // .bgra8Unorm, framebufferOnly true, colorspace nil.
        #expect(layer.pixelFormat == VK_FORMAT_B8G8R8A8_UNORM && layer.framebufferOnly && layer.colorspace == nil)
        let colors: [(Float, Float, Float)] = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0)]
        var times: [Double] = []
        var images: Set<UInt64> = []
        for color in colors {
            let drawable = try #require(layer.nextDrawable())
            images.insert(try #require(drawable.deviceImage?.contentsID))
            #expect(
                drawable.surface == nil && drawable.image != nil && drawable.pixelFormat == VK_FORMAT_B8G8R8A8_UNORM)
            try app.clear(drawable, to: (color.0, color.1, color.2, 1))
            drawable.present()
            times.append(presented(drawable))
            let expected = (UInt8(color.0 * 255), UInt8(color.1 * 255), UInt8(color.2 * 255))
            try SurfaceTests.expectPixel(context, 12, 12, expected)
            try SurfaceTests.expectPixel(context, 23, 23, expected)
            // Outside the layer this context draws nothing: the victim's background shows.
            let outside = try context.capture().pixel(x: 30, y: 30)
            #expect(outside.red == 0 && (127...128).contains(outside.green) && outside.blue == 255, "\(outside)")
        }
        #expect(times.allSatisfy { $0 > 0 } && zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(times)")
        let stats = try SurfaceTests.statistics("device-layer", from: context)
        // Nothing copied; each image the pool handed out is registered once and stays registered
        // while the pool keeps it (a freed image comes back as soon as the server released it, so
        // four presents need fewer than four images).
        #expect(stats.surfaceBytesCopied == 0)
        #expect(images.count < colors.count && stats.surfaces == images.count, "\(stats), images \(images)")
        vkDeviceWaitIdle(app.device)
        #expect(AppVulkanDevice.validationMessages.isEmpty, "\(AppVulkanDevice.validationMessages)")
    }

    /// A device drawable's timed present waits for the app's rendering, then rides on the same
    /// present queue as a CPU drawable's: Apple's `present(at:)` (developer.apple.com/documentation/
    /// metal/mtldrawable) shows it at the first frame at or after the time, never earlier.
    @Test func aDeviceDrawablePresentedAtATimeIsNotShownBeforeIt() throws {
        let app = try AppVulkanDevice()
        let context = try server.connect(name: "device-present-at")
        let layer = try layer(in: context, device: app.layerDevice)
        let first = try #require(layer.nextDrawable())
        try app.clear(first, to: (1, 0, 0, 1))
        first.present()
        #expect(presented(first) > 0)
        let second = try #require(layer.nextDrawable())
        try app.clear(second, to: (0, 0, 1, 1))
        let t0 = CACurrentMediaTime() + 0.5
        second.present(at: t0)
        let shownAt = presented(second)
        #expect(shownAt >= t0, "presented at \(shownAt), before its time \(t0)")
        try SurfaceTests.expectPixel(context, 12, 12, (0, 0, 255))
        vkDeviceWaitIdle(app.device)
        #expect(AppVulkanDevice.validationMessages.isEmpty, "\(AppVulkanDevice.validationMessages)")
    }

    /// As Apple's drawables come back only once off screen, a device image comes back only once the
    /// server has said that no frame samples it any more (`surfaceReleased`): a frame still on the
    /// device never reads an image the app renders into.
    @Test func deviceImagesAreReusedOnlyAfterTheServerReleasedThem() throws {
        let app = try AppVulkanDevice()
        let context = try server.connect(name: "device-reuse")
        let layer = try layer(in: context, device: app.layerDevice)
        layer.maximumDrawableCount = 2
        var shown: [UInt64] = []
        for i in 0..<6 {
            let drawable = try #require(layer.nextDrawable())
            let id = try #require(drawable.deviceImage?.contentsID)
            let shownBefore = shown.filter { $0 == id }.count
            #expect(layer.releases(of: id) >= shownBefore, "image \(id) handed out again before its release")
            try app.clear(drawable, to: (Float(i) / 5, 1, 0, 1))
            drawable.present()
            #expect(presented(drawable) > 0)
            shown.append(id)
        }
        #expect(Set(shown).count == 2, "\(shown)")
        try SurfaceTests.expectPixel(context, 12, 12, (255, 255, 0))
        vkDeviceWaitIdle(app.device)
        #expect(AppVulkanDevice.validationMessages.isEmpty, "\(AppVulkanDevice.validationMessages)")
    }

    /// A drawable whose rendering never signals its value stalls nothing but itself: the library's
    /// wait gives up (`renderingTimeout`), the drawable is dropped (`presentedTime` 0, its handler
    /// called) with a named diagnostic, the layer keeps its last frame, another client renders on,
    /// and the next drawable is shown. The server never waits on a value the client controls.
    @Test func aDrawableWhoseRenderingNeverSignalsIsDroppedAndStallsNothing() throws {
        let app = try AppVulkanDevice()
        let recorder = DiagnosticsRecorder()
        defer { recorder.stop() }
        let context = try server.connect(name: "never-signals")
        let layer = try layer(in: context, device: app.layerDevice)
        let first = try #require(layer.nextDrawable())
        try app.clear(first, to: (1, 0, 0, 1))
        first.present()
        #expect(presented(first) > 0)
        CAVulkanLayer.renderingTimeout = 0.3
        defer { CAVulkanLayer.renderingTimeout = 5 }
        let silent = try #require(layer.nextDrawable())
        let dropped = DispatchSemaphore(value: 0)
        silent.addPresentedHandler { _ in dropped.signal() }
        silent.present()  // nothing was submitted: its value is never signalled
        #expect(dropped.wait(timeout: .now() + 5) == .success)
        #expect(silent.presentedTime == 0)
        let refusals = recorder.diagnostics.filter { $0.kind == .drawableRefused }
        #expect(refusals.contains { $0.message.contains("did not signal") }, "\(refusals)")
        try SurfaceTests.expectPixel(context, 12, 12, (255, 0, 0))
        // Where this client draws nothing, the other client's background shows.
        let p = try victim.capture().pixel(x: 30, y: 30)
        #expect(p.red == 0 && (127...128).contains(p.green) && p.blue == 255, "victim's pixels: \(p)")
        let next = try #require(layer.nextDrawable())
        try app.clear(next, to: (0, 1, 0, 1))
        next.present()
        #expect(presented(next) > 0)
        try SurfaceTests.expectPixel(context, 12, 12, (0, 255, 0))
        vkDeviceWaitIdle(app.device)
        #expect(AppVulkanDevice.validationMessages.isEmpty, "\(AppVulkanDevice.validationMessages)")
    }

    /// A device drawable whose image the server cannot take (8,200 pixels wide: the app's device makes
    /// it, the server's limit is 8,192 a side) is refused by name without disconnecting: never shown
    /// (`presentedTime` 0, its handler called, as Apple's for a drawable that was not presented), the
    /// layer keeps its last frame, and the next drawable of a size the server takes is shown.
    @Test func aDeviceDrawableTheServerRefusesIsNotPresentedAndTheLayerKeepsItsLastFrame() throws {
        let app = try AppVulkanDevice()
        let recorder = DiagnosticsRecorder()
        defer { recorder.stop() }
        let context = try server.connect(name: "device-refused")
        let layer = try layer(in: context, device: app.layerDevice)
        let first = try #require(layer.nextDrawable())
        try app.clear(first, to: (1, 0, 0, 1))
        first.present()
        #expect(presented(first) > 0)
        layer.drawableSize = CGSize(width: 8200, height: 1)
        let wide = try #require(layer.nextDrawable())
        try app.clear(wide, to: (0, 1, 0, 1))
        let dropped = DispatchSemaphore(value: 0)
        wide.addPresentedHandler { _ in dropped.signal() }
        wide.present()
        #expect(dropped.wait(timeout: .now() + 5) == .success)
        #expect(wide.presentedTime == 0)
        let id = try #require(wide.deviceImage?.contentsID)
        let refusals = recorder.diagnostics.filter { $0.kind == .drawableRefused }
        #expect(
            refusals.contains { $0.message.contains("surface \(id) ") && $0.message.contains("8192") }, "\(refusals)")
        try SurfaceTests.expectPixel(context, 12, 12, (255, 0, 0))
        layer.drawableSize = CGSize(width: 16, height: 16)
        let next = try #require(layer.nextDrawable())
        try app.clear(next, to: (0, 0, 1, 1))
        next.present()
        #expect(presented(next) > 0)
        try SurfaceTests.expectPixel(context, 12, 12, (0, 0, 255))
        #expect(try victim.statistics().contains { $0.name == "device-refused" })
        vkDeviceWaitIdle(app.device)
        #expect(AppVulkanDevice.validationMessages.isEmpty, "\(AppVulkanDevice.validationMessages)")
    }

    /// A hostile registration: what is sent (built from the server's own UUIDs) and the refusal expected.
    struct Hostile: CustomTestStringConvertible, Sendable {
        var name: String
        var image: @Sendable (_ device: [UInt8], _ driver: [UInt8]) -> DeviceImageDescription
        /// Bytes of the plain memfd sent as the "exported" memory.
        var memfdBytes = 1 << 16
        var code: ServerErrorCode
        var text: String
        var testDescription: String { name }
    }

    /// A 64×64 BGRA registration with id 30 and an allocation of its pixels' bytes (what lavapipe's
    /// `vkGetImageMemoryRequirements` gives it), changed by `change`.
    static func image(
        _ device: [UInt8], _ driver: [UInt8], _ change: (inout DeviceImageDescription) -> Void = { _ in }
    ) -> DeviceImageDescription {
        var d = DeviceImageDescription(
            id: 30, width: 64, height: 64, format: DrawableFormat.bgra8Unorm, usage: 0x16, flags: 0, tiling: 0,
            allocationSize: 64 * 64 * 4, deviceUUID: device, driverUUID: driver)
        change(&d)
        return d
    }

    static let hostile: [Hostile] = [
        Hostile(
            name: "id 0", image: { image($0, $1) { $0.id = 0 } }, code: .invalidValue,
            text: "device image id 0 is reserved")
    ]

    /// Well-formed registrations whose values this server cannot take: refused by name
    /// (`surfaceRefused`), the client stays connected (docs/protocol.md §4.2).
    static let refused: [Hostile] = [
        Hostile(
            name: "unsupported format", image: { image($0, $1) { $0.format = 9 } }, code: .deviceImageRefused,
            text: "device image 30 has VkFormat 9; this server takes"),
        Hostile(
            name: "oversized extent", image: { image($0, $1) { $0.width = 8193 } }, code: .invalidValue,
            text: "device image 30 is 8193x64 pixels; each side must be from 1 to 8192"),
        Hostile(
            name: "allocation smaller than the pixels", image: { image($0, $1) { $0.allocationSize = 100 } },
            code: .invalidValue, text: "device image 30 claims an allocation of 100 bytes"),
        Hostile(
            name: "absurd allocation", image: { image($0, $1) { $0.allocationSize = 1 << 40 } },
            code: .invalidValue, text: "device image 30 claims an allocation of 1099511627776 bytes"),
        Hostile(
            name: "usage without sampled", image: { image($0, $1) { $0.usage = 0x10 } }, code: .invalidValue,
            text: "device image 30 has usage 0x10"),
        Hostile(
            name: "create flags", image: { image($0, $1) { $0.flags = 8 } }, code: .invalidValue,
            text: "device image 30 has flags 0x8"),
        Hostile(
            name: "memfd smaller than the allocation", image: { image($0, $1) }, memfdBytes: 100,
            code: .badFileDescriptor, text: "smaller than the 16384 bytes allocated"),
        // Refused by the device on the frame worker, after the loop accepted the registration: the
        // client's later messages waited for the import, so the refusal comes before them.
        Hostile(
            name: "plain memfd instead of exported memory", image: { image($0, $1) }, code: .deviceImageRefused,
            text: "image 30: the renderer refused it: the device refused its memory as an opaque fd"),
        Hostile(
            name: "allocation other than the image needs", image: { image($0, $1) { $0.allocationSize = 20_000 } },
            code: .deviceImageRefused,
            text: "image 30: the renderer refused it: its allocation of 20000 bytes is not the 16384 bytes"),
    ]

    /// A raw client named `name` that asked the server's capabilities and registered `c`'s device
    /// image (on a memfd of `c.memfdBytes`) with them; nil, with an issue recorded, when no
    /// capabilities came.
    func registering(_ c: Hostile, as name: String) throws -> SeqPacketSocket? {
        let socket = try ImageUploadTests.rawClient(server, name: name)
        try socket.send(MessageCodec.encode(ClientMessage.requestSurfaceCapabilities(requestID: 1)))
        guard case .surfaceCapabilities(1, let capabilities) = try ImageUploadTests.nextReply(on: socket) else {
            Issue.record("no surfaceCapabilities reply")
            return nil
        }
        let fd = OwnedFD(clamina_memfd_create(name))
        _ = ftruncate(fd.rawValue, off_t(c.memfdBytes))
        let image = c.image(capabilities.deviceUUID, capabilities.driverUUID)
        try withExtendedLifetime(fd) {
            try socket.send(MessageCodec.encode(ClientMessage.registerDeviceImage(image)), fds: [fd.rawValue])
        }
        return socket
    }

    @Test(arguments: refused)
    func aRegistrationTheServerCannotTakeIsRefusedByNameAndTheClientStays(_ c: Hostile) throws {
        guard let socket = try registering(c, as: "refused") else { return }
        let refusal = ImageUploadTests.Case(name: c.name, send: { _ in }, code: c.code, text: c.text)
        #expect(try ImageUploadTests.expectSurfaceRefused(refusal, on: socket) == 30)
        let p = try victim.capture().pixel(x: 10, y: 10)
        #expect(p.red == 0 && (127...128).contains(p.green) && p.blue == 255 && p.alpha == 255, "victim's pixels: \(p)")
        #expect(try victim.statistics().contains { $0.name == "refused" })
        #expect(server.isRunning)
    }

    @Test(arguments: hostile)
    func aHostileRegistrationIsRefusedAndOnlyThatClientIsDropped(_ c: Hostile) throws {
        guard let socket = try registering(c, as: "hostile") else { return }
        // A commit showing it follows, as a client's would; the server may have closed the connection
        // already (a refusal on receipt), so the send may fail.
        try? socket.send(ImageUploadTests.commit([.createLayer(1), .set(1, .contents(30))]))
        let refusal = ImageUploadTests.Case(name: c.name, send: { _ in }, code: c.code, text: c.text)
        guard try ImageUploadTests.expectRefusal(refusal, on: socket) else { return }
        let p = try victim.capture().pixel(x: 10, y: 10)
        #expect(p.red == 0 && (127...128).contains(p.green) && p.blue == 255 && p.alpha == 255, "victim's pixels: \(p)")
        #expect(try !victim.statistics().contains { $0.name == "hostile" })
        #expect(server.isRunning)
    }

    @Test func framebufferOnlyPicksTheImagesUsage() throws {
        // Apple: framebufferOnly defaults to true (developer.apple.com/documentation/quartzcore/
        // cametallayer/framebufferonly); false lets the app do more than render into the texture.
        let app = try AppVulkanDevice()
        let context = try server.connect(name: "usage")
        let layer = try layer(in: context, device: app.layerDevice)
        let colorAttachment = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue
        let base = colorAttachment | VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue | VK_IMAGE_USAGE_SAMPLED_BIT.rawValue
        let framebuffer = try #require(layer.nextDrawable())
        #expect(framebuffer.deviceImage?.description.usage == base)
        layer.framebufferOnly = false
        let free = try #require(layer.nextDrawable())
        #expect(
            free.deviceImage?.description.usage
                == base | VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue | VK_IMAGE_USAGE_STORAGE_BIT.rawValue)
        #expect(AppVulkanDevice.validationMessages.isEmpty, "\(AppVulkanDevice.validationMessages)")
    }

    @Test func anUnsupportedPixelFormatIsAPreconditionAndTheAllowedOnesAreAccepted() throws {
        // Apple raises for a pixel format a CAMetalLayer cannot show; Lamina's allow-list is
        // DrawableFormat.allowed (a precondition failure cannot be caught in-process, so only the
        // accepted values are set here).
        let layer = CAVulkanLayer()
        for format in DrawableFormat.allowed {
            layer.pixelFormat = VkFormat(rawValue: format)
            #expect(layer.pixelFormat.rawValue == format)
        }
    }
}

/// A server whose announced device UUID is not lavapipe's (`LAMINA_TEST_DEVICE_UUID`): the client
/// refuses to make drawables, and a registration sent anyway is refused with `deviceMismatch`.
@Suite(.serialized) final class VulkanDeviceMismatchTests {
    let server: TestServer

    init() throws {
        server = try TestServer(
            width: 64, height: 48, environment: ["LAMINA_TEST_DEVICE_UUID": String(repeating: "ab", count: 16)])
    }

    deinit {
        let report = server.stop()
        if !report.validationMessages.isEmpty || report.exitStatus != 0 {
            print("laminad ended badly (status \(report.exitStatus)):\n\(report.log)")
        }
    }

    @Test func aDeviceOfAnotherUUIDGetsNoDrawablesAndANamedDiagnostic() throws {
        let app = try AppVulkanDevice()
        let recorder = DiagnosticsRecorder()
        defer { recorder.stop() }
        let context = try server.connect(name: "mismatch")
        #expect(try context.surfaceCapabilities().deviceUUID == [UInt8](repeating: 0xAB, count: 16))
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let layer = CAVulkanLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
        layer.device = app.layerDevice
        root.addSublayer(layer)
        context.layer = root
        try context.synchronize()
        #expect(layer.nextDrawable() == nil)
        let refusals = recorder.diagnostics.filter { $0.kind == .drawableRefused }
        #expect(refusals.contains { $0.message.contains("cannot import this device's images") }, "\(refusals)")
        #expect(server.isRunning)
    }

    @Test func aRegistrationWithTheWrongUUIDIsRefusedWithDeviceMismatch() throws {
        let socket = try ImageUploadTests.rawClient(server, name: "liar")
        let fd = OwnedFD(clamina_memfd_create("liar"))
        _ = ftruncate(fd.rawValue, 4096)
        let image = DeviceImageDescription(
            id: 5, width: 8, height: 8, format: DrawableFormat.bgra8Unorm, usage: 0x16, flags: 0, tiling: 0,
            allocationSize: 4096, deviceUUID: Array(1...16), driverUUID: Array(1...16))
        try withExtendedLifetime(fd) {
            try socket.send(MessageCodec.encode(ClientMessage.registerDeviceImage(image)), fds: [fd.rawValue])
        }
        let c = ImageUploadTests.Case(
            name: "mismatch", send: { _ in }, code: .deviceMismatch,
            text: "device image 5 was made on device 0102030405060708090a0b0c0d0e0f10")
        // Well-formed, from another device: refused by name, the client stays connected.
        #expect(try ImageUploadTests.expectSurfaceRefused(c, on: socket) == 5)
        #expect(server.isRunning)
    }
}

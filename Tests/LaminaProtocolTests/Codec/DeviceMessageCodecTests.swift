// Byte-by-byte layouts of the Vulkan-device drawable messages (docs/protocol.md §4.2).
import Foundation
import LaminaCore
import Testing

@testable import LaminaProtocol

@Suite struct DeviceMessageCodecTests {
    /// The 8-byte header of a message of `type` with a payload of `length` bytes.
    func header(_ type: UInt8, _ length: UInt8) -> [UInt8] { [type, 0, 0, 0, length, 0, 0, 0] }

    @Test func requestSurfaceCapabilitiesIsSeventeenWithARequestID() throws {
        let bytes = MessageCodec.encode(ClientMessage.requestSurfaceCapabilities(requestID: 0x0102))
        #expect(bytes == header(17, 8) + [2, 1, 0, 0, 0, 0, 0, 0])
        #expect(try MessageCodec.decodeClient(bytes) == .requestSurfaceCapabilities(requestID: 0x0102))
    }

    @Test func registerDeviceImageLayout() throws {
        let image = DeviceImageDescription(
            id: 9, width: 640, height: 480, format: DrawableFormat.bgra8Unorm, usage: 0x16, flags: 0, tiling: 0,
            allocationSize: 0x12_C000, deviceUUID: Array(1...16), driverUUID: Array(17...32))
        let bytes = MessageCodec.encode(ClientMessage.registerDeviceImage(image))
        // Type 18; u64 id, u32 width, height, format (VK_FORMAT_B8G8R8A8_UNORM = 44), usage, flags,
        // tiling, u64 allocation size, 16 bytes device UUID, 16 bytes driver UUID: 72 bytes.
        let expected: [UInt8] =
            header(18, 72) + [9, 0, 0, 0, 0, 0, 0, 0] + [0x80, 0x02, 0, 0] + [0xE0, 0x01, 0, 0] + [44, 0, 0, 0]
            + [0x16, 0, 0, 0] + [0, 0, 0, 0] + [0, 0, 0, 0] + [0x00, 0xC0, 0x12, 0, 0, 0, 0, 0] + Array(1...32)
        #expect(bytes == expected)
        #expect(try MessageCodec.decodeClient(bytes) == .registerDeviceImage(image))
        // Cut inside the driver UUID: the decoder names it.
        var cut = Array(bytes.prefix(8 + 60))
        cut[4] = 60
        do {
            _ = try MessageCodec.decodeClient(cut)
            Issue.record("a registerDeviceImage without its driver UUID decoded")
        } catch {
            #expect("\(error)".contains("registerDeviceImage.driverUUID"))
        }
    }

    @Test func surfaceCapabilitiesLayout() throws {
        let capabilities = SurfaceCapabilities(
            deviceUUID: Array(1...16), driverUUID: Array(17...32), rowAlignment: 64, hostPointerAlignment: 4096,
            memoryKinds: [.hostMemory, .opaqueFD], drawableFormats: [44, 97])
        let bytes = MessageCodec.encode(ServerMessage.surfaceCapabilities(requestID: 5, capabilities))
        // Type 121; u64 request id, the UUIDs, u32 row alignment, host pointer alignment, memory kinds
        // (bit 0 host memory, bit 1 opaque fd), u32 count and the formats.
        let expected: [UInt8] =
            header(121, 64) + [5, 0, 0, 0, 0, 0, 0, 0] + Array(1...32) + [64, 0, 0, 0] + [0, 0x10, 0, 0] + [3, 0, 0, 0]
            + [2, 0, 0, 0] + [44, 0, 0, 0] + [97, 0, 0, 0]
        #expect(bytes == expected)
        #expect(try MessageCodec.decodeServer(bytes) == .surfaceCapabilities(requestID: 5, capabilities))
    }

    @Test func aCapabilitiesReplyWithTooManyFormatsIsRefused() {
        var w = WireWriter()
        w.u64(1)
        for _ in 0..<32 { w.u8(0) }
        w.u32(64); w.u32(4096); w.u32(2)
        w.u32(UInt32(SurfaceCapabilities.maximumFormats + 1))
        for _ in 0...SurfaceCapabilities.maximumFormats { w.u32(44) }
        let bytes = header(121, 0).prefix(4) + withUnsafeBytes(of: UInt32(w.bytes.count).littleEndian) { Array($0) }
        do {
            _ = try MessageCodec.decodeServer(Array(bytes) + w.bytes)
            Issue.record("65 formats decoded")
        } catch {
            #expect("\(error)".contains("surfaceCapabilities.formats"))
        }
    }

    @Test func theErrorCodesAreTwentyThreeAndTwentyFour() {
        #expect(ServerErrorCode.deviceMismatch.rawValue == 23)
        #expect(ServerErrorCode.deviceImageRefused.rawValue == 24)
        #expect(MessageType.requestSurfaceCapabilities.rawValue == 17)
        #expect(MessageType.registerDeviceImage.rawValue == 18)
        #expect(MessageType.surfaceCapabilities.rawValue == 121)
    }

    @Test func theAllowedFormatsAreTheVulkanRegistrysNumbers() {
        // VkFormat values from the Vulkan registry (vk.xml): B8G8R8A8_UNORM 44, B8G8R8A8_SRGB 50,
        // R8G8B8A8_UNORM 37, R8G8B8A8_SRGB 43, A2B10G10R10_UNORM_PACK32 64, R16G16B16A16_SFLOAT 97.
        #expect(DrawableFormat.allowed == [44, 50, 37, 43, 64, 97])
        #expect(DrawableFormat.allowed.map { DrawableFormat.bytesPerPixel($0) } == [4, 4, 4, 4, 4, 8])
        #expect(DrawableFormat.bytesPerPixel(0) == nil)
        #expect(!SurfaceCapabilities.none.hasVulkanDevice)
    }
}

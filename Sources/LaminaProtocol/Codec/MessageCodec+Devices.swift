import Foundation
import LaminaCore

/// The wire of Vulkan-device drawables (docs/protocol.md §4.2): `requestSurfaceCapabilities` and
/// its `surfaceCapabilities` reply, and `registerDeviceImage`.
extension MessageCodec {
    /// Writes a device image's description: u64 id, u32 width, height, format, usage, flags, tiling,
    /// u64 allocation size, then the 16-byte device and driver UUIDs.
    static func encode(_ image: DeviceImageDescription, into w: inout WireWriter) {
        w.u64(image.id); w.u32(image.width); w.u32(image.height); w.u32(image.format); w.u32(image.usage)
        w.u32(image.flags); w.u32(image.tiling); w.u64(image.allocationSize)
        uuid(image.deviceUUID, into: &w)
        uuid(image.driverUUID, into: &w)
    }

    /// Reads a `registerDeviceImage` payload.
    static func deviceImage(_ r: inout WireReader) throws(WireError) -> DeviceImageDescription {
        DeviceImageDescription(
            id: try r.u64("registerDeviceImage.id"), width: try r.u32("registerDeviceImage.width"),
            height: try r.u32("registerDeviceImage.height"), format: try r.u32("registerDeviceImage.format"),
            usage: try r.u32("registerDeviceImage.usage"), flags: try r.u32("registerDeviceImage.flags"),
            tiling: try r.u32("registerDeviceImage.tiling"),
            allocationSize: try r.u64("registerDeviceImage.allocationSize"),
            deviceUUID: try uuid(&r, "registerDeviceImage.deviceUUID"),
            driverUUID: try uuid(&r, "registerDeviceImage.driverUUID"))
    }

    /// Writes capabilities: the UUIDs, u32 row alignment, host pointer alignment, memory kinds, then a
    /// u32 count of formats and each format as u32.
    static func encode(_ capabilities: SurfaceCapabilities, into w: inout WireWriter) {
        uuid(capabilities.deviceUUID, into: &w)
        uuid(capabilities.driverUUID, into: &w)
        w.u32(capabilities.rowAlignment); w.u32(capabilities.hostPointerAlignment)
        w.u32(capabilities.memoryKinds.rawValue)
        let formats = capabilities.drawableFormats.prefix(SurfaceCapabilities.maximumFormats)
        w.u32(UInt32(formats.count))
        for f in formats { w.u32(f) }
    }

    /// Reads a `surfaceCapabilities` payload after its request id.
    static func capabilities(_ r: inout WireReader) throws(WireError) -> SurfaceCapabilities {
        let device = try uuid(&r, "surfaceCapabilities.deviceUUID")
        let driver = try uuid(&r, "surfaceCapabilities.driverUUID")
        let rowAlignment = try r.u32("surfaceCapabilities.rowAlignment")
        let hostAlignment = try r.u32("surfaceCapabilities.hostPointerAlignment")
        let kinds = try r.u32("surfaceCapabilities.memoryKinds")
        let n = try r.count(
            "surfaceCapabilities.formats", limit: SurfaceCapabilities.maximumFormats, minimumElementSize: 4)
        var formats: [UInt32] = []
        for _ in 0..<n { formats.append(try r.u32("surfaceCapabilities.format")) }
        return SurfaceCapabilities(
            deviceUUID: device, driverUUID: driver, rowAlignment: rowAlignment, hostPointerAlignment: hostAlignment,
            memoryKinds: .init(rawValue: kinds), drawableFormats: formats)
    }

    /// Writes a UUID as its 16 bytes (a shorter array is padded with zeros, a longer one cut).
    static func uuid(_ bytes: [UInt8], into w: inout WireWriter) {
        for i in 0..<SurfaceCapabilities.uuidSize { w.u8(i < bytes.count ? bytes[i] : 0) }
    }

    /// Reads a 16-byte UUID.
    static func uuid(_ r: inout WireReader, _ field: String) throws(WireError) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<SurfaceCapabilities.uuidSize { bytes.append(try r.u8(field)) }
        return bytes
    }
}

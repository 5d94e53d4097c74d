import Foundation
import LaminaCore
import LaminaProtocol

/// Seeds for shared surfaces (issue 23): registration, release and `surfaceChanged`, valid and
/// hostile (the fuzzer carries no descriptor, so every registration is refused for its missing memfd
/// unless mutated into another message; the values still exercise the decoder).
extension SeedCorpus {
    static func surfaceClientMessages() -> [(String, ClientMessage)] {
        [
            (
                "register-surface",
                .registerSurface(id: 40, width: 64, height: 48, stride: 256, format: SurfaceFormat.bgra8)
            ),
            ("release-surface", .releaseSurface(id: 40)),
            ("surface-feedback-on", .surfaceFeedback(id: 40, enabled: true)),
            ("surface-feedback-off", .surfaceFeedback(id: 40, enabled: false)),
            (
                "register-surface-nv12",
                .registerSurface(
                    id: 44, width: 64, height: 48, stride: 64, format: SurfaceFormat.nv12VideoRange,
                    planes: SurfacePlanes(
                        lumaOffset: 0, chromaOffset: 3072, chromaStride: 64, matrix: SurfacePlanes.bt601,
                        chromaLocation: SurfacePlanes.chromaLeft))
            ),
            ("request-surface-capabilities", .requestSurfaceCapabilities(requestID: 71)),
            (
                "register-device-image",
                .registerDeviceImage(
                    DeviceImageDescription(
                        id: 46, width: 64, height: 48, format: DrawableFormat.bgra8Unorm, usage: 0x16, flags: 0,
                        tiling: 0, allocationSize: 12_288, deviceUUID: Array(1...16), driverUUID: Array(17...32)))
            ),
            (
                "register-surface-p010",
                .registerSurface(
                    id: 46, width: 64, height: 48, stride: 128, format: SurfaceFormat.p010VideoRange,
                    planes: SurfacePlanes(
                        lumaOffset: 0, chromaOffset: 6144, chromaStride: 128, matrix: SurfacePlanes.bt709,
                        chromaLocation: SurfacePlanes.chromaTopLeft))
            ),
            (
                "register-surface-p010-full",
                .registerSurface(
                    id: 47, width: 63, height: 47, stride: 128, format: SurfaceFormat.p010FullRange,
                    planes: SurfacePlanes(
                        lumaOffset: 0, chromaOffset: 6016, chromaStride: 128, matrix: SurfacePlanes.bt601))
            ),
            (
                "commit-surface-changed",
                .commit(
                    serial: 70,
                    operations: [
                        .createLayer(1), .set(1, .contents(40)), .setRoot(display: 0, layer: 1), .surfaceChanged(40),
                    ])
            ),
        ]
    }

    static func surfaceHostile() -> [(String, [UInt8])] {
        [
            (
                "surface-bad-format",
                MessageCodec.encode(
                    ClientMessage.registerSurface(id: 41, width: 4, height: 4, stride: 16, format: 0x5247_4241))
            ),
            (
                "surface-huge",
                MessageCodec.encode(
                    ClientMessage.registerSurface(
                        id: 42, width: .max, height: .max, stride: .max, format: SurfaceFormat.bgra8))
            ),
            (
                "surface-nv12-planes-out",
                MessageCodec.encode(
                    ClientMessage.registerSurface(
                        id: 45, width: 16, height: 16, stride: .max, format: SurfaceFormat.nv12FullRange,
                        planes: SurfacePlanes(
                            lumaOffset: .max, chromaOffset: .max, chromaStride: .max, matrix: .max,
                            chromaLocation: .max)))
            ),
            (
                "surface-p010-odd-offsets",
                MessageCodec.encode(
                    ClientMessage.registerSurface(
                        id: 48, width: 16, height: 16, stride: 33, format: SurfaceFormat.p010FullRange,
                        planes: SurfacePlanes(lumaOffset: 1, chromaOffset: 1027, chromaStride: 66, matrix: 1)))
            ),
            (
                "surface-nv12-chroma-location-out",
                MessageCodec.encode(
                    ClientMessage.registerSurface(
                        id: 50, width: 16, height: 16, stride: 64, format: SurfaceFormat.nv12VideoRange,
                        planes: SurfacePlanes(
                            lumaOffset: 0, chromaOffset: 1024, chromaStride: 64, matrix: 6, chromaLocation: 6)))
            ),
            (
                "surface-nv12-overlapping-planes",
                MessageCodec.encode(
                    ClientMessage.registerSurface(
                        id: 49, width: 16, height: 16, stride: 64, format: SurfaceFormat.nv12VideoRange,
                        planes: SurfacePlanes(lumaOffset: 0, chromaOffset: 512, chromaStride: 64, matrix: 6)))
            ),
            (
                "device-image-huge",
                MessageCodec.encode(
                    ClientMessage.registerDeviceImage(
                        DeviceImageDescription(
                            id: 47, width: .max, height: .max, format: .max, usage: .max, flags: .max, tiling: .max,
                            allocationSize: .max, deviceUUID: [UInt8](repeating: 0xFF, count: 16),
                            driverUUID: [UInt8](repeating: 0, count: 16))))
            ),
            (
                "device-image-small-allocation",
                MessageCodec.encode(
                    ClientMessage.registerDeviceImage(
                        DeviceImageDescription(
                            id: 48, width: 64, height: 64, format: DrawableFormat.rgba16Float, usage: 0x4, flags: 0,
                            tiling: 0, allocationSize: 1, deviceUUID: Array(1...16), driverUUID: Array(17...32))))
            ),
            ("surface-unknown-changed", commit([.surfaceChanged(43)])),
            ("surface-zero-changed", commit([.surfaceChanged(0)])),
            ("surface-feedback-unknown", MessageCodec.encode(ClientMessage.surfaceFeedback(id: 43, enabled: true))),
            ("surface-feedback-zero", MessageCodec.encode(ClientMessage.surfaceFeedback(id: 0, enabled: true))),
            (
                "surface-feedback-bad-flag",
                Array(MessageCodec.encode(ClientMessage.surfaceFeedback(id: 40, enabled: true)).dropLast()) + [7]
            ),
        ]
    }
}

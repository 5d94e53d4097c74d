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
            ("surface-unknown-changed", commit([.surfaceChanged(43)])),
            ("surface-zero-changed", commit([.surfaceChanged(0)])),
        ]
    }
}

// Byte-by-byte layouts of the shared-surface messages and operation (docs/protocol.md §4.1, §6).
import Foundation
import LaminaCore
import Testing

@testable import LaminaProtocol

@Suite struct SurfaceMessageCodecTests {
    /// The 8-byte header of a message of `type` with a payload of `length` bytes.
    func header(_ type: UInt8, _ length: UInt8) -> [UInt8] { [type, 0, 0, 0, length, 0, 0, 0] }

    @Test func registerSurfaceLayout() throws {
        let message = ClientMessage.registerSurface(
            id: 0x0102_0304_0506_0708, width: 640, height: 480, stride: 2560, format: SurfaceFormat.bgra8)
        let bytes = MessageCodec.encode(message)
        // Type 15; u64 id, u32 width, u32 height, u32 stride, u32 format ('BGRA' = 0x42475241).
        let expected: [UInt8] =
            header(15, 24) + [8, 7, 6, 5, 4, 3, 2, 1] + [0x80, 0x02, 0, 0] + [0xE0, 0x01, 0, 0]
            + [0x00, 0x0A, 0, 0] + [0x41, 0x52, 0x47, 0x42]
        #expect(bytes == expected)
        #expect(try MessageCodec.decodeClient(bytes) == message)
    }

    @Test func anNV12RegisterSurfaceCarriesItsPlanesAfterTheFormat() throws {
        // '420f' is Core Video's kCVPixelFormatType_420YpCbCr8BiPlanarFullRange (0x34323066).
        // Chroma location 0 is "Left" (Core Video's kCVImageBufferChromaLocation_Left; H.264's
        // chroma_sample_loc_type 0).
        let planes = SurfacePlanes(
            lumaOffset: 0x10, chromaOffset: 0x2000, chromaStride: 0x40, matrix: 6,
            chromaLocation: SurfacePlanes.chromaLeft)
        let message = ClientMessage.registerSurface(
            id: 7, width: 32, height: 16, stride: 64, format: SurfaceFormat.nv12FullRange, planes: planes)
        let bytes = MessageCodec.encode(message)
        let expected: [UInt8] =
            header(15, 44) + [7, 0, 0, 0, 0, 0, 0, 0] + [32, 0, 0, 0] + [16, 0, 0, 0] + [64, 0, 0, 0]
            + [0x66, 0x30, 0x32, 0x34] + [0x10, 0, 0, 0] + [0, 0x20, 0, 0] + [0x40, 0, 0, 0] + [6, 0, 0, 0]
            + [0, 0, 0, 0]
        #expect(bytes == expected)
        #expect(try MessageCodec.decodeClient(bytes) == message)
        // Without its planes, an NV12 registration is short and names the first missing field.
        var cut = Array(bytes.prefix(8 + 24))
        cut[4] = 24
        do {
            _ = try MessageCodec.decodeClient(cut)
            Issue.record("a registerSurface of '420f' without planes decoded")
        } catch {
            #expect("\(error)".contains("registerSurface.lumaOffset"))
        }
        // Without its chroma location (the layout before it was carried), it names that field.
        var old = Array(bytes.dropLast(4))
        old[4] = 40
        do {
            _ = try MessageCodec.decodeClient(old)
            Issue.record("a registerSurface of '420f' without its chroma location decoded")
        } catch {
            #expect("\(error)".contains("registerSurface.chromaLocation"))
        }
    }

    /// The six chroma locations travel as their codes, 0 to 5, in the order of Core Video's
    /// `kCVImageBufferChromaLocation_Left`, `_Center`, `_TopLeft`, `_Top`, `_BottomLeft`, `_Bottom`
    /// (H.264's `chroma_sample_loc_type`); the codec carries any value, the server refuses those past 5.
    @Test(arguments: [0, 1, 2, 3, 4, 5, 6, UInt32.max])
    func theChromaLocationIsTheLastWordOfTheRegistration(_ code: UInt32) throws {
        #expect(
            [
                SurfacePlanes.chromaLeft, SurfacePlanes.chromaCenter, SurfacePlanes.chromaTopLeft,
                SurfacePlanes.chromaTop,
                SurfacePlanes.chromaBottomLeft, SurfacePlanes.chromaBottom,
            ] == [0, 1, 2, 3, 4, 5])
        let planes = SurfacePlanes(lumaOffset: 0, chromaOffset: 1024, chromaStride: 64, matrix: 1, chromaLocation: code)
        let message = ClientMessage.registerSurface(
            id: 3, width: 16, height: 16, stride: 64, format: SurfaceFormat.nv12VideoRange, planes: planes)
        let bytes = MessageCodec.encode(message)
        #expect(bytes.count == 8 + 44)
        #expect(Array(bytes.suffix(4)) == withUnsafeBytes(of: code.littleEndian) { Array($0) })
        #expect(try MessageCodec.decodeClient(bytes) == message)
        // Without one, a registration is centred (what Lamina drew before locations were carried).
        #expect(SurfacePlanes(lumaOffset: 0, chromaOffset: 0, chromaStride: 0, matrix: 1).chromaLocation == 1)
    }

    @Test(arguments: [SurfaceFormat.p010VideoRange, SurfaceFormat.p010FullRange])
    func aP010RegisterSurfaceCarriesItsPlanesAfterTheFormat(_ format: UInt32) throws {
        // 'x420' (0x78343230) and 'xf20' (0x78663230) are Core Video's
        // kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange and ...FullRange.
        #expect(SurfaceFormat.isBiPlanarYCbCr(format) && SurfaceFormat.isTenBit(format))
        #expect(SurfaceFormat.isFullRange(format) == (format == 0x7866_3230))
        let planes = SurfacePlanes(lumaOffset: 0, chromaOffset: 0x1000, chromaStride: 0x80, matrix: 1)
        let message = ClientMessage.registerSurface(
            id: 9, width: 64, height: 32, stride: 128, format: format, planes: planes)
        let bytes = MessageCodec.encode(message)
        let code: [UInt8] =
            format == SurfaceFormat.p010FullRange ? [0x30, 0x32, 0x66, 0x78] : [0x30, 0x32, 0x34, 0x78]
        let expected: [UInt8] =
            header(15, 44) + [9, 0, 0, 0, 0, 0, 0, 0] + [64, 0, 0, 0] + [32, 0, 0, 0] + [128, 0, 0, 0] + code
            + [0, 0, 0, 0] + [0, 0x10, 0, 0] + [0x80, 0, 0, 0] + [1, 0, 0, 0] + [1, 0, 0, 0]
        #expect(bytes == expected)
        #expect(try MessageCodec.decodeClient(bytes) == message)
        // Its layout errors travel as code 26 (docs/protocol.md §10).
        #expect(ServerErrorCode.invalidSurfaceLayout.rawValue == 26)
        // NV12 is 8-bit; 'BGRA' carries no planes.
        #expect(
            !SurfaceFormat.isTenBit(SurfaceFormat.nv12VideoRange) && !SurfaceFormat.isBiPlanarYCbCr(SurfaceFormat.bgra8)
        )
    }

    @Test func releaseSurfaceLayout() throws {
        let bytes = MessageCodec.encode(ClientMessage.releaseSurface(id: 0x3344))
        #expect(bytes == header(16, 8) + [0x44, 0x33, 0, 0, 0, 0, 0, 0])
        #expect(try MessageCodec.decodeClient(bytes) == .releaseSurface(id: 0x3344))
    }

    @Test func surfaceChangedIsOperationElevenWithAU64ID() throws {
        let bytes = MessageCodec.encode(ClientMessage.commit(serial: 2, operations: [.surfaceChanged(0xA1B2)]))
        // u64 serial, count 1, operation 11, u64 surface id.
        let payload: [UInt8] = [2, 0, 0, 0, 0, 0, 0, 0] + [1, 0, 0, 0] + [11] + [0xB2, 0xA1, 0, 0, 0, 0, 0, 0]
        #expect(bytes == header(3, UInt8(payload.count)) + payload)
        #expect(try MessageCodec.decodeClient(bytes) == .commit(serial: 2, operations: [.surfaceChanged(0xA1B2)]))
        #expect(MessageCodec.encodedSize(of: .surfaceChanged(1)) == 9)
    }

    @Test func aShortRegisterSurfaceNamesItsMissingField() {
        let bytes = MessageCodec.encode(
            ClientMessage.registerSurface(id: 1, width: 2, height: 2, stride: 8, format: SurfaceFormat.bgra8))
        let cut = Array(bytes.prefix(8 + 20))
        var header = [UInt8](cut.prefix(8))
        header[4] = 20
        #expect(throws: WireError.self) { try MessageCodec.decodeClient(header + cut.dropFirst(8)) }
        do {
            _ = try MessageCodec.decodeClient(header + cut.dropFirst(8))
        } catch {
            #expect("\(error)".contains("registerSurface.format"))
        }
    }

    @Test func theHandWrittenFuzzSeedsAreTheMessagesTheSeedCorpusNames() throws {
        // Fuzz/corpus is written by Tools/fuzz --write-seeds from Fuzz/Seeds; the surface seeds were
        // written by hand: each must decode to the message SeedCorpus+Surfaces.swift names.
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../Fuzz/corpus"
        ).standardized
        func decode(_ name: String) throws -> ClientMessage {
            try MessageCodec.decodeClient([UInt8](try Data(contentsOf: corpus.appendingPathComponent(name))))
        }
        #expect(
            try decode("client-register-surface")
                == .registerSurface(id: 40, width: 64, height: 48, stride: 256, format: SurfaceFormat.bgra8))
        #expect(try decode("client-release-surface") == .releaseSurface(id: 40))
        #expect(
            try decode("client-commit-surface-changed")
                == .commit(
                    serial: 70,
                    operations: [
                        .createLayer(1), .set(1, .contents(40)), .setRoot(display: 0, layer: 1), .surfaceChanged(40),
                    ]))
        #expect(
            try decode("hostile-surface-bad-format")
                == .registerSurface(id: 41, width: 4, height: 4, stride: 16, format: 0x5247_4241))
        #expect(
            try decode("client-register-surface-nv12")
                == .registerSurface(
                    id: 44, width: 64, height: 48, stride: 64, format: SurfaceFormat.nv12VideoRange,
                    planes: SurfacePlanes(
                        lumaOffset: 0, chromaOffset: 3072, chromaStride: 64, matrix: 6, chromaLocation: 0)))
        #expect(
            try decode("hostile-surface-nv12-planes-out")
                == .registerSurface(
                    id: 45, width: 16, height: 16, stride: .max, format: SurfaceFormat.nv12FullRange,
                    planes: SurfacePlanes(
                        lumaOffset: .max, chromaOffset: .max, chromaStride: .max, matrix: .max, chromaLocation: .max)))
        #expect(
            try decode("hostile-surface-nv12-chroma-location-out")
                == .registerSurface(
                    id: 50, width: 16, height: 16, stride: 64, format: SurfaceFormat.nv12VideoRange,
                    planes: SurfacePlanes(
                        lumaOffset: 0, chromaOffset: 1024, chromaStride: 64, matrix: 6, chromaLocation: 6)))
        #expect(
            try decode("hostile-surface-huge")
                == .registerSurface(id: 42, width: .max, height: .max, stride: .max, format: SurfaceFormat.bgra8))
        #expect(try decode("hostile-surface-unknown-changed") == .commit(serial: 7, operations: [.surfaceChanged(43)]))
        #expect(try decode("hostile-surface-zero-changed") == .commit(serial: 7, operations: [.surfaceChanged(0)]))
    }
}

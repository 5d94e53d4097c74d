import Foundation
import Glibc
@testable import Lamina
import LaminaProtocol
import LaminaTesting
import Testing

/// NV12 surfaces ('420v', '420f') shown by a real `laminad`: colour bars written as YCbCr in the two
/// planes, captured and compared with the RGB the test computes from the same YCbCr (±2 a channel).
/// The bars' centres sample one chroma value: the bilinear chroma upsampling is checked by
/// `VideoSurfaceTests`.
@Suite(.serialized) final class NV12SurfaceTests: VictimSuite {
    /// One case: the range and the matrix.
    struct Case: Sendable, CustomStringConvertible {
        var fullRange: Bool
        var bt709: Bool
        var description: String { (fullRange ? "420f" : "420v") + (bt709 ? " BT.709" : " BT.601") }
    }

    /// Four bars of (Y, Cb, Cr), 4 pixels wide each.
    static let bars: [(UInt8, UInt8, UInt8)] = [(81, 90, 240), (145, 54, 34), (41, 240, 110), (180, 128, 128)]

    /// The RGB the conversion gives for (y, cb, cr): Y' and the colour differences scaled from the
    /// range, then R = Y + Cr·2(1 − Kr), B = Y + Cb·2(1 − Kb), G from Y = Kr·R + Kg·G + Kb·B.
    static func expected(_ ycc: (UInt8, UInt8, UInt8), _ c: Case) -> (Int, Int, Int) {
        let (kr, kb) = c.bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        let y = c.fullRange ? Double(ycc.0) : (Double(ycc.0) - 16) * 255 / 219
        let cb = (Double(ycc.1) - 128) * (c.fullRange ? 1 : 255.0 / 224)
        let cr = (Double(ycc.2) - 128) * (c.fullRange ? 1 : 255.0 / 224)
        let r = y + 2 * (1 - kr) * cr
        let b = y + 2 * (1 - kb) * cb
        let g = (y - kr * r - kb * b) / (1 - kr - kb)
        func byte(_ v: Double) -> Int { Int(max(0, min(255, v.rounded()))) }
        return (byte(r), byte(g), byte(b))
    }

    /// Writes the bars into the planes of `surface`, shifted by `shift` bars.
    static func writeBars(_ surface: IOSurface, shift: Int = 0) throws {
        #expect(surface.lock(options: [], seed: nil) == KERN_SUCCESS)
        let luma = try #require(surface.baseAddressOfPlane(at: 0))
        let chroma = try #require(surface.baseAddressOfPlane(at: 1))
        for y in 0..<surface.height {
            for x in 0..<surface.width {
                let bar = bars[(x / 4 + shift) % 4]
                luma.storeBytes(of: bar.0, toByteOffset: y * surface.bytesPerRowOfPlane(at: 0) + x, as: UInt8.self)
            }
        }
        for y in 0..<surface.heightOfPlane(at: 1) {
            for x in 0..<surface.widthOfPlane(at: 1) {
                let bar = bars[(x / 2 + shift) % 4]
                let at = y * surface.bytesPerRowOfPlane(at: 1) + x * 2
                chroma.storeBytes(of: bar.1, toByteOffset: at, as: UInt8.self)
                chroma.storeBytes(of: bar.2, toByteOffset: at + 1, as: UInt8.self)
            }
        }
        #expect(surface.unlock(options: [], seed: nil) == KERN_SUCCESS)
    }

    /// Expects the centre of each bar of the 16×16 layer at (8, 8) to be the bar's converted colour.
    func expectBars(_ context: CAContext, _ c: Case, shift: Int = 0) throws {
        let capture = try context.capture()
        for i in 0..<4 {
            let want = Self.expected(Self.bars[(i + shift) % 4], c)
            let p = capture.pixel(x: 8 + i * 4 + 2, y: 16)
            #expect(
                abs(Int(p.red) - want.0) <= 2 && abs(Int(p.green) - want.1) <= 2 && abs(Int(p.blue) - want.2) <= 2
                    && p.alpha == 255,
                "\(c) bar \(i): captured \(p), expected \(want)")
        }
    }

    @Test(arguments: [
        Case(fullRange: false, bt709: false), Case(fullRange: false, bt709: true),
        Case(fullRange: true, bt709: false), Case(fullRange: true, bt709: true),
    ])
    func colourBarsShowTheRGBOfTheirRangeAndMatrix(_ c: Case) throws {
        let context = try server.connect(name: "nv12")
        // 0x34323066 '420f' and 0x34323076 '420v' (Core Video's BiPlanarFullRange and VideoRange).
        let surface = try #require(
            IOSurface(properties: [
                .width: 16, .height: 16, .pixelFormat: UInt32(c.fullRange ? 0x3432_3066 : 0x3432_3076),
                .yCbCrMatrix: c.bt709 ? IOSurface.yCbCrMatrixITU_R_709_2 : IOSurface.yCbCrMatrixITU_R_601_4,
            ]))
        try Self.writeBars(surface)
        let layer = try SurfaceTests.show(surface, in: context)
        try expectBars(context, c)
        let name = (c.fullRange ? "420f" : "420v") + (c.bt709 ? "-bt709" : "-bt601")
        try context.capture().writePNG(to: NSTemporaryDirectory() + "lamina-nv12-\(name).png")
        // The planes are sampled in place on lavapipe (R8 and R8G8 linear images over the memfd: zero
        // copy); elsewhere both are copied as they are: 16 × 16 luma bytes and 8 × 8 Cb, Cr pairs a frame.
        let perFrame = SurfaceTests.expectsZeroCopy ? 0 : 16 * 16 + 8 * 8 * 2
        #expect(try SurfaceTests.statistics("nv12", from: context).surfaceBytesCopied == perFrame)
        // A new frame, marked, shows at the next commit.
        try Self.writeBars(surface, shift: 1)
        layer.setContentsChanged()
        try context.synchronize()
        try expectBars(context, c, shift: 1)
        #expect(try SurfaceTests.statistics("nv12", from: context).surfaceBytesCopied == 2 * perFrame)
    }

    @Test func anNV12FrameLeavesNoValidationMessagesAndLaminadExitsCleanly() throws {
        let own = try TestServer(width: 64, height: 48)
        let context = try own.connect(name: "nv12-validation")
        let surface = try #require(
            IOSurface(properties: [.width: 16, .height: 16, .pixelFormat: UInt32(0x3432_3076)]))
        try Self.writeBars(surface)
        _ = try SurfaceTests.show(surface, in: context)
        try expectBars(context, Case(fullRange: false, bt709: false))
        let report = own.stop()
        #expect(report.validationMessages.isEmpty, "\(report.validationMessages)")
        #expect(report.exitStatus == 0)
    }

    // MARK: Hostile registrations

    /// A `registerSurface` of a 16 × 16 '420v' surface with the given planes.
    static func register(
        _ id: UInt64, stride: UInt32 = 64, planes: SurfacePlanes?, format: UInt32 = SurfaceFormat.nv12VideoRange
    ) -> [UInt8] {
        MessageCodec.encode(
            ClientMessage.registerSurface(id: id, width: 16, height: 16, stride: stride, format: format, planes: planes)
        )
    }

    /// Planes of a 16 × 16 surface: luma at 0, chroma after it.
    static func planes(
        chromaOffset: UInt32 = 1024, chromaStride: UInt32 = 64, matrix: UInt32 = SurfacePlanes.bt601,
        chromaLocation: UInt32 = SurfacePlanes.chromaCenter
    ) -> SurfacePlanes {
        SurfacePlanes(
            lumaOffset: 0, chromaOffset: chromaOffset, chromaStride: chromaStride, matrix: matrix,
            chromaLocation: chromaLocation)
    }

    /// Well-formed registrations whose values the server cannot take: refused by name
    /// (`surfaceRefused`), the client stays connected (docs/protocol.md §10).
    static let refusedCases: [ImageUploadTests.Case] = [
        .init(
            name: "luma stride below the width",
            send: { s in try SurfaceTests.send(s, register(1, stride: 15, planes: planes()), surfaceBytes: 4096) },
            code: .invalidValue, text: "NV12 surface 1 has a luma stride of 15 bytes: it must be from 16"),
        .init(
            name: "chroma stride below the pairs",
            send: { s in
                try SurfaceTests.send(s, register(2, planes: planes(chromaStride: 14)), surfaceBytes: 4096)
            }, code: .invalidValue, text: "NV12 surface 2 has a chroma stride of 14 bytes: it must be from 16"),
        .init(
            name: "chroma stride over 1 MiB",
            send: { s in
                try SurfaceTests.send(s, register(3, planes: planes(chromaStride: 1 << 21)), surfaceBytes: 4096)
            }, code: .invalidValue, text: "NV12 surface 3 has a chroma stride of 2097152 bytes"),
        .init(
            name: "unknown matrix",
            send: { s in try SurfaceTests.send(s, register(5, planes: planes(matrix: 9)), surfaceBytes: 4096) },
            code: .invalidValue, text: "NV12 surface 5 names matrix 9; only 1 (BT.709) and 6 (BT.601)"),
        // Core Video has a seventh location, "DV 4:2:0", which H.264's codes (0–5) do not name.
        .init(
            name: "unknown chroma location",
            send: { s in
                try SurfaceTests.send(s, register(7, planes: planes(chromaLocation: 6)), surfaceBytes: 4096)
            }, code: .invalidValue, text: "NV12 surface 7 names chroma location 6; only 0 (Left) to 5 (Bottom)"),
        // A memfd that does not hold the planes: the client could have sized it right.
        .init(
            name: "chroma plane past the memfd",
            send: { s in
                try SurfaceTests.send(s, register(4, planes: planes(chromaOffset: .max)), surfaceBytes: 4096)
            }, code: .badFileDescriptor,
            text: "NV12 surface 4 needs 976 bytes for its luma plane and 4294967759 for its chroma plane"),
        .init(
            name: "planes past a short memfd",
            send: { s in try SurfaceTests.send(s, register(6, planes: planes()), surfaceBytes: 1024) },
            code: .badFileDescriptor, text: "NV12 surface 6 needs 976 bytes for its luma plane and 1488"),
    ]

    @Test(arguments: refusedCases)
    func badNV12ValuesAreRefusedByNameAndTheClientStays(_ c: ImageUploadTests.Case) throws {
        let socket = try ImageUploadTests.rawClient(server, name: "refused")
        try c.send(socket)
        #expect(try ImageUploadTests.expectSurfaceRefused(c, on: socket) != nil)
        try SurfaceTests.expectVictimBlue(victim, 10, 10)
        #expect(server.isRunning)
    }
}

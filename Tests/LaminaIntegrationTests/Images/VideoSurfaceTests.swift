import Foundation
import Glibc
@testable import Lamina
import LaminaProtocol
import LaminaTesting
import Testing

/// YCbCr surfaces drawn by the `video` draw kinds in a real `laminad`: P010 ('x420', 'xf20') colour
/// bars, chroma upsampled bilinearly from the centre of each 2 × 2 block, the planes sampled in place
/// or copied as they are, a turned translucent layer over NV12 against the same picture in BGRA,
/// and the layouts the server refuses. Every expected colour is computed here from the YCbCr.
@Suite(.serialized) final class VideoSurfaceTests: VictimSuite {
    /// The RGB (0–255, unrounded, unclamped) of a YCbCr triple in code values of `bits` (8 or 10):
    /// Y' and the colour differences scaled from the range (video: Y 16–235, C 16–240, ×4 at 10 bits;
    /// full: 0 to 2^bits − 1), then R = Y + Cr·2(1 − Kr), B = Y + Cb·2(1 − Kb), G from Y = Kr·R +
    /// Kg·G + Kb·B (ITU-R BT.601 and BT.709; Core Video's '420v'/'420f'/'x420'/'xf20' ranges).
    static func rgb(
        _ y: Double, _ cb: Double, _ cr: Double, bits: Int, fullRange: Bool, bt709: Bool
    ) -> (Double, Double, Double) {
        let step = bits == 10 ? 4.0 : 1.0
        let top = bits == 10 ? 1023.0 : 255.0
        let (kr, kb) = bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        let l = fullRange ? y / top : (y - 16 * step) / (219 * step)
        let b_ = fullRange ? (cb - 128 * step) / top : (cb - 128 * step) / (224 * step)
        let r_ = fullRange ? (cr - 128 * step) / top : (cr - 128 * step) / (224 * step)
        let r = l + 2 * (1 - kr) * r_
        let b = l + 2 * (1 - kb) * b_
        let g = (l - kr * r - kb * b) / (1 - kr - kb)
        return (r * 255, g * 255, b * 255)
    }

    static func byte(_ v: Double) -> Int { Int(max(0, min(255, v.rounded()))) }

    /// Expects `p` within ±2 of `want` in each colour channel and opaque.
    static func expectNear(
        _ p: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8), _ want: (Int, Int, Int), _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            abs(Int(p.red) - want.0) <= 2 && abs(Int(p.green) - want.1) <= 2 && abs(Int(p.blue) - want.2) <= 2
                && p.alpha == 255, "\(what): captured \(p), expected \(want)", sourceLocation: sourceLocation)
    }

    // MARK: P010

    /// One P010 case: the range and the matrix.
    struct Case: Sendable, CustomStringConvertible {
        var fullRange: Bool
        var bt709: Bool
        var description: String { (fullRange ? "xf20" : "x420") + (bt709 ? " BT.709" : " BT.601") }
    }

    /// Four bars of 10-bit (Y, Cb, Cr), 4 pixels wide each, with values no 8-bit code gives exactly.
    static let bars10: [(UInt16, UInt16, UInt16)] = [
        (325, 361, 959), (581, 217, 137), (165, 957, 441), (721, 512, 512),
    ]

    /// Writes the bars into a P010 surface, each 10-bit value in the high bits of its 16-bit sample.
    static func writeBars10(_ surface: IOSurface) throws {
        #expect(surface.lock(options: [], seed: nil) == KERN_SUCCESS)
        let luma = try #require(surface.baseAddressOfPlane(at: 0))
        let chroma = try #require(surface.baseAddressOfPlane(at: 1))
        for y in 0..<surface.height {
            for x in 0..<surface.width {
                let at = y * surface.bytesPerRowOfPlane(at: 0) + x * 2
                luma.storeBytes(of: (bars10[x / 4].0 << 6).littleEndian, toByteOffset: at, as: UInt16.self)
            }
        }
        for y in 0..<surface.heightOfPlane(at: 1) {
            for x in 0..<surface.widthOfPlane(at: 1) {
                let bar = bars10[x / 2]
                let at = y * surface.bytesPerRowOfPlane(at: 1) + x * 4
                chroma.storeBytes(of: (bar.1 << 6).littleEndian, toByteOffset: at, as: UInt16.self)
                chroma.storeBytes(of: (bar.2 << 6).littleEndian, toByteOffset: at + 2, as: UInt16.self)
            }
        }
        #expect(surface.unlock(options: [], seed: nil) == KERN_SUCCESS)
    }

    @Test(arguments: [
        Case(fullRange: false, bt709: false), Case(fullRange: false, bt709: true),
        Case(fullRange: true, bt709: false), Case(fullRange: true, bt709: true),
    ])
    func p010ColourBarsShowTheRGBOfTheirRangeAndMatrixWithoutACopy(_ c: Case) throws {
        let context = try server.connect(name: "p010")
        // 0x78663230 'xf20' and 0x78343230 'x420': Core Video's
        // kCVPixelFormatType_420YpCbCr10BiPlanarFullRange and ...VideoRange.
        let surface = try #require(
            IOSurface(properties: [
                .width: 16, .height: 16, .pixelFormat: UInt32(c.fullRange ? 0x7866_3230 : 0x7834_3230),
                .yCbCrMatrix: c.bt709 ? IOSurface.yCbCrMatrixITU_R_709_2 : IOSurface.yCbCrMatrixITU_R_601_4,
            ]))
        #expect(surface.planeCount == 2 && surface.bytesPerElement == 2)
        #expect(surface.bytesPerElementOfPlane(at: 0) == 2 && surface.bytesPerElementOfPlane(at: 1) == 4)
        #expect(surface.bytesPerRowOfPlane(at: 0) == 64 && surface.bytesPerRowOfPlane(at: 1) == 64)
        try Self.writeBars10(surface)
        _ = try SurfaceTests.show(surface, in: context)
        let capture = try context.capture()
        for i in 0..<4 {
            let bar = Self.bars10[i]
            let v = Self.rgb(
                Double(bar.0), Double(bar.1), Double(bar.2), bits: 10, fullRange: c.fullRange, bt709: c.bt709)
            Self.expectNear(
                capture.pixel(x: 8 + i * 4 + 2, y: 16), (Self.byte(v.0), Self.byte(v.1), Self.byte(v.2)),
                "\(c) bar \(i)")
        }
        // R16 and R16G16 linear images over the memfd: nothing copied on lavapipe; elsewhere both planes,
        // 16 × 16 × 2 luma bytes and 8 × 8 × 4 chroma bytes.
        let copied = try SurfaceTests.statistics("p010", from: context).surfaceBytesCopied
        #expect(copied == (SurfaceTests.expectsZeroCopy ? 0 : 16 * 16 * 2 + 8 * 8 * 4))
    }

    // MARK: Chroma siting

    /// The chroma value at luma pixel `p` (one axis) of samples `f(0...7)` sited `shift` chroma texels
    /// from the centred siting: the point lies at chroma coordinate (p + 0.5) / 2 + shift, that is
    /// (p + 0.5) / 2 + shift − 0.5 in texel centres, upsampled bilinearly and clamped at the edges.
    static func upsampled(_ p: Int, shift: Double, _ f: (Int) -> Double) -> Double {
        let u = (Double(p) + 0.5) / 2 + shift - 0.5
        let i = Int(u.rounded(.down))
        let t = u - Double(i)
        return f(max(0, min(7, i))) * (1 - t) + f(max(0, min(7, i + 1))) * t
    }

    /// The chroma siting of a case: Core Video's value (nil: no `chromaLocationTopField`, centred) and
    /// the shift of the chroma coordinate it gives, in chroma texels: + 0.25 across for the left-sited
    /// values (the sample lies on the block's left luma column, half a luma pixel left of its centre),
    /// + 0.25 down for the top-sited, − 0.25 for the bottom-sited.
    struct Siting: Sendable, CustomStringConvertible {
        var value: String?
        var shift: (x: Double, y: Double)
        var description: String { value ?? "no chroma location" }
    }

    static let sitings: [Siting] = [
        Siting(value: nil, shift: (0, 0)), Siting(value: "Left", shift: (0.25, 0)),
        Siting(value: "Center", shift: (0, 0)), Siting(value: "TopLeft", shift: (0.25, 0.25)),
        Siting(value: "Top", shift: (0, 0.25)), Siting(value: "BottomLeft", shift: (0.25, -0.25)),
        Siting(value: "Bottom", shift: (0, -0.25)),
    ]

    /// The chroma of a 16 × 16 NV12 surface varies in both directions (Cb along x, Cr along y) while
    /// luma is flat; each pixel must show the bilinear chroma of its position for the surface's chroma
    /// location (Core Video's `kCVImageBufferChromaLocationTopFieldKey`: "Left" is co-sited with the
    /// left luma column and centred vertically, "Center" fully centred, "TopLeft" co-sited with the
    /// top-left luma sample, "Top" centred across and co-sited with the top row, "BottomLeft" and
    /// "Bottom" likewise with the bottom row; developer.apple.com/documentation/corevideo/
    /// image-buffer-chroma-location-constants). Where the siting is not centred, most pixels differ
    /// from the centred picture by more than the tolerance, so a siting that is not applied fails.
    @Test(arguments: sitings)
    func chromaIsUpsampledBilinearlyFromWhereItIsSited(_ siting: Siting) throws {
        let context = try server.connect(name: "siting")
        var properties: [IOSurfacePropertyKey: Any] = [
            .width: 16, .height: 16, .pixelFormat: UInt32(0x3432_3066), .yCbCrMatrix: IOSurface.yCbCrMatrixITU_R_601_4,
        ]
        if let value = siting.value { properties[.chromaLocationTopField] = value }
        let surface = try #require(IOSurface(properties: properties))
        #expect(surface.chromaLocation == siting.value ?? "Center")
        func cb(_ cx: Int) -> Double { Double(40 + cx * 24) }
        func cr(_ cy: Int) -> Double { Double(200 - cy * 20) }
        #expect(surface.lock(options: [], seed: nil) == KERN_SUCCESS)
        let luma = try #require(surface.baseAddressOfPlane(at: 0))
        let chroma = try #require(surface.baseAddressOfPlane(at: 1))
        for y in 0..<16 { memset(luma + y * surface.bytesPerRowOfPlane(at: 0), 128, 16) }
        for cy in 0..<8 {
            for cx in 0..<8 {
                let at = cy * surface.bytesPerRowOfPlane(at: 1) + cx * 2
                chroma.storeBytes(of: UInt8(cb(cx)), toByteOffset: at, as: UInt8.self)
                chroma.storeBytes(of: UInt8(cr(cy)), toByteOffset: at + 1, as: UInt8.self)
            }
        }
        #expect(surface.unlock(options: [], seed: nil) == KERN_SUCCESS)
        _ = try SurfaceTests.show(surface, in: context)
        let capture = try context.capture()
        func expected(_ x: Int, _ y: Int, _ shift: (x: Double, y: Double)) -> (Int, Int, Int) {
            let v = Self.rgb(
                128, Self.upsampled(x, shift: shift.x, cb), Self.upsampled(y, shift: shift.y, cr), bits: 8,
                fullRange: true, bt709: false)
            return (Self.byte(v.0), Self.byte(v.1), Self.byte(v.2))
        }
        var apart = 0
        for y in 0..<16 {
            for x in 0..<16 {
                let want = expected(x, y, siting.shift)
                let centred = expected(x, y, (0, 0))
                if max(abs(want.0 - centred.0), abs(want.1 - centred.1), abs(want.2 - centred.2)) > 4 { apart += 1 }
                Self.expectNear(capture.pixel(x: 8 + x, y: 8 + y), want, "\(siting) pixel (\(x), \(y))")
            }
        }
        let sited = siting.shift != (0, 0)
        #expect(sited ? apart >= 160 : apart == 0, "\(apart) pixels tell \(siting) from the centred siting")
    }

    // MARK: Copy path

    /// Rows 48 bytes apart are no device's linear pitch for 16 samples (lavapipe's is 64), so both planes
    /// are copied as they are into textures: 16 × 16 luma bytes and 8 × 8 Cb, Cr pairs, at
    /// registration and again at each marked frame; the picture is the same.
    @Test func planesAtAnotherPitchAreCopiedPlaneByPlaneAndCounted() throws {
        let context = try server.connect(name: "nv12-copy")
        let surface = try #require(
            IOSurface(properties: [.width: 16, .height: 16, .pixelFormat: UInt32(0x3432_3076), .bytesPerRow: 48]))
        #expect(surface.bytesPerRowOfPlane(at: 0) == 48 && surface.bytesPerRowOfPlane(at: 1) == 48)
        try NV12SurfaceTests.writeBars(surface)
        let layer = try SurfaceTests.show(surface, in: context)
        let c = NV12SurfaceTests.Case(fullRange: false, bt709: false)
        // The capture has the frame worker import what is pending first, then the count is read.
        let capture = try context.capture()
        for i in 0..<4 {
            let want = NV12SurfaceTests.expected(NV12SurfaceTests.bars[i], c)
            Self.expectNear(capture.pixel(x: 8 + i * 4 + 2, y: 16), want, "bar \(i)")
        }
        let perFrame = 16 * 16 + 8 * 8 * 2
        let first = try SurfaceTests.statistics("nv12-copy", from: context).surfaceBytesCopied
        #expect(first == perFrame, "\(first) bytes copied")
        try NV12SurfaceTests.writeBars(surface, shift: 2)
        layer.setContentsChanged()
        try context.synchronize()
        let after = try context.capture()
        for i in 0..<4 {
            let want = NV12SurfaceTests.expected(NV12SurfaceTests.bars[(i + 2) % 4], c)
            Self.expectNear(after.pixel(x: 8 + i * 4 + 2, y: 16), want, "bar \(i) of the new frame")
        }
        let second = try SurfaceTests.statistics("nv12-copy", from: context).surfaceBytesCopied
        #expect(second == 2 * perFrame, "\(second) bytes copied")
    }

    // MARK: Opacity and transforms

    /// An NV12 surface whose chroma is one colour (so converting after filtering the luma equals
    /// filtering the converted colours: the conversion is affine and no value is clamped) on a layer
    /// turned by 30° at opacity 0.5 matches, pixel for pixel within ±2, a BGRA surface holding the
    /// colours the test converts, on the same layer 32 pixels to the right.
    @Test func aTurnedTranslucentNV12LayerMatchesTheSamePictureInBGRA() throws {
        let context = try server.connect(name: "nv12-turned")
        let (cb, cr) = (110.0, 146.0)
        func luma(_ x: Int, _ y: Int) -> Double { Double(60 + 7 * x + 3 * y) }
        let nv12 = try #require(
            IOSurface(properties: [
                .width: 16, .height: 16, .pixelFormat: UInt32(0x3432_3076),
                .yCbCrMatrix: IOSurface.yCbCrMatrixITU_R_601_4,
            ]))
        let bgra = try #require(IOSurface(properties: [.width: 16, .height: 16]))
        #expect(nv12.lock(options: [], seed: nil) == KERN_SUCCESS)
        let lumaPlane = try #require(nv12.baseAddressOfPlane(at: 0))
        let chromaPlane = try #require(nv12.baseAddressOfPlane(at: 1))
        for y in 0..<16 {
            for x in 0..<16 {
                lumaPlane.storeBytes(
                    of: UInt8(luma(x, y)), toByteOffset: y * nv12.bytesPerRowOfPlane(at: 0) + x, as: UInt8.self)
                let v = Self.rgb(luma(x, y), cb, cr, bits: 8, fullRange: false, bt709: false)
                for channel in [v.0, v.1, v.2] { try #require((0...255).contains(channel), "out of gamut: \(v)") }
                let pixel = bgra.baseAddress + y * bgra.bytesPerRow + x * 4
                for (offset, channel) in [v.2, v.1, v.0, 255].enumerated() {
                    pixel.storeBytes(of: UInt8(channel.rounded()), toByteOffset: offset, as: UInt8.self)
                }
            }
        }
        for cy in 0..<8 {
            for cx in 0..<8 {
                let at = cy * nv12.bytesPerRowOfPlane(at: 1) + cx * 2
                chromaPlane.storeBytes(of: UInt8(cb), toByteOffset: at, as: UInt8.self)
                chromaPlane.storeBytes(of: UInt8(cr), toByteOffset: at + 1, as: UInt8.self)
            }
        }
        #expect(nv12.unlock(options: [], seed: nil) == KERN_SUCCESS)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        for (surface, x) in [(nv12, 8.0), (bgra, 40.0)] {
            let layer = CALayer()
            layer.frame = CGRect(x: x, y: 16, width: 16, height: 16)
            layer.contents = surface
            layer.opacity = 0.5
            layer.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 6))
            root.addSublayer(layer)
        }
        context.layer = root
        try context.synchronize()
        let capture = try context.capture()
        var covered = 0
        for y in 0..<48 {
            for x in 0..<32 {
                let a = capture.pixel(x: x, y: y), b = capture.pixel(x: x + 32, y: y)
                #expect(
                    abs(Int(a.red) - Int(b.red)) <= 2 && abs(Int(a.green) - Int(b.green)) <= 2
                        && abs(Int(a.blue) - Int(b.blue)) <= 2 && abs(Int(a.alpha) - Int(b.alpha)) <= 2,
                    "(\(x), \(y)): NV12 \(a), BGRA \(b)")
                if a.red > 10 { covered += 1 }
            }
        }
        // The victim's background has no red: the turned layer covers about 16 × 16 pixels of it.
        #expect(covered > 200, "\(covered) pixels show the layer")
        try capture.writePNG(to: NSTemporaryDirectory() + "lamina-nv12-turned.png")
    }

    // MARK: Hostile registrations

    /// A `registerSurface` of a 16 × 16 surface of `format` with the given planes.
    static func register(
        _ id: UInt64, stride: UInt32, format: UInt32, planes: SurfacePlanes
    ) -> [UInt8] {
        MessageCodec.encode(
            ClientMessage.registerSurface(id: id, width: 16, height: 16, stride: stride, format: format, planes: planes)
        )
    }

    static func planes(
        lumaOffset: UInt32 = 0, chromaOffset: UInt32 = 2048, chromaStride: UInt32 = 64
    ) -> SurfacePlanes {
        SurfacePlanes(
            lumaOffset: lumaOffset, chromaOffset: chromaOffset, chromaStride: chromaStride,
            matrix: SurfacePlanes.bt709)
    }

    /// A 16×16 registration of surface `id` in a 4,096-byte memfd, refused with `code` and `text`.
    static func refusal(
        _ name: String, _ id: UInt64, stride: UInt32, format: UInt32, planes: SurfacePlanes,
        code: ServerErrorCode, text: String
    ) -> ImageUploadTests.Case {
        .init(
            name: name,
            send: { s in
                try SurfaceTests.send(
                    s, register(id, stride: stride, format: format, planes: planes), surfaceBytes: 4096)
            }, code: code, text: text)
    }

    static let cases: [ImageUploadTests.Case] = [
        refusal(
            "P010 luma plane at an odd offset", 1, stride: 64, format: SurfaceFormat.p010VideoRange,
            planes: planes(lumaOffset: 1), code: .invalidSurfaceLayout,
            text: "surface 1: its luma plane at offset 1, stride 64, is not a whole number of 2-byte samples"),
        refusal(
            "P010 luma stride of an odd number of bytes", 2, stride: 65, format: SurfaceFormat.p010FullRange,
            planes: planes(), code: .invalidSurfaceLayout,
            text: "surface 2: its luma plane at offset 0, stride 65, is not a whole number of 2-byte samples"),
        refusal(
            "P010 chroma stride between pairs", 3, stride: 64, format: SurfaceFormat.p010VideoRange,
            planes: planes(chromaStride: 66), code: .invalidSurfaceLayout,
            text: "surface 3: its chroma plane at offset 2048, stride 66, is not a whole number of 4-byte Cb, Cr pairs"),
        refusal(
            "NV12 chroma plane at an odd offset", 4, stride: 64, format: SurfaceFormat.nv12VideoRange,
            planes: planes(chromaOffset: 1025), code: .invalidSurfaceLayout,
            text: "surface 4: its chroma plane at offset 1025, stride 64, is not a whole number of 2-byte Cb, Cr"),
        refusal(
            "overlapping planes", 5, stride: 64, format: SurfaceFormat.nv12FullRange,
            planes: planes(chromaOffset: 512), code: .invalidSurfaceLayout,
            text: "surface 5: its luma plane (bytes 0..<976) and chroma plane (bytes 512..<976) overlap"),
        refusal(
            "P010 luma stride below the width's samples", 6, stride: 30, format: SurfaceFormat.p010VideoRange,
            planes: planes(), code: .invalidValue,
            text: "P010 surface 6 has a luma stride of 30 bytes: it must be from 32"),
        // 'y420' (0x79343230) is no format Lamina knows; its planes are not even read.
        refusal(
            "unsupported YCbCr format", 7, stride: 64, format: 0x7934_3230, planes: planes(), code: .invalidValue,
            text: "surface 7 has pixel format 0x79343230; only 'BGRA' (0x42475241)"),
    ]

    @Test(arguments: cases)
    func badYCbCrLayoutIsRefusedByNameAndTheClientStays(_ c: ImageUploadTests.Case) throws {
        let socket = try ImageUploadTests.rawClient(server, name: "refused")
        try c.send(socket)
        // Well-formed: refused by name (surfaceRefused), not disconnected; what names it is left out.
        #expect(try ImageUploadTests.expectSurfaceRefused(c, on: socket) != nil)
        try SurfaceTests.expectVictimBlue(victim, 10, 10)
        #expect(server.isRunning)
    }

    @Test func videoFramesLeaveNoValidationMessagesAndLaminadExitsCleanly() throws {
        let own = try TestServer(width: 64, height: 48)
        let context = try own.connect(name: "video-validation")
        let p010 = try #require(IOSurface(properties: [.width: 16, .height: 16, .pixelFormat: UInt32(0x7834_3230)]))
        try Self.writeBars10(p010)
        let copied = try #require(
            IOSurface(properties: [.width: 16, .height: 16, .pixelFormat: UInt32(0x3432_3076), .bytesPerRow: 48]))
        try NV12SurfaceTests.writeBars(copied)
        let layer = try SurfaceTests.show(p010, in: context)
        let second = CALayer()
        second.frame = CGRect(x: 32, y: 8, width: 16, height: 16)
        second.contents = copied
        second.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 5))
        layer.superlayer?.addSublayer(second)
        try context.synchronize()
        layer.setContentsChanged()
        second.setContentsChanged()
        try context.synchronize()
        _ = try context.capture()
        let report = own.stop()
        #expect(report.validationMessages.isEmpty, "\(report.validationMessages)")
        #expect(report.exitStatus == 0)
    }
}

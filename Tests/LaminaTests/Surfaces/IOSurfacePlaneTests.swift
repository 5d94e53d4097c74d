import Foundation
import LaminaProtocol
import Testing

@testable import Lamina

/// NV12 `IOSurface`s in the client alone: Apple's format codes, the plane API and the colour matrix
/// (docs/surfaces.md, "NV12").
@Suite struct IOSurfacePlaneTests {
    @Test func anNV12SurfaceHasTwoPlanesLumaThenChromaAtHalfSize() throws {
        // '420v' is Core Video's kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange (0x34323076,
        // developer.apple.com/documentation/corevideo/kcvpixelformattype_420ypcbcr8biplanarvideorange).
        let surface = try #require(IOSurface(properties: [.width: 33, .height: 17, .pixelFormat: UInt32(0x3432_3076)]))
        #expect(surface.pixelFormat == 0x3432_3076 && surface.planeCount == 2)
        #expect(surface.widthOfPlane(at: 0) == 33 && surface.heightOfPlane(at: 0) == 17)
        // The chroma plane is half the size, rounded up, of Cb, Cr pairs.
        #expect(surface.widthOfPlane(at: 1) == 17 && surface.heightOfPlane(at: 1) == 9)
        #expect(surface.bytesPerElementOfPlane(at: 0) == 1 && surface.bytesPerElementOfPlane(at: 1) == 2)
        #expect(surface.bytesPerRowOfPlane(at: 0) == 64 && surface.bytesPerRowOfPlane(at: 1) == 64)
        let base = surface.baseAddress
        #expect(surface.baseAddressOfPlane(at: 0) == base)
        #expect(surface.baseAddressOfPlane(at: 1) == base + 64 * 17)
        #expect(surface.baseAddressOfPlane(at: 2) == nil && surface.widthOfPlane(at: 2) == 0)
        #expect(surface.allocationSize >= 64 * 17 + 64 * 9)
        // Apple's planeCount is 0 for a surface that is not planar.
        let bgra = try #require(IOSurface(properties: [.width: 4, .height: 4]))
        #expect(bgra.planeCount == 0 && bgra.baseAddressOfPlane(at: 0) == nil && bgra.yCbCrMatrix == nil)
    }

    @Test func theMatrixDefaultsToBT709ForHDAndBT601Below() throws {
        let full = UInt32(0x3432_3066)  // '420f', kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
        let hd = try #require(IOSurface(properties: [.width: 1280, .height: 720, .pixelFormat: full]))
        #expect(hd.yCbCrMatrix == "ITU_R_709_2")
        let sd = try #require(IOSurface(properties: [.width: 720, .height: 576, .pixelFormat: full]))
        #expect(sd.yCbCrMatrix == "ITU_R_601_4")
        let chosen = try #require(
            IOSurface(properties: [.width: 720, .height: 576, .pixelFormat: full, .yCbCrMatrix: "ITU_R_709_2"]))
        #expect(chosen.yCbCrMatrix == IOSurface.yCbCrMatrixITU_R_709_2)
        #expect(chosen.planes?.matrix == SurfacePlanes.bt709)
        #expect(
            IOSurface(properties: [.width: 8, .height: 8, .pixelFormat: full, .yCbCrMatrix: "SMPTE_240M_1995"]) == nil)
    }

    /// Core Video's chroma locations (developer.apple.com/documentation/corevideo/image-buffer-chroma-location-constants):
    /// `kCVImageBufferChromaLocationTopFieldKey` ("CVImageBufferChromaLocationTopField") with the values
    /// "Left", "Center", "TopLeft", "Top", "BottomLeft" and "Bottom", carried as H.264's
    /// `chroma_sample_loc_type` codes 0 to 5. Without the key the chroma is centred, as Lamina drew it
    /// before; "DV 4:2:0" (`kCVImageBufferChromaLocation_DV420`, Cb and Cr on alternate rows) and any
    /// other value make the initializer fail (docs/apple-differences.md).
    @Test func theChromaLocationIsCoreVideosAttachment() throws {
        #expect(IOSurfacePropertyKey.chromaLocationTopField.rawValue == "CVImageBufferChromaLocationTopField")
        let names = [
            IOSurface.chromaLocationLeft, IOSurface.chromaLocationCenter, IOSurface.chromaLocationTopLeft,
            IOSurface.chromaLocationTop, IOSurface.chromaLocationBottomLeft, IOSurface.chromaLocationBottom,
        ]
        #expect(names == ["Left", "Center", "TopLeft", "Top", "BottomLeft", "Bottom"])
        for format in [UInt32(0x3432_3076), 0x7834_3230] {
            for (code, name) in names.enumerated() {
                let surface = try #require(
                    IOSurface(properties: [
                        .width: 8, .height: 8, .pixelFormat: format, .chromaLocationTopField: name,
                    ]))
                #expect(surface.chromaLocation == name && surface.planes?.chromaLocation == UInt32(code))
            }
            let plain = try #require(IOSurface(properties: [.width: 8, .height: 8, .pixelFormat: format]))
            #expect(plain.chromaLocation == "Center" && plain.planes?.chromaLocation == SurfacePlanes.chromaCenter)
            for bad: Any in ["DV 4:2:0", "left", 0] {
                #expect(
                    IOSurface(properties: [.width: 8, .height: 8, .pixelFormat: format, .chromaLocationTopField: bad])
                        == nil, "\(bad)")
            }
        }
        let bgra = try #require(IOSurface(properties: [.width: 4, .height: 4]))
        #expect(bgra.chromaLocation == nil)
    }
}

import Foundation
import LaminaProtocol

/// The plane API of bi-planar (NV12, P010) surfaces, as IOSurface's `planeCount`, `widthOfPlane(at:)`,
/// `heightOfPlane(at:)`, `bytesPerRowOfPlane(at:)` and `baseAddressOfPlane(at:)`.
extension IOSurface {
    /// The value of `IOSurfacePropertyKey.yCbCrMatrix` for ITU-R BT.709, as Core Video's
    /// `kCVImageBufferYCbCrMatrix_ITU_R_709_2` ("ITU_R_709_2").
    public static let yCbCrMatrixITU_R_709_2 = "ITU_R_709_2"
    /// The value of `IOSurfacePropertyKey.yCbCrMatrix` for ITU-R BT.601, as Core Video's
    /// `kCVImageBufferYCbCrMatrix_ITU_R_601_4` ("ITU_R_601_4").
    public static let yCbCrMatrixITU_R_601_4 = "ITU_R_601_4"

    /// The value of `IOSurfacePropertyKey.chromaLocationTopField` for chroma co-sited with the left luma
    /// column and centred vertically (MPEG-2, H.264's default), as Core Video's
    /// `kCVImageBufferChromaLocation_Left` ("Left").
    public static let chromaLocationLeft = "Left"
    /// Chroma centred in each 2 × 2 block of luma samples (JPEG, MPEG-1), as
    /// `kCVImageBufferChromaLocation_Center` ("Center"): what a surface without the key takes.
    public static let chromaLocationCenter = "Center"
    /// Chroma co-sited with the top-left luma sample, as `kCVImageBufferChromaLocation_TopLeft`
    /// ("TopLeft").
    public static let chromaLocationTopLeft = "TopLeft"
    /// Chroma centred horizontally and co-sited with the top luma row, as
    /// `kCVImageBufferChromaLocation_Top` ("Top").
    public static let chromaLocationTop = "Top"
    /// Chroma co-sited with the bottom-left luma sample, as `kCVImageBufferChromaLocation_BottomLeft`
    /// ("BottomLeft").
    public static let chromaLocationBottomLeft = "BottomLeft"
    /// Chroma centred horizontally and co-sited with the bottom luma row, as
    /// `kCVImageBufferChromaLocation_Bottom` ("Bottom").
    public static let chromaLocationBottom = "Bottom"

    /// The chroma locations by their wire code (`SurfacePlanes.chromaLocation`, H.264's
    /// `chroma_sample_loc_type`).
    static let chromaLocations = [
        chromaLocationLeft, chromaLocationCenter, chromaLocationTopLeft, chromaLocationTop,
        chromaLocationBottomLeft, chromaLocationBottom,
    ]

    /// The number of planes: 2 for NV12 and P010, 0 for 'BGRA' (Apple's value for a surface that is
    /// not planar).
    public var planeCount: Int { planes == nil ? 0 : 2 }

    /// The width in pixels of plane `index` (0: luma, the surface's width; 1: chroma, half of it
    /// rounded up); 0 for another index or a surface without planes.
    public func widthOfPlane(at index: Int) -> Int {
        guard planes != nil else { return 0 }
        return index == 0 ? width : index == 1 ? (width + 1) / 2 : 0
    }

    /// The height in rows of plane `index` (0: luma; 1: chroma, half rounded up); 0 otherwise.
    public func heightOfPlane(at index: Int) -> Int {
        guard planes != nil else { return 0 }
        return index == 0 ? height : index == 1 ? (height + 1) / 2 : 0
    }

    /// The bytes of one element of plane `index`: for NV12 1 for luma, 2 for a Cb, Cr pair; for
    /// P010 2 and 4 (16-bit samples, the 10-bit value in their high bits); 0 otherwise.
    public func bytesPerElementOfPlane(at index: Int) -> Int {
        guard planes != nil else { return 0 }
        return index == 0 ? bytesPerElement : index == 1 ? 2 * bytesPerElement : 0
    }

    /// Bytes from one row of plane `index` to the next; 0 for another index or without planes.
    public func bytesPerRowOfPlane(at index: Int) -> Int {
        guard let planes else { return 0 }
        return index == 0 ? bytesPerRow : index == 1 ? Int(planes.chromaStride) : 0
    }

    /// The first byte of plane `index`: the luma plane's samples (one a pixel) or the chroma plane's
    /// (Cb then Cr for each 2 × 2 block); nil for another index or without planes.
    public func baseAddressOfPlane(at index: Int) -> UnsafeMutableRawPointer? {
        guard let planes, index == 0 || index == 1 else { return nil }
        return baseAddress + Int(index == 0 ? planes.lumaOffset : planes.chromaOffset)
    }

    /// The colour matrix of an NV12 or P010 surface (`IOSurface.yCbCrMatrixITU_R_709_2` or `..._601_4`); nil
    /// for 'BGRA'.
    public var yCbCrMatrix: String? {
        guard let planes else { return nil }
        return planes.matrix == SurfacePlanes.bt601 ? Self.yCbCrMatrixITU_R_601_4 : Self.yCbCrMatrixITU_R_709_2
    }

    /// Where the chroma samples of an NV12 or P010 surface sit (`IOSurface.chromaLocationLeft` ...
    /// `...Bottom`: the surface's `IOSurfacePropertyKey.chromaLocationTopField`, `...Center` without
    /// it); nil for 'BGRA'.
    public var chromaLocation: String? {
        guard let planes else { return nil }
        return Self.chromaLocations[Int(min(planes.chromaLocation, 5))]
    }

    /// The planes of a `width` × `height` NV12 (`sample` 1) or P010 (`sample` 2) surface, each row
    /// rounded up to 64 bytes or `bytesPerRow` apart in both planes, and the bytes they need; nil for
    /// an unknown matrix or chroma location, or a `bytesPerRow` shorter than a plane's row, over 1 MiB
    /// or not a whole number of Cb, Cr pairs.
    static func yCbCrLayout(
        width: Int, height: Int, sample: Int, bytesPerRow: Int? = nil, properties: [IOSurfacePropertyKey: Any]
    ) -> (planes: SurfacePlanes, lumaStride: Int, size: Int)? {
        let matrix: UInt32
        switch properties[.yCbCrMatrix] as? String {
        case nil: matrix = width >= 1280 || height >= 720 ? SurfacePlanes.bt709 : SurfacePlanes.bt601
        case yCbCrMatrixITU_R_709_2: matrix = SurfacePlanes.bt709
        case yCbCrMatrixITU_R_601_4: matrix = SurfacePlanes.bt601
        default: return nil
        }
        let chromaLocation: UInt32
        if let value = properties[.chromaLocationTopField] {
            guard let name = value as? String, let code = chromaLocations.firstIndex(of: name) else { return nil }
            chromaLocation = UInt32(code)
        } else {
            chromaLocation = SurfacePlanes.chromaCenter
        }
        let chromaRow = (width + 1) / 2 * 2 * sample
        if let bytesPerRow {
            guard bytesPerRow >= chromaRow, bytesPerRow % (2 * sample) == 0, bytesPerRow <= 1 << 20 else { return nil }
        }
        let lumaStride = bytesPerRow ?? (width * sample + 63) / 64 * 64
        let chromaStride = bytesPerRow ?? (chromaRow + 63) / 64 * 64
        let chromaOffset = lumaStride * height
        let size = chromaOffset + chromaStride * ((height + 1) / 2)
        let planes = SurfacePlanes(
            lumaOffset: 0, chromaOffset: UInt32(chromaOffset), chromaStride: UInt32(chromaStride), matrix: matrix,
            chromaLocation: chromaLocation)
        return (planes, lumaStride, size)
    }
}

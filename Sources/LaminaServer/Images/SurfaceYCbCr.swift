import Foundation

/// The layout and colour conversion of an NV12 shared surface: a luma plane of one byte a pixel and
/// a chroma plane of interleaved Cb, Cr bytes at half the width and height (rounded up), both in
/// the surface's memfd (docs/surfaces.md, "NV12").
public struct SurfaceYCbCr: Sendable, Hashable {
    /// The YCbCr to RGB matrix.
    public enum Matrix: Sendable, Hashable {
        /// ITU-R BT.601 (Kr 0.299, Kb 0.114): standard definition video.
        case bt601
        /// ITU-R BT.709 (Kr 0.2126, Kb 0.0722): high definition video.
        case bt709
    }

    /// The byte offset of the luma plane.
    public var lumaOffset: Int
    /// Bytes from one luma row to the next.
    public var lumaStride: Int
    /// The byte offset of the chroma plane.
    public var chromaOffset: Int
    /// Bytes from one chroma row to the next.
    public var chromaStride: Int
    /// The matrix.
    public var matrix: Matrix
    /// True for full range (0–255), false for video range (Y 16–235, Cb and Cr 16–240).
    public var isFullRange: Bool

    /// Describes the planes and conversion of an NV12 surface.
    public init(
        lumaOffset: Int, lumaStride: Int, chromaOffset: Int, chromaStride: Int, matrix: Matrix, isFullRange: Bool
    ) {
        self.lumaOffset = lumaOffset
        self.lumaStride = lumaStride
        self.chromaOffset = chromaOffset
        self.chromaStride = chromaStride
        self.matrix = matrix
        self.isFullRange = isFullRange
    }

    /// Writes the `width` × `height` pixels of the NV12 planes in `source` as opaque BGRA8 rows of
    /// `width × 4` bytes to `destination`: each pixel's luma with the chroma of its 2 × 2 block
    /// (nearest, no filtering), scaled from its range and multiplied by the matrix, rounded to the
    /// nearest byte and clamped. The planes must lie within `source` (the session checked them).
    public func convert(
        _ source: UnsafeRawBufferPointer, width: Int, height: Int, into destination: UnsafeMutableRawPointer
    ) {
        let (kr, kb): (Float, Float) = matrix == .bt601 ? (0.299, 0.114) : (0.2126, 0.0722)
        let kg = 1 - kr - kb
        let (yBias, yScale, cScale): (Float, Float, Float) =
            isFullRange ? (0, 1, 1) : (16, 255 / 219, 255 / 224)
        let crToR = 2 * (1 - kr)
        let cbToB = 2 * (1 - kb)
        let cbToG = -cbToB * kb / kg
        let crToG = -crToR * kr / kg
        let base = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let out = destination.assumingMemoryBound(to: UInt8.self)
        func byte(_ v: Float) -> UInt8 { UInt8(max(0, min(255, (v).rounded()))) }
        for y in 0..<height {
            let luma = base + lumaOffset + y * lumaStride
            let chroma = base + chromaOffset + (y / 2) * chromaStride
            let row = out + y * width * 4
            for x in 0..<width {
                let l = (Float(luma[x]) - yBias) * yScale
                let cb = (Float(chroma[(x / 2) * 2]) - 128) * cScale
                let cr = (Float(chroma[(x / 2) * 2 + 1]) - 128) * cScale
                row[x * 4] = byte(l + cbToB * cb)
                row[x * 4 + 1] = byte(l + cbToG * cb + crToG * cr)
                row[x * 4 + 2] = byte(l + crToR * cr)
                row[x * 4 + 3] = 255
            }
        }
    }
}

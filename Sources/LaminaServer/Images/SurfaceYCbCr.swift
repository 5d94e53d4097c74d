import Foundation

/// The layout and colour conversion of a bi-planar YCbCr shared surface (NV12 or P010): a luma plane
/// of one sample a pixel and a chroma plane of interleaved Cb, Cr samples at half the width and height
/// (rounded up), both in the surface's memfd. The renderer samples the planes as they are and
/// converts in its `video` draw kinds (docs/surfaces.md, "Video surfaces").
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
    /// True for full range (0–255; 0–1023 for 10 bits), false for video range (Y 16–235, Cb and
    /// Cr 16–240; four times those for 10 bits).
    public var isFullRange: Bool
    /// True for P010: 16-bit samples, little-endian, holding a 10-bit value in their high bits.
    public var isTenBit: Bool
    /// Where each chroma sample sits against its 2 × 2 block of luma samples.
    public var chromaLocation: ChromaLocation

    /// Describes the planes and conversion of an NV12 surface.
    public init(
        lumaOffset: Int, lumaStride: Int, chromaOffset: Int, chromaStride: Int, matrix: Matrix, isFullRange: Bool,
        isTenBit: Bool = false, chromaLocation: ChromaLocation = .center
    ) {
        self.lumaOffset = lumaOffset
        self.lumaStride = lumaStride
        self.chromaOffset = chromaOffset
        self.chromaStride = chromaStride
        self.matrix = matrix
        self.isFullRange = isFullRange
        self.isTenBit = isTenBit
        self.chromaLocation = chromaLocation
    }

    /// Bytes of one luma sample: 1 for NV12, 2 for P010 (a 10-bit value in the high bits).
    public var bytesPerSample: Int { isTenBit ? 2 : 1 }

    /// The conversion as the `video` draw kinds read it (`ImageShapeInstance.params`' second lane,
    /// `Shaders/video.frag`): 1 for BT.709, + 2 for full range, + 4 for 10-bit samples, + 8 × the
    /// chroma location's code (0–5), so at most 47, exact in a 32-bit float.
    public var drawCode: Float {
        Float((matrix == .bt709 ? 1 : 0) + (isFullRange ? 2 : 0) + (isTenBit ? 4 : 0) + 8 * chromaLocation.rawValue)
    }
}

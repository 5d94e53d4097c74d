/// Where the chroma samples of a 4:2:0 YCbCr surface sit against their 2 × 2 blocks of luma samples
/// (chroma siting), by H.264 and H.265's `chroma_sample_loc_type` codes, which are also the order of
/// Core Video's `kCVImageBufferChromaLocation_*` values (docs/surfaces.md, "Chroma siting").
public enum ChromaLocation: Int, Sendable, Hashable, CaseIterable {
    /// Co-sited with the left luma column, centred between the two rows (MPEG-2, H.264's default).
    case left = 0
    /// Centred in the block (JPEG, MPEG-1).
    case center = 1
    /// Co-sited with the top-left luma sample.
    case topLeft = 2
    /// Centred between the two columns, co-sited with the top row.
    case top = 3
    /// Co-sited with the bottom-left luma sample.
    case bottomLeft = 4
    /// Centred between the two columns, co-sited with the bottom row.
    case bottom = 5

    /// The location of wire code `code` (`SurfacePlanes.chromaLocation`); nil past 5.
    public init?(code: UInt32) {
        guard code <= 5 else { return nil }
        self.init(rawValue: Int(code))
    }
}

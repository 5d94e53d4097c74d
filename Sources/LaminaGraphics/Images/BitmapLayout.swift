import CCairo
import Foundation

/// How a bitmap context's pixels sit in memory, and how they map to the Cairo surface it draws on.
///
/// Cairo draws 32-bit pixels as native-endian words (`ARGB32`, or `RGB24` with the top byte unused)
/// and alpha-only pixels as bytes (`A8`); it has no grey format. A layout whose memory matches
/// Cairo's draws straight into the caller's memory; any other is converted after each painting call.
enum BitmapLayout: Equatable {
    /// Four bytes a pixel; the byte offsets of alpha (or the skipped byte), red, green and blue.
    case rgb32(alpha: Int, red: Int, green: Int, blue: Int, opaque: Bool)
    /// One grey byte a pixel, no alpha.
    case gray8
    /// One alpha byte a pixel.
    case alpha8

    /// The layout for 8-bit components in `space` with `info`, or nil where Lamina has none
    /// (Core Graphics' own list of supported bitmap contexts, restricted to 8 bits a component).
    init?(bitsPerComponent: Int, space: CGColorSpace, info: CGBitmapInfo) {
        guard bitsPerComponent == 8, info.rawValue & CGBitmapInfo.floatInfoMask.rawValue == 0,
            let alpha = info.alphaInfo
        else { return nil }
        let order = info.rawValue & CGBitmapInfo.byteOrderMask.rawValue
        let little = order == CGBitmapInfo.byteOrder32Little.rawValue
        guard order == 0 || little || order == CGBitmapInfo.byteOrder32Big.rawValue else { return nil }
        switch (alpha, space.model) {
        case (.alphaOnly, _):
            guard order == 0 else { return nil }
            self = .alpha8
        case (.none, .monochrome):
            guard order == 0 else { return nil }
            self = .gray8
        case (.premultipliedFirst, .rgb), (.noneSkipFirst, .rgb), (.premultipliedLast, .rgb), (.noneSkipLast, .rgb):
            // Logical order A R G B ("first") or R G B A ("last"); 32-bit little-endian reverses it in memory.
            let first = alpha == .premultipliedFirst || alpha == .noneSkipFirst
            var offsets = first ? [0, 1, 2, 3] : [3, 0, 1, 2]
            if little { offsets = offsets.map { 3 - $0 } }
            self = .rgb32(
                alpha: offsets[0], red: offsets[1], green: offsets[2], blue: offsets[3],
                opaque: alpha == .noneSkipFirst || alpha == .noneSkipLast)
        default:
            return nil
        }
    }

    /// Bytes a pixel.
    var bytesPerPixel: Int {
        if case .rgb32 = self { return 4 }
        return 1
    }

    /// The Cairo format the context draws with.
    var cairoFormat: cairo_format_t {
        switch self {
        case .rgb32(_, _, _, _, let opaque): opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32
        case .gray8: CAIRO_FORMAT_RGB24
        case .alpha8: CAIRO_FORMAT_A8
        }
    }

    /// Whether Cairo can draw into memory of this layout and row stride directly.
    func isCairoNative(bytesPerRow: Int) -> Bool {
        guard bytesPerRow % 4 == 0 else { return false }
        switch self {
        case .rgb32(let a, let r, let g, let b, _):
            // Cairo's 32-bit pixel is the native-endian word 0xAARRGGBB.
            let native = UInt32(1).littleEndian == 1 ? [3, 2, 1, 0] : [0, 1, 2, 3]
            return [a, r, g, b] == native
        case .gray8: return false
        case .alpha8: return true
        }
    }

    /// Copies the caller's pixels (`bytes`) in `region` into the Cairo surface's (`cairo`).
    func load(
        from bytes: UnsafeMutableRawPointer, bytesPerRow: Int, into cairo: UnsafeMutablePointer<UInt8>,
        cairoStride: Int, region: PixelRegion
    ) {
        let src = bytes.assumingMemoryBound(to: UInt8.self)
        let native = UInt32(1).littleEndian == 1 ? [3, 2, 1, 0] : [0, 1, 2, 3]
        for y in region.rows {
            let s = src + y * bytesPerRow
            let d = cairo + y * cairoStride
            for x in region.columns {
                switch self {
                case .rgb32(let a, let r, let g, let b, let opaque):
                    let p = s + x * 4, q = d + x * 4
                    q[native[0]] = opaque ? 255 : p[a]
                    q[native[1]] = p[r]
                    q[native[2]] = p[g]
                    q[native[3]] = p[b]
                case .gray8:
                    let q = d + x * 4
                    q[native[0]] = 255
                    q[native[1]] = s[x]
                    q[native[2]] = s[x]
                    q[native[3]] = s[x]
                case .alpha8:
                    d[x] = s[x]
                }
            }
        }
    }

    /// Copies the Cairo surface's pixels (`cairo`) in `region` out to the caller's memory (`bytes`).
    ///
    /// Grey is the luma of Cairo's red, green and blue (ITU-R BT.601 weights), rounded.
    func store(
        from cairo: UnsafeMutablePointer<UInt8>, cairoStride: Int, into bytes: UnsafeMutableRawPointer,
        bytesPerRow: Int, region: PixelRegion
    ) {
        let dst = bytes.assumingMemoryBound(to: UInt8.self)
        let native = UInt32(1).littleEndian == 1 ? [3, 2, 1, 0] : [0, 1, 2, 3]
        for y in region.rows {
            let s = cairo + y * cairoStride
            let d = dst + y * bytesPerRow
            for x in region.columns {
                switch self {
                case .rgb32(let a, let r, let g, let b, let opaque):
                    let p = s + x * 4, q = d + x * 4
                    q[a] = opaque ? 255 : p[native[0]]
                    q[r] = p[native[1]]
                    q[g] = p[native[2]]
                    q[b] = p[native[3]]
                case .gray8:
                    let p = s + x * 4
                    let luma =
                        0.299 * Double(p[native[1]]) + 0.587 * Double(p[native[2]]) + 0.114 * Double(p[native[3]])
                    d[x] = UInt8(min(255, luma.rounded()))
                case .alpha8:
                    d[x] = s[x]
                }
            }
        }
    }
}

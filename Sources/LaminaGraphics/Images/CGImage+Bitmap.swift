import Foundation

extension CGImage {
    /// The most pixels an image may have on a side when made from bytes or decoded from a file.
    public static let maximumSide = 16384
    /// The most bytes of premultiplied RGBA an image may need when made from bytes or decoded from
    /// a file: 256 MiB (for example 8192 × 8192).
    public static let maximumPixelBytes = 256 << 20

    /// Creates an image from the bytes of `provider` laid out as described, as Core Graphics'
    /// initialiser of the same name does; nil for a layout Lamina does not read or when the
    /// provider holds too few bytes.
    ///
    /// Lamina reads, in an RGB or gray `space`:
    /// - 8 bits per component, RGB: 32 bits per pixel with any alpha (`premultipliedFirst`/`Last`,
    ///   `first`/`last`, `noneSkipFirst`/`Last`) in the default or 32-bit big-endian byte order
    ///   (bytes in the order the alpha names: `premultipliedFirst` is A, R, G, B) or 32-bit little
    ///   endian (bytes reversed: `premultipliedFirst` is B, G, R, A); 24 bits per pixel with `none`.
    /// - 8 bits per component, gray: 8 bits per pixel with `none`; 16 with an alpha or skip byte,
    ///   in the default or 16-bit big-endian order, or reversed in 16-bit little endian.
    /// - 16 bits per component, RGB (48 bits per pixel with `none`, 64 with alpha) or gray (16 or
    ///   32): components big endian in the default and 16-bit big-endian orders, little endian in
    ///   16-bit little endian; each is rounded to 8 bits.
    ///
    /// Anything else gives nil: floating-point components, `alphaOnly`, other depths, a
    /// `bitsPerPixel` that does not match, or a byte order that does not fit the pixel size. The
    /// provider must hold at least `bytesPerRow × (height − 1)` bytes plus one row's pixels, and
    /// `bytesPerRow` must hold a row. Images larger than `maximumSide` on a side or
    /// `maximumPixelBytes` of RGBA give nil.
    ///
    /// Non-premultiplied colours are premultiplied on the way in (`c·a / 255`, rounded);
    /// premultiplied colours above their alpha are clamped to it. `decode`, when given, holds a
    /// (minimum, maximum) pair per colour component (alpha excluded) that maps each component's
    /// range onto it, as Core Graphics' decode array does. The bytes are read once, now; the image
    /// keeps `provider` as its `dataProvider` and reports the layout given.
    public convenience init?(
        width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int, space: CGColorSpace,
        bitmapInfo: CGBitmapInfo, provider: CGDataProvider, decode: UnsafePointer<CGFloat>?,
        shouldInterpolate: Bool, intent: CGColorRenderingIntent
    ) {
        guard
            let layout = RawImageLayout(
                bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel, space: space, bitmapInfo: bitmapInfo),
            width > 0, height > 0, width <= Self.maximumSide, height <= Self.maximumSide,
            width * height * 4 <= Self.maximumPixelBytes
        else { return nil }
        let rowBytes = width * layout.bytesPerPixel
        guard bytesPerRow >= rowBytes, bytesPerRow <= Int(Int32.max) else { return nil }
        let bytes = provider.bytes
        guard bytes.count >= bytesPerRow * (height - 1) + rowBytes else { return nil }
        var table: [[UInt8]]? = nil
        if let decode {
            table = (0..<layout.colourCount).map { component in
                let low = Double(decode[2 * component]), high = Double(decode[2 * component + 1])
                return (0..<256).map { v in
                    let mapped = low + Double(v) / 255 * (high - low)
                    return UInt8((min(1, max(0, mapped)) * 255).rounded())
                }
            }
        }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeBytes { source in
            rgba.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    for x in 0..<width {
                        let pixel = layout.read(source, at: y * bytesPerRow + x * layout.bytesPerPixel)
                        var colour = (pixel.0, pixel.1, pixel.2)
                        if let table {
                            colour.0 = table[0][Int(colour.0)]
                            colour.1 = table[layout.colourCount == 3 ? 1 : 0][Int(colour.1)]
                            colour.2 = table[layout.colourCount == 3 ? 2 : 0][Int(colour.2)]
                        }
                        let a = pixel.3
                        let d = (y * width + x) * 4
                        if layout.premultiplied {
                            out[d] = min(colour.0, a)
                            out[d + 1] = min(colour.1, a)
                            out[d + 2] = min(colour.2, a)
                        } else {
                            out[d] = premultiply(colour.0, a)
                            out[d + 1] = premultiply(colour.1, a)
                            out[d + 2] = premultiply(colour.2, a)
                        }
                        out[d + 3] = a
                    }
                }
            }
        }
        self.init(
            width: width, height: height, premultipliedRGBA: rgba, bitsPerComponent: bitsPerComponent,
            bitsPerPixel: bitsPerPixel, bytesPerRow: bytesPerRow, bitmapInfo: bitmapInfo, colorSpace: space,
            shouldInterpolate: shouldInterpolate, renderingIntent: intent, provider: provider)
    }
}

/// `c·a / 255`, rounded.
@inline(__always)
func premultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
    UInt8((Int(c) * Int(a) + 127) / 255)
}

/// Where each component of one of the layouts `CGImage` reads lies in a pixel's bytes.
struct RawImageLayout {
    /// Bytes per pixel.
    let bytesPerPixel: Int
    /// 1 for 8-bit components, 2 for 16-bit.
    let bytesPerComponent: Int
    /// 3 for RGB, 1 for gray.
    let colourCount: Int
    /// Byte offsets of the colour components (red, green, blue or gray), each the most
    /// significant byte of a 16-bit component.
    let colourOffsets: [Int]
    /// Byte offset of alpha, or nil when the layout has none.
    let alphaOffset: Int?
    /// Whether colours are premultiplied (true too for layouts without alpha).
    let premultiplied: Bool
    /// For 16-bit components: whether the less significant byte follows the most significant one.
    let lowByteStep: Int

    /// The layout of `bitmapInfo` at these depths in `space`, or nil when Lamina does not read it.
    init?(bitsPerComponent: Int, bitsPerPixel: Int, space: CGColorSpace, bitmapInfo: CGBitmapInfo) {
        let known = CGBitmapInfo.alphaInfoMask.union(.byteOrderMask).union(.floatComponents)
        guard bitmapInfo.rawValue & ~known.rawValue == 0, !bitmapInfo.contains(.floatComponents),
            let alpha = bitmapInfo.alphaInfo, alpha != .alphaOnly,
            bitsPerComponent == 8 || bitsPerComponent == 16
        else { return nil }
        switch space.model {
        case .rgb: colourCount = 3
        case .monochrome: colourCount = 1
        default: return nil
        }
        let hasExtra = alpha != .none
        let componentCount = colourCount + (hasExtra ? 1 : 0)
        let componentBytes = bitsPerComponent / 8
        let pixelBytes = componentCount * componentBytes
        guard bitsPerPixel == pixelBytes * 8 else { return nil }
        bytesPerComponent = componentBytes
        bytesPerPixel = pixelBytes
        let order = CGBitmapInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.byteOrderMask.rawValue)
        // Component order as the alpha names it, first to last.
        var slots = Array(0..<colourCount)
        let extraFirst = alpha == .premultipliedFirst || alpha == .first || alpha == .noneSkipFirst
        if hasExtra { slots = extraFirst ? [-1] + slots : slots + [-1] }
        var componentOffsets = slots.indices.map { $0 * componentBytes }
        var step = 1
        if componentBytes == 1 {
            switch order {
            case .byteOrderDefault: break
            case .byteOrder32Big where pixelBytes == 4, .byteOrder16Big where pixelBytes == 2: break
            case .byteOrder32Little where pixelBytes == 4, .byteOrder16Little where pixelBytes == 2:
                componentOffsets = componentOffsets.map { pixelBytes - 1 - $0 }
            default: return nil
            }
        } else {
            switch order {
            case .byteOrderDefault, .byteOrder16Big: break
            case .byteOrder16Little:
                componentOffsets = componentOffsets.map { $0 + 1 }
                step = -1
            default: return nil
            }
        }
        lowByteStep = step
        var colours = [Int](repeating: 0, count: colourCount)
        var alphaAt: Int? = nil
        for (slot, offset) in zip(slots, componentOffsets) {
            if slot < 0 { alphaAt = offset } else { colours[slot] = offset }
        }
        colourOffsets = colours
        let skip = alpha == .noneSkipFirst || alpha == .noneSkipLast
        alphaOffset = skip ? nil : alphaAt
        premultiplied = !(alpha == .first || alpha == .last)
    }

    /// The 8-bit component whose (most significant) byte is at `offset`.
    @inline(__always)
    func component(_ source: UnsafeRawBufferPointer, _ offset: Int) -> UInt8 {
        if bytesPerComponent == 1 { return source[offset] }
        let value = Int(source[offset]) << 8 | Int(source[offset + lowByteStep])
        return UInt8((value * 255 + 32767) / 65535)
    }

    /// The pixel at byte `offset`: red, green, blue (gray repeated) and alpha (255 without alpha).
    @inline(__always)
    func read(_ source: UnsafeRawBufferPointer, at offset: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let a = alphaOffset.map { component(source, offset + $0) } ?? 255
        if colourCount == 1 {
            let g = component(source, offset + colourOffsets[0])
            return (g, g, g, a)
        }
        return (
            component(source, offset + colourOffsets[0]), component(source, offset + colourOffsets[1]),
            component(source, offset + colourOffsets[2]), a
        )
    }
}

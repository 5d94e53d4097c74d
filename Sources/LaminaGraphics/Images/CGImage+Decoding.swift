import Foundation

extension CGImage {
    /// Decodes the PNG file that `source` holds, as Core Graphics' initialiser of the same name
    /// does; nil when the data is not a complete, valid PNG.
    ///
    /// Every PNG colour type comes out as 8-bit premultiplied RGBA (`PNGCodec.decode(_:)`), and the
    /// image reports that layout: 8 bits per component, 32 per pixel, `premultipliedLast`, sRGB.
    /// `decode` is ignored (Lamina reads no decode array from files). Files larger than
    /// `maximumSide` on a side or `maximumPixelBytes` of RGBA give nil.
    public convenience init?(
        pngDataProviderSource source: CGDataProvider, decode: UnsafePointer<CGFloat>?, shouldInterpolate: Bool,
        intent: CGColorRenderingIntent
    ) {
        guard let image = try? PNGCodec.decode(source.bytes) else { return nil }
        self.init(decoded: image, shouldInterpolate: shouldInterpolate, intent: intent)
    }

    /// Decodes the JPEG file that `source` holds, as Core Graphics' initialiser of the same name
    /// does; nil when the data is not a complete, valid JPEG that Lamina reads.
    ///
    /// The image is opaque and reports 8 bits per component, 32 per pixel, `noneSkipLast`, sRGB
    /// (`JPEGCodec.decode(_:)`). `decode` is ignored. CMYK JPEGs, truncated data and files larger
    /// than `maximumSide` on a side or `maximumPixelBytes` of RGBA give nil.
    public convenience init?(
        jpegDataProviderSource source: CGDataProvider, decode: UnsafePointer<CGFloat>?, shouldInterpolate: Bool,
        intent: CGColorRenderingIntent
    ) {
        guard let image = try? JPEGCodec.decode(source.bytes) else { return nil }
        self.init(decoded: image, shouldInterpolate: shouldInterpolate, intent: intent)
    }

    /// A copy of a freshly decoded image with the caller's interpolation and intent.
    private convenience init(decoded image: CGImage, shouldInterpolate: Bool, intent: CGColorRenderingIntent) {
        self.init(
            width: image.width, height: image.height, premultipliedRGBA: image.premultipliedRGBA,
            bitmapInfo: image.bitmapInfo, colorSpace: image.colorSpace, shouldInterpolate: shouldInterpolate,
            renderingIntent: intent)
    }
}

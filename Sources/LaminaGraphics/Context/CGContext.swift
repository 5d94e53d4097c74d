import CCairo
import Foundation

/// A Core Graphics drawing destination: a bitmap in memory that paths, images and gradients are
/// painted into, with Core Graphics' graphics state.
///
/// Mirrors Apple's `CGContext` (bitmap contexts only). Drawing is done by Cairo. A bitmap context has
/// Core Graphics' device space: the origin at the bottom-left pixel corner, y up, one unit a pixel,
/// so `fill(CGRect(x: 0, y: 0, width: 10, height: 10))` paints the last ten rows of `data`. Its `ctm`
/// starts as the identity. Not thread-safe: use one context from one thread at a time.
public final class CGContext {
    /// The Cairo context; its matrix is the CTM followed by the flip to Cairo's y-down device space.
    let cairo: OpaquePointer
    /// The Cairo surface drawn on: over `data` when the layout is Cairo's own, else a separate buffer.
    let surface: OpaquePointer
    /// How `data` is laid out.
    let layout: BitmapLayout
    /// Whether pixels are converted between `data` and `surface` around each painting call.
    let converts: Bool
    /// Whether the context allocated `data` (and frees it).
    private let ownsData: Bool
    /// Core Graphics device space (y up) to Cairo device space (y down).
    let deviceFlip: CGAffineTransform
    /// The graphics state Cairo does not keep (colours, alpha, blend mode, antialiasing, mask clip).
    var state = GraphicsState()
    /// States saved by `saveGState()`.
    var savedStates: [GraphicsState] = []
    /// Whether the whole context is allowed to antialias (`setAllowsAntialiasing(_:)`); not saved state.
    var allowsAntialiasing = true
    /// For each open transparency layer, innermost last, how many states were saved when it began.
    var transparencyLayerDepths: [Int] = []
    /// Text space to user space (`textMatrix`); not part of the graphics state.
    var storedTextMatrix = CGAffineTransform.identity
    /// The context-wide font rendering permissions (`setAllowsFontSmoothing(_:)` and friends); not
    /// part of the graphics state.
    var fontPermissions = FontPermissions()

    /// The pixel memory: the caller's, or the context's own when `nil` was passed; valid while the context lives.
    public let data: UnsafeMutableRawPointer?
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// Bits in one colour component; always 8 here.
    public let bitsPerComponent: Int
    /// Bits in one pixel: 32 for RGB layouts, 8 for grey and alpha-only ones.
    public let bitsPerPixel: Int
    /// Bytes from one row of `data` to the next.
    public let bytesPerRow: Int
    /// The colour space pixels are in (nil for an alpha-only context).
    public let colorSpace: CGColorSpace?
    /// The alpha, byte-order and float flags the context was made with.
    public let bitmapInfo: CGBitmapInfo

    /// Where alpha sits in each pixel, from `bitmapInfo`.
    public var alphaInfo: CGImageAlphaInfo {
        bitmapInfo.alphaInfo ?? .none
    }

    /// Makes a bitmap context drawing into `data`, or into memory it allocates when `data` is nil.
    ///
    /// Supported, as in Core Graphics' list of bitmap formats at 8 bits a component: an RGB space
    /// with `premultipliedLast`, `premultipliedFirst`, `noneSkipLast` or `noneSkipFirst` in the
    /// default, `byteOrder32Big` or `byteOrder32Little` byte order; a grey space with `.none`; and
    /// `.alphaOnly` (any space). Anything else returns nil, as does a size below 1 or above 32767
    /// pixels (Cairo's limit) or a `bytesPerRow` too small for a row. A `bytesPerRow` of 0 is computed: the row's bytes rounded
    /// up to a multiple of 4. Memory the context allocates starts zeroed.
    public init?(
        data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int,
        space: CGColorSpace, bitmapInfo: UInt32
    ) {
        let info = CGBitmapInfo(rawValue: bitmapInfo)
        guard width > 0, height > 0, width <= 32767, height <= 32767,
            let layout = BitmapLayout(bitsPerComponent: bitsPerComponent, space: space, info: info)
        else { return nil }
        let rowBytes = width * layout.bytesPerPixel
        let stride = bytesPerRow == 0 ? (rowBytes + 3) / 4 * 4 : bytesPerRow
        let (byteCount, overflow) = stride.multipliedReportingOverflow(by: height)
        guard stride >= rowBytes, !overflow, stride <= Int(Int32.max) else { return nil }
        let memory: UnsafeMutableRawPointer
        if let data {
            memory = data
        } else {
            memory = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16)
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
        }
        let direct = layout.isCairoNative(bytesPerRow: stride)
        let made =
            direct
            ? cairo_image_surface_create_for_data(
                memory.assumingMemoryBound(to: UInt8.self), layout.cairoFormat, Int32(width), Int32(height),
                Int32(stride))
            : cairo_image_surface_create(layout.cairoFormat, Int32(width), Int32(height))
        guard let made, cairo_surface_status(made) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(made),
            cairo_status(cr) == CAIRO_STATUS_SUCCESS
        else {
            if data == nil { memory.deallocate() }
            return nil
        }
        self.surface = made
        self.cairo = cr
        self.layout = layout
        self.converts = !direct
        self.ownsData = data == nil
        self.data = memory
        self.width = width
        self.height = height
        self.bitsPerComponent = bitsPerComponent
        self.bitsPerPixel = layout.bytesPerPixel * 8
        self.bytesPerRow = stride
        self.colorSpace = layout == .alpha8 ? nil : space
        self.bitmapInfo = info
        self.deviceFlip = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height))
        cairo_set_line_width(cr, 1)
        cairo_set_miter_limit(cr, 10)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
        setCairoMatrix(deviceFlip)
    }

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
        if ownsData { data?.deallocate() }
    }

    /// Makes a backing-store context for a layer: `ceil(bounds.width × contentsScale)` by
    /// `ceil(bounds.height × contentsScale)` pixels, premultiplied BGRA (`premultipliedFirst` with
    /// `byteOrder32Little`), whose user space is `bounds` in points with the origin at the top-left
    /// and y down, as iOS hands a context to `draw(in:)`.
    ///
    /// Its `ctm` reads as Apple's does there: a scale by (s, −s) and a translation putting
    /// `bounds.origin` at the top-left pixel. Nil for an empty bounds, a non-positive scale or more
    /// than 32767 pixels a side.
    package static func makeLayerContext(bounds: CGRect, contentsScale: CGFloat) -> CGContext? {
        let b = bounds.standardized
        guard !b.isNull, !b.isInfinite, contentsScale > 0, contentsScale.isFinite,
            b.width * contentsScale <= 32767, b.height * contentsScale <= 32767
        else { return nil }
        let pixelWidth = Int((b.width * contentsScale).rounded(.up))
        let pixelHeight = Int((b.height * contentsScale).rounded(.up))
        let info = CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue
        guard pixelWidth > 0, pixelHeight > 0,
            let context = CGContext(
                data: nil, width: pixelWidth, height: pixelHeight, bitsPerComponent: 8, bytesPerRow: 0,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: info)
        else { return nil }
        let s = contentsScale
        context.concatenate(
            CGAffineTransform(a: s, b: 0, c: 0, d: -s, tx: -s * b.minX, ty: CGFloat(pixelHeight) + s * b.minY))
        return context
    }

    /// Makes an image of the context's current pixels (a copy: later drawing does not change it).
    ///
    /// Grey pixels become opaque grey, alpha-only pixels black with that alpha, skipped alpha 255.
    public func makeImage() -> CGImage? {
        willPaint(wholeRegion)
        cairo_surface_flush(surface)
        guard let pixels = cairo_image_surface_get_data(surface) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let native = UInt32(1).littleEndian == 1 ? [3, 2, 1, 0] : [0, 1, 2, 3]
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let row = pixels + y * stride
            for x in 0..<width {
                let o = (y * width + x) * 4
                switch layout {
                case .alpha8:
                    rgba[o + 3] = row[x]
                case .gray8:
                    let p = row + x * 4
                    let luma =
                        0.299 * Double(p[native[1]]) + 0.587 * Double(p[native[2]]) + 0.114 * Double(p[native[3]])
                    let g = UInt8(min(255, luma.rounded()))
                    rgba[o] = g
                    rgba[o + 1] = g
                    rgba[o + 2] = g
                    rgba[o + 3] = 255
                case .rgb32(_, _, _, _, let opaque):
                    let p = row + x * 4
                    rgba[o] = p[native[1]]
                    rgba[o + 1] = p[native[2]]
                    rgba[o + 2] = p[native[3]]
                    rgba[o + 3] = opaque ? 255 : p[native[0]]
                }
            }
        }
        return CGImage(width: width, height: height, premultipliedRGBA: rgba)
    }

    // MARK: - Keeping `data` and the Cairo surface in step

    /// The whole bitmap.
    var wholeRegion: PixelRegion {
        PixelRegion(columns: 0..<width, rows: 0..<height)
    }

    /// The pixels a painting call covering `extents` (user space; nil for the whole clip) may
    /// change: its device-space bounding box, grown by a pixel for antialiasing, within the clip.
    func region(of extents: CGRect?) -> PixelRegion {
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_clip_extents(cairo, &x1, &y1, &x2, &y2)
        var box = CGRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1)
        if let extents { box = box.intersection(extents) }
        guard !box.isNull, !box.isInfinite else { return PixelRegion(columns: 0..<0, rows: 0..<0) }
        let device = box.applying(cairoMatrix)
        func clamp(_ value: CGFloat, _ limit: Int) -> Int {
            guard value.isFinite else { return value > 0 ? limit : 0 }
            return Int(min(max(value, 0), CGFloat(limit)))
        }
        let left = clamp((device.minX - 1).rounded(.down), width)
        let right = clamp((device.maxX + 1).rounded(.up), width)
        let top = clamp((device.minY - 1).rounded(.down), height)
        let bottom = clamp((device.maxY + 1).rounded(.up), height)
        return PixelRegion(columns: left..<max(left, right), rows: top..<max(top, bottom))
    }

    /// Brings the surface up to date with `data` in `region` before Cairo paints there.
    func willPaint(_ region: PixelRegion) {
        guard converts, !region.isEmpty, let data, let pixels = cairo_image_surface_get_data(surface) else {
            cairo_surface_mark_dirty(surface)
            return
        }
        cairo_surface_flush(surface)
        layout.load(
            from: data, bytesPerRow: bytesPerRow, into: pixels,
            cairoStride: Int(cairo_image_surface_get_stride(surface)), region: region)
        cairo_surface_mark_dirty(surface)
    }

    /// Writes what Cairo painted in `region` back to `data` in the caller's layout.
    func didPaint(_ region: PixelRegion) {
        cairo_surface_flush(surface)
        guard converts, !region.isEmpty, let data, let pixels = cairo_image_surface_get_data(surface) else { return }
        layout.store(
            from: pixels, cairoStride: Int(cairo_image_surface_get_stride(surface)), into: data,
            bytesPerRow: bytesPerRow, region: region)
    }

    /// Sets Cairo's matrix to `transform` (user space to Cairo device space).
    func setCairoMatrix(_ t: CGAffineTransform) {
        var m = cairo_matrix_t(
            xx: Double(t.a), yx: Double(t.b), xy: Double(t.c), yy: Double(t.d), x0: Double(t.tx), y0: Double(t.ty))
        cairo_set_matrix(cairo, &m)
    }

    /// Cairo's matrix (user space to Cairo device space).
    var cairoMatrix: CGAffineTransform {
        var m = cairo_matrix_t()
        cairo_get_matrix(cairo, &m)
        return CGAffineTransform(
            a: CGFloat(m.xx), b: CGFloat(m.yx), c: CGFloat(m.xy), d: CGFloat(m.yy), tx: CGFloat(m.x0),
            ty: CGFloat(m.y0))
    }
}

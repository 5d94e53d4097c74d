// SoftwareReference.swift — the two software reference renderers lamina-bench compares against:
// Cairo (a general vector rasteriser) and pixman used directly (a tight special-purpose compositor).

import CCairo
import CPixman

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reference software renderers for the benchmark scene and the timing helper used to compare them.
enum SoftwareReference {

    // MARK: - Cairo

    /// Draws the scene with Cairo (cairo_image_surface ARGB32, rounded-rect paths built from
    /// cairo_arc, cairo_fill for background, even-odd fill of outer+inner path for the border ring,
    /// antialias default) and returns the surface's pixels (BGRA bytes, premultiplied,
    /// stride width*4 — rows are copied out honouring cairo's own stride).
    static func renderCairo(_ layers: [BenchLayer], width: Int, height: Int) -> [UInt8] {
        guard width > 0, height > 0 else { return [] }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        else { return [UInt8](repeating: 0, count: width * height * 4) }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return [UInt8](repeating: 0, count: width * height * 4) }

        // A fresh image surface is transparent black; OVER is cairo's default operator.
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        for layer in layers {
            let geometry = LayerGeometry(layer)
            if geometry.isEmpty { continue }
            let x = layer.x, y = layer.y, w = layer.width, h = layer.height

            // Background: the bounds' rounded rect.
            if layer.fill.a * layer.opacity > 0 {
                cairo_new_path(cr)
                appendRoundedRect(cr, x: x, y: y, width: w, height: h, radius: geometry.radius)
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
                cairo_set_source_rgba(
                    cr, layer.fill.r, layer.fill.g, layer.fill.b,
                    layer.fill.a * layer.opacity)
                cairo_fill(cr)
            }

            // Border: outer rounded rect and inner (inset) rounded rect, filled even-odd.
            if geometry.borderWidth > 0, layer.border.a * layer.opacity > 0 {
                let bw = geometry.borderWidth
                cairo_new_path(cr)
                appendRoundedRect(cr, x: x, y: y, width: w, height: h, radius: geometry.radius)
                if w - 2 * bw > 0, h - 2 * bw > 0 {
                    appendRoundedRect(
                        cr, x: x + bw, y: y + bw, width: w - 2 * bw, height: h - 2 * bw,
                        radius: geometry.innerRadius)
                }
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
                cairo_set_source_rgba(
                    cr, layer.border.r, layer.border.g, layer.border.b,
                    layer.border.a * layer.opacity)
                cairo_fill(cr)
            }
        }
        cairo_destroy(cr)
        cairo_surface_flush(surface)

        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else {
            return [UInt8](repeating: 0, count: width * height * 4)
        }
        return copyRows(from: UnsafeRawPointer(data), stride: stride, width: width, height: height)
    }

    /// Appends a closed rounded-rect sub-path (clockwise in device space) built from four
    /// quarter-circle `cairo_arc`s; a zero radius degenerates to a plain rectangle.
    private static func appendRoundedRect(
        _ cr: OpaquePointer, x: Double, y: Double,
        width w: Double, height h: Double, radius r: Double
    ) {
        cairo_new_sub_path(cr)
        if r <= 0 {
            cairo_rectangle(cr, x, y, w, h)
            return
        }
        cairo_arc(cr, x + w - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, x + w - r, y + h - r, r, 0, Double.pi / 2)
        cairo_arc(cr, x + r, y + h - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    // MARK: - pixman

    /// Draws the scene with pixman directly, the way a tight software compositor does it: for each
    /// rounded rect, composite solid fills (`pixman_image_create_solid_fill` with a premultiplied
    /// `pixman_color_t`) over the interior boxes with `PIXMAN_OP_OVER` (`pixman_image_composite32`),
    /// and the four corners through small a8 coverage masks that are computed once per
    /// (radius, border width, fill/ring) and cached for the duration of the call. Returns BGRA
    /// bytes (premultiplied, stride width*4).
    ///
    /// Layer geometry is expected to be pixel-aligned (integer x, y, width, height, as
    /// `BenchScene` produces); non-integer values are rounded to the nearest pixel. Corner radius
    /// and border width may be fractional.
    static func renderPixman(_ layers: [BenchLayer], width: Int, height: Int) -> [UInt8] {
        guard width > 0, height > 0 else { return [] }
        // NULL bits: pixman allocates (and zeroes) the buffer itself — transparent black.
        guard let dst = pixman_image_create_bits(CPIXMAN_a8r8g8b8, Int32(width), Int32(height), nil, 0)
        else { return [UInt8](repeating: 0, count: width * height * 4) }
        defer { pixman_image_unref(dst) }

        let masks = MaskCache()
        for layer in layers {
            drawLayerPixman(layer, into: dst, masks: masks)
        }

        let stride = Int(pixman_image_get_stride(dst))
        guard let data = pixman_image_get_data(dst) else {
            return [UInt8](repeating: 0, count: width * height * 4)
        }
        return copyRows(from: UnsafeRawPointer(data), stride: stride, width: width, height: height)
    }

    /// Composites one layer (background, then border ring) onto `dst`.
    private static func drawLayerPixman(_ layer: BenchLayer, into dst: OpaquePointer, masks: MaskCache) {
        let g = LayerGeometry(layer)
        if g.isEmpty { return }
        let x = Int((layer.x).rounded()), y = Int((layer.y).rounded())
        let w = Int((layer.width).rounded()), h = Int((layer.height).rounded())
        guard w > 0, h > 0 else { return }

        // Side of the square corner tile: everything curved (and the corner part of the ring) lies in it.
        let tile = Int(max(g.radius, g.borderWidth).rounded(.up))
        let tiled = 2 * tile <= w && 2 * tile <= h

        // Background.
        if let src = solidFill(layer.fill, opacity: layer.opacity) {
            defer { pixman_image_unref(src) }
            if !tiled {
                compositeWholeMask(src, dst: dst, masks: masks, kind: .fill, geometry: g, x: x, y: y, w: w, h: h)
            } else {
                if tile > 0 {
                    compositeCorners(
                        src, dst: dst, masks: masks, kind: .fill, geometry: g,
                        tile: tile, x: x, y: y, w: w, h: h)
                }
                // Interior boxes: top band between the corners, full-width middle band, bottom band.
                over(src, nil, dst, x + tile, y, w - 2 * tile, tile)
                over(src, nil, dst, x, y + tile, w, h - 2 * tile)
                over(src, nil, dst, x + tile, y + h - tile, w - 2 * tile, tile)
            }
        }

        // Border ring.
        guard g.borderWidth > 0 else { return }
        if !tiled {
            if let src = solidFill(layer.border, opacity: layer.opacity) {
                defer { pixman_image_unref(src) }
                compositeWholeMask(src, dst: dst, masks: masks, kind: .ring, geometry: g, x: x, y: y, w: w, h: h)
            }
            return
        }
        guard let src = solidFill(layer.border, opacity: layer.opacity) else { return }
        defer { pixman_image_unref(src) }
        compositeCorners(
            src, dst: dst, masks: masks, kind: .ring, geometry: g,
            tile: tile, x: x, y: y, w: w, h: h)
        // Straight edges of the ring between the corner tiles: whole-pixel rows/columns at full
        // coverage, plus one row/column at fractional coverage when the border width is fractional.
        let whole = Int(g.borderWidth.rounded(.down))
        let frac = g.borderWidth - Double(whole)
        over(src, nil, dst, x + tile, y, w - 2 * tile, whole)  // top
        over(src, nil, dst, x + tile, y + h - whole, w - 2 * tile, whole)  // bottom
        over(src, nil, dst, x, y + tile, whole, h - 2 * tile)  // left
        over(src, nil, dst, x + w - whole, y + tile, whole, h - 2 * tile)  // right
        if frac > 0, let partial = solidFill(layer.border, opacity: layer.opacity * frac) {
            defer { pixman_image_unref(partial) }
            over(partial, nil, dst, x + tile, y + whole, w - 2 * tile, 1)
            over(partial, nil, dst, x + tile, y + h - whole - 1, w - 2 * tile, 1)
            over(partial, nil, dst, x + whole, y + tile, 1, h - 2 * tile)
            over(partial, nil, dst, x + w - whole - 1, y + tile, 1, h - 2 * tile)
        }
    }

    /// Composites the four corner tiles of a layer through the cached 2·tile × 2·tile mask, whose
    /// quadrants are exactly the four corners of a rounded rect with the layer's radius and border.
    private static func compositeCorners(
        _ src: OpaquePointer, dst: OpaquePointer, masks: MaskCache,
        kind: MaskKind, geometry g: LayerGeometry, tile: Int,
        x: Int, y: Int, w: Int, h: Int
    ) {
        let key = MaskKey(
            kind: kind, radius: g.radius, borderWidth: g.borderWidth,
            width: 2 * tile, height: 2 * tile)
        guard let mask = masks.mask(for: key) else { return }
        let t = tile
        over(src, mask, dst, x, y, t, t, maskX: 0, maskY: 0)  // top-left
        over(src, mask, dst, x + w - t, y, t, t, maskX: t, maskY: 0)  // top-right
        over(src, mask, dst, x, y + h - t, t, t, maskX: 0, maskY: t)  // bottom-left
        over(src, mask, dst, x + w - t, y + h - t, t, t, maskX: t, maskY: t)  // bottom-right
    }

    /// Fallback for layers too small for the corner-tile decomposition: one mask over the whole
    /// layer (also cached, keyed by size).
    private static func compositeWholeMask(
        _ src: OpaquePointer, dst: OpaquePointer, masks: MaskCache,
        kind: MaskKind, geometry g: LayerGeometry,
        x: Int, y: Int, w: Int, h: Int
    ) {
        let key = MaskKey(kind: kind, radius: g.radius, borderWidth: g.borderWidth, width: w, height: h)
        guard let mask = masks.mask(for: key) else { return }
        over(src, mask, dst, x, y, w, h, maskX: 0, maskY: 0)
    }

    /// `pixman_image_composite32` with `PIXMAN_OP_OVER`; empty boxes are skipped.
    @inline(__always)
    private static func over(
        _ src: OpaquePointer, _ mask: OpaquePointer?, _ dst: OpaquePointer,
        _ x: Int, _ y: Int, _ w: Int, _ h: Int, maskX: Int = 0, maskY: Int = 0
    ) {
        guard w > 0, h > 0 else { return }
        pixman_image_composite32(
            PIXMAN_OP_OVER, src, mask, dst,
            0, 0, Int32(maskX), Int32(maskY),
            Int32(x), Int32(y), Int32(w), Int32(h))
    }

    /// A solid-fill source image for a non-premultiplied colour with its alpha multiplied by
    /// `opacity`, premultiplied and rounded to 16 bits per channel the way cairo does it; `nil`
    /// when fully transparent. The caller unrefs it.
    private static func solidFill(
        _ c: (r: Double, g: Double, b: Double, a: Double),
        opacity: Double
    ) -> OpaquePointer? {
        let a = clamp01(c.a * opacity)
        guard a > 0 else { return nil }
        func short(_ v: Double) -> UInt16 { UInt16(clamp01(v) * 65535.0 + 0.5) }
        var color = pixman_color_t(
            red: short(c.r * a), green: short(c.g * a),
            blue: short(c.b * a), alpha: short(a))
        return pixman_image_create_solid_fill(&color)
    }

    /// Which coverage a mask holds: the whole rounded rect (background) or the border ring.
    private enum MaskKind: Hashable {
        /// Coverage of the bounds' rounded rect.
        case fill
        /// Coverage of the outer rounded rect minus the inset inner rounded rect.
        case ring
    }

    /// Cache key for a coverage mask of a `width`×`height` rounded rect.
    private struct MaskKey: Hashable {
        /// Fill or ring coverage.
        var kind: MaskKind
        /// Outer corner radius (already clamped to the layer size).
        var radius: Double
        /// Border width (only meaningful for `.ring`).
        var borderWidth: Double
        /// Mask width in pixels.
        var width: Int
        /// Mask height in pixels.
        var height: Int
    }

    /// Per-render cache of a8 coverage masks; owns the pixman images and unrefs them on deinit.
    private final class MaskCache {
        /// Masks built so far.
        private var images: [MaskKey: OpaquePointer] = [:]

        /// The mask for `key`, rasterising it on first use.
        func mask(for key: MaskKey) -> OpaquePointer? {
            if let image = images[key] { return image }
            guard let image = SoftwareReference.makeCoverageMask(key) else { return nil }
            images[key] = image
            return image
        }

        deinit {
            for image in images.values { pixman_image_unref(image) }
        }
    }

    /// Sub-scanlines per pixel row used when rasterising coverage masks (coverage is exact in x).
    private static let maskSubsamples = 64

    /// Maximum distance (pixels) between a corner arc and the polygon that approximates it in the
    /// coverage masks. 0.1 is cairo's default tolerance, so both references rasterise the same
    /// flattened geometry; exact circles would differ from cairo's output by up to ~0.1 px of
    /// coverage on corner edge pixels.
    private static let flatteningTolerance = 0.1

    /// Rasterises the coverage of a `key.width`×`key.height` rounded rect (or its border ring) into
    /// a new a8 pixman image: the rounded rects are flattened to convex polygons, each pixel row is
    /// sampled at `maskSubsamples` sub-scanlines, and each sub-scanline's span is intersected
    /// exactly with every pixel column.
    private static func makeCoverageMask(_ key: MaskKey) -> OpaquePointer? {
        let w = key.width, h = key.height
        guard w > 0, h > 0,
            let image = pixman_image_create_bits(CPIXMAN_a8, Int32(w), Int32(h), nil, 0),
            let raw = pixman_image_get_data(image)
        else { return nil }
        let stride = Int(pixman_image_get_stride(image))
        let bytes = UnsafeMutableRawPointer(raw).assumingMemoryBound(to: UInt8.self)

        let W = Double(w), H = Double(h), bw = key.borderWidth
        let outer = roundedRectPolygon(x: 0, y: 0, width: W, height: H, radius: key.radius)
        var inner: [Point] = []
        if key.kind == .ring, W - 2 * bw > 0, H - 2 * bw > 0 {
            inner = roundedRectPolygon(
                x: bw, y: bw, width: W - 2 * bw, height: H - 2 * bw,
                radius: max(key.radius - bw, 0))
        }
        let n = maskSubsamples
        var row = [Double](repeating: 0, count: w)
        for py in 0..<h {
            for i in 0..<w { row[i] = 0 }
            for s in 0..<n {
                let sy = Double(py) + (Double(s) + 0.5) / Double(n)
                if let (x0, x1) = convexSpan(outer, y: sy) {
                    accumulate(&row, from: x0, to: x1, sign: 1)
                }
                if !inner.isEmpty, let (x0, x1) = convexSpan(inner, y: sy) {
                    accumulate(&row, from: x0, to: x1, sign: -1)
                }
            }
            for px in 0..<w {
                let coverage = clamp01(row[px] / Double(n))
                bytes[py * stride + px] = UInt8(coverage * 255.0 + 0.5)
            }
        }
        return image
    }

    /// Adds `sign` × (length of [x0, x1] inside each pixel column) to `row`.
    private static func accumulate(_ row: inout [Double], from x0: Double, to x1: Double, sign: Double) {
        guard x1 > x0 else { return }
        let first = max(Int(x0.rounded(.down)), 0)
        let last = min(Int(x1.rounded(.up)), row.count)
        guard first < last else { return }
        for px in first..<last {
            let lo = max(x0, Double(px)), hi = min(x1, Double(px + 1))
            if hi > lo { row[px] += sign * (hi - lo) }
        }
    }

    /// A 2-D point in mask space.
    private typealias Point = (x: Double, y: Double)

    /// The horizontal extent of a convex polygon on the scanline at height `y`, or `nil` if the
    /// scanline misses it.
    private static func convexSpan(_ polygon: [Point], y: Double) -> (Double, Double)? {
        var lo = Double.infinity, hi = -Double.infinity
        var previous = polygon[polygon.count - 1]
        for p in polygon {
            let (a, b) = previous.y < p.y ? (previous, p) : (p, previous)
            if a.y != b.y, y >= a.y, y < b.y {
                let x = a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)
                lo = min(lo, x)
                hi = max(hi, x)
            }
            previous = p
        }
        return lo < hi ? (lo, hi) : nil
    }

    /// A rounded rect as a convex polygon (clockwise in y-down space): each quarter-circle corner
    /// is approximated by a cubic Bézier and flattened to within `flatteningTolerance`.
    private static func roundedRectPolygon(
        x: Double, y: Double, width w: Double, height h: Double,
        radius r: Double
    ) -> [Point] {
        guard r > 0 else { return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)] }
        // Corner centres and start angles, clockwise from the top-right corner.
        let corners: [(cx: Double, cy: Double, start: Double)] = [
            (x + w - r, y + r, -Double.pi / 2),
            (x + w - r, y + h - r, 0),
            (x + r, y + h - r, Double.pi / 2),
            (x + r, y + r, Double.pi),
        ]
        // Control-point distance for a quarter-circle cubic: 4/3·tan(π/8)·r.
        let k = 4.0 / 3.0 * tan(Double.pi / 8) * r
        var points: [Point] = []
        for corner in corners {
            let a0 = corner.start, a1 = corner.start + Double.pi / 2
            let p0 = (x: corner.cx + r * cos(a0), y: corner.cy + r * sin(a0))
            let p3 = (x: corner.cx + r * cos(a1), y: corner.cy + r * sin(a1))
            let p1 = (x: p0.x - k * sin(a0), y: p0.y + k * cos(a0))
            let p2 = (x: p3.x + k * sin(a1), y: p3.y - k * cos(a1))
            points.append(p0)
            flattenCubic(p0, p1, p2, p3, depth: 0, into: &points)
        }
        return points
    }

    /// Appends the end points of a polyline approximating the cubic p0…p3 (excluding p0), halving
    /// the curve until both control points lie within `flatteningTolerance` of the chord.
    private static func flattenCubic(
        _ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point,
        depth: Int, into points: inout [Point]
    ) {
        if depth >= 12 || max(distanceToSegment(p1, p0, p3), distanceToSegment(p2, p0, p3)) < flatteningTolerance {
            points.append(p3)
            return
        }
        func mid(_ a: Point, _ b: Point) -> Point { ((a.x + b.x) / 2, (a.y + b.y) / 2) }
        let p01 = mid(p0, p1), p12 = mid(p1, p2), p23 = mid(p2, p3)
        let p012 = mid(p01, p12), p123 = mid(p12, p23)
        let m = mid(p012, p123)
        flattenCubic(p0, p01, p012, m, depth: depth + 1, into: &points)
        flattenCubic(m, p123, p23, p3, depth: depth + 1, into: &points)
    }

    /// Distance from `p` to the segment a–b.
    private static func distanceToSegment(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        var t = lengthSquared > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared : 0
        t = min(max(t, 0), 1)
        let ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y
        return (ex * ex + ey * ey).squareRoot()
    }

    // MARK: - Shared helpers

    /// A layer's corner radius and border width clamped the way both renderers use them.
    private struct LayerGeometry {
        /// Outer corner radius, clamped to 0...min(width, height)/2.
        var radius: Double
        /// Border width, clamped to 0...min(width, height)/2.
        var borderWidth: Double
        /// Inner corner radius of the border ring: max(radius − borderWidth, 0).
        var innerRadius: Double
        /// True when the layer has no area.
        var isEmpty: Bool

        /// Clamps `layer`'s radius and border width to its size.
        init(_ layer: BenchLayer) {
            let half = max(min(layer.width, layer.height) / 2, 0)
            radius = min(max(layer.cornerRadius, 0), half)
            borderWidth = min(max(layer.borderWidth, 0), half)
            innerRadius = max(radius - borderWidth, 0)
            isEmpty = !(layer.width > 0 && layer.height > 0) || !(layer.opacity > 0)
        }
    }

    /// Clamps `v` to 0...1 (NaN becomes 0).
    @inline(__always)
    private static func clamp01(_ v: Double) -> Double { v > 0 ? min(v, 1) : 0 }

    /// Copies `height` rows of `width` 4-byte pixels out of a buffer with the given row stride
    /// into a tightly packed array (stride width*4).
    private static func copyRows(from base: UnsafeRawPointer, stride: Int, width: Int, height: Int) -> [UInt8] {
        let rowBytes = width * 4
        return [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, count in
            for row in 0..<height {
                (buffer.baseAddress! + row * rowBytes)
                    .initialize(from: (base + row * stride).assumingMemoryBound(to: UInt8.self), count: rowBytes)
            }
            count = rowBytes * height
        }
    }

    /// Composites `placements` (image index and top-left corner in whole pixels) in order over a
    /// transparent `width`×`height` target with `pixman_image_composite32` and `PIXMAN_OP_OVER`: the
    /// software reference for layer contents. `images` are premultiplied BGRA (pixman's `a8r8g8b8` on
    /// a little-endian machine), rows `width * 4` bytes apart. Returns BGRA bytes (stride width*4).
    static func compositePixman(
        images: [(width: Int, height: Int, bytes: [UInt8])], placements: [(image: Int, x: Int, y: Int)],
        width: Int, height: Int
    ) -> [UInt8] {
        guard width > 0, height > 0,
            let dst = pixman_image_create_bits(CPIXMAN_a8r8g8b8, Int32(width), Int32(height), nil, 0)
        else { return [] }
        defer { pixman_image_unref(dst) }
        // pixman reads the sources in place: keep their bytes alive and unmoved while it runs.
        var storage = images.map { $0.bytes }
        storage.withUnsafeMutableBufferPointer { buffers in
            var sources: [OpaquePointer?] = []
            for (index, image) in images.enumerated() {
                let source = buffers[index].withUnsafeMutableBytes { raw in
                    pixman_image_create_bits(
                        CPIXMAN_a8r8g8b8, Int32(image.width), Int32(image.height),
                        raw.baseAddress!.assumingMemoryBound(to: UInt32.self), Int32(image.width * 4))
                }
                sources.append(source)
            }
            for placement in placements {
                guard let source = sources[placement.image] else { continue }
                let image = images[placement.image]
                over(source, nil, dst, placement.x, placement.y, image.width, image.height)
            }
            for source in sources where source != nil { pixman_image_unref(source) }
        }
        let stride = Int(pixman_image_get_stride(dst))
        guard let data = pixman_image_get_data(dst) else { return [] }
        return copyRows(from: UnsafeRawPointer(data), stride: stride, width: width, height: height)
    }

    // MARK: - Timing

    /// Times `body` `iterations` times after one warm-up run and returns the median in
    /// milliseconds (wall-clock, `clock_gettime(CLOCK_MONOTONIC)`). Returns 0 for no iterations.
    static func medianMilliseconds(iterations: Int, _ body: () -> Void) -> Double {
        body()  // warm-up: page in code, fill caches, let allocators settle
        guard iterations > 0 else { return 0 }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = monotonicSeconds()
            body()
            samples.append((monotonicSeconds() - start) * 1000)
        }
        samples.sort()
        let mid = samples.count / 2
        return samples.count % 2 == 1 ? samples[mid] : (samples[mid - 1] + samples[mid]) / 2
    }

    /// Whether `medianMilliseconds` and `seconds()` read the calling thread's CPU clock rather than
    /// the monotonic clock (`lamina-bench --cpu-clock`).
    nonisolated(unsafe) static var usesThreadClock = false

    /// The monotonic clock in seconds, or the thread's CPU clock with `usesThreadClock`.
    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(usesThreadClock ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

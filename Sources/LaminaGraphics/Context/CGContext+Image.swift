import CCairo
import Foundation

extension CGContext {
    /// Draws `image` scaled into `rect`, or, with `byTiling`, repeats it at `rect`'s size across the clip.
    ///
    /// As on Apple platforms the image's top row lands at `rect.maxY` in user space: upright in a
    /// bitmap context's y-up space, and upside down in a flipped (y-down) context such as the one a
    /// layer hands to `draw(in:)` — the well-known Core Graphics behaviour; flip the CTM around the
    /// rect to draw it upright there. Resampling follows `interpolationQuality`; global alpha,
    /// blend mode and clip apply.
    public func draw(_ image: CGImage, in rect: CGRect, byTiling: Bool = false) {
        let r = rect.standardized
        guard !r.isNull, !r.isInfinite, r.width > 0, r.height > 0,
            let surface = makeSurface(for: image)
        else { return }
        defer { cairo_surface_destroy(surface) }
        let pattern = imagePattern(surface, width: image.width, height: image.height, in: r)
        defer { cairo_pattern_destroy(pattern) }
        cairo_pattern_set_extend(pattern, byTiling ? CAIRO_EXTEND_REPEAT : CAIRO_EXTEND_PAD)
        cairo_pattern_set_filter(pattern, cairoFilter)
        preservingPath {
            paint(covering: byTiling ? nil : r) {
                cairo_save(cairo)
                if !byTiling {
                    addRect(r)
                    cairo_clip(cairo)
                }
                cairo_set_source(cairo, pattern)
                cairo_paint_with_alpha(cairo, Double(state.alpha))
                cairo_restore(cairo)
            }
        }
    }

    /// The Cairo filter for `interpolationQuality`.
    var cairoFilter: cairo_filter_t {
        switch state.interpolationQuality {
        case .none: CAIRO_FILTER_NEAREST
        case .low: CAIRO_FILTER_BILINEAR
        case .default, .medium: CAIRO_FILTER_GOOD
        case .high: CAIRO_FILTER_BEST
        }
    }

    /// An ARGB32 Cairo surface holding `image`'s pixels (the caller destroys it).
    func makeSurface(for image: CGImage) -> OpaquePointer? {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height))
        else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let bytes = cairo_image_surface_get_data(surface)
        else {
            cairo_surface_destroy(surface)
            return nil
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let native = UInt32(1).littleEndian == 1 ? [3, 2, 1, 0] : [0, 1, 2, 3]
        image.premultipliedRGBA.withUnsafeBufferPointer { rgba in
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let i = (y * image.width + x) * 4
                    let o = y * stride + x * 4
                    bytes[o + native[0]] = rgba[i + 3]
                    bytes[o + native[1]] = rgba[i]
                    bytes[o + native[2]] = rgba[i + 1]
                    bytes[o + native[3]] = rgba[i + 2]
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }

    /// A pattern showing a `width` × `height` pixel surface in `rect` (user space), top row at `rect.maxY`.
    func imagePattern(_ surface: OpaquePointer, width: Int, height: Int, in rect: CGRect) -> OpaquePointer {
        let pattern = cairo_pattern_create_for_surface(surface)!
        // User space to image pixels: u = (x − minX)·w/W, v = (maxY − y)·h/H.
        let sx = Double(width) / Double(rect.width)
        let sy = Double(height) / Double(rect.height)
        var matrix = cairo_matrix_t(
            xx: sx, yx: 0, xy: 0, yy: -sy, x0: -Double(rect.minX) * sx, y0: Double(rect.maxY) * sy)
        cairo_pattern_set_matrix(pattern, &matrix)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        return pattern
    }
}

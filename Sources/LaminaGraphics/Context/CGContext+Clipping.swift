import CCairo
import Foundation

extension CGContext {
    /// Intersects the clip with the current path's interior under `rule`, and clears the path.
    public func clip(using rule: CGPathFillRule = .winding) {
        cairo_set_fill_rule(cairo, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_set_antialias(cairo, cairoAntialias)
        cairo_clip(cairo)
    }

    /// Intersects the clip with `rect`; as Apple documents, this clears the current path.
    public func clip(to rect: CGRect) {
        clip(to: [rect])
    }

    /// Intersects the clip with the union of the rectangles; as Apple documents, this clears the current path.
    public func clip(to rects: [CGRect]) {
        beginPath()
        addRects(rects)
        clip(using: .winding)
    }

    /// Intersects the clip with `rect` and with `mask` drawn into it.
    ///
    /// The mask is mapped onto `rect` as `draw(_:in:)` maps an image (its top row at `rect.maxY`).
    /// As Apple specifies for masks, a pixel's coverage is the mask's alpha; a fully opaque mask
    /// image is read as a greyscale mask instead (white paints, black blocks), its grey being the
    /// luma of its colour. Later painting is composited through the mask. The current path is kept.
    public func clip(to rect: CGRect, mask: CGImage) {
        let opaque = stride(from: 3, to: mask.premultipliedRGBA.count, by: 4).allSatisfy {
            mask.premultipliedRGBA[$0] == 255
        }
        guard
            let source = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(mask.width), Int32(mask.height)),
            let coverage = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))
        else { return }
        defer { cairo_surface_destroy(source) }
        cairo_surface_flush(source)
        if let bytes = cairo_image_surface_get_data(source) {
            let stride = Int(cairo_image_surface_get_stride(source))
            for y in 0..<mask.height {
                for x in 0..<mask.width {
                    let i = (y * mask.width + x) * 4
                    let p = mask.premultipliedRGBA
                    let luma = 0.299 * Double(p[i]) + 0.587 * Double(p[i + 1]) + 0.114 * Double(p[i + 2])
                    bytes[y * stride + x] = opaque ? UInt8(min(255, luma.rounded())) : p[i + 3]
                }
            }
        }
        cairo_surface_mark_dirty(source)
        // Draw the mask into device-space coverage with the context's CTM and clip, then through any earlier mask.
        guard let cr = cairo_create(coverage) else {
            cairo_surface_destroy(coverage)
            return
        }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairo, &matrix)
        cairo_set_matrix(cr, &matrix)
        cairo_set_antialias(cr, cairoAntialias)
        let r = rect.standardized
        cairo_rectangle(cr, Double(r.minX), Double(r.minY), Double(r.width), Double(r.height))
        cairo_clip(cr)
        let pattern = imagePattern(source, width: mask.width, height: mask.height, in: r)
        cairo_set_source(cr, pattern)
        cairo_pattern_destroy(pattern)
        cairo_paint(cr)
        if let earlier = state.mask {
            cairo_identity_matrix(cr)
            cairo_reset_clip(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_DEST_IN)
            cairo_set_source_surface(cr, earlier.surface, 0, 0)
            cairo_paint(cr)
        }
        cairo_destroy(cr)
        cairo_surface_flush(coverage)
        state.mask = ClipMask(surface: coverage)
        preservingPath { clip(to: r) }
    }

    /// The bounding box of the clip in user space; the whole context when nothing clips.
    public var boundingBoxOfClipPath: CGRect {
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_clip_extents(cairo, &x1, &y1, &x2, &y2)
        return CGRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1)
    }
}

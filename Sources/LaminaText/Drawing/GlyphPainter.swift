import CPango
import Foundation

/// Paints runs of glyphs into a `CGContext` with Cairo, as Core Text draws lines.
///
/// Text space is y up with the line's origin at `position` in user space; the context's text
/// matrix (its linear part) maps text space to user space, then the CTM to the device. Glyphs are
/// drawn by Pango's Cairo renderer (`pango_cairo_show_glyph_string`, colour bitmaps included) in
/// Pango's y-down glyph space, so a y flip joins the two. A context flipped for UIKit (y down) with
/// the identity text matrix therefore shows the text upside down, as on Apple platforms.
enum GlyphPainter {
    /// Draws `runs` with the line origin at `position` (user space), each run moved by `offsetBy`
    /// along the line. Paints in the context's text drawing mode; the clip modes then add the glyph
    /// outlines to the clip.
    static func draw(_ runs: [CTRun], in context: CGContext, at position: CGPoint, offsetBy shift: CGFloat = 0) {
        guard !runs.isEmpty else { return }
        let mode = context.currentTextDrawingMode
        var matrix = context.textMatrix
        matrix.tx = position.x
        matrix.ty = position.y
        let cr = context.cairoContext
        TextEngine.run { _ in
            if mode.fills || mode.strokes {
                context.paintWithCairo {
                    withTextSpace(cr, matrix) {
                        for run in runs { paint(run, mode: mode, shift: shift, in: context) }
                    }
                }
            }
            if mode.clips {
                withTextSpace(cr, matrix) {
                    for run in runs {
                        cairo_move_to(cr, Double(run.x + shift), Double(-run.baselineShift))
                        pango_cairo_glyph_string_path(cr, pangoFont(run), run.glyphItem.pointee.glyphs)
                    }
                }
                cairo_clip(cr)
            }
        }
    }

    /// Runs `body` with Cairo's user space set to Pango's glyph space at the line origin (text space
    /// through `matrix`, flipped to y down), restoring the matrix (not the path) afterwards.
    static func withTextSpace(_ cr: OpaquePointer, _ matrix: CGAffineTransform, _ body: () -> Void) {
        var saved = cairo_matrix_t()
        cairo_get_matrix(cr, &saved)
        var m = cairo_matrix_t(
            xx: Double(matrix.a), yx: Double(matrix.b), xy: Double(matrix.c), yy: Double(matrix.d),
            x0: Double(matrix.tx), y0: Double(matrix.ty))
        cairo_transform(cr, &m)
        cairo_scale(cr, 1, -1)
        body()
        cairo_set_matrix(cr, &saved)
    }

    /// The run's Pango font.
    static func pangoFont(_ run: CTRun) -> UnsafeMutablePointer<PangoFont>? {
        run.glyphItem.pointee.item.pointee.analysis.font
    }

    /// Paints one run in Pango glyph space: glyphs (filled, stroked or both, by the drawing mode and
    /// the run's stroke width), then its underline and strikethrough.
    private static func paint(_ run: CTRun, mode: CGTextDrawingMode, shift: CGFloat, in context: CGContext) {
        let cr = context.cairoContext
        let a = run.attributes
        let color = a.color ?? context.currentFillColor
        let x = Double(run.x + shift)
        let y = Double(-run.baselineShift)
        let font = pangoFont(run)
        let glyphs = run.glyphItem.pointee.glyphs
        var fills = mode.fills
        var strokes = mode.strokes
        var strokeColor = context.currentStrokeColor
        var lineWidth = cairo_get_line_width(cr)
        if a.strokeWidth != 0 {
            // Core Text: positive strokes only, negative fills and strokes; in percent of the size.
            fills = a.strokeWidth < 0
            strokes = true
            strokeColor = a.strokeColor ?? color
            lineWidth = Double(abs(a.strokeWidth) / 100 * run.font.pointSize)
        }
        if fills {
            context.setCairoSource(color)
            cairo_move_to(cr, x, y)
            pango_cairo_show_glyph_string(cr, font, glyphs)
        }
        if strokes {
            cairo_new_path(cr)
            cairo_move_to(cr, x, y)
            pango_cairo_glyph_string_path(cr, font, glyphs)
            context.setCairoSource(strokeColor)
            let savedWidth = cairo_get_line_width(cr)
            cairo_set_line_width(cr, lineWidth)
            cairo_stroke(cr)
            cairo_set_line_width(cr, savedWidth)
        }
        cairo_new_path(cr)
        decorate(run, x: x, y: y, color: color, in: context)
    }

    /// Paints the run's underline and strikethrough as rectangles of the font's underline thickness
    /// (doubled for `thick`, two lines for `double`).
    private static func decorate(_ run: CTRun, x: Double, y: Double, color: CGColor, in context: CGContext) {
        let a = run.attributes
        guard a.underline != 0 || a.strikethrough != 0 else { return }
        let cr = context.cairoContext
        let thickness = max(0.5, Double(CTFontGetUnderlineThickness(run.font)))
        func lines(style: Int, at top: Double) {
            guard style & 0xFF != 0 else { return }
            let weight = style & 0x02 != 0 ? thickness * 2 : thickness
            cairo_rectangle(cr, x, top, Double(run.width), weight)
            if style & 0x0F == 0x09 { cairo_rectangle(cr, x, top + weight * 2, Double(run.width), weight) }
        }
        if a.underline != 0 {
            context.setCairoSource(a.underlineColor ?? color)
            lines(style: a.underline, at: y - Double(CTFontGetUnderlinePosition(run.font)) - thickness / 2)
            cairo_fill(cr)
        }
        if a.strikethrough != 0 {
            context.setCairoSource(color)
            let middle = Double(
                CTFontGetXHeight(run.font) > 0 ? CTFontGetXHeight(run.font) / 2 : run.font.pointSize / 4)
            lines(style: a.strikethrough, at: y - middle - thickness / 2)
            cairo_fill(cr)
        }
    }
}

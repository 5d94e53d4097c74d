import CPango
import Foundation

extension CGContext {
    /// Sets the font `showGlyphs(_:at:)` draws with (Core Graphics' `CGContextSetFont`); part of the
    /// graphics state. The size comes from `setFontSize(_:)`.
    public func setFont(_ font: CGFont) {
        currentFontObject = font
    }

    /// Draws `glyphs` of the current font (`setFont(_:)`) at the current font size, glyph `i` with
    /// its origin at `positions[i]` in text space, through the text matrix and the CTM, in the text
    /// drawing mode with the fill and stroke colours (Core Graphics' `CGContextShowGlyphsAtPositions`).
    /// Nothing is drawn without a font; extra glyphs or positions are ignored.
    public func showGlyphs(_ glyphs: [CGGlyph], at positions: [CGPoint]) {
        guard let font = currentFontObject as? CGFont, currentFontSize > 0 else { return }
        let count = min(glyphs.count, positions.count)
        guard count > 0 else { return }
        let size = currentFontSize
        let mode = currentTextDrawingMode
        let cr = cairoContext
        let matrix = textMatrix
        TextEngine.run { engine in
            let description = font.font.resolved.pangoDescription(size: size)
            defer { pango_font_description_free(description) }
            guard let pangoFont = pango_font_map_load_font(engine.fontMap, engine.context, description) else { return }
            defer { g_object_unref(UnsafeMutableRawPointer(pangoFont)) }
            let string = pango_glyph_string_new()!
            defer { pango_glyph_string_free(string) }
            pango_glyph_string_set_size(string, Int32(count))
            let scale = CGFloat(PANGO_SCALE)
            for i in 0..<count {
                // Every glyph placed from the same pen position: widths 0, offsets its position.
                string.pointee.glyphs[i].glyph = UInt32(glyphs[i])
                string.pointee.glyphs[i].geometry.width = 0
                string.pointee.glyphs[i].geometry.x_offset = Int32((positions[i].x * scale).rounded())
                string.pointee.glyphs[i].geometry.y_offset = Int32((-positions[i].y * scale).rounded())
                string.pointee.log_clusters[i] = 0
            }
            if mode.fills || mode.strokes {
                paintWithCairo {
                    GlyphPainter.withTextSpace(cr, matrix) {
                        if mode.fills {
                            setCairoSource(currentFillColor)
                            cairo_move_to(cr, 0, 0)
                            pango_cairo_show_glyph_string(cr, pangoFont, string)
                        }
                        if mode.strokes {
                            cairo_new_path(cr)
                            cairo_move_to(cr, 0, 0)
                            pango_cairo_glyph_string_path(cr, pangoFont, string)
                            setCairoSource(currentStrokeColor)
                            cairo_stroke(cr)
                        }
                        cairo_new_path(cr)
                    }
                }
            }
            if mode.clips {
                GlyphPainter.withTextSpace(cr, matrix) {
                    cairo_move_to(cr, 0, 0)
                    pango_cairo_glyph_string_path(cr, pangoFont, string)
                }
                cairo_clip(cr)
            }
        }
    }
}

/// Draws `count` glyphs of `font` at `positions` (text space) through the context's text matrix
/// and CTM, filled with the context's fill colour (Core Text's `CTFontDrawGlyphs`).
public func CTFontDrawGlyphs(
    _ font: CTFont, _ glyphs: UnsafePointer<CGGlyph>, _ positions: UnsafePointer<CGPoint>, _ count: Int,
    _ context: CGContext
) {
    guard count > 0 else { return }
    context.saveGState()
    context.setFont(CGFont(font: font))
    context.setFontSize(font.pointSize)
    context.showGlyphs(
        Array(UnsafeBufferPointer(start: glyphs, count: count)),
        at: Array(UnsafeBufferPointer(start: positions, count: count)))
    context.restoreGState()
}

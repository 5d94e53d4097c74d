import CPango
import Foundation

/// One face of a font file opened with HarfBuzz at its design size (one unit a font unit): the
/// metrics, glyph lookup and outlines Core Text reports, scaled by callers to a point size.
///
/// Vertical metrics are HarfBuzz's horizontal extents: the `hhea` ascender, descender and line gap
/// (the `OS/2` typographic ones when the font asks for them), which is what Core Text reports as
/// ascent, descent and leading.
final class FontFace: @unchecked Sendable {
    /// The HarfBuzz font (`hb_font_t *`), owned; its scale is the face's units per em.
    let font: OpaquePointer
    /// Units per em.
    let unitsPerEm: Int
    /// Ascender, in font units (positive up).
    let ascender: Int
    /// Descender, in font units (positive: below the baseline).
    let descender: Int
    /// Line gap (Core Text's leading), in font units.
    let lineGap: Int
    /// Cap height and x-height, in font units (0 when the font does not say).
    let capHeight: Int
    let xHeight: Int
    /// Underline position (negative: below the baseline) and thickness, in font units.
    let underlinePosition: Int
    let underlineThickness: Int
    /// Glyph count.
    let glyphCount: Int
    /// The font's bounding box (`head` table), in font units, y up; zero when absent.
    let boundingBox: CGRect

    init?(path: String, index: Int32) {
        guard let blob = hb_blob_create_from_file_or_fail(path) else { return nil }
        defer { hb_blob_destroy(blob) }
        guard let face = hb_face_create(blob, UInt32(index)) else { return nil }
        defer { hb_face_destroy(face) }
        let upem = Int(hb_face_get_upem(face))
        guard upem > 0, let font = hb_font_create(face) else { return nil }
        self.font = font
        unitsPerEm = upem
        glyphCount = Int(hb_face_get_glyph_count(face))
        var extents = hb_font_extents_t()
        hb_font_get_h_extents(font, &extents)
        ascender = Int(extents.ascender)
        descender = Int(-extents.descender)
        lineGap = Int(extents.line_gap)
        func metric(_ tag: hb_ot_metrics_tag_t) -> Int {
            var position: hb_position_t = 0
            return hb_ot_metrics_get_position(font, tag, &position) != 0 ? Int(position) : 0
        }
        // Fonts whose OS/2 table predates these values: the tops of "H" and "x".
        func top(of character: Character) -> Int {
            var glyph: hb_codepoint_t = 0
            var e = hb_glyph_extents_t()
            guard hb_font_get_nominal_glyph(font, character.unicodeScalars.first!.value, &glyph) != 0,
                hb_font_get_glyph_extents(font, glyph, &e) != 0
            else { return 0 }
            return Int(e.y_bearing)
        }
        let cap = metric(HB_OT_METRICS_TAG_CAP_HEIGHT)
        capHeight = cap > 0 ? cap : top(of: "H")
        let x = metric(HB_OT_METRICS_TAG_X_HEIGHT)
        xHeight = x > 0 ? x : top(of: "x")
        underlinePosition = metric(HB_OT_METRICS_TAG_UNDERLINE_OFFSET)
        underlineThickness = metric(HB_OT_METRICS_TAG_UNDERLINE_SIZE)
        boundingBox = Self.headBox(face)
    }

    deinit {
        hb_font_destroy(font)
    }

    /// The glyph for Unicode scalar `scalar`, or nil when the face has none.
    func glyph(for scalar: UInt32) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar, &glyph) != 0 ? glyph : nil
    }

    /// The horizontal advance of `glyph`, in font units.
    func advance(of glyph: UInt32) -> Int {
        Int(hb_font_get_glyph_h_advance(font, glyph))
    }

    /// The ink box of `glyph`, in font units, y up; nil for an unknown glyph.
    func extents(of glyph: UInt32) -> CGRect? {
        var e = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(font, glyph, &e) != 0 else { return nil }
        return CGRect(x: Int(e.x_bearing), y: Int(e.y_bearing + e.height), width: Int(e.width), height: Int(-e.height))
            .standardized
    }

    /// The outline of `glyph`, in font units, y up; nil when the glyph has no outline (a bitmap
    /// glyph such as a colour emoji, or an empty one).
    func outline(of glyph: UInt32) -> CGMutablePath? {
        let funcs = OutlineRecorder.funcs
        let recorder = OutlineRecorder()
        withExtendedLifetime(recorder) {
            hb_font_get_glyph_shape(font, glyph, funcs, Unmanaged.passUnretained(recorder).toOpaque())
        }
        return recorder.elements == 0 ? nil : recorder.path
    }

    /// The `head` table's bounding box, or zero.
    private static func headBox(_ face: OpaquePointer) -> CGRect {
        let tag =
            (UInt32(UInt8(ascii: "h")) << 24) | (UInt32(UInt8(ascii: "e")) << 16)
            | (UInt32(UInt8(ascii: "a")) << 8) | UInt32(UInt8(ascii: "d"))
        guard let table = hb_face_reference_table(face, tag) else { return .zero }
        defer { hb_blob_destroy(table) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(table, &length), length >= 44 else { return .zero }
        func int16(_ offset: Int) -> Int {
            // The blob of a table inside a font collection or a CFF font need not be 2-byte aligned.
            let raw = UnsafeRawPointer(data).loadUnaligned(fromByteOffset: offset, as: UInt16.self)
            return Int(Int16(bitPattern: UInt16(bigEndian: raw)))
        }
        let xMin = int16(36), yMin = int16(38), xMax = int16(40), yMax = int16(42)
        return CGRect(x: xMin, y: yMin, width: xMax - xMin, height: yMax - yMin)
    }
}

/// Collects a glyph outline from HarfBuzz's draw callbacks into a `CGMutablePath`.
private final class OutlineRecorder {
    let path = CGMutablePath()
    var elements = 0

    static func from(_ data: UnsafeMutableRawPointer?) -> OutlineRecorder {
        Unmanaged<OutlineRecorder>.fromOpaque(data!).takeUnretainedValue()
    }

    /// The draw functions, made once and kept for the process.
    nonisolated(unsafe) static let funcs: OpaquePointer = {
        let funcs = hb_draw_funcs_create()!
        hb_draw_funcs_set_move_to_func(
            funcs,
            { _, data, _, x, y, _ in
                let r = OutlineRecorder.from(data)
                r.path.move(to: CGPoint(x: CGFloat(x), y: CGFloat(y)))
                r.elements += 1
            }, nil, nil)
        hb_draw_funcs_set_line_to_func(
            funcs,
            { _, data, _, x, y, _ in
                let r = OutlineRecorder.from(data)
                r.path.addLine(to: CGPoint(x: CGFloat(x), y: CGFloat(y)))
                r.elements += 1
            }, nil, nil)
        hb_draw_funcs_set_quadratic_to_func(
            funcs,
            { _, data, _, cx, cy, x, y, _ in
                let r = OutlineRecorder.from(data)
                r.path.addQuadCurve(
                    to: CGPoint(x: CGFloat(x), y: CGFloat(y)), control: CGPoint(x: CGFloat(cx), y: CGFloat(cy)))
                r.elements += 1
            }, nil, nil)
        hb_draw_funcs_set_cubic_to_func(
            funcs,
            { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
                let r = OutlineRecorder.from(data)
                r.path.addCurve(
                    to: CGPoint(x: CGFloat(x), y: CGFloat(y)), control1: CGPoint(x: CGFloat(c1x), y: CGFloat(c1y)),
                    control2: CGPoint(x: CGFloat(c2x), y: CGFloat(c2y)))
                r.elements += 1
            }, nil, nil)
        hb_draw_funcs_set_close_path_func(
            funcs,
            { _, data, _, _ in
                let r = OutlineRecorder.from(data)
                r.path.closeSubpath()
            }, nil, nil)
        hb_draw_funcs_make_immutable(funcs)
        return funcs
    }()
}

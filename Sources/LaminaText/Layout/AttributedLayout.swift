import CPango
import Foundation

/// How a layout breaks lines.
enum LineWrapping: Equatable {
    /// No wrapping: a line per paragraph.
    case none
    /// Between words, inside a word only when it alone does not fit (Core Text's word wrapping).
    case word(width: CGFloat)
    /// Between any characters.
    case character(width: CGFloat)

    var width: CGFloat? {
        switch self {
        case .none: nil
        case .word(let w), .character(let w): w
        }
    }
}

/// An attributed string laid out by Pango: the layout (owned), the map between the string's UTF-16
/// offsets and the layout's UTF-8 byte indices, and each attribute run's Core Text attributes.
///
/// Attributes become Pango attributes: the font per run (`pango_attr_font_desc_new`), kern as letter
/// spacing, the baseline offset as rise and `ligature` 0 as the `liga`/`clig` features off. Colours,
/// underlines and strokes are not Pango's business (LaminaText paints runs itself) but are still
/// given to Pango so that runs split where they change. Only used under the text lock.
final class AttributedLayout: @unchecked Sendable {
    /// The `PangoLayout *`, owned.
    let layout: OpaquePointer
    /// The string laid out.
    let string: NSAttributedString
    /// The UTF-16 offset in `string` that byte 0 of the layout stands for (a layout of a substring).
    let baseOffset: Int
    /// For each UTF-16 offset 0...length (relative to `baseOffset`), the layout's byte index.
    let byteIndex: [Int32]
    /// For each byte index 0...byte count, the UTF-16 offset (relative to `baseOffset`).
    let utf16Offset: [Int]
    /// The attribute runs: byte ranges and their attributes.
    let runs: [(bytes: Range<Int32>, attributes: TextAttributes)]
    /// The font of text that has none, for empty lines.
    let defaultFont: CTFont
    /// The engine the layout was made in (kept alive with its font map).
    let engine: TextEngine

    /// Lays out `string` (the part `range` of it, UTF-16; nil: all) with `wrapping`; with
    /// `singleParagraph`, line separators do not break lines (a `CTLine`). Caller holds the text lock.
    init(
        _ string: NSAttributedString, range: NSRange? = nil, wrapping: LineWrapping, justify: Bool = false,
        singleParagraph: Bool = false, engine: TextEngine
    ) {
        let range = range ?? NSRange(location: 0, length: string.length)
        self.string = string
        self.engine = engine
        baseOffset = range.location
        let text = (string.string as NSString).substring(with: range)
        var bytes: [Int32] = []
        var offsets: [Int] = []
        var byte: Int32 = 0
        var unit = 0
        for scalar in text.unicodeScalars {
            let utf8 = Int32(String(scalar).utf8.count)
            let utf16 = scalar.utf16.count
            for _ in 0..<utf16 { bytes.append(byte) }
            for _ in 0..<utf8 { offsets.append(unit) }
            byte += utf8
            unit += utf16
        }
        bytes.append(byte)
        offsets.append(unit)
        byteIndex = bytes
        utf16Offset = offsets
        let defaultFont = TextAttributes.defaultFont
        self.defaultFont = defaultFont
        var runs: [(bytes: Range<Int32>, attributes: TextAttributes)] = []
        if range.length > 0 {
            string.enumerateAttributes(in: range, options: []) { attributes, runRange, _ in
                let start = bytes[runRange.location - range.location]
                let end = bytes[runRange.location + runRange.length - range.location]
                runs.append((start..<end, TextAttributes(attributes, defaultFont: defaultFont)))
            }
        }
        self.runs = runs
        layout = engine.makeLayout()
        let base = defaultFont.pangoDescription()
        pango_layout_set_font_description(layout, base)
        pango_font_description_free(base)
        pango_layout_set_text(layout, text, Int32(byte))
        pango_layout_set_single_paragraph_mode(layout, singleParagraph ? 1 : 0)
        if let width = wrapping.width {
            pango_layout_set_width(layout, Int32(clamping: Int((width * CGFloat(PANGO_SCALE)).rounded(.down))))
            pango_layout_set_wrap(layout, wrapping == .character(width: width) ? PANGO_WRAP_CHAR : PANGO_WRAP_WORD_CHAR)
        }
        pango_layout_set_justify(layout, justify ? 1 : 0)
        let list = pango_attr_list_new()
        for (index, run) in runs.enumerated() {
            Self.insert(run.attributes, bytes: run.bytes, into: list)
            // Pango paints nothing here (LaminaText paints runs itself); a colour unique to the run
            // makes Pango split its runs wherever the attribute runs change, as Core Text's do.
            Self.insert(
                pango_attr_foreground_new(UInt16(index & 0xFFFF), UInt16((index >> 16) & 0xFFFF), 0),
                bytes: run.bytes, into: list)
        }
        pango_layout_set_attributes(layout, list)
        pango_attr_list_unref(list)
    }

    deinit {
        let layout = layout
        TextEngine.locked { g_object_unref(UnsafeMutableRawPointer(layout)) }
    }

    /// Adds `attribute` over `bytes`.
    private static func insert(
        _ attribute: UnsafeMutablePointer<PangoAttribute>?, bytes: Range<Int32>, into list: OpaquePointer?
    ) {
        guard let attribute else { return }
        attribute.pointee.start_index = UInt32(bytes.lowerBound)
        attribute.pointee.end_index = UInt32(bytes.upperBound)
        pango_attr_list_insert(list, attribute)
    }

    /// Adds the Pango attributes that change layout for one run.
    private static func insert(_ a: TextAttributes, bytes: Range<Int32>, into list: OpaquePointer?) {
        func add(_ attribute: UnsafeMutablePointer<PangoAttribute>?) { insert(attribute, bytes: bytes, into: list) }
        let description = a.font.pangoDescription()
        add(pango_attr_font_desc_new(description))
        pango_font_description_free(description)
        if a.kern != 0 { add(pango_attr_letter_spacing_new(Int32((a.kern * CGFloat(PANGO_SCALE)).rounded()))) }
        if a.baselineOffset != 0 {
            add(pango_attr_rise_new(Int32((a.baselineOffset * CGFloat(PANGO_SCALE)).rounded())))
        }
        if a.ligature == 0 { add(pango_attr_font_features_new("liga 0, clig 0")) }
    }

    /// The UTF-16 offset in the whole string of layout byte `byte`.
    func stringIndex(ofByte byte: Int32) -> Int {
        let b = Int(max(0, min(byte, Int32(utf16Offset.count - 1))))
        return baseOffset + utf16Offset[b]
    }

    /// The attributes of the run holding byte `byte` (the last run's past the end).
    func attributes(atByte byte: Int32) -> TextAttributes? {
        runs.first { $0.bytes.contains(byte) }?.attributes ?? runs.last?.attributes
    }

    /// The layout's lines (`PangoLayoutLine *`, owned by the layout), in order.
    var pangoLines: [UnsafeMutablePointer<PangoLayoutLine>] {
        var lines: [UnsafeMutablePointer<PangoLayoutLine>] = []
        var node = pango_layout_get_lines_readonly(layout)
        while let n = node {
            if let data = n.pointee.data { lines.append(data.assumingMemoryBound(to: PangoLayoutLine.self)) }
            node = n.pointee.next
        }
        return lines
    }
}

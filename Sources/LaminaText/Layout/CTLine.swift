import CPango
import Foundation

/// A line of laid-out text: Core Text's `CTLine`. Immutable and usable from any thread.
///
/// Made from an attributed string by `CTLineCreateWithAttributedString` (one line, whatever its
/// width), by a frame (one of its lines) or by truncation. Its origin is the left end of its
/// baseline; its geometry is y up, in text space.
public final class CTLine: NSObject, @unchecked Sendable {
    /// The layout the line is part of.
    let owner: AttributedLayout
    /// The runs, in display order (left to right).
    let runs: [CTRun]
    /// The typographic width (trailing whitespace included).
    let width: CGFloat
    /// The width of the whitespace that ends the line.
    let trailingWhitespaceWidth: CGFloat
    /// The greatest ascent, descent and leading of the runs' fonts (of the layout's default font
    /// for an empty line).
    let ascent: CGFloat
    let descent: CGFloat
    let leading: CGFloat
    /// The ink box relative to the origin, y up (null when nothing is inked).
    let inkBounds: CGRect
    /// The UTF-16 range of the string the line shows.
    let stringRange: CFRange
    /// Whether the paragraph's direction is right to left.
    let isRightToLeft: Bool
    /// Whether the line ends its paragraph (its last line, or the only one).
    let endsParagraph: Bool

    /// Reads Pango's line `line` of `owner`. Caller holds the text lock.
    init(line: UnsafeMutablePointer<PangoLayoutLine>, owner: AttributedLayout, endsParagraph: Bool) {
        self.owner = owner
        self.endsParagraph = endsParagraph
        let scale = CGFloat(PANGO_SCALE)
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_line_get_extents(line, &ink, &logical)
        var runs: [CTRun] = []
        var x = CGFloat(logical.x) / scale
        var node = line.pointee.runs
        while let n = node {
            if let data = n.pointee.data {
                let run = CTRun(item: data.assumingMemoryBound(to: PangoGlyphItem.self), x: x, owner: owner)
                runs.append(run)
                x += run.width
            }
            node = n.pointee.next
        }
        self.runs = runs
        // Pango spaces letters between graphemes only; Core Text adds the kern after every
        // character, the line's last one included.
        let lastByte = line.pointee.start_index + max(0, line.pointee.length - 1)
        let trailingKern = line.pointee.length > 0 ? owner.attributes(atByte: lastByte)?.kern ?? 0 : 0
        width = CGFloat(logical.width) / scale + trailingKern
        let fonts =
            runs.isEmpty
            ? [owner.attributes(atByte: line.pointee.start_index)?.font ?? owner.defaultFont] : runs.map(\.font)
        ascent = fonts.map(\.ascent).max() ?? 0
        descent = fonts.map(\.descent).max() ?? 0
        leading = fonts.map(\.leading).max() ?? 0
        inkBounds =
            ink.width > 0 && ink.height > 0
            ? CGRect(
                x: CGFloat(ink.x) / scale, y: -CGFloat(ink.y + ink.height) / scale, width: CGFloat(ink.width) / scale,
                height: CGFloat(ink.height) / scale) : .null
        let start = owner.stringIndex(ofByte: line.pointee.start_index)
        let end = owner.stringIndex(ofByte: line.pointee.start_index + line.pointee.length)
        stringRange = CFRange(location: start, length: end - start)
        isRightToLeft = line.pointee.resolved_dir == PANGO_DIRECTION_RTL.rawValue
        let text = owner.string.string as NSString
        var trailing: CGFloat = 0
        var index = end
        while index > start, let scalar = UnicodeScalar(UInt32(text.character(at: index - 1))),
            scalar.properties.isWhitespace
        {
            index -= 1
        }
        if index < end {
            var trailingIndex = Int32(0)
            pango_layout_line_index_to_x(line, owner.byteIndex[index - owner.baseOffset], 0, &trailingIndex)
            trailing = max(0, width - (CGFloat(trailingIndex) / scale - CGFloat(logical.x) / scale))
            if isRightToLeft { trailing = 0 }
        }
        trailingWhitespaceWidth = trailing
        super.init()
    }

    /// The attributed string the line was laid out from (the part it shows).
    var attributedString: NSAttributedString {
        owner.string.attributedSubstring(from: NSRange(location: stringRange.location, length: stringRange.length))
    }

    /// The typographic bounds relative to the origin, y up.
    var typographicBounds: CGRect {
        CGRect(x: 0, y: -descent, width: width, height: ascent + descent)
    }

    /// A one-line layout of `string` (of its part `range`; nil: all).
    static func make(_ string: NSAttributedString, range: NSRange? = nil) -> CTLine {
        TextEngine.run { engine in
            let layout = AttributedLayout(string, range: range, wrapping: .none, singleParagraph: true, engine: engine)
            let line = layout.pangoLines.first!
            return CTLine(line: line, owner: layout, endsParagraph: true)
        }
    }
}

/// Which end of a line truncation removes: Core Text's `CTLineTruncationType`.
public enum CTLineTruncationType: UInt32, Sendable {
    /// The start: the end stays visible.
    case start = 0
    /// The end: the start stays visible.
    case end = 1
    /// The middle: both ends stay visible.
    case middle = 2
}

/// Which bounds `CTLineGetBoundsWithOptions` measures: Core Text's `CTLineBoundsOptions`.
public struct CTLineBoundsOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt
    /// Makes options from raw bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Leave out the leading.
    public static let excludeTypographicLeading = CTLineBoundsOptions(rawValue: 1 << 0)
    /// Leave out the shifts of glyph positions.
    public static let excludeTypographicShifts = CTLineBoundsOptions(rawValue: 1 << 1)
    /// Leave out hanging punctuation.
    public static let useHangingPunctuation = CTLineBoundsOptions(rawValue: 1 << 2)
    /// The ink bounds instead of the typographic ones.
    public static let useGlyphPathBounds = CTLineBoundsOptions(rawValue: 1 << 3)
    /// The optical bounds (Lamina: the typographic ones).
    public static let useOpticalBounds = CTLineBoundsOptions(rawValue: 1 << 4)
    /// Include the font's ascent and descent for every language (Lamina: no change).
    public static let includeLanguageExtents = CTLineBoundsOptions(rawValue: 1 << 5)
}

/// A line of the whole of `attrString`, however wide (Core Text's `CTLineCreateWithAttributedString`).
/// Line separators do not break it.
public func CTLineCreateWithAttributedString(_ attrString: CFAttributedString) -> CTLine {
    CTLine.make(attrString)
}

/// Draws `line` with its baseline's left end at the context's text position, its glyphs through the
/// text matrix and the CTM, in the context's text drawing mode (Core Text's `CTLineDraw`). Each run
/// has its attribute colour (black when none, the fill colour with
/// `kCTForegroundColorFromContextAttributeName`), underline and stroke.
public func CTLineDraw(_ line: CTLine, _ context: CGContext) {
    GlyphPainter.draw(line.runs, in: context, at: context.textPosition)
}

/// The line's typographic width, returning its ascent, descent and leading through the pointers
/// given (Core Text's `CTLineGetTypographicBounds`): the greatest of its fonts', so a line's height
/// is `ascent + descent + leading`.
public func CTLineGetTypographicBounds(
    _ line: CTLine, _ ascent: UnsafeMutablePointer<CGFloat>?, _ descent: UnsafeMutablePointer<CGFloat>?,
    _ leading: UnsafeMutablePointer<CGFloat>?
) -> Double {
    ascent?.pointee = line.ascent
    descent?.pointee = line.descent
    leading?.pointee = line.leading
    return Double(line.width)
}

/// The box the line's glyphs ink, y up, relative to the line's origin placed at the context's text
/// position (Core Text's `CTLineGetImageBounds`); relative to (0, 0) when `context` is nil.
/// `CGRect.null` for a line that inks nothing.
public func CTLineGetImageBounds(_ line: CTLine, _ context: CGContext?) -> CGRect {
    guard !line.inkBounds.isNull else { return .null }
    let position = context?.textPosition ?? .zero
    return line.inkBounds.offsetBy(dx: position.x, dy: position.y)
}

/// The line's bounds relative to its origin, y up (Core Text's `CTLineGetBoundsWithOptions`): the
/// typographic box (with the leading under it unless excluded), or the ink box with
/// `.useGlyphPathBounds`.
public func CTLineGetBoundsWithOptions(_ line: CTLine, _ options: CTLineBoundsOptions) -> CGRect {
    if options.contains(.useGlyphPathBounds) { return line.inkBounds.isNull ? .zero : line.inkBounds }
    let leading = options.contains(.excludeTypographicLeading) ? 0 : line.leading
    return CGRect(x: 0, y: -line.descent - leading, width: line.width, height: line.ascent + line.descent + leading)
}

/// The width of the whitespace that ends the line (Core Text's `CTLineGetTrailingWhitespaceWidth`).
public func CTLineGetTrailingWhitespaceWidth(_ line: CTLine) -> Double { Double(line.trailingWhitespaceWidth) }

/// The number of glyphs in the line (Core Text's `CTLineGetGlyphCount`).
public func CTLineGetGlyphCount(_ line: CTLine) -> CFIndex { line.runs.reduce(0) { $0 + $1.glyphs.count } }

/// The line's runs in display order, as `CTRun`s (Core Text's `CTLineGetGlyphRuns`).
public func CTLineGetGlyphRuns(_ line: CTLine) -> CFArray { NSArray(array: line.runs) }

/// The part of the string the line shows (Core Text's `CTLineGetStringRange`).
public func CTLineGetStringRange(_ line: CTLine) -> CFRange { line.stringRange }

/// How far from the origin the caret before UTF-16 index `charIndex` lies (Core Text's
/// `CTLineGetOffsetForStringIndex`); the secondary offset (for the other direction at a direction
/// boundary) is the same here.
public func CTLineGetOffsetForStringIndex(
    _ line: CTLine, _ charIndex: CFIndex, _ secondaryOffset: UnsafeMutablePointer<CGFloat>?
) -> CGFloat {
    let offset = TextEngine.run { _ -> CGFloat in
        guard let pangoLine = line.pangoLine else { return 0 }
        let relative = max(0, min(charIndex - line.owner.baseOffset, line.owner.byteIndex.count - 1))
        var x: Int32 = 0
        pango_layout_line_index_to_x(pangoLine, line.owner.byteIndex[relative], 0, &x)
        return CGFloat(x) / CGFloat(PANGO_SCALE)
    }
    secondaryOffset?.pointee = offset
    return offset
}

/// The UTF-16 index of the character nearest `position` along the line (Core Text's
/// `CTLineGetStringIndexForPosition`).
public func CTLineGetStringIndexForPosition(_ line: CTLine, _ position: CGPoint) -> CFIndex {
    TextEngine.run { _ -> CFIndex in
        guard let pangoLine = line.pangoLine else { return line.stringRange.location }
        var index: Int32 = 0
        var trailing: Int32 = 0
        pango_layout_line_x_to_index(pangoLine, Int32(position.x * CGFloat(PANGO_SCALE)), &index, &trailing)
        var result = line.owner.stringIndex(ofByte: index)
        if trailing > 0 { result += 1 }
        return min(result, line.stringRange.location + line.stringRange.length)
    }
}

/// How far to move the line's origin to flush it in `flushWidth`: 0 left, 1 right, 0.5 centred
/// (Core Text's `CTLineGetPenOffsetForFlush`); trailing whitespace hangs past the edge.
public func CTLineGetPenOffsetForFlush(_ line: CTLine, _ flushFactor: CGFloat, _ flushWidth: Double) -> Double {
    let visible = Double(line.width - line.trailingWhitespaceWidth)
    return max(0, (flushWidth - visible) * Double(min(1, max(0, flushFactor))))
}

extension CTLine {
    /// The Pango line the runs came from (found again by its first run), or nil for an empty line.
    var pangoLine: UnsafeMutablePointer<PangoLayoutLine>? {
        let lines = owner.pangoLines
        let start = owner.byteIndex[max(0, min(stringRange.location - owner.baseOffset, owner.byteIndex.count - 1))]
        return lines.first { $0.pointee.start_index == start } ?? lines.first
    }
}

import CPango
import Foundation

/// Lines of attributed text placed in a box from its top: what a `CTFrame` holds and what
/// `CATextLayer` draws.
///
/// Lines are stacked as Core Text stacks them: the first baseline lies the first line's ascent
/// below the top, and each line takes `ascent + descent + leading` of its fonts. Each line is
/// placed across the box by its alignment, flush against the edge without its trailing whitespace.
package struct TextBlock: Sendable {
    /// One placed line.
    package struct Line: Sendable {
        /// The line.
        package let line: CTLine
        /// From the box's left edge to the line's origin.
        package let x: CGFloat
        /// From the box's top down to the line's baseline.
        package let baseline: CGFloat
    }

    /// How the text is broken into lines and fitted to the box.
    package struct Options: Sendable {
        /// The box width lines wrap at and align in; nil: no wrapping, lines aligned at x = 0.
        package var width: CGFloat?
        /// Whether lines wrap at `width` (by word, or by character); false: a line per paragraph.
        package var wraps = true
        /// Break between any characters instead of between words.
        package var breaksCharacters = false
        /// How lines too wide for the box lose text: without wrapping, every such line; with wrapping,
        /// the last line that fits `maxHeight`, when text follows it. Nil: none.
        package var truncation: CTLineTruncationType?
        /// The alignment of every line; nil: each paragraph's style (natural when it has none).
        package var alignment: CTTextAlignment?
        /// The box height: lines whose bottom would pass it are left out (nil: all lines). The first
        /// line is kept whatever its height when `keepsFirstLine`.
        package var maxHeight: CGFloat?
        /// Keep the first line even when it does not fit `maxHeight`.
        package var keepsFirstLine = false

        /// Options with every default: no width, no height, natural alignment.
        package init(width: CGFloat? = nil) {
            self.width = width
        }
    }

    /// The lines, top to bottom.
    package let lines: [Line]
    /// The UTF-16 range of the string the lines show (truncated characters included).
    package let visibleRange: CFRange
    /// The height the lines take (the bottom of the last one, its leading included).
    package let height: CGFloat
    /// The widest line's width without its trailing whitespace.
    package let width: CGFloat

    /// Lays out the part `range` (UTF-16; nil: all) of `string` with `options`.
    package init(_ string: NSAttributedString, range: NSRange? = nil, options: Options) {
        let range = range ?? NSRange(location: 0, length: string.length)
        guard range.length > 0 else {
            lines = []
            visibleRange = CFRange(location: range.location, length: 0)
            height = 0
            width = 0
            return
        }
        let paragraphAlignment =
            (string.attribute(.paragraphStyle, at: range.location, effectiveRange: nil)).flatMap(
                ParagraphSettings.init)?
            .alignment ?? .natural
        let wrapWidth = options.wraps ? options.width : nil
        let justify = wrapWidth != nil && (options.alignment ?? paragraphAlignment) == .justified
        let laidOut: [CTLine] = TextEngine.run { engine in
            let wrapping: LineWrapping =
                wrapWidth.map { options.breaksCharacters ? .character(width: $0) : .word(width: $0) } ?? .none
            let layout = AttributedLayout(string, range: range, wrapping: wrapping, justify: justify, engine: engine)
            let pangoLines = layout.pangoLines
            return pangoLines.enumerated().map { i, line in
                let ends = i + 1 == pangoLines.count || pangoLines[i + 1].pointee.is_paragraph_start != 0
                return CTLine(line: line, owner: layout, endsParagraph: ends)
            }
        }
        var placed: [(line: CTLine, top: CGFloat)] = []
        var top: CGFloat = 0
        var hidden = false
        for line in laidOut {
            if let maxHeight = options.maxHeight, top + line.ascent + line.descent > maxHeight + 0.001,
                !(placed.isEmpty && options.keepsFirstLine)
            {
                hidden = true
                break
            }
            placed.append((line, top))
            top += line.ascent + line.descent + line.leading
        }
        if let type = options.truncation, let boxWidth = options.width {
            placed = Self.truncate(
                placed, string: string, end: range.location + range.length, type: type, width: boxWidth,
                wraps: wrapWidth != nil, hidden: hidden)
        }
        var result: [Line] = []
        var widest: CGFloat = 0
        for (line, top) in placed {
            let visible = line.width - line.trailingWhitespaceWidth
            widest = max(widest, visible)
            var alignment = options.alignment ?? Self.alignment(of: line, in: string) ?? .natural
            if alignment == .justified && (!justify || line.endsParagraph) { alignment = .natural }
            var x: CGFloat = 0
            if let boxWidth = options.width {
                switch alignment {
                case .left, .justified: x = 0
                case .right: x = boxWidth - visible
                case .center: x = (boxWidth - visible) / 2
                case .natural: x = line.isRightToLeft ? boxWidth - visible : 0
                }
                if line.isRightToLeft && alignment == .justified { x = boxWidth - visible }
            }
            result.append(Line(line: line, x: x, baseline: top + line.ascent))
        }
        lines = result
        height = top
        width = widest
        let last = placed.last.map { $0.line.stringRange.location + $0.line.stringRange.length } ?? range.location
        visibleRange = CFRange(location: range.location, length: max(0, last - range.location))
    }

    /// The alignment of the paragraph style at the line's start, if any.
    private static func alignment(of line: CTLine, in string: NSAttributedString) -> CTTextAlignment? {
        let index = min(line.stringRange.location, max(0, string.length - 1))
        return string.attribute(.paragraphStyle, at: index, effectiveRange: nil).flatMap(ParagraphSettings.init)?
            .alignment
    }

    /// Truncates the placed lines: each too-wide line without wrapping; with wrapping the last line,
    /// made of the rest of its paragraph (with an ellipsis when text is hidden after it).
    private static func truncate(
        _ placed: [(line: CTLine, top: CGFloat)], string: NSAttributedString, end: Int, type: CTLineTruncationType,
        width: CGFloat, wraps: Bool, hidden: Bool
    ) -> [(line: CTLine, top: CGFloat)] {
        var placed = placed
        if !wraps {
            for i in placed.indices where placed[i].line.width - placed[i].line.trailingWhitespaceWidth > width {
                let text = placed[i].line.attributedString
                let token = LineTruncation.ellipsis(like: text, at: 0)
                if let cut = LineTruncation.truncate(text, width: width, type: type, token: token) {
                    placed[i].line = cut
                }
            }
            return placed
        }
        guard hidden, let last = placed.indices.last else { return placed }
        let start = placed[last].line.stringRange.location
        let nsString = string.string as NSString
        let paragraphEnd = nsString.rangeOfCharacter(
            from: .newlines, options: [], range: NSRange(location: start, length: end - start))
        let stop = paragraphEnd.location == NSNotFound ? end : paragraphEnd.location
        let rest = NSMutableAttributedString(
            attributedString: string.attributedSubstring(from: NSRange(location: start, length: stop - start)))
        let token = LineTruncation.ellipsis(like: rest, at: 0)
        if type == .end { rest.append(token) }
        if let cut = LineTruncation.truncate(rest, width: width, type: type, token: token) {
            placed[last].line = cut
        }
        return placed
    }
}

import Foundation

/// A line no wider than `width`: `line` itself when it fits, else `line` with characters removed
/// at the start, end or middle (`truncationType`) and `truncationToken` put where they were (Core
/// Text's `CTLineCreateTruncatedLine`). Whole grapheme clusters are removed, as many as needed and
/// no more. Without a token the line is simply cut. Nil when the token alone is wider than `width`.
public func CTLineCreateTruncatedLine(
    _ line: CTLine, _ width: Double, _ truncationType: CTLineTruncationType, _ truncationToken: CTLine?
) -> CTLine? {
    LineTruncation.truncate(
        line.attributedString, width: CGFloat(width), type: truncationType,
        token: truncationToken?.attributedString, original: line)
}

/// Cuts attributed text to a width, keeping whole grapheme clusters.
enum LineTruncation {
    /// `text` as one line no wider than `width`, cut at `type`'s end with `token` in the cut;
    /// `original` (when given) is returned when the text fits. Nil when the token does not fit.
    static func truncate(
        _ text: NSAttributedString, width: CGFloat, type: CTLineTruncationType, token: NSAttributedString?,
        original: CTLine? = nil
    ) -> CTLine? {
        let whole = original ?? CTLine.make(text)
        if whole.width <= width { return whole }
        let tokenLine = token.map { CTLine.make($0) }
        if let tokenLine, tokenLine.width > width { return nil }
        // UTF-16 offsets of the grapheme cluster boundaries.
        var boundaries = [0]
        var offset = 0
        for character in text.string {
            offset += character.utf16.count
            boundaries.append(offset)
        }
        let clusters = boundaries.count - 1
        func candidate(keeping kept: Int) -> NSAttributedString {
            let head: Int
            let tail: Int
            switch type {
            case .end: (head, tail) = (kept, 0)
            case .start: (head, tail) = (0, kept)
            case .middle: (head, tail) = ((kept + 1) / 2, kept / 2)
            }
            let result = NSMutableAttributedString(string: "")
            if head > 0 {
                result.append(text.attributedSubstring(from: NSRange(location: 0, length: boundaries[head])))
            }
            if let token { result.append(token) }
            if tail > 0 {
                let start = boundaries[clusters - tail]
                result.append(text.attributedSubstring(from: NSRange(location: start, length: text.length - start)))
            }
            return result
        }
        // The most clusters kept whose line fits (widths grow with what is kept).
        var low = 0
        var high = clusters - 1
        var best = CTLine.make(candidate(keeping: 0))
        while low <= high {
            let middle = (low + high + 1) / 2
            let line = CTLine.make(candidate(keeping: middle))
            if line.width <= width {
                best = line
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return best
    }

    /// The ellipsis token with the attributes of the character at UTF-16 offset `index` of `text`
    /// (its first when out of range), as `CATextLayer` and Pango put one.
    static func ellipsis(like text: NSAttributedString, at index: Int) -> NSAttributedString {
        guard text.length > 0 else { return NSAttributedString(string: "\u{2026}") }
        let attributes = text.attributes(at: max(0, min(index, text.length - 1)), effectiveRange: nil)
        return NSAttributedString(string: "\u{2026}", attributes: attributes)
    }
}

import Foundation

/// Lays out an attributed string into frames: Core Text's `CTFramesetter`. Immutable.
public final class CTFramesetter: NSObject, @unchecked Sendable {
    /// The string (a copy).
    let string: NSAttributedString

    init(string: NSAttributedString) {
        self.string = NSAttributedString(attributedString: string)
        super.init()
    }

    /// The block options for a frame `width` wide and `height` high, from the paragraph style at
    /// the start of `range`: its line-break mode chooses word or character wrapping, or no wrapping
    /// for clipping and the truncating modes (which truncate each line).
    func options(range: NSRange, width: CGFloat?, height: CGFloat?) -> TextBlock.Options {
        var options = TextBlock.Options(width: width)
        options.maxHeight = height
        let mode =
            range.location < string.length
            ? string.attribute(.paragraphStyle, at: range.location, effectiveRange: nil).flatMap(
                ParagraphSettings.init)?
                .lineBreakMode ?? .byWordWrapping : .byWordWrapping
        switch mode {
        case .byWordWrapping: break
        case .byCharWrapping: options.breaksCharacters = true
        case .byClipping: options.wraps = false
        case .byTruncatingHead:
            options.wraps = false
            options.truncation = .start
        case .byTruncatingTail:
            options.wraps = false
            options.truncation = .end
        case .byTruncatingMiddle:
            options.wraps = false
            options.truncation = .middle
        }
        return options
    }

    /// `range` clamped to the string; length 0 means to the end.
    func clamped(_ range: CFRange) -> NSRange {
        let start = max(0, min(range.location, string.length))
        let length = range.length <= 0 ? string.length - start : min(range.length, string.length - start)
        return NSRange(location: start, length: length)
    }
}

/// A framesetter for `attrString` (Core Text's `CTFramesetterCreateWithAttributedString`).
public func CTFramesetterCreateWithAttributedString(_ attrString: CFAttributedString) -> CTFramesetter {
    CTFramesetter(string: attrString)
}

/// A frame of the lines of `stringRange` (length 0: to the end) that fit in `path` (Core Text's
/// `CTFramesetterCreateFrame`). Lines fill the path's bounding box from its top (y up: its maxY)
/// while they fit its height, wrapped at its width and aligned by each paragraph's style. Lamina lays
/// text out in the bounding box of any path (Core Text follows the path's shape). `frameAttributes`
/// are ignored.
public func CTFramesetterCreateFrame(
    _ framesetter: CTFramesetter, _ stringRange: CFRange, _ path: CGPath, _ frameAttributes: CFDictionary?
) -> CTFrame {
    let range = framesetter.clamped(stringRange)
    let box = path.boundingBoxOfPath.standardized
    let block = TextBlock(
        framesetter.string, range: range,
        options: framesetter.options(range: range, width: box.width, height: box.height))
    return CTFrame(
        block: block, path: path, box: box, stringRange: CFRange(location: range.location, length: range.length))
}

/// The size a frame needs for `stringRange` (length 0: to the end) within `constraints` (Core
/// Text's `CTFramesetterSuggestFrameSizeWithConstraints`): the widest line (without trailing
/// whitespace) and the lines' total height, each line `ascent + descent + leading`. A constraint of
/// `CGFloat.greatestFiniteMagnitude` (or infinity) does not limit. `fitRange` receives the part of
/// the string that fits. `frameAttributes` are ignored.
public func CTFramesetterSuggestFrameSizeWithConstraints(
    _ framesetter: CTFramesetter, _ stringRange: CFRange, _ frameAttributes: CFDictionary?, _ constraints: CGSize,
    _ fitRange: UnsafeMutablePointer<CFRange>?
) -> CGSize {
    let range = framesetter.clamped(stringRange)
    func limit(_ value: CGFloat) -> CGFloat? {
        value.isFinite && value < CGFloat.greatestFiniteMagnitude / 2 ? max(0, value) : nil
    }
    let block = TextBlock(
        framesetter.string, range: range,
        options: framesetter.options(
            range: range, width: limit(constraints.width), height: limit(constraints.height)))
    fitRange?.pointee = block.visibleRange
    return CGSize(width: block.width, height: block.height)
}

/// The lines of a framesetter's string that fit a path: Core Text's `CTFrame`. Immutable.
public final class CTFrame: NSObject, @unchecked Sendable {
    /// The placed lines.
    let block: TextBlock
    /// The path given, and its bounding box.
    let path: CGPath
    let box: CGRect
    /// The range asked for.
    let stringRange: CFRange

    init(block: TextBlock, path: CGPath, box: CGRect, stringRange: CFRange) {
        self.block = block
        self.path = path
        self.box = box
        self.stringRange = stringRange
        super.init()
    }

    /// Each line's origin relative to the box's bottom-left corner, y up.
    var origins: [CGPoint] {
        block.lines.map { CGPoint(x: $0.x, y: box.height - $0.baseline) }
    }
}

/// The frame's lines, top to bottom, as `CTLine`s (Core Text's `CTFrameGetLines`).
public func CTFrameGetLines(_ frame: CTFrame) -> CFArray { NSArray(array: frame.block.lines.map(\.line)) }

/// Copies the origins of the lines in `range` (length 0: to the end), relative to the path's
/// bounding box origin, y up, to `origins` (Core Text's `CTFrameGetLineOrigins`).
public func CTFrameGetLineOrigins(_ frame: CTFrame, _ range: CFRange, _ origins: UnsafeMutablePointer<CGPoint>) {
    let all = frame.origins
    for (i, index) in bounded(range, all.count).enumerated() { origins[i] = all[index] }
}

/// The part of the string the frame was asked to hold (Core Text's `CTFrameGetStringRange`).
public func CTFrameGetStringRange(_ frame: CTFrame) -> CFRange { frame.stringRange }

/// The part of the string the frame's lines show (Core Text's `CTFrameGetVisibleStringRange`).
public func CTFrameGetVisibleStringRange(_ frame: CTFrame) -> CFRange { frame.block.visibleRange }

/// The path the frame was made with (Core Text's `CTFrameGetPath`).
public func CTFrameGetPath(_ frame: CTFrame) -> CGPath { frame.path }

/// Draws the frame's lines, each with its origin at the path's box origin plus its line origin,
/// through the text matrix's linear part and the CTM (Core Text's `CTFrameDraw`). The context's
/// text position is left as it was.
public func CTFrameDraw(_ frame: CTFrame, _ context: CGContext) {
    for (line, origin) in zip(frame.block.lines, frame.origins) {
        GlyphPainter.draw(
            line.line.runs, in: context, at: CGPoint(x: frame.box.minX + origin.x, y: frame.box.minY + origin.y))
    }
}

/// Breaks attributed text into lines: Core Text's `CTTypesetter`. Immutable.
public final class CTTypesetter: NSObject, @unchecked Sendable {
    /// The string (a copy).
    let string: NSAttributedString

    init(string: NSAttributedString) {
        self.string = NSAttributedString(attributedString: string)
        super.init()
    }
}

/// A typesetter for `string` (Core Text's `CTTypesetterCreateWithAttributedString`).
public func CTTypesetterCreateWithAttributedString(_ string: CFAttributedString) -> CTTypesetter {
    CTTypesetter(string: string)
}

/// How many UTF-16 units from `startIndex` fit on a line `width` wide, breaking between words
/// (Core Text's `CTTypesetterSuggestLineBreak`).
public func CTTypesetterSuggestLineBreak(_ typesetter: CTTypesetter, _ startIndex: CFIndex, _ width: Double) -> CFIndex
{
    let start = max(0, min(startIndex, typesetter.string.length))
    guard start < typesetter.string.length else { return 0 }
    let block = TextBlock(
        typesetter.string, range: NSRange(location: start, length: typesetter.string.length - start),
        options: TextBlock.Options(width: CGFloat(width)))
    return block.lines.first?.line.stringRange.length ?? 0
}

/// A line of the part `stringRange` of the typesetter's string (length 0: to the end) (Core
/// Text's `CTTypesetterCreateLine`).
public func CTTypesetterCreateLine(_ typesetter: CTTypesetter, _ stringRange: CFRange) -> CTLine {
    let start = max(0, min(stringRange.location, typesetter.string.length))
    let length =
        stringRange.length <= 0
        ? typesetter.string.length - start : min(stringRange.length, typesetter.string.length - start)
    return CTLine.make(typesetter.string, range: NSRange(location: start, length: length))
}

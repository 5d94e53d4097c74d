import CPango
import Foundation

/// What is special about a run's glyphs: Core Text's `CTRunStatus`.
public struct CTRunStatus: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt32
    /// Makes a status from raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Nothing special.
    public static let noStatus = CTRunStatus([])
    /// The glyphs are in right-to-left order (their string indices decrease).
    public static let rightToLeft = CTRunStatus(rawValue: 1 << 0)
    /// The string indices are not monotonic.
    public static let nonMonotonic = CTRunStatus(rawValue: 1 << 1)
    /// The run has a text matrix other than the identity.
    public static let hasNonIdentityMatrix = CTRunStatus(rawValue: 1 << 2)
}

/// A run of glyphs that share a font and attributes, one of a line's (Core Text's `CTRun`).
/// Immutable; its glyphs and positions are relative to its line's origin, y up.
public final class CTRun: NSObject, @unchecked Sendable {
    /// The layout the run belongs to (kept alive for `glyphItem`).
    let owner: AttributedLayout
    /// Pango's run (`PangoGlyphItem *`, owned by the layout).
    let glyphItem: UnsafeMutablePointer<PangoGlyphItem>
    /// The font Pango chose (the attribute's font, or a fallback face for characters it lacks).
    let font: CTFont
    /// The run's attributes.
    let attributes: TextAttributes
    /// Where the run starts along the line, from the line's origin.
    let x: CGFloat
    /// The run's advance width.
    let width: CGFloat
    /// How far the run's baseline is raised (a baseline offset).
    let baselineShift: CGFloat
    /// Glyphs, positions, advances and string indices (UTF-16, in the whole string), in display order.
    let glyphs: [CGGlyph]
    let positions: [CGPoint]
    let advances: [CGSize]
    let stringIndices: [CFIndex]
    /// The UTF-16 range of the string the run shows.
    let stringRange: CFRange
    /// Whether the run reads right to left.
    let isRightToLeft: Bool

    /// Reads Pango's run `item`, which starts `x` from its line's origin. Caller holds the text lock.
    init(item: UnsafeMutablePointer<PangoGlyphItem>, x: CGFloat, owner: AttributedLayout) {
        self.owner = owner
        glyphItem = item
        self.x = x
        let pangoItem = item.pointee.item!
        let scale = CGFloat(PANGO_SCALE)
        let offset = pangoItem.pointee.offset
        attributes = owner.attributes(atByte: offset) ?? TextAttributes([:], defaultFont: owner.defaultFont)
        // The face Pango chose, at the size the text asked for: a bitmap-only fallback (Noto Color
        // Emoji) describes itself at its strike's size (109 pixels), which Cairo scales down to the
        // asked size when it draws, so its metrics must be read at the asked size too.
        font =
            pangoItem.pointee.analysis.font.flatMap { CTFont.from(pangoFont: $0, engine: owner.engine) }?
            .withSize(attributes.font.pointSize) ?? owner.defaultFont
        baselineShift = CGFloat(item.pointee.y_offset) / scale
        isRightToLeft = pangoItem.pointee.analysis.level % 2 == 1
        let string = item.pointee.glyphs!
        let count = Int(string.pointee.num_glyphs)
        var glyphs: [CGGlyph] = []
        var positions: [CGPoint] = []
        var advances: [CGSize] = []
        var indices: [CFIndex] = []
        var pen = x
        for i in 0..<count {
            let info = string.pointee.glyphs[i]
            let advance = CGFloat(info.geometry.width) / scale
            glyphs.append(CGGlyph(truncatingIfNeeded: info.glyph))
            positions.append(
                CGPoint(
                    x: pen + CGFloat(info.geometry.x_offset) / scale,
                    y: baselineShift - CGFloat(info.geometry.y_offset) / scale))
            advances.append(CGSize(width: advance, height: 0))
            indices.append(owner.stringIndex(ofByte: offset + string.pointee.log_clusters[i]))
            pen += advance
        }
        width = pen - x
        self.glyphs = glyphs
        self.positions = positions
        self.advances = advances
        stringIndices = indices
        let start = owner.stringIndex(ofByte: offset)
        stringRange = CFRange(
            location: start, length: owner.stringIndex(ofByte: offset + pangoItem.pointee.length) - start)
        super.init()
    }

    /// The attributes as Core Text reports them: the run's dictionary with its actual font under
    /// `kCTFontAttributeName` (".font"), keys as strings.
    var attributeDictionary: NSDictionary {
        let dictionary = NSMutableDictionary()
        for (key, value) in attributes.dictionary { dictionary[NSString(string: key.rawValue)] = value }
        dictionary[NSString(string: "NSFont")] = font
        return dictionary
    }
}

/// The number of glyphs in `run` (Core Text's `CTRunGetGlyphCount`).
public func CTRunGetGlyphCount(_ run: CTRun) -> CFIndex { run.glyphs.count }

/// The run's attributes, with the font actually used under `kCTFontAttributeName` (Core Text's
/// `CTRunGetAttributes`); keys are `NSString`s.
public func CTRunGetAttributes(_ run: CTRun) -> CFDictionary { run.attributeDictionary }

/// What is special about the run: right to left, non-monotonic (Core Text's `CTRunGetStatus`).
public func CTRunGetStatus(_ run: CTRun) -> CTRunStatus {
    var status: CTRunStatus = run.isRightToLeft ? .rightToLeft : []
    let increasing = zip(run.stringIndices, run.stringIndices.dropFirst()).allSatisfy { $0 <= $1 }
    let decreasing = zip(run.stringIndices, run.stringIndices.dropFirst()).allSatisfy { $0 >= $1 }
    if !increasing && !decreasing { status.insert(.nonMonotonic) }
    return status
}

/// The glyphs in `range` of the run (length 0: to the end) copied to `buffer` (Core Text's
/// `CTRunGetGlyphs`).
public func CTRunGetGlyphs(_ run: CTRun, _ range: CFRange, _ buffer: UnsafeMutablePointer<CGGlyph>) {
    copy(run.glyphs, range, buffer)
}

/// The glyph positions in `range` (length 0: to the end), relative to the line's origin, y up
/// (Core Text's `CTRunGetPositions`).
public func CTRunGetPositions(_ run: CTRun, _ range: CFRange, _ buffer: UnsafeMutablePointer<CGPoint>) {
    copy(run.positions, range, buffer)
}

/// The glyph advances in `range` (length 0: to the end) (Core Text's `CTRunGetAdvances`).
public func CTRunGetAdvances(_ run: CTRun, _ range: CFRange, _ buffer: UnsafeMutablePointer<CGSize>) {
    copy(run.advances, range, buffer)
}

/// The UTF-16 index in the string of each glyph in `range` (length 0: to the end) (Core Text's
/// `CTRunGetStringIndices`).
public func CTRunGetStringIndices(_ run: CTRun, _ range: CFRange, _ buffer: UnsafeMutablePointer<CFIndex>) {
    copy(run.stringIndices, range, buffer)
}

/// The part of the string the run shows (Core Text's `CTRunGetStringRange`).
public func CTRunGetStringRange(_ run: CTRun) -> CFRange { run.stringRange }

/// The width of the glyphs in `range` (length 0: all), and the font's ascent, descent and leading
/// (Core Text's `CTRunGetTypographicBounds`).
public func CTRunGetTypographicBounds(
    _ run: CTRun, _ range: CFRange, _ ascent: UnsafeMutablePointer<CGFloat>?,
    _ descent: UnsafeMutablePointer<CGFloat>?, _ leading: UnsafeMutablePointer<CGFloat>?
) -> Double {
    ascent?.pointee = run.font.ascent
    descent?.pointee = run.font.descent
    leading?.pointee = run.font.leading
    let slice = bounded(range, run.advances.count)
    return Double(run.advances[slice].reduce(0) { $0 + $1.width })
}

/// Draws the run (all of it; `range` is not honoured) at the context's text position (Core Text's
/// `CTRunDraw`), as `CTLineDraw` draws a line's runs.
public func CTRunDraw(_ run: CTRun, _ context: CGContext, _ range: CFRange) {
    GlyphPainter.draw([run], in: context, at: context.textPosition, offsetBy: -run.x)
}

/// Copies the slice `range` of `values` to `buffer`.
private func copy<T>(_ values: [T], _ range: CFRange, _ buffer: UnsafeMutablePointer<T>) {
    let slice = bounded(range, values.count)
    for (i, value) in values[slice].enumerated() { buffer[i] = value }
}

/// The indices `range` names in a collection of `count` (length 0: to the end), clamped.
func bounded(_ range: CFRange, _ count: Int) -> Range<Int> {
    let start = max(0, min(range.location, count))
    let end = range.length <= 0 ? count : max(start, min(count, range.location + range.length))
    return start..<end
}

import Foundation

/// A font face without a size: Core Graphics' `CGFont`, used with `CGContext.setFont(_:)`,
/// `showGlyphs(_:at:)` and `CATextLayer.font`. Immutable and usable from any thread.
///
/// Its metrics are in glyph-space units (font units), as Core Graphics reports them.
public final class CGFont: NSObject, @unchecked Sendable {
    /// The face, as a Core Text font at 1 point (its size is not used).
    let font: CTFont

    init(font: CTFont) {
        self.font = font.pointSize == 1 ? font : font.withSize(1)
        super.init()
    }

    /// The face named `name` (a PostScript name such as `Helvetica-Bold`, or a family name), or nil
    /// when neither an installed face nor Lamina's aliases know it (Core Graphics'
    /// `CGFontCreateWithFontName`). Unlike `CTFontCreateWithName`, it does not fall back to Helvetica.
    public convenience init?(_ name: CFString) {
        let font = CTFont(name: String(describing: name), size: 1)
        guard font.resolved.isExactMatch else { return nil }
        self.init(font: font)
    }

    /// The face's PostScript name (Core Graphics' `CGFontCopyPostScriptName`).
    public var postScriptName: CFString? { NSString(string: font.resolved.postScriptName) }

    /// The face's full name (Core Graphics' `CGFontCopyFullName`).
    public var fullName: CFString? { NSString(string: font.resolved.fullName) }

    /// Glyph-space units per em (Core Graphics' `CGFontGetUnitsPerEm`).
    public var unitsPerEm: Int32 { Int32(font.face?.unitsPerEm ?? 1000) }

    /// The ascent, in glyph-space units (Core Graphics' `CGFontGetAscent`).
    public var ascent: Int32 { Int32(font.face?.ascender ?? 800) }

    /// The descent, in glyph-space units, negative below the baseline (Core Graphics'
    /// `CGFontGetDescent`).
    public var descent: Int32 { -Int32(font.face?.descender ?? 200) }

    /// The leading (line gap), in glyph-space units (Core Graphics' `CGFontGetLeading`).
    public var leading: Int32 { Int32(font.face?.lineGap ?? 0) }

    /// The cap height, in glyph-space units (Core Graphics' `CGFontGetCapHeight`).
    public var capHeight: Int32 { Int32(font.face?.capHeight ?? 0) }

    /// The x-height, in glyph-space units (Core Graphics' `CGFontGetXHeight`).
    public var xHeight: Int32 { Int32(font.face?.xHeight ?? 0) }

    /// The box every glyph fits in, in glyph-space units (Core Graphics' `CGFontGetFontBBox`).
    public var fontBBox: CGRect { font.face?.boundingBox ?? .zero }

    /// The number of glyphs (Core Graphics' `CGFontGetNumberOfGlyphs`).
    public var numberOfGlyphs: Int { font.face?.glyphCount ?? 0 }

    /// Whether two `CGFont`s are the same face.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CGFont else { return false }
        return other.font.resolved == font.resolved
    }

    /// A hash consistent with `isEqual(_:)`.
    public override var hash: Int { font.resolved.hashValue }

    /// The PostScript name, as `CFCopyDescription` shows a font.
    public override var description: String { "<CGFont \(font.resolved.postScriptName)>" }
}

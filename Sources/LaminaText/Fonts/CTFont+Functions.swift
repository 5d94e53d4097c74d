import CPango
import Foundation

/// The font named `name` at `size` (Core Text's `CTFontCreateWithName`). Never fails: a name that
/// matches nothing gives Helvetica's face (through Lamina's aliases), as Core Text falls back to
/// Helvetica. A PostScript name is tried first, then a family name with style words
/// (`Helvetica-Bold`, `HelveticaNeue-Light`). A `size` of 0 gives 12 points. `matrix` is kept
/// (`CTFontGetMatrix`) but not applied.
public func CTFontCreateWithName(
    _ name: CFString, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?
) -> CTFont {
    CTFont(name: String(describing: name), size: size, matrix: matrix?.pointee ?? .identity)
}

/// The font of `graphicsFont` at `size` (Core Text's `CTFontCreateWithGraphicsFont`); a size of 0
/// gives 12 points. `attributes` are ignored.
public func CTFontCreateWithGraphicsFont(
    _ graphicsFont: CGFont, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?,
    _ attributes: CTFontDescriptor?
) -> CTFont {
    graphicsFont.font.withSize(size > 0 ? size : 12)
}

/// A copy of `font` at `size` (0: the same size) (Core Text's `CTFontCreateCopyWithAttributes`);
/// `attributes` are ignored.
public func CTFontCreateCopyWithAttributes(
    _ font: CTFont, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?, _ attributes: CTFontDescriptor?
) -> CTFont {
    font.withSize(size > 0 ? size : font.pointSize)
}

/// The font of `font`'s family with the traits in `symTraitMask` set as `symTraitValue` says (bold,
/// italic, condensed, expanded) at `size` (0: the same size), or nil when the family has no such
/// face (Core Text's `CTFontCreateCopyWithSymbolicTraits`).
public func CTFontCreateCopyWithSymbolicTraits(
    _ font: CTFont, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?,
    _ symTraitValue: CTFontSymbolicTraits, _ symTraitMask: CTFontSymbolicTraits
) -> CTFont? {
    var traits = FontResolver.Traits(
        weight: font.resolved.weight, slant: font.resolved.slant, width: font.resolved.width)
    if symTraitMask.contains(.traitBold) {
        traits.weight = Int32(symTraitValue.contains(.traitBold) ? FC_WEIGHT_BOLD : FC_WEIGHT_REGULAR)
    }
    if symTraitMask.contains(.traitItalic) {
        traits.slant = Int32(symTraitValue.contains(.traitItalic) ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
    }
    if symTraitMask.contains(.traitCondensed) {
        traits.width = Int32(symTraitValue.contains(.traitCondensed) ? FC_WIDTH_CONDENSED : FC_WIDTH_NORMAL)
    }
    if symTraitMask.contains(.traitExpanded) {
        traits.width = Int32(symTraitValue.contains(.traitExpanded) ? FC_WIDTH_EXPANDED : FC_WIDTH_NORMAL)
    }
    return TextEngine.run { engine -> CTFont? in
        guard var face = FontResolver.match(family: font.resolved.family, traits: traits, in: engine.config),
            face.family == font.resolved.family
        else { return nil }
        face.isExactMatch = true
        let wantsBold = traits.weight >= Int32(FC_WEIGHT_DEMIBOLD)
        let wantsItalic = traits.slant != Int32(FC_SLANT_ROMAN)
        guard (face.weight >= Int32(FC_WEIGHT_DEMIBOLD)) == wantsBold,
            (face.slant != Int32(FC_SLANT_ROMAN)) == wantsItalic
        else { return nil }
        return CTFont(
            resolved: face, requestedName: face.postScriptName, size: size > 0 ? size : font.pointSize,
            matrix: matrix?.pointee ?? font.matrix, face: engine.face(path: face.path, index: face.index))
    }
}

/// The point size (Core Text's `CTFontGetSize`).
public func CTFontGetSize(_ font: CTFont) -> CGFloat { font.pointSize }

/// The matrix the font was made with (Core Text's `CTFontGetMatrix`).
public func CTFontGetMatrix(_ font: CTFont) -> CGAffineTransform { font.matrix }

/// The ascent: how far the face reaches above the baseline, at the font's size (Core Text's
/// `CTFontGetAscent`). The face's own value (HarfBuzz's horizontal ascender): Nimbus Sans, the
/// default Helvetica, gives 0.729 em where Apple's Helvetica gives about 0.77.
public func CTFontGetAscent(_ font: CTFont) -> CGFloat { font.ascent }

/// The descent: how far the face reaches below the baseline, positive (Core Text's
/// `CTFontGetDescent`).
public func CTFontGetDescent(_ font: CTFont) -> CGFloat { font.descent }

/// The leading: the face's line gap at the font's size (Core Text's `CTFontGetLeading`).
public func CTFontGetLeading(_ font: CTFont) -> CGFloat { font.leading }

/// The height of capital letters (Core Text's `CTFontGetCapHeight`); 0 when the face does not say.
public func CTFontGetCapHeight(_ font: CTFont) -> CGFloat { CGFloat(font.face?.capHeight ?? 0) * font.unitScale }

/// The height of lower-case x (Core Text's `CTFontGetXHeight`); 0 when the face does not say.
public func CTFontGetXHeight(_ font: CTFont) -> CGFloat { CGFloat(font.face?.xHeight ?? 0) * font.unitScale }

/// Font units per em (Core Text's `CTFontGetUnitsPerEm`).
public func CTFontGetUnitsPerEm(_ font: CTFont) -> UInt32 { UInt32(font.face?.unitsPerEm ?? 1000) }

/// The number of glyphs in the face (Core Text's `CTFontGetGlyphCount`).
public func CTFontGetGlyphCount(_ font: CTFont) -> CFIndex { font.face?.glyphCount ?? 0 }

/// Where underlines go, relative to the baseline (negative: below) (Core Text's
/// `CTFontGetUnderlinePosition`).
public func CTFontGetUnderlinePosition(_ font: CTFont) -> CGFloat {
    CGFloat(font.face?.underlinePosition ?? -100) * font.unitScale
}

/// How thick underlines are (Core Text's `CTFontGetUnderlineThickness`).
public func CTFontGetUnderlineThickness(_ font: CTFont) -> CGFloat {
    CGFloat(font.face?.underlineThickness ?? 50) * font.unitScale
}

/// The box every glyph of the face fits in, at the font's size, y up (Core Text's
/// `CTFontGetBoundingBox`).
public func CTFontGetBoundingBox(_ font: CTFont) -> CGRect {
    let box = font.face?.boundingBox ?? .zero
    let s = font.unitScale
    return CGRect(x: box.minX * s, y: box.minY * s, width: box.width * s, height: box.height * s)
}

/// The face's style traits: bold, italic, condensed, expanded, monospaced, colour glyphs (Core Text's
/// `CTFontGetSymbolicTraits`).
public func CTFontGetSymbolicTraits(_ font: CTFont) -> CTFontSymbolicTraits {
    var traits: CTFontSymbolicTraits = []
    let r = font.resolved
    if r.weight >= Int32(FC_WEIGHT_DEMIBOLD) { traits.insert(.traitBold) }
    if r.slant != Int32(FC_SLANT_ROMAN) { traits.insert(.traitItalic) }
    if r.width < Int32(FC_WIDTH_NORMAL) { traits.insert(.traitCondensed) }
    if r.width > Int32(FC_WIDTH_NORMAL) { traits.insert(.traitExpanded) }
    if r.family.localizedCaseInsensitiveContains("mono") { traits.insert(.traitMonoSpace) }
    if r.family.localizedCaseInsensitiveContains("emoji") { traits.insert(.traitColorGlyphs) }
    return traits
}

/// The PostScript name of the face drawn (Core Text's `CTFontCopyPostScriptName`): the face Lamina
/// resolved the name to, e.g. `NimbusSans-Regular` for `Helvetica`.
public func CTFontCopyPostScriptName(_ font: CTFont) -> CFString {
    NSString(string: font.resolved.postScriptName)
}

/// The family name of the face drawn (Core Text's `CTFontCopyFamilyName`).
public func CTFontCopyFamilyName(_ font: CTFont) -> CFString {
    NSString(string: font.resolved.family)
}

/// The full name of the face drawn (Core Text's `CTFontCopyFullName`).
public func CTFontCopyFullName(_ font: CTFont) -> CFString {
    NSString(string: font.resolved.fullName)
}

/// The display name of the face drawn (Core Text's `CTFontCopyDisplayName`): its full name.
public func CTFontCopyDisplayName(_ font: CTFont) -> CFString {
    NSString(string: font.resolved.fullName)
}

/// The font's face as a `CGFont` (Core Text's `CTFontCopyGraphicsFont`); `attributes` is left alone.
public func CTFontCopyGraphicsFont(_ font: CTFont, _ attributes: UnsafeMutableRawPointer?) -> CGFont {
    CGFont(font: font)
}

/// Maps `count` UTF-16 code units to the face's glyphs (Core Text's `CTFontGetGlyphsForCharacters`):
/// a surrogate pair gives its glyph in the first slot and 0 in the second. Characters the face
/// lacks get glyph 0, and the result is then false. No shaping and no fallback to other fonts (lay
/// out a `CTLine` for that).
public func CTFontGetGlyphsForCharacters(
    _ font: CTFont, _ characters: UnsafePointer<UniChar>, _ glyphs: UnsafeMutablePointer<CGGlyph>,
    _ count: CFIndex
) -> Bool {
    guard let face = font.face else { return false }
    var all = true
    var i = 0
    while i < count {
        var scalar = UInt32(characters[i])
        var width = 1
        if UTF16.isLeadSurrogate(characters[i]), i + 1 < count, UTF16.isTrailSurrogate(characters[i + 1]) {
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (UInt32(characters[i + 1]) - 0xDC00)
            width = 2
        }
        let glyph = TextEngine.run { _ in face.glyph(for: scalar) }
        if glyph == nil { all = false }
        glyphs[i] = CGGlyph(truncatingIfNeeded: glyph ?? 0)
        if width == 2 { glyphs[i + 1] = 0 }
        i += width
    }
    return all
}

/// The advances of `count` glyphs at the font's size, written to `advances` when given; returns
/// their sum (Core Text's `CTFontGetAdvancesForGlyphs`). Horizontal metrics for every orientation.
public func CTFontGetAdvancesForGlyphs(
    _ font: CTFont, _ orientation: CTFontOrientation, _ glyphs: UnsafePointer<CGGlyph>,
    _ advances: UnsafeMutablePointer<CGSize>?, _ count: CFIndex
) -> Double {
    guard let face = font.face else { return 0 }
    var total = 0.0
    TextEngine.run { _ in
        for i in 0..<count {
            let width = CGFloat(face.advance(of: UInt32(glyphs[i]))) * font.unitScale
            advances?[i] = CGSize(width: width, height: 0)
            total += Double(width)
        }
    }
    return total
}

/// The ink boxes of `count` glyphs at the font's size, y up, written to `boundingRects` when given;
/// returns their union (Core Text's `CTFontGetBoundingRectsForGlyphs`).
public func CTFontGetBoundingRectsForGlyphs(
    _ font: CTFont, _ orientation: CTFontOrientation, _ glyphs: UnsafePointer<CGGlyph>,
    _ boundingRects: UnsafeMutablePointer<CGRect>?, _ count: CFIndex
) -> CGRect {
    guard let face = font.face else { return .null }
    var union = CGRect.null
    let s = font.unitScale
    TextEngine.run { _ in
        for i in 0..<count {
            let box = face.extents(of: UInt32(glyphs[i])) ?? .zero
            let scaled = CGRect(x: box.minX * s, y: box.minY * s, width: box.width * s, height: box.height * s)
            boundingRects?[i] = scaled
            if !scaled.isEmpty { union = union.union(scaled) }
        }
    }
    return union
}

/// The outline of `glyph` at the font's size, y up, transformed by `matrix` when given (Core Text's
/// `CTFontCreatePathForGlyph`); nil for a glyph without an outline, such as a colour emoji.
public func CTFontCreatePathForGlyph(
    _ font: CTFont, _ glyph: CGGlyph, _ matrix: UnsafePointer<CGAffineTransform>?
) -> CGPath? {
    guard let face = font.face, let outline = TextEngine.run({ _ in face.outline(of: UInt32(glyph)) }) else {
        return nil
    }
    let s = font.unitScale
    var transform = CGAffineTransform(a: s, b: 0, c: 0, d: s, tx: 0, ty: 0)
    if let matrix { transform = transform.concatenating(matrix.pointee) }
    return outline.copy(using: transform)
}

/// A font description: Core Text's `CTFontDescriptor`, reduced to a name and a size.
public final class CTFontDescriptor: NSObject, @unchecked Sendable {
    /// The font name (PostScript or family).
    let name: String
    /// The point size (0: unspecified).
    let size: CGFloat

    init(name: String, size: CGFloat) {
        self.name = name
        self.size = size
        super.init()
    }
}

/// A descriptor of the font named `name` at `size` (Core Text's
/// `CTFontDescriptorCreateWithNameAndSize`).
public func CTFontDescriptorCreateWithNameAndSize(_ name: CFString, _ size: CGFloat) -> CTFontDescriptor {
    CTFontDescriptor(name: String(describing: name), size: size)
}

/// The font a descriptor describes, at `size` (0: the descriptor's, else 12) (Core Text's
/// `CTFontCreateWithFontDescriptor`).
public func CTFontCreateWithFontDescriptor(
    _ descriptor: CTFontDescriptor, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?
) -> CTFont {
    CTFont(name: descriptor.name, size: size > 0 ? size : descriptor.size, matrix: matrix?.pointee ?? .identity)
}

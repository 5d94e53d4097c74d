import Foundation
import Testing

@testable import LaminaText

/// Fonts: creation by Apple names, metrics, PostScript names, `CGFont`, the alias rules. Sources:
/// Apple's Core Text reference (`CTFontCreateWithName`, `CTFontGetAscent`, `CTFontGetDescent`,
/// `CTFontGetLeading`, `CTFontCopyPostScriptName`) and Core Graphics reference (`CGFont(_:)`).
@Suite struct FontTests {
    init() { TestFonts.install() }

    @Test func sizeZeroIsTwelvePoints() {
        // CTFontCreateWithName: "size: The point size for the font. If 0.0 is specified, the default
        // font size of 12.0 is used."
        #expect(CTFontGetSize(CTFontCreateWithName("Helvetica" as CFString, 0, nil)) == 12)
        #expect(CTFontGetSize(CTFontCreateWithName("Helvetica" as CFString, 36, nil)) == 36)
    }

    @Test func unknownNamesStillGiveAFontButNoCGFont() {
        // CTFontCreateWithName always returns a font (Core Text falls back); CGFont(_:) returns nil
        // when no font of that name exists.
        let font = CTFontCreateWithName("NoSuchFont-Bold" as CFString, 20, nil)
        #expect(CTFontGetSize(font) == 20)
        #expect(CTFontGetAscent(font) > 0)
        #expect(CGFont("NoSuchFont" as CFString) == nil)
        #expect(CGFont("Helvetica" as CFString) != nil, "an Apple family Lamina aliases")
        #expect(CGFont("DejaVuSans-Bold" as CFString)?.postScriptName == "DejaVuSans-Bold")
    }

    @Test func postScriptNamesResolveExactly() {
        // "A valid PostScript name is preferred, although other font name types are matched in a
        // fallback manner" (CTFontCreateWithName).
        let bold = CTFontCreateWithName("DejaVuSans-Bold" as CFString, 12, nil)
        #expect(CTFontCopyPostScriptName(bold) == "DejaVuSans-Bold")
        #expect(CTFontGetSymbolicTraits(bold).contains(.traitBold))
        let regular = CTFontCreateWithName("DejaVuSans" as CFString, 12, nil)
        #expect(CTFontCopyPostScriptName(regular) == "DejaVuSans")
        #expect(!CTFontGetSymbolicTraits(regular).contains(.traitBold))
    }

    @Test(arguments: ["Helvetica-Bold", "HelveticaNeue-Bold", "Arial-BoldMT"])
    func styleWordsChooseTheFace(name: String) {
        // With the test set, Apple's sans families fall to DejaVu Sans; the style part picks its bold face.
        let font = CTFontCreateWithName(name as CFString, 12, nil)
        #expect(CTFontCopyPostScriptName(font) == "DejaVuSans-Bold", "\(name)")
    }

    @Test func metricsAreTheFacesScaledToTheSize() {
        // DejaVu Sans: 2048 units per em, hhea ascender 1901, descender -483, line gap 0.
        let font = CTFontCreateWithName("DejaVuSans" as CFString, 36, nil)
        #expect(CTFontGetUnitsPerEm(font) == 2048)
        #expect(abs(CTFontGetAscent(font) - 1901.0 / 2048 * 36) < 1e-9)
        #expect(abs(CTFontGetDescent(font) - 483.0 / 2048 * 36) < 1e-9)
        #expect(CTFontGetLeading(font) == 0)
        #expect(CTFontGetCapHeight(font) > 0 && CTFontGetCapHeight(font) < CTFontGetAscent(font))
        let graphics = CTFontCopyGraphicsFont(font, nil)
        #expect(graphics.unitsPerEm == 2048 && graphics.ascent == 1901 && graphics.descent == -483)
    }

    @Test func glyphsAdvancesAndOutlines() throws {
        let font = CTFontCreateWithName("DejaVuSans" as CFString, 20, nil)
        var characters: [UniChar] = Array("AB".utf16)
        var glyphs = [CGGlyph](repeating: 0, count: 2)
        #expect(CTFontGetGlyphsForCharacters(font, &characters, &glyphs, 2))
        #expect(glyphs[0] != 0 && glyphs[1] != 0 && glyphs[0] != glyphs[1])
        var advances = [CGSize](repeating: .zero, count: 2)
        let total = CTFontGetAdvancesForGlyphs(font, .horizontal, glyphs, &advances, 2)
        #expect(abs(total - Double(advances[0].width + advances[1].width)) < 1e-9)
        #expect(advances[0].width > 10 && advances[0].width < 20)
        // CTFontCreatePathForGlyph gives an outline for "A", none for a colour emoji glyph.
        let path = try #require(CTFontCreatePathForGlyph(font, glyphs[0], nil))
        #expect(path.boundingBox.height > 10 && path.boundingBox.minY >= -0.5, "A stands on the baseline, y up")
        let emoji = CTFontCreateWithName("Noto Color Emoji" as CFString, 20, nil)
        var face: [UniChar] = Array("😀".utf16)
        var emojiGlyphs = [CGGlyph](repeating: 0, count: 2)
        #expect(CTFontGetGlyphsForCharacters(emoji, &face, &emojiGlyphs, 2))
        #expect(CTFontCreatePathForGlyph(emoji, emojiGlyphs[0], nil) == nil)
    }

    @Test func copiesWithTraitsAndSizes() throws {
        let font = CTFontCreateWithName("DejaVuSans" as CFString, 12, nil)
        let bold = try #require(CTFontCreateCopyWithSymbolicTraits(font, 0, nil, .traitBold, .traitBold))
        #expect(CTFontCopyPostScriptName(bold) == "DejaVuSans-Bold" && CTFontGetSize(bold) == 12)
        #expect(CTFontGetSize(CTFontCreateCopyWithAttributes(font, 30, nil, nil)) == 30)
        #expect(CTFontCreateCopyWithSymbolicTraits(font, 0, nil, .traitItalic, .traitItalic) == nil, "no italic face")
    }

    @Test func namesAreSplitAsCoreTextNamesThem() {
        let (family, traits) = FontResolver.split("Arial-BoldItalicMT")
        #expect(family == "Arial")
        #expect(traits.weight == 200 && traits.slant == 100)
        #expect(FontResolver.camelWords("HelveticaNeue") == ["Helvetica", "Neue"])
        #expect(FontResolver.camelWords("SFProText") == ["SF", "Pro", "Text"])
        #expect(FontResolver.familyCandidates("TimesNewRomanPSMT").contains("Times New Roman"))
        #expect(FontResolver.split("HelveticaNeue-UltraLight").traits.weight == 40)
    }

    @Test func appleNamesAliasToMetricCompatibleFreeFamilies() {
        // Lamina's aliases (the list): Helvetica, Helvetica Neue, Times, Courier, Menlo, Arial
        // and the system font, each to free families, the metric-compatible clone first.
        let xml = FontConfiguration.aliasXML(generic: nil)
        for (apple, first) in [
            ("Helvetica", "Nimbus Sans"), ("Helvetica Neue", "Nimbus Sans"), ("Times", "Nimbus Roman"),
            ("Courier", "Nimbus Mono PS"), ("Arial", "Liberation Sans"), ("Menlo", "DejaVu Sans Mono"),
            (".AppleSystemUIFont", "sans-serif"), ("Apple Color Emoji", "Noto Color Emoji"),
        ] {
            #expect(
                xml.contains("<family>\(apple)</family><prefer><family>\(first)</family>"), "\(apple) → \(first)")
        }
    }

    @Test func theSystemConfigurationSendsHelveticaToNimbusSans() throws {
        // On a machine set up by Tools/setup (fonts-urw-base35, fonts-liberation2): a separate
        // engine over the system's fonts, so the fixed set other tests use stays in place.
        let engine = TextEngine(config: FontConfiguration.system())
        let nimbus = FontResolver.resolve("Helvetica", in: engine)
        try #require(
            FontResolver.isKnownFamily("Nimbus Sans", in: engine.config) && nimbus.family == "Nimbus Sans",
            "fonts-urw-base35 is not installed")
        #expect(nimbus.postScriptName == "NimbusSans-Regular")
        #expect(FontResolver.resolve("Helvetica-Bold", in: engine).postScriptName == "NimbusSans-Bold")
        #expect(FontResolver.resolve("Times", in: engine).family == "Nimbus Roman")
        #expect(FontResolver.resolve("Courier", in: engine).family == "Nimbus Mono PS")
        #expect(FontResolver.resolve("Arial", in: engine).family == "Liberation Sans")
        #expect(FontResolver.resolve("Menlo", in: engine).family == "DejaVu Sans Mono")
    }

    @Test func attributeNamesHaveApplesRawValues() throws {
        // UIKit's NSAttributedString.Key raw values and Core Text's attribute names.
        #expect(NSAttributedString.Key.font.rawValue == "NSFont")
        #expect(NSAttributedString.Key.foregroundColor.rawValue == "NSColor")
        #expect(NSAttributedString.Key.paragraphStyle.rawValue == "NSParagraphStyle")
        #expect(NSAttributedString.Key.kern.rawValue == "NSKern")
        #expect(NSAttributedString.Key.underlineStyle.rawValue == "NSUnderline")
        #expect(kCTFontAttributeName as String == "NSFont")
        #expect(kCTForegroundColorAttributeName as String == "CTForegroundColor")
        #expect(kCTKernAttributeName as String == "NSKern")
        #expect(CFRangeMake(3, 4) == CFRange(location: 3, length: 4))
        // Core Foundation spellings compile: a CFAttributedString made with Core Text's keys.
        let font = CTFontCreateWithName("Helvetica" as CFString, 18, nil)
        let made = CFAttributedStringCreate(
            kCFAllocatorDefault, "Hi" as CFString, NSDictionary(dictionary: [kCTFontAttributeName: font]))
        let string = try #require(made)
        #expect(CFAttributedStringGetLength(string) == 2)
        #expect(string.attribute(.font, at: 0, effectiveRange: nil) as? CTFont === font)
    }
}

import Foundation
import LaminaTesting
import Testing

@testable import LaminaText

/// Lines: metrics, ink, drawing in flipped and unflipped contexts, truncation, scripts. Sources:
/// Apple's Core Text reference (`CTLineGetTypographicBounds`, `CTLineGetImageBounds`, `CTLineDraw`,
/// `CTLineCreateTruncatedLine`, `kCTKernAttributeName`, `kCTForegroundColorAttributeName`) and Core
/// Graphics reference (`CGContextSetTextMatrix`, `CGContextSaveGState`).
@Suite struct LineTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    init() { TestFonts.install() }

    @Test func typographicBoundsAreTheFontsMetrics() {
        // CTLineGetTypographicBounds: the width, with the line's ascent, descent and leading.
        let font = CTFontCreateWithName("DejaVuSans" as CFString, 24, nil)
        let line = CTLineCreateWithAttributedString(attributed("Hello", font: font))
        var ascent: CGFloat = 0
        var descent: CGFloat = 0
        var leading: CGFloat = -1
        let width = CTLineGetTypographicBounds(line, &ascent, &descent, &leading)
        #expect(ascent == CTFontGetAscent(font) && descent == CTFontGetDescent(font) && leading == 0)
        var glyphs = [CGGlyph](repeating: 0, count: 5)
        var characters = Array("Hello".utf16)
        _ = CTFontGetGlyphsForCharacters(font, &characters, &glyphs, 5)
        let advances = CTFontGetAdvancesForGlyphs(font, .horizontal, glyphs, nil, 5)
        #expect(abs(width - advances) < 0.01, "width \(width) is the sum of the advances \(advances)")
        #expect(CTLineGetGlyphCount(line) == 5)
        #expect(CTLineGetStringRange(line) == CFRange(location: 0, length: 5))
    }

    /// A line with an emoji takes the emoji face at the line's size: its ascent is the largest of its
    /// runs' fonts' ascents at 36 points (CTLineGetTypographicBounds), under an em and a half. The
    /// colour emoji face is bitmap-only and describes itself at its strike's size (109 pixels): read
    /// at that size, the line's first baseline lay 2.8 em down and a text layer of ordinary height
    /// showed nothing of the line.
    @Test func anEmojiRunIsMeasuredAtTheLinesSize() {
        let font = CTFontCreateWithName("DejaVuSans" as CFString, 36, nil)
        let line = CTLineCreateWithAttributedString(attributed("A😀", font: font))
        var ascent: CGFloat = 0
        var descent: CGFloat = 0
        _ = CTLineGetTypographicBounds(line, &ascent, &descent, nil)
        let runs = CTLineGetGlyphRuns(line) as! [CTRun]
        #expect(runs.count == 2, "the emoji comes from a fallback face")
        let fonts = runs.map { $0.font }
        #expect(fonts.allSatisfy { CTFontGetSize($0) == 36 }, "\(fonts.map { CTFontGetSize($0) })")
        #expect(ascent == fonts.map { CTFontGetAscent($0) }.max())
        #expect(ascent > 0 && ascent < 54 && descent < 54, "ascent \(ascent), descent \(descent)")
    }

    @Test func kernAddsAfterEveryCharacter() {
        // kCTKernAttributeName: "the number of points by which to adjust kern-pair characters";
        // Core Text adds it after each character, so n characters grow by n × kern.
        let plain = CTLineCreateWithAttributedString(attributed("Hello"))
        let kerned = CTLineCreateWithAttributedString(attributed("Hello", extra: [.kern: 3]))
        let grown = CTLineGetTypographicBounds(kerned, nil, nil, nil) - CTLineGetTypographicBounds(plain, nil, nil, nil)
        #expect(abs(grown - 15) < 0.01, "grew by \(grown)")
        let runs = CTLineGetGlyphRuns(kerned) as! [CTRun]
        var first = CGPoint(x: -1, y: -1)
        CTRunGetPositions(runs[0], CFRange(location: 0, length: 1), &first)
        #expect(abs(first.x) < 0.01, "the first glyph stays at the origin")
    }

    @Test func inkLiesInsideTheImageBounds() throws {
        // CTLineGetImageBounds: the glyphs' ink box relative to the context's text position.
        let canvas = Canvas(width: 240, height: 60)
        let line = CTLineCreateWithAttributedString(attributed("Typography"))
        canvas.context.textPosition = CGPoint(x: 12, y: 18)
        let bounds = CTLineGetImageBounds(line, canvas.context)
        CTLineDraw(line, canvas.context)
        let ink = try #require(canvas.inkBox())
        // Canvas rows count from the top; the context is y up.
        #expect(CGFloat(ink.minX) >= bounds.minX - 1 && CGFloat(ink.maxX) <= bounds.maxX + 1)
        #expect(CGFloat(60 - ink.maxY - 1) >= bounds.minY - 1 && CGFloat(60 - ink.minY) <= bounds.maxY + 1)
        #expect(bounds.minY < 18 && bounds.maxY > 18, "'y' and 'p' descend below the baseline at 18")
        let unplaced = CTLineGetImageBounds(line, nil)
        #expect(abs(unplaced.minX + 12 - bounds.minX) < 1e-9 && abs(unplaced.minY + 18 - bounds.minY) < 1e-9)
    }

    @Test func textIsBlackWithoutAColourAttribute() {
        // kCTForegroundColorAttributeName: "Default is black"; the fill colour is not used.
        let canvas = Canvas(width: 100, height: 40)
        canvas.context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        canvas.context.textPosition = CGPoint(x: 4, y: 12)
        let font = CTFontCreateWithName("Helvetica" as CFString, 24, nil)
        CTLineDraw(
            CTLineCreateWithAttributedString(NSAttributedString(string: "H", attributes: [.font: font])), canvas.context
        )
        let dark = canvas.inked(threshold: 250).map { canvas.pixel($0.x, $0.y) }
        #expect(!dark.isEmpty && dark.allSatisfy { $0[0] < 10 && $0[1] < 10 && $0[2] < 10 })
        // kCTForegroundColorFromContextAttributeName takes the context's fill colour instead.
        let red = Canvas(width: 100, height: 40)
        red.context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        red.context.textPosition = CGPoint(x: 4, y: 12)
        let fromContext = NSAttributedString(
            string: "H",
            attributes: [
                .font: font, NSAttributedString.Key(kCTForegroundColorFromContextAttributeName as String): true,
            ])
        CTLineDraw(CTLineCreateWithAttributedString(fromContext), red.context)
        let reds = red.inked(threshold: 250).map { red.pixel($0.x, $0.y) }
        #expect(!reds.isEmpty && reds.allSatisfy { $0[0] > 245 && $0[1] < 10 })
    }

    @Test func aFlippedContextWithoutAFlippedTextMatrixDrawsUpsideDown() throws {
        // Glyph space is y up: in a context flipped for UIKit (y down) with the identity text
        // matrix the text comes out mirrored, ink below the baseline; the usual fix (textMatrix =
        // scale(1, -1)) draws it upright, ink above the baseline.
        func draw(flipText: Bool) -> (top: Int, bottom: Int) {
            let canvas = Canvas(width: 120, height: 60)
            canvas.context.translateBy(x: 0, y: 60)
            canvas.context.scaleBy(x: 1, y: -1)
            if flipText { canvas.context.textMatrix = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 0) }
            canvas.context.textPosition = CGPoint(x: 10, y: 30)
            CTLineDraw(CTLineCreateWithAttributedString(attributed("HHH")), canvas.context)
            let ink = canvas.inkBox()!
            return (ink.minY, ink.maxY)
        }
        let mirrored = draw(flipText: false)
        #expect(mirrored.top >= 29, "mirrored ink starts at the baseline row 30 and hangs below: \(mirrored)")
        let upright = draw(flipText: true)
        #expect(upright.bottom <= 30 && upright.top < 20, "upright ink stands on the baseline: \(upright)")
    }

    @Test func theTextMatrixIsNotPartOfTheGraphicsState() {
        // CGContextSaveGState: the saved state does not include the text matrix (Apple's list of
        // the graphics state's parameters); textPosition is the text matrix's translation.
        let canvas = Canvas(width: 10, height: 10)
        let context = canvas.context
        context.saveGState()
        context.textMatrix = CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 5, ty: 7)
        context.restoreGState()
        #expect(context.textMatrix == CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 5, ty: 7))
        #expect(context.textPosition == CGPoint(x: 5, y: 7))
        context.textPosition = CGPoint(x: 1, y: 2)
        #expect(context.textMatrix.tx == 1 && context.textMatrix.ty == 2 && context.textMatrix.a == 2)
        // The drawing mode is part of it.
        context.saveGState()
        context.setTextDrawingMode(.stroke)
        context.restoreGState()
        #expect(context.currentTextDrawingMode == .fill)
    }

    @Test func truncationKeepsWholeClustersAndAddsTheToken() throws {
        // CTLineCreateTruncatedLine: the line shortened to the width at its start, end or middle
        // with the token where text was removed; nil when the token alone does not fit.
        let text = attributed("The quick brown fox jumps over the lazy dog")
        let line = CTLineCreateWithAttributedString(text)
        let token = CTLineCreateWithAttributedString(attributed("\u{2026}"))
        let whole = CTLineGetTypographicBounds(line, nil, nil, nil)
        for type in [CTLineTruncationType.end, .start, .middle] {
            let cut = try #require(CTLineCreateTruncatedLine(line, 150, type, token))
            let width = CTLineGetTypographicBounds(cut, nil, nil, nil)
            #expect(width <= 150 && width > 100, "\(type): \(width)")
            let shown = cut.attributedString.string
            #expect(shown.contains("\u{2026}"))
            switch type {
            case .end: #expect(shown.hasPrefix("The quick") && shown.hasSuffix("\u{2026}"))
            case .start: #expect(shown.hasPrefix("\u{2026}") && shown.hasSuffix("lazy dog"))
            case .middle: #expect(shown.hasPrefix("The") && shown.hasSuffix("dog"))
            }
        }
        #expect(CTLineCreateTruncatedLine(line, whole + 1, .end, token) === line, "a line that fits is kept")
        #expect(CTLineCreateTruncatedLine(line, 5, .end, token) == nil, "the token is wider than 5")
        let cutOff = try #require(CTLineCreateTruncatedLine(line, 100, .end, nil))
        #expect(!cutOff.attributedString.string.contains("\u{2026}"), "no token: simply cut")
    }

    @Test func rightToLeftTextRunsRightToLeft() throws {
        // Arabic is laid out right to left: the run says so and the first logical character's glyph
        // is the rightmost.
        let line = CTLineCreateWithAttributedString(attributed("مرحبا"))
        let runs = CTLineGetGlyphRuns(line) as! [CTRun]
        try #require(runs.count == 1)
        #expect(CTRunGetStatus(runs[0]).contains(.rightToLeft))
        let count = CTRunGetGlyphCount(runs[0])
        var positions = [CGPoint](repeating: .zero, count: count)
        var indices = [CFIndex](repeating: 0, count: count)
        CTRunGetPositions(runs[0], CFRange(), &positions)
        CTRunGetStringIndices(runs[0], CFRange(), &indices)
        let first = try #require(indices.firstIndex(of: 0))
        #expect(positions[first].x == positions.map(\.x).max(), "string index 0 is drawn rightmost")
        // Pixels: with the line drawn from x = 10, the ink of the first letter (meem, drawn alone
        // it shows where) lies at the right end.
        let canvas = Canvas(width: 160, height: 40)
        canvas.context.textPosition = CGPoint(x: 10, y: 12)
        CTLineDraw(line, canvas.context)
        let ink = try #require(canvas.inkBox())
        let width = CTLineGetTypographicBounds(line, nil, nil, nil)
        #expect(abs(CGFloat(ink.maxX) - (10 + width)) < 4, "ink reaches the line's right end")
    }

    @Test func chineseCombiningMarksAndEmojiShapeWithFallbackFonts() throws {
        // Characters the asked-for font lacks are drawn with a fallback face of the set.
        let chinese = CTLineCreateWithAttributedString(attributed("你好世界"))
        let chineseRuns = CTLineGetGlyphRuns(chinese) as! [CTRun]
        let chineseFont = try #require(CTRunGetAttributes(chineseRuns[0])["NSFont"] as? CTFont)
        #expect(CTFontCopyFamilyName(chineseFont) == "WenQuanYi Micro Hei")
        #expect(CTLineGetGlyphCount(chinese) == 4)
        // A combining acute accent takes no advance: x + U+0301 (no precomposed form) is as wide as "x".
        let composed = CTLineCreateWithAttributedString(attributed("x\u{301}"))
        let bare = CTLineCreateWithAttributedString(attributed("x"))
        #expect(CTLineGetGlyphCount(composed) == 2)
        #expect(
            abs(CTLineGetTypographicBounds(composed, nil, nil, nil) - CTLineGetTypographicBounds(bare, nil, nil, nil))
                < 0.01)
        #expect(
            CTLineGetImageBounds(composed, nil).maxY > CTLineGetImageBounds(bare, nil).maxY + 2, "the accent sits above"
        )
        // A colour emoji draws coloured (not grey) pixels.
        let canvas = Canvas(width: 80, height: 40)
        canvas.context.textPosition = CGPoint(x: 4, y: 8)
        CTLineDraw(CTLineCreateWithAttributedString(attributed("😀")), canvas.context)
        let colourful = canvas.inked().map { canvas.pixel($0.x, $0.y) }.filter {
            max($0[0], $0[1], $0[2]) - min($0[0], $0[1], $0[2]) > 60
        }
        #expect(colourful.count > 50, "\(colourful.count) coloured pixels")
    }

    @Test func mixedScriptsMatchTheGolden() throws {
        // Latin with an underline and kern, a Chinese run, Arabic, combining marks and an emoji, in
        // colour, drawn at 2×; compared with the reviewed golden.
        let canvas = Canvas(width: 900, height: 200, scale: 2)
        let text = NSMutableAttributedString(
            attributedString: attributed("Lamina ", color: CGColor(red: 0.1, green: 0.2, blue: 0.7, alpha: 1)))
        text.append(attributed("text", extra: [.underlineStyle: NSUnderlineStyle.single.rawValue, .kern: 2]))
        text.append(attributed(" 你好 ", color: CGColor(red: 0.7, green: 0.1, blue: 0.1, alpha: 1)))
        text.append(attributed("مرحبا "))
        text.append(attributed("n\u{303}e\u{301} 😀"))
        canvas.context.textPosition = CGPoint(x: 8, y: 60)
        CTLineDraw(CTLineCreateWithAttributedString(text), canvas.context)
        canvas.context.textPosition = CGPoint(x: 8, y: 20)
        canvas.context.setTextDrawingMode(.stroke)
        canvas.context.setLineWidth(0.8)
        CTLineDraw(CTLineCreateWithAttributedString(attributed("Outlined")), canvas.context)
        let result = try ImageComparison(channelTolerance: 8, maxDifferingPixels: 40)
            .compare(canvas.image, goldenPath: Self.golden.appendingPathComponent("line.png").path)
        #expect(result.matches, "against Golden/line.png: \(result)")
    }
}

import Foundation
import Testing

@testable import LaminaText

/// Core Graphics' own text calls: `setFont`, `showGlyphs(_:at:)`, the text drawing modes. Sources:
/// Apple's Core Graphics reference (`CGContextShowGlyphsAtPositions`, `CGContextSetTextDrawingMode`,
/// `CGTextDrawingMode`).
@Suite struct ContextTextTests {
    init() { TestFonts.install() }

    func glyphs(_ text: String, _ font: CTFont) -> [CGGlyph] {
        var characters = Array(text.utf16)
        var glyphs = [CGGlyph](repeating: 0, count: characters.count)
        _ = CTFontGetGlyphsForCharacters(font, &characters, &glyphs, characters.count)
        return glyphs
    }

    @Test func showGlyphsDrawsEachGlyphAtItsPosition() throws {
        let font = CTFontCreateWithName("DejaVuSans" as CFString, 20, nil)
        let canvas = Canvas(width: 200, height: 40)
        let context = canvas.context
        context.setFont(try #require(CGFont("DejaVuSans" as CFString)))
        context.setFontSize(20)
        context.setFillColor(red: 0, green: 0.5, blue: 0, alpha: 1)
        context.showGlyphs(glyphs("II", font), at: [CGPoint(x: 10, y: 10), CGPoint(x: 150, y: 10)])
        let ink = canvas.inked()
        let left = ink.filter { $0.x < 100 }
        let right = ink.filter { $0.x >= 100 }
        #expect(!left.isEmpty && !right.isEmpty)
        #expect(left.map(\.x).min()! >= 10 && left.map(\.x).max()! < 20)
        #expect(right.map(\.x).min()! >= 150 && right.map(\.x).max()! < 160)
        #expect(ink.map(\.y).max()! <= 30, "glyphs stand on the baseline y = 10 (row 30)")
        let green = canvas.pixel(left[left.count / 2].x, left[left.count / 2].y)
        #expect(green[1] > 100 && green[0] < 10, "the fill colour: \(green)")
        // Without a font nothing is drawn.
        let empty = Canvas(width: 20, height: 20)
        empty.context.showGlyphs(glyphs("I", font), at: [CGPoint(x: 5, y: 5)])
        #expect(empty.inkBox() == nil)
    }

    @Test func drawingModesFillStrokeHideAndClip() throws {
        // CGTextDrawingMode: fill, stroke (an outline with fewer inked pixels), invisible (nothing),
        // clip (nothing painted; later painting is confined to the glyphs).
        func draw(_ mode: CGTextDrawingMode, then fill: Bool = false) -> Canvas {
            let canvas = Canvas(width: 120, height: 60)
            canvas.context.setTextDrawingMode(mode)
            canvas.context.textPosition = CGPoint(x: 10, y: 15)
            let font = CTFontCreateWithName("DejaVuSans-Bold" as CFString, 40, nil)
            CTLineDraw(CTLineCreateWithAttributedString(attributed("HM", font: font)), canvas.context)
            if fill {
                canvas.context.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
                canvas.context.fill(CGRect(x: 0, y: 0, width: 120, height: 60))
            }
            return canvas
        }
        let filled = draw(.fill).inked().count
        let stroked = draw(.stroke).inked().count
        #expect(filled > 400 && stroked > 50 && stroked < filled * 3 / 4, "filled \(filled), stroked \(stroked)")
        // The middle of the H's left stem (about x 13…18 at 40 points bold) is inked when filled and
        // hollow when stroked.
        let stem = (x: 16, y: 30)
        #expect(draw(.fill).pixel(stem.x, stem.y)[3] > 200)
        #expect(draw(.stroke).pixel(stem.x, stem.y)[3] < 60)
        #expect(draw(.invisible).inkBox() == nil)
        #expect(draw(.clip).inkBox() == nil)
        let clipped = draw(.clip, then: true)
        let blue = clipped.inked().count
        #expect(abs(blue - filled) < filled / 10, "the blue fill covers the glyphs only: \(blue) vs \(filled)")
    }

    @Test func fontDrawGlyphsUsesTheFontsSize() throws {
        let font = CTFontCreateWithName("DejaVuSans" as CFString, 30, nil)
        let canvas = Canvas(width: 80, height: 50)
        let g = glyphs("H", font)
        var position = CGPoint(x: 10, y: 10)
        CTFontDrawGlyphs(font, g, &position, 1, canvas.context)
        let ink = try #require(canvas.inkBox())
        let capHeight = CTFontGetCapHeight(font)
        #expect(abs(CGFloat(ink.maxY - ink.minY + 1) - capHeight) < 2, "H is a cap height tall")
    }
}

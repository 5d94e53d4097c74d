import Foundation
import Testing

@testable import Lamina

/// A plain string is drawn once as white coverage that the render server multiplies by the presented
/// `foregroundColor` (CATextLayer.h: foregroundColor is animatable; issue 20: "the colour on the
/// server's clock with no client redraw"). An attributed string carries its own colours (CATextLayer
/// reference: font, fontSize and foregroundColor are used only when `string` is not attributed) and a
/// string with colour glyphs has colours of its own: both are drawn in their colours, untinted.
@Suite struct TextLayerCoverageTests {
    init() { TextLayerFonts.install() }

    /// Whether every pixel of `image` has all four premultiplied channels equal (white coverage).
    static func isWhite(_ image: CGImage) -> Bool { CATextLayer.isWhiteCoverage(image) }

    @Test func aPlainStringIsCoverageAndRenderInShowsItsColour() throws {
        let layer = textLayer("Hg")
        layer.foregroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.display()
        let contents = try #require(layer.contents as? CGImage)
        #expect(Self.isWhite(contents) && contents.premultipliedRGBA.contains(255), "white glyph coverage")
        #expect(layer.modelState.text.tintsContents)
        // What the server and render(in:) show: each pixel of coverage a times red, (a, 0, 0, a).
        let shown = try #require(layer.shownContents)
        let opaque = try #require(
            stride(from: 3, to: shown.premultipliedRGBA.count, by: 4).first {
                shown.premultipliedRGBA[$0] == 255
            })
        #expect(Array(shown.premultipliedRGBA[(opaque - 3)...opaque]) == [255, 0, 0, 255])
        let drawn = RenderedLayer(layer)
        #expect(
            (0..<100).contains { y in (0..<100).contains { x in drawn.pixel(x, y) == [255, 0, 0, 255] } },
            "render(in:) draws the glyphs red")
    }

    @Test func aColourChangeDrawsNothingAgain() throws {
        let layer = textLayer("Hg")
        layer.display()
        let before = try #require(layer.contents as? CGImage)
        layer.foregroundColor = CGColor(red: 0, green: 0.5, blue: 1, alpha: 1)
        #expect(!layer.needsDisplay(), "the server tints the glyphs already drawn")
        #expect((layer.contents as? CGImage) === before)
        #expect(layer.modelState.text.foregroundColor == RGBAColor(red: 0, green: 0.5, blue: 1, alpha: 1))
        layer.foregroundColor = nil
        #expect(!layer.needsDisplay() && layer.modelState.text.foregroundColor == nil, "nil draws black")
    }

    @Test func anAttributedStringKeepsItsColoursUntinted() throws {
        let string = NSAttributedString(
            string: "Hg", attributes: [.foregroundColor: CGColor(red: 0, green: 1, blue: 0, alpha: 1)])
        let layer = textLayer(string)
        layer.display()
        let contents = try #require(layer.contents as? CGImage)
        #expect(!layer.modelState.text.tintsContents && !Self.isWhite(contents))
        #expect((layer.shownContents) === contents)
    }

    @Test func colourGlyphsAreDrawnInTheirColoursAndRedrawnForANewColour() throws {
        // A colour emoji keeps its own colours (Apple draws emoji in colour in any text colour), so the
        // layer is drawn in its colour, untinted, and a new colour draws it again. The layer is of
        // ordinary height: the emoji's face is measured at the layer's font size.
        let layer = textLayer("Hi 😀")
        layer.display()
        let contents = try #require(layer.contents as? CGImage)
        #expect(!layer.modelState.text.tintsContents && !Self.isWhite(contents))
        layer.foregroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        #expect(layer.needsDisplay())
    }

    @Test func contentsTheAppSetsAreNotTinted() {
        let layer = textLayer("Hg")
        layer.display()
        #expect(layer.modelState.text.tintsContents)
        // Apple-run (GNUstep): an explicit contents image hides the text; it is shown as it is.
        layer.contents = CGImage(width: 1, height: 1, premultipliedRGBA: [0, 255, 0, 255])
        #expect(!layer.modelState.text.tintsContents)
    }

    @Test func theTextPropertiesAreCopiedToTheirRows() {
        let layer = textLayer("Hello")
        layer.fontSize = 20
        layer.font = "Times-Bold" as CFTypeRef
        layer.isWrapped = true
        layer.truncationMode = .middle
        layer.alignmentMode = .right
        let rows = layer.modelState.text
        #expect(rows.string == "Hello" && rows.fontSize == 20 && rows.font == "Times-Bold")
        #expect(rows.isWrapped && rows.truncationMode == "middle" && rows.alignmentMode == "right")
        // The rows the client keeps are found through the text layer's own keys, not the table's.
        #expect(layer.value(forKey: "fontSize") as? CGFloat == 20)
        layer.string = String(repeating: "x", count: 500)
        #expect(layer.modelState.text.string?.count == TextLayerState.maxStringCharacters)
    }
}

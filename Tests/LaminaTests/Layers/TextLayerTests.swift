import Foundation
import LaminaTesting
import Testing

@testable import Lamina

/// The fixed fonts the text layer tests draw with (Tests/Fonts), installed once per process.
enum TextLayerFonts {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fonts")

    private static let installed: Void = {
        let files = [
            "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "WenQuanYiMicroHei-Subset.ttf", "NotoColorEmoji-Subset.ttf",
        ]
        try! LaminaFonts.useOnly(
            fontFiles: files.map { folder.appendingPathComponent($0) }, defaultFamily: "DejaVu Sans")
    }()

    /// Makes LaminaText use the fixed set (idempotent).
    static func install() { _ = installed }
}

/// A text layer's drawing: its contents after `display()`, with the inked pixels (alpha above 40).
struct TextLayerDrawing {
    let image: CGImage
    let scale: CGFloat

    init(_ layer: CATextLayer) throws {
        layer.display()
        // As shown: a plain string's coverage multiplied by foregroundColor, as the server draws it.
        image = try #require(layer.shownContents)
        scale = layer.contentsScale
    }

    /// The inked pixels' box in points (y down, from the bounds' top-left); nil when nothing is inked.
    var ink: CGRect? {
        var minX = Int.max
        var minY = Int.max
        var maxX = -1
        var maxY = -1
        for y in 0..<image.height {
            for x in 0..<image.width where image.premultipliedRGBA[(y * image.width + x) * 4 + 3] > 40 {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        return CGRect(
            x: CGFloat(minX) / scale, y: CGFloat(minY) / scale, width: CGFloat(maxX - minX + 1) / scale,
            height: CGFloat(maxY - minY + 1) / scale)
    }

    /// The RGBA of pixel (x, y).
    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let o = (y * image.width + x) * 4
        return Array(image.premultipliedRGBA[o..<(o + 4)])
    }

    /// The number of inked pixels.
    var inkedCount: Int {
        stride(from: 3, to: image.premultipliedRGBA.count, by: 4).filter { image.premultipliedRGBA[$0] > 40 }.count
    }
}

/// A text layer `width` × `height` showing `string`.
func textLayer(_ string: Any?, width: CGFloat = 160, height: CGFloat = 60) -> CATextLayer {
    TextLayerFonts.install()
    let layer = CATextLayer()
    layer.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    layer.string = string
    return layer
}

/// A subclass centring its text vertically the way a much-copied snippet does: translate, then
/// `super.draw(in:)`.
final class ShiftedTextLayer: CATextLayer {
    var shift: CGFloat = 20

    override func draw(in ctx: CGContext) {
        ctx.saveGState()
        ctx.translateBy(x: 0, y: shift)
        super.draw(in: ctx)
        ctx.restoreGState()
    }
}

/// CATextLayer's properties, defaults, key-value coding, archiving and drawing. Sources: Apple's
/// CATextLayer reference (each property's page and `CATextLayer.h`'s comments: "Defaults to
/// 36.0", "Defaults to opaque white", "Defaults to NO", "Defaults to none", "Defaults to
/// natural"), Core Text's defaults for attributed strings (`kCTFontAttributeName` "Default is
/// Helvetica 12", `kCTForegroundColorAttributeName` "Default is black"), and GNUstep's
/// QuartzCore tests run against Apple's QuartzCore (shared notes, "CATextLayer").
@Suite struct TextLayerTests {
    init() { TextLayerFonts.install() }

    @Test func defaultsAreApples() throws {
        // CATextLayer.h: string nil; fontSize "Defaults to 36.0"; foregroundColor "Defaults to opaque
        // white"; wrapped "Defaults to NO"; truncationMode "Defaults to none"; alignmentMode
        // "Defaults to natural"; allowsFontSubpixelQuantization "Defaults to NO"; font "Defaults
        // to the Helvetica font" (a font object, GNUstep's Apple-run test).
        let layer = CATextLayer()
        #expect(layer.string == nil)
        #expect(layer.fontSize == 36)
        #expect(layer.foregroundColor?.components == [1, 1, 1, 1])
        #expect(layer.isWrapped == false)
        #expect(layer.truncationMode.rawValue == "none")
        #expect(layer.alignmentMode.rawValue == "natural")
        #expect(layer.allowsFontSubpixelQuantization == false)
        let font = try #require(layer.font as? CTFont)
        #expect(CTFontGetSymbolicTraits(font).contains(.traitBold) == false)
        #expect(CATextLayer.defaultValue(forKey: "fontSize") as? CGFloat == 36)
        #expect((CATextLayer.defaultValue(forKey: "foregroundColor") as? CGColor)?.components == [1, 1, 1, 1])
        #expect(CATextLayer.defaultValue(forKey: "truncationMode") as? String == "none")
        #expect(CATextLayer.defaultValue(forKey: "alignmentMode") as? String == "natural")
        #expect(CATextLayer.defaultValue(forKey: "wrapped") as? Bool == false)
        #expect(CATextLayer.defaultValue(forKey: "opacity") as? Float == 1, "other keys: the layer's")
    }

    @Test func modeNamesAreApplesAndUnknownOnesAreKept() {
        // CATextLayerTruncationMode / CATextLayerAlignmentMode raw values; GNUstep's Apple-run test:
        // an unknown name is kept as given.
        #expect(
            [CATextLayerTruncationMode.none, .start, .end, .middle].map(\.rawValue) == [
                "none", "start", "end", "middle",
            ])
        #expect(
            [CATextLayerAlignmentMode.natural, .left, .right, .center, .justified].map(\.rawValue)
                == ["natural", "left", "right", "center", "justified"])
        let layer = CATextLayer()
        layer.alignmentMode = CATextLayerAlignmentMode(rawValue: "bogus")
        layer.truncationMode = CATextLayerTruncationMode(rawValue: "bogus")
        #expect(layer.alignmentMode.rawValue == "bogus" && layer.truncationMode.rawValue == "bogus")
    }

    @Test func fontReadsBackAsGiven() throws {
        // CATextLayer.font: "a CTFontRef, a CGFontRef, or a string naming the font"; GNUstep's
        // Apple-run test: a font set by name reads back as that string.
        let layer = CATextLayer()
        layer.font = "Times" as CFTypeRef
        #expect(layer.font as? String == "Times")
        let ctFont = CTFontCreateWithName("DejaVuSans-Bold" as CFString, 10, nil)
        layer.font = ctFont
        #expect(layer.font === ctFont)
        let cgFont = try #require(CGFont("DejaVuSans" as CFString))
        layer.font = cgFont
        #expect(layer.font === cgFont)
    }

    @Test func aFontObjectsOwnSizeIsIgnored() throws {
        // CATextLayer.font: "If the font property is a CTFontRef, a CGFontRef, or an instance of
        // NSFont, the font size of the property is ignored" (fontSize wins).
        let named = textLayer("H")
        named.font = "DejaVuSans" as CFTypeRef
        let object = textLayer("H")
        object.font = CTFontCreateWithName("DejaVuSans" as CFString, 10, nil)
        let a = try #require(try TextLayerDrawing(named).ink)
        let b = try #require(try TextLayerDrawing(object).ink)
        #expect(a == b, "\(a) vs \(b)")
        #expect(a.height > 24, "an H of a 36-point font, not a 10-point one: \(a.height)")
    }

    @Test func changesAskForDisplay() {
        // GNUstep's Apple-run tests: setting string and fontSize each set needsDisplay; display()
        // clears it. needsDisplay(forKey:) is true for the text keys but foregroundColor, which the
        // render server applies to the glyphs drawn once (Lamina: the colour animates without a redraw).
        let layer = CATextLayer()
        layer.display()
        layer.string = "Hello"
        #expect(layer.needsDisplay())
        layer.display()
        #expect(!layer.needsDisplay())
        layer.fontSize = 20
        #expect(layer.needsDisplay())
        layer.display()
        for key in ["string", "font", "fontSize", "wrapped", "truncationMode", "alignmentMode"] {
            #expect(CATextLayer.needsDisplay(forKey: key), "\(key)")
        }
        #expect(!CATextLayer.needsDisplay(forKey: "foregroundColor"))
        #expect(!CATextLayer.needsDisplay(forKey: "opacity"))
        layer.bounds = CGRect(x: 0, y: 0, width: 50, height: 50)
        #expect(layer.needsDisplay(), "new bounds re-lay the text out")
    }

    @Test func keyValueCodingReadsAndWritesEveryKey() {
        let layer = CATextLayer()
        layer.setValue("Hi", forKey: "string")
        layer.setValue(NSNumber(value: 20), forKey: "fontSize")
        layer.setValue(CGColor(red: 1, green: 0, blue: 0, alpha: 1), forKey: "foregroundColor")
        layer.setValue(true, forKey: "wrapped")
        layer.setValue("end", forKey: "truncationMode")
        layer.setValue(CATextLayerAlignmentMode.center, forKey: "alignmentMode")
        layer.setValue(true, forKey: "allowsFontSubpixelQuantization")
        layer.setValue("Courier", forKey: "font")
        #expect(layer.string as? String == "Hi" && layer.value(forKey: "string") as? String == "Hi")
        #expect(layer.fontSize == 20 && layer.value(forKey: "fontSize") as? CGFloat == 20)
        #expect(layer.foregroundColor?.components == [1, 0, 0, 1])
        #expect(layer.isWrapped && layer.value(forKey: "wrapped") as? Bool == true)
        #expect(layer.truncationMode == .end && layer.value(forKey: "truncationMode") as? String == "end")
        #expect(layer.alignmentMode == .center && layer.value(forKey: "alignmentMode") as? String == "center")
        #expect(layer.allowsFontSubpixelQuantization)
        #expect(layer.font as? String == "Courier")
        layer.foregroundColor = nil
        #expect(layer.foregroundColor == nil && layer.value(forKey: "foregroundColor") == nil, "nil stays nil")
    }

    @Test func presentationCopiesCarryTheText() {
        let layer = CATextLayer()
        layer.string = "Copy"
        layer.fontSize = 18
        layer.isWrapped = true
        let copy = CATextLayer(layer: layer)
        #expect(copy.string as? String == "Copy" && copy.fontSize == 18 && copy.isWrapped)
    }

    @Test func archivingKeepsTheText() throws {
        let layer = CATextLayer()
        let font = CTFontCreateWithName("DejaVuSans-Bold" as CFString, 14, nil)
        layer.string = NSAttributedString(
            string: "Bold red",
            attributes: [.font: font, .foregroundColor: CGColor(red: 1, green: 0, blue: 0, alpha: 1)])
        layer.font = CTFontCreateWithName("DejaVuSans" as CFString, 10, nil)
        layer.fontSize = 22
        layer.foregroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        layer.isWrapped = true
        layer.truncationMode = .middle
        layer.alignmentMode = .right
        let data = try NSKeyedArchiver.archivedData(withRootObject: layer, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CATextLayer.self, from: data))
        let string = try #require(back.string as? NSAttributedString)
        #expect(string.string == "Bold red")
        let backFont = try #require(string.attribute(.font, at: 0, effectiveRange: nil) as? CTFont)
        #expect(CTFontCopyPostScriptName(backFont) == "DejaVuSans-Bold" && CTFontGetSize(backFont) == 14)
        #expect(
            (string.attribute(.foregroundColor, at: 0, effectiveRange: nil) as? CGColor)?.components == [1, 0, 0, 1])
        #expect((back.font as? CTFont).map { CTFontCopyPostScriptName($0) } == "DejaVuSans")
        #expect(back.fontSize == 22 && back.foregroundColor?.components == [0, 1, 0, 1])
        #expect(back.isWrapped && back.truncationMode == .middle && back.alignmentMode == .right)
    }

    @Test func theFirstLineSitsAtTheTop() throws {
        // "The first line is aligned to the top of the layer"; GNUstep's Apple-run test: "Hg" at 36
        // points in 160×60 inks the top half, and a taller layer moves the text with its top edge.
        let short = try #require(try TextLayerDrawing(textLayer("Hg", height: 60)).ink)
        let tall = try #require(try TextLayerDrawing(textLayer("Hg", height: 90)).ink)
        #expect(short.minY < 30 && short.minY > 0)
        #expect(short.minY == tall.minY && short.maxY == tall.maxY)
        // DejaVu Sans at 36: the baseline lies an ascent (33.4) below the top; H's top a cap height above it.
        let font = CTFontCreateWithName("DejaVuSans" as CFString, 36, nil)
        #expect(abs(short.minY - (CTFontGetAscent(font) - CTFontGetCapHeight(font))) < 1.5)
    }

    @Test(arguments: [CATextLayerAlignmentMode.left, .right, .center, .natural, .justified])
    func alignmentPlacesTheLine(mode: CATextLayerAlignmentMode) throws {
        // alignmentMode: left ink starts near 0, right ends near the width, centre in the middle;
        // natural is left for left-to-right text (GNUstep's Apple-run test: natural box == left
        // box); justified on a single line acts as natural.
        let layer = textLayer("Hi", width: 160)
        layer.alignmentMode = mode
        let ink = try #require(try TextLayerDrawing(layer).ink)
        switch mode {
        case .right: #expect(ink.maxX > 150 && ink.maxX <= 160, "\(ink)")
        case .center: #expect(abs(ink.midX - 80) < 4, "\(ink)")
        default: #expect(ink.minX < 10, "\(ink)")
        }
    }

    @Test func rightToLeftTextIsRightAlignedNaturally() throws {
        let ink = try #require(try TextLayerDrawing(textLayer("مرحبا", width: 200)).ink)
        #expect(ink.maxX > 190 && ink.minX > 60, "\(ink)")
    }

    @Test(arguments: [CATextLayerTruncationMode.end, .middle, .start])
    func truncationStopsShortWithFewerGlyphs(mode: CATextLayerTruncationMode) throws {
        // GNUstep's Apple-run test: a too-wide line with .end stops short of the right edge, draws
        // fewer glyphs and starts where the whole line started; .middle also stops short. With
        // .none (not wrapped) the line runs to the edge and is clipped there.
        let text = String(repeating: "H", count: 24)
        let whole = textLayer(text)
        let clipped = try #require(try TextLayerDrawing(whole).ink)
        #expect(clipped.maxX >= 159, "clipped at the edge: \(clipped)")
        let layer = textLayer(text)
        layer.truncationMode = mode
        let drawing = try TextLayerDrawing(layer)
        let cut = try #require(drawing.ink)
        #expect(cut.maxX < 159, "\(mode.rawValue) stops short: \(cut)")
        #expect(drawing.inkedCount < (try TextLayerDrawing(whole)).inkedCount)
        if mode == .end { #expect(cut.minX == clipped.minX, "starts where the whole line starts") }
    }

    @Test func wrappingBreaksLinesAtTheWidth() throws {
        let sentence = "The quick brown fox jumps over the lazy dog"
        let wrapped = textLayer(sentence, width: 160, height: 300)
        wrapped.fontSize = 20
        wrapped.isWrapped = true
        let ink = try #require(try TextLayerDrawing(wrapped).ink)
        #expect(ink.maxX <= 160 && ink.height > 60, "several lines within the width: \(ink)")
        let single = textLayer(sentence, width: 160, height: 300)
        single.fontSize = 20
        let one = try #require(try TextLayerDrawing(single).ink)
        #expect(one.height < 30 && one.maxX >= 159, "one line clipped at the edge: \(one)")
    }

    @Test func anAttributedStringIgnoresTheLayersFontSizeAndColour() throws {
        // CATextLayer.string: with an attributed string the font, fontSize and foregroundColor
        // properties are not used; Core Text's defaults apply: Helvetica 12, black.
        let layer = textLayer(NSAttributedString(string: "HHHH"))
        layer.fontSize = 60
        layer.foregroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let drawing = try TextLayerDrawing(layer)
        let ink = try #require(drawing.ink)
        let twelve = CTFontCreateWithName("Helvetica" as CFString, 12, nil)
        #expect(abs(ink.height - CTFontGetCapHeight(twelve)) < 1.5, "a 12-point H: \(ink.height)")
        let x = Int(ink.minX) + 1
        let y = Int(ink.midY)
        #expect(drawing.pixel(x, y)[0] < 30 && drawing.pixel(x, y)[3] > 200, "black, opaque: \(drawing.pixel(x, y))")
    }

    @Test func plainTextIsDrawnInTheForegroundColour() throws {
        let layer = textLayer("H")
        layer.foregroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let drawing = try TextLayerDrawing(layer)
        let ink = try #require(drawing.ink)
        let p = drawing.pixel(Int(ink.minX) + 2, Int(ink.midY))
        #expect(p[2] > 240 && p[0] < 10 && p[3] > 240, "\(p)")
    }

    @Test func theBackingStoreFollowsContentsScale() throws {
        // Drawn at contentsScale: 1× gives bounds-sized pixels, 2× twice as many a side.
        let one = try TextLayerDrawing(textLayer("H"))
        #expect(one.image.width == 160 && one.image.height == 60)
        let layer = textLayer("H")
        layer.contentsScale = 2
        let two = try TextLayerDrawing(layer)
        #expect(two.image.width == 320 && two.image.height == 120)
        let a = try #require(one.ink)
        let b = try #require(two.ink)
        #expect(abs(a.minY - b.minY) <= 1 && abs(a.height - b.height) <= 1, "the same text in points")
    }

    @Test func aSubclassDrawingThroughSuperMovesTheText() throws {
        // The vertical-centring snippet: translate, then super.draw(in:).
        let plain = try #require(try TextLayerDrawing(textLayer("H", height: 100)).ink)
        TextLayerFonts.install()
        let shifted = ShiftedTextLayer()
        shifted.bounds = CGRect(x: 0, y: 0, width: 160, height: 100)
        shifted.string = "H"
        let moved = try #require(try TextLayerDrawing(shifted).ink)
        #expect(moved.minY - plain.minY == 20 && moved.minX == plain.minX)
    }

    @Test func aTextLayerMatchesTheGolden() throws {
        // A title and a wrapped paragraph truncated at the end (its third line does not fit the 70
        // points), a Chinese line and a right-aligned Arabic line, each layer drawn at 2×.
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Golden/text-layer.png")
        let text = NSMutableAttributedString(
            string: "Lamina\n",
            attributes: [
                .font: CTFontCreateWithName("Helvetica-Bold" as CFString, 22, nil),
                .foregroundColor: CGColor(red: 0.1, green: 0.2, blue: 0.6, alpha: 1),
            ])
        text.append(
            NSAttributedString(
                string:
                    "Text layers wrap their string at the bounds and end it with an ellipsis when it runs out of room.",
                attributes: [
                    .font: CTFontCreateWithName("Helvetica" as CFString, 14, nil),
                    .foregroundColor: CGColor(gray: 0.1, alpha: 1),
                ]))
        let layer = textLayer(text, width: 240, height: 70)
        layer.isWrapped = true
        layer.truncationMode = .end
        layer.contentsScale = 2
        let chinese = textLayer("你好，世界", width: 240, height: 25)
        chinese.fontSize = 18
        chinese.foregroundColor = CGColor(red: 0.7, green: 0.1, blue: 0.1, alpha: 1)
        chinese.contentsScale = 2
        let arabic = textLayer("مرحبا بالعالم", width: 240, height: 25)
        arabic.fontSize = 18
        arabic.foregroundColor = CGColor(gray: 0, alpha: 1)
        arabic.alignmentMode = .right
        arabic.contentsScale = 2
        let context = try #require(
            CGContext(
                data: nil, width: 480, height: 250, bitsPerComponent: 8, bytesPerRow: 0,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        context.setFillColor(gray: 1, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 480, height: 250))
        for (layer, top) in [(layer, 0), (chinese, 72), (arabic, 98)] as [(CATextLayer, CGFloat)] {
            let image = try TextLayerDrawing(layer).image
            let height = CGFloat(image.height)
            context.draw(image, in: CGRect(x: 0, y: 250 - top * 2 - height, width: 480, height: height))
        }
        let result = try ImageComparison(channelTolerance: 8, maxDifferingPixels: 40)
            .compare(context.makeImage()!, goldenPath: golden.path)
        #expect(result.matches, "against Golden/text-layer.png: \(result)")
    }
}

import Foundation
import LaminaTesting
import Testing

@testable import LaminaText

/// Frames: line stacking, fitting, alignment, suggested sizes, the usual drawing pattern. Sources:
/// Apple's Core Text reference (`CTFramesetterCreateFrame`, `CTFrameGetLineOrigins`,
/// `CTFrameGetVisibleStringRange`, `CTFramesetterSuggestFrameSizeWithConstraints`, `CTTextAlignment`,
/// `CTLineBreakMode`) and Apple's Core Text Programming Guide ("Simple Paragraph": flip the context,
/// make a framesetter and a frame in a rectangular path, draw).
@Suite struct FrameTests {
    init() { TestFonts.install() }

    static let paragraph =
        "Core Animation draws layers; Core Text lays out the words of this paragraph in lines that wrap at the frame's width."

    func frame(_ text: NSAttributedString, _ rect: CGRect) -> CTFrame {
        let framesetter = CTFramesetterCreateWithAttributedString(text)
        return CTFramesetterCreateFrame(framesetter, CFRange(), CGPath(rect: rect, transform: nil), nil)
    }

    func style(_ alignment: CTTextAlignment, _ mode: CTLineBreakMode = .byWordWrapping) -> CTParagraphStyle {
        var a = alignment.rawValue
        var m = mode.rawValue
        return withUnsafeBytes(of: &a) { ap in
            withUnsafeBytes(of: &m) { mp in
                let settings = [
                    CTParagraphStyleSetting(spec: .alignment, valueSize: 1, value: ap.baseAddress!),
                    CTParagraphStyleSetting(spec: .lineBreakMode, valueSize: 1, value: mp.baseAddress!),
                ]
                return CTParagraphStyleCreate(settings, 2)
            }
        }
    }

    @Test func linesStackFromTheTopByTheirHeights() throws {
        // Line origins are relative to the path's bounding box, y up: the first baseline lies the
        // line's ascent below the top, each next one a line height (ascent + descent + leading) lower.
        let font = CTFontCreateWithName("DejaVuSans" as CFString, 16, nil)
        let made = frame(attributed(Self.paragraph, font: font), CGRect(x: 20, y: 10, width: 200, height: 300))
        let lines = CTFrameGetLines(made) as! [CTLine]
        try #require(lines.count >= 4)
        var origins = [CGPoint](repeating: .zero, count: lines.count)
        CTFrameGetLineOrigins(made, CFRange(), &origins)
        let height = CTFontGetAscent(font) + CTFontGetDescent(font) + CTFontGetLeading(font)
        #expect(abs(origins[0].y - (300 - CTFontGetAscent(font))) < 0.01)
        for i in 1..<lines.count { #expect(abs(origins[i - 1].y - origins[i].y - height) < 0.01) }
        for line in lines {
            #expect(CTLineGetTypographicBounds(line, nil, nil, nil) - CTLineGetTrailingWhitespaceWidth(line) <= 200.01)
        }
        #expect(CTFrameGetVisibleStringRange(made).length == (Self.paragraph as NSString).length)
    }

    @Test func onlyLinesThatFitAreKept() {
        // CTFrameGetVisibleStringRange: the part of the string that fits the frame.
        let font = CTFontCreateWithName("DejaVuSans" as CFString, 16, nil)
        let height = CTFontGetAscent(font) + CTFontGetDescent(font)
        let made = frame(attributed(Self.paragraph, font: font), CGRect(x: 0, y: 0, width: 200, height: height * 2.5))
        #expect((CTFrameGetLines(made) as! [CTLine]).count == 2)
        let visible = CTFrameGetVisibleStringRange(made)
        #expect(visible.location == 0 && visible.length > 20 && visible.length < (Self.paragraph as NSString).length)
    }

    @Test func suggestedSizeIsTheLinesHeightAndTheWidestLine() {
        // CTFramesetterSuggestFrameSizeWithConstraints: n lines take n × (ascent + descent + leading);
        // the width does not pass the constraint.
        let font = CTFontCreateWithName("DejaVuSans" as CFString, 14, nil)
        let framesetter = CTFramesetterCreateWithAttributedString(attributed(Self.paragraph, font: font))
        var fit = CFRange()
        let size = CTFramesetterSuggestFrameSizeWithConstraints(
            framesetter, CFRange(), nil, CGSize(width: 180, height: CGFloat.greatestFiniteMagnitude), &fit)
        let made = frame(attributed(Self.paragraph, font: font), CGRect(x: 0, y: 0, width: 180, height: 1000))
        let lines = (CTFrameGetLines(made) as! [CTLine]).count
        let lineHeight = CTFontGetAscent(font) + CTFontGetDescent(font) + CTFontGetLeading(font)
        #expect(abs(size.height - CGFloat(lines) * lineHeight) < 1)
        #expect(size.width <= 180 && size.width > 120)
        #expect(fit.length == (Self.paragraph as NSString).length)
        let oneLine = CTFramesetterSuggestFrameSizeWithConstraints(
            framesetter, CFRange(), nil,
            CGSize(width: CGFloat.greatestFiniteMagnitude, height: .greatestFiniteMagnitude), nil)
        #expect(abs(oneLine.height - lineHeight) < 0.01)
    }

    @Test(arguments: [CTTextAlignment.left, .right, .center, .natural])
    func alignmentPlacesTheInk(alignment: CTTextAlignment) throws {
        // CTTextAlignment: flush left, flush right, centred; natural is left for left-to-right text.
        let canvas = Canvas(width: 200, height: 40)
        let text = attributed("Align", extra: [.paragraphStyle: style(alignment)])
        CTFrameDraw(frame(text, CGRect(x: 0, y: 0, width: 200, height: 40)), canvas.context)
        let ink = try #require(canvas.inkBox())
        switch alignment {
        case .left, .natural: #expect(ink.minX < 6, "\(ink)")
        case .right: #expect(ink.maxX > 192 && ink.minX > 100, "\(ink)")
        case .center: #expect(abs((ink.minX + ink.maxX) / 2 - 100) < 4, "\(ink)")
        case .justified: break
        }
    }

    @Test func naturalAlignmentOfRightToLeftTextIsRight() throws {
        let canvas = Canvas(width: 200, height: 40)
        CTFrameDraw(frame(attributed("مرحبا بالعالم"), CGRect(x: 0, y: 0, width: 200, height: 40)), canvas.context)
        let ink = try #require(canvas.inkBox())
        #expect(ink.maxX > 192 && ink.minX > 40, "\(ink)")
    }

    @Test func justifiedLinesReachBothEdgesButTheLast() throws {
        let font = CTFontCreateWithName("DejaVuSans" as CFString, 14, nil)
        let made = frame(
            attributed(Self.paragraph, font: font, extra: [.paragraphStyle: style(.justified)]),
            CGRect(x: 0, y: 0, width: 220, height: 400))
        let lines = CTFrameGetLines(made) as! [CTLine]
        try #require(lines.count >= 3)
        for line in lines.dropLast() {
            let visible = CTLineGetTypographicBounds(line, nil, nil, nil) - CTLineGetTrailingWhitespaceWidth(line)
            #expect(abs(visible - 220) < 1.5, "justified width \(visible)")
        }
        #expect(CTLineGetTypographicBounds(lines.last!, nil, nil, nil) < 200, "the last line is natural")
    }

    @Test func truncatingTailModeEndsEachLineWithAnEllipsis() throws {
        let text = attributed(Self.paragraph, extra: [.paragraphStyle: style(.natural, .byTruncatingTail)])
        let lines = CTFrameGetLines(frame(text, CGRect(x: 0, y: 0, width: 200, height: 200))) as! [CTLine]
        try #require(lines.count == 1)
        #expect(lines[0].attributedString.string.hasSuffix("\u{2026}"))
        #expect(CTLineGetTypographicBounds(lines[0], nil, nil, nil) <= 200)
    }

    @Test func theFlippedFramePatternMatchesTheGolden() throws {
        // The Core Text Programming Guide's pattern in a UIKit-style (y-down) context: identity text
        // matrix, flip the CTM, draw the frame; the paragraph reads upright from the top, centred.
        let canvas = Canvas(width: 260, height: 180)
        let context = canvas.context
        context.translateBy(x: 0, y: 180)
        context.scaleBy(x: 1, y: -1)
        // Now y down, as UIKit's drawing context; the pattern flips it back.
        context.textMatrix = .identity
        context.translateBy(x: 0, y: 180)
        context.scaleBy(x: 1, y: -1)
        let font = CTFontCreateWithName("Helvetica" as CFString, 15, nil)
        let text = NSMutableAttributedString(
            attributedString: attributed(Self.paragraph, font: font, extra: [.paragraphStyle: style(.center)]))
        text.addAttribute(
            .foregroundColor, value: CGColor(red: 0.8, green: 0.1, blue: 0.1, alpha: 1),
            range: NSRange(location: 0, length: 14))
        CTFrameDraw(frame(text, CGRect(x: 10, y: 10, width: 240, height: 160)), context)
        let ink = try #require(canvas.inkBox())
        #expect(ink.minY < 20, "the first line is at the top: \(ink)")
        let result = try ImageComparison(channelTolerance: 8, maxDifferingPixels: 30)
            .compare(canvas.image, goldenPath: LineTests.golden.appendingPathComponent("frame.png").path)
        #expect(result.matches, "against Golden/frame.png: \(result)")
    }

    @Test func typesettersSuggestBreaksBetweenWords() {
        let typesetter = CTTypesetterCreateWithAttributedString(attributed(Self.paragraph))
        let count = CTTypesetterSuggestLineBreak(typesetter, 0, 300)
        let prefix = (Self.paragraph as NSString).substring(to: count)
        #expect(prefix == "Core Animation draws ", "'\(prefix)'")
        let line = CTTypesetterCreateLine(typesetter, CFRange(location: 0, length: count))
        #expect(CTLineGetTypographicBounds(line, nil, nil, nil) - CTLineGetTrailingWhitespaceWidth(line) <= 300)
        let next = CTTypesetterCreateLine(typesetter, CFRange(location: count, length: 0))
        #expect(CTLineGetStringRange(next).location == count)
    }
}

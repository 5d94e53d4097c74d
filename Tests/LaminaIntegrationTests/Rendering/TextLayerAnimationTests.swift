import Foundation
import Lamina
import LaminaTesting
import Testing

/// The fixed fonts the text layer tests draw with (Tests/Fonts), installed once per process.
private enum IntegrationFonts {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fonts")

    private static let installed: Void = {
        let files = [
            "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "WenQuanYiMicroHei-Subset.ttf", "NotoColorEmoji-Subset.ttf",
        ]
        try! LaminaFonts.useOnly(
            fontFiles: files.map { folder.appendingPathComponent($0) }, defaultFamily: "DejaVu Sans")
    }()

    static func install() { _ = installed }
}

/// CATextLayer through a real laminad: its text on screen, and `fontSize` and `foregroundColor`
/// animating, explicitly and implicitly. Source: Apple's CATextLayer reference ("fontSize …
/// Animatable", "foregroundColor … Animatable"); implicit animation of both since macOS 10.6.
@Suite(.serialized) final class TextLayerAnimationTests: AnimationSuite {
    let server: TestServer
    static var displaySize: CGSize { CGSize(width: 240, height: 100) }

    init() throws {
        IntegrationFonts.install()
        server = try TestServer(width: 240, height: 100)
    }

    deinit {
        server.stop()
    }

    /// The layer's drawn contents' inked box height and the colour of its most opaque pixel.
    func drawn(_ layer: CALayer) -> (height: Int, color: [UInt8])? {
        guard let image = layer.contents as? CGImage else { return nil }
        var top = Int.max
        var bottom = -1
        var best: [UInt8] = [0, 0, 0, 0]
        for y in 0..<image.height {
            for x in 0..<image.width {
                let o = (y * image.width + x) * 4
                let a = image.premultipliedRGBA[o + 3]
                guard a > 40 else { continue }
                top = min(top, y)
                bottom = max(bottom, y)
                if a > best[3] { best = Array(image.premultipliedRGBA[o..<(o + 4)]) }
            }
        }
        return bottom < 0 ? nil : (bottom - top + 1, best)
    }

    @Test func textShowsOnScreenAndFontSizeAnimatesByRedrawing() throws {
        let context = try server.connect(name: "text-size")
        let text = CATextLayer()
        text.frame = CGRect(x: 10, y: 10, width: 220, height: 80)
        text.string = "H"
        text.fontSize = 20
        text.foregroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        try makeScene(context, [text])
        let still = try #require(drawn(text))
        let image = try context.capture()
        // Where the contents hold an opaque blue pixel, the screen shows blue at the layer's origin
        // (10, 10) plus that pixel.
        let contents = try #require(text.contents as? CGImage)
        let opaque = try #require(
            (0..<(contents.width * contents.height)).first { contents.premultipliedRGBA[$0 * 4 + 3] == 255 })
        expectPixel(
            image, 10 + opaque % contents.width, 10 + opaque / contents.width, (0, 0, 255), tolerance: 2,
            "an opaque pixel of the H")
        // An explicit animation from 20 to 80 points over 1000 s begun 500 s ago: about 50 points
        // now; the layer is redrawn from its presentation copy at each frame.
        let grow = CABasicAnimation(keyPath: "fontSize")
        grow.fromValue = 20
        grow.toValue = 80
        grow.duration = 1000
        grow.beginTime = text.convertTime(CACurrentMediaTime(), from: nil) - 500
        text.add(grow, forKey: "grow")
        CATransaction.flush()
        waitFor { (drawn(text)?.height ?? 0) > still.height * 2 }
        let presented = try #require(text.presentation()?.fontSize)
        #expect(presented > 49 && presented < 52, "presentation fontSize \(presented)")
        let during = try #require(drawn(text))
        #expect(
            during.height > still.height * 2 && during.height < still.height * 3, "\(still.height) → \(during.height)")
        #expect(text.fontSize == 20, "the model value is unchanged")
        text.removeAnimation(forKey: "grow")
        CATransaction.flush()
        waitFor { drawn(text)?.height == still.height }
        #expect(drawn(text)?.height == still.height)
        finish()
    }

    /// Where an opaque pixel of the layer's glyph coverage lies on screen (the layer at (10, 10), 1×).
    func opaqueGlyphPixel(_ layer: CALayer) throws -> (x: Int, y: Int) {
        let contents = try #require(layer.contents as? CGImage)
        let opaque = try #require(
            (0..<(contents.width * contents.height)).first { contents.premultipliedRGBA[$0 * 4 + 3] == 255 })
        return (10 + opaque % contents.width, 10 + opaque / contents.width)
    }

    @Test func foregroundColorAnimatesOnTheServersClockWithoutRedrawing() throws {
        let context = try server.connect(name: "text-color")
        let text = CountingTextLayer()
        text.frame = CGRect(x: 10, y: 10, width: 220, height: 80)
        text.string = "HH"
        text.fontSize = 40
        text.foregroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        try makeScene(context, [text])
        let draws = text.draws
        // Properties set before the first commit run no action (no implicit fontSize animation).
        #expect(draws == 1 && text.animationKeys() == nil)
        let (x, y) = try opaqueGlyphPixel(text)
        expectPixel(try context.capture(), x, y, (255, 0, 0), tolerance: 2, "the H in red")
        // Red to blue over 1 s from t0 (linear): at t0 + 0.25 (0.75, 0, 0.25), at t0 + 0.5 (0.5, 0, 0.5),
        // interpolated on unpremultiplied components and drawn on 8-bit steps.
        let fade = CABasicAnimation(keyPath: "foregroundColor")
        fade.fromValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        fade.toValue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        fade.duration = 1
        let t0 = text.convertTime(CACurrentMediaTime(), from: nil) + 10
        fade.beginTime = t0
        text.add(fade, forKey: "fade")
        try context.synchronize()
        expectPixel(try context.capture(at: t0 + 0.25), x, y, (191, 0, 64), tolerance: 2, "a quarter of the way")
        expectPixel(try context.capture(at: t0 + 0.5), x, y, (127, 0, 127), tolerance: 2, "half way")
        expectPixel(try context.capture(at: t0 + 2), x, y, (255, 0, 0), tolerance: 2, "removed on completion")
        #expect(text.draws == draws, "an explicit colour animation draws nothing on the client")
        text.removeAnimation(forKey: "fade")
        try context.synchronize()
        // Implicit animations: setting either key on a committed layer adds a basic animation from
        // the value on screen to the new one, as for the built-in animatable properties. The colour's
        // runs on the server, drawing nothing; the size's redraws the layer.
        let before = CACurrentMediaTime()
        CATransaction.begin()
        CATransaction.setAnimationDuration(100)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        text.foregroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        CATransaction.commit()
        try context.synchronize()
        #expect(text.draws == draws, "an implicit colour animation draws nothing on the client")
        let color = try #require(text.animation(forKey: "foregroundColor") as? CABasicAnimation)
        #expect((color.fromValue as? CGColor)?.components == [1, 0, 0, 1] && color.duration == 100)
        // It begins at the commit, a moment after `before`; linear, it is half way at 50 s.
        let half = try context.capture(at: before + 50)
        let o = (y * half.width + x) * 4
        let (r, g, b) = (half.premultipliedRGBA[o], half.premultipliedRGBA[o + 1], half.premultipliedRGBA[o + 2])
        #expect(abs(Int(r) - 127) <= 3 && abs(Int(g) - 128) <= 3 && b == 0, "red to green half way: \(r) \(g) \(b)")
        #expect(text.presentation()?.foregroundColor != nil)
        CATransaction.begin()
        CATransaction.setAnimationDuration(100)
        text.fontSize = 60
        CATransaction.commit()
        let size = try #require(text.animation(forKey: "fontSize") as? CABasicAnimation)
        #expect((size.fromValue as? CGFloat) == 40 && size.duration == 100)
        let presented = try #require(text.presentation())
        #expect(presented.fontSize >= 40 && presented.fontSize < 45, "just begun: \(presented.fontSize)")
        #expect(text.fontSize == 60)
        // With actions disabled, no animation.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        text.removeAllAnimations()
        text.fontSize = 30
        CATransaction.commit()
        #expect(text.animation(forKey: "fontSize") == nil)
        finish()
    }

    @Test func aTurnedTextLayerIsTintedToo() throws {
        // Under a rotation the contents take the general textured path (anti-aliased edges), which
        // tints as the axis-aligned one does: white coverage on the white root would be invisible,
        // blue glyphs are not.
        let context = try server.connect(name: "text-turned")
        let text = CATextLayer()
        text.frame = CGRect(x: 40, y: 20, width: 160, height: 60)
        text.string = "HH"
        text.fontSize = 40
        text.foregroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        text.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        try makeScene(context, [text])
        let image = try context.capture()
        let pixels = image.premultipliedRGBA
        let blue = (0..<(image.width * image.height)).filter {
            pixels[$0 * 4] < 40 && pixels[$0 * 4 + 1] < 40 && pixels[$0 * 4 + 2] > 215
        }
        #expect(blue.count > 100, "\(blue.count) blue pixels")
        finish()
    }

    @Test func anAttributedStringIsShownInItsOwnColours() throws {
        // CATextLayer reference: foregroundColor is used only when string is not attributed.
        let context = try server.connect(name: "text-attributed")
        let text = CATextLayer()
        text.frame = CGRect(x: 10, y: 10, width: 220, height: 80)
        text.string = NSAttributedString(
            string: "HH",
            attributes: [
                .font: CTFontCreateWithName("Helvetica" as CFString, 40, nil),
                .foregroundColor: CGColor(red: 0, green: 0.6, blue: 0, alpha: 1),
            ])
        text.foregroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        try makeScene(context, [text])
        let (x, y) = try opaqueGlyphPixel(text)
        expectPixel(try context.capture(), x, y, (0, 153, 0), tolerance: 2, "the attributed green, untinted")
        finish()
    }
}

/// A text layer that counts its drawings (`draw(in:)` runs once per display of its backing store).
final class CountingTextLayer: CATextLayer {
    var draws = 0

    override func draw(in ctx: CGContext) {
        draws += 1
        super.draw(in: ctx)
    }
}

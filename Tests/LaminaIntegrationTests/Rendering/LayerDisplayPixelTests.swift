import Foundation
import Lamina
import LaminaTesting
import Testing

// Layer drawing through a real laminad (issue 11, point 4): the display pass of a commit runs after
// layout and before encoding, so drawn contents travel in the same commit; E04's arch on screen; a
// custom animatable property redrawn at every frame from the presentation copy.

/// E04's delegate: strokes the arch in the layer's coordinates with the default (black) colour.
private final class ArchDrawer: NSObject, CALayerDelegate, @unchecked Sendable {
    func draw(_ layer: CALayer, in ctx: CGContext) {
        ctx.move(to: CGPoint(x: 15, y: 15))
        ctx.addCurve(to: CGPoint(x: 295, y: 15), control1: CGPoint(x: 15, y: 250), control2: CGPoint(x: 295, y: 250))
        ctx.setLineWidth(5)
        ctx.strokePath()
    }
}

/// Fills its bounds green and records the bounds it drew.
private final class BoundsFill: CALayer, @unchecked Sendable {
    var drawnBounds: [CGRect] = []
    override func draw(in ctx: CGContext) {
        drawnBounds.append(bounds)
        ctx.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
        ctx.fill(bounds)
    }
}

/// A custom animatable property: a blue bar `progress` points wide from the left edge.
private final class ProgressBar: CALayer, @unchecked Sendable {
    override class func needsDisplay(forKey key: String) -> Bool {
        key == "progress" || super.needsDisplay(forKey: key)
    }

    override func draw(in ctx: CGContext) {
        let progress = value(forKey: "progress") as? CGFloat ?? 0
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: progress, height: bounds.height))
    }
}

@Suite(.serialized) final class LayerDisplayPixelTests: AnimationSuite {
    let server: TestServer
    static var displaySize: CGSize { CGSize(width: 320, height: 280) }

    init() throws {
        server = try TestServer(width: 320, height: 280)
    }

    deinit {
        server.stop()
    }

    @Test func e04ArchShowsAtTheLayersPosition() throws {
        // E04 (CALayerDelegate drawLayer:inContext:): the stroked curve is the layer's contents, shown
        // where the layer is. The layer's frame starts at (5, 5), so the curve's point at t = 0.5,
        // (155, 191.25) in the layer, covers device pixel (160, 196); 10 points above or below it,
        // and inside the arch, the white root shows.
        let context = try server.connect(name: "e04")
        let delegate = ArchDrawer()
        let arch = CALayer()
        arch.frame = CGRect(x: 5, y: 5, width: 310, height: 270)
        arch.delegate = delegate
        arch.setNeedsDisplay()
        try makeScene(context, [arch])
        let image = try context.capture()
        expectPixel(image, 160, 196, (0, 0, 0), tolerance: 2, "on the curve at t = 0.5")
        expectPixel(image, 20, 21, (0, 0, 0), tolerance: 2, "near its start (15, 15)")
        expectPixel(image, 160, 206, (255, 255, 255), tolerance: 0, "below the curve")
        expectPixel(image, 160, 186, (255, 255, 255), tolerance: 0, "above the curve")
        expectPixel(image, 160, 100, (255, 255, 255), tolerance: 0, "inside the arch")
        finish()
    }

    @Test func displayRunsAfterLayoutInTheSameCommit() throws {
        // Core Animation's commit: layout, then display, then encoding. The layer has no size until
        // layout gives it one: autoresizing adds the root's growth from 10 × 10 to 40 × 30, so 30 × 20
        // (with needsDisplayOnBoundsChange). Its drawing at that size reaches the server in that one
        // commit (the transaction lock keeps other commits out), and the capture shows it.
        let context = try server.connect(name: "display-after-layout")
        let fill = BoundsFill()
        fill.needsDisplayOnBoundsChange = true
        fill.autoresizingMask = [.layerWidthSizable, .layerHeightSizable]
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        root.backgroundColor = Self.white
        root.addSublayer(fill)
        CATransaction.lock()
        context.layer = root
        CATransaction.flush()
        CATransaction.unlock()
        #expect(fill.drawnBounds.isEmpty, "a zero-sized layer draws nothing")
        CATransaction.lock()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        CATransaction.commit()
        CATransaction.unlock()
        #expect(fill.drawnBounds == [CGRect(x: 0, y: 0, width: 30, height: 20)])
        let tree = try context.describeTree()
        #expect(tree.contains("contents="), "the drawing is in the committed tree:\n\(tree)")
        let image = try context.capture()
        expectPixel(image, 0, 0, (0, 255, 0), tolerance: 0, "the fill's top-left pixel")
        expectPixel(image, 29, 19, (0, 255, 0), tolerance: 0, "the fill's bottom-right pixel")
        expectPixel(image, 30, 10, (255, 255, 255), tolerance: 0, "the root right of the fill")
        expectPixel(image, 10, 20, (255, 255, 255), tolerance: 0, "the root below the fill")
        expectPixel(image, 40, 10, (0, 0, 0), tolerance: 0, "outside the root")
        finish()
    }

    @Test func renderInContextDrawsTheSubtreeAlone() throws {
        // CALayer.renderInContext: docs: "Renders the layer and its sublayers into the specified
        // context. This method renders directly from the layer tree, ignoring any animations added to
        // the render tree. Renders in the coordinate space of the layer." A red 64 × 64 layer at
        // position (100, 50), rotated 30°, with a blue 16 × 16 sublayer at (8, 40), over a green
        // sibling, both layers animated: rendered into a 64 × 64 context flipped to y down (as UIKit's
        // image contexts are), every pixel is the red layer, unrotated, with the blue sublayer upright
        // at (8, 40)–(23, 55), both at their model values; nothing of the green sibling or the root.
        let context = try server.connect(name: "render-in-context")
        let green = CALayer()
        green.frame = CGRect(x: 50, y: 0, width: 100, height: 100)
        green.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        let card = CALayer()
        card.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
        card.position = CGPoint(x: 100, y: 50)
        card.transform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        card.backgroundColor = Self.red
        let dot = CALayer()
        dot.frame = CGRect(x: 8, y: 40, width: 16, height: 16)
        dot.backgroundColor = Self.blue
        card.addSublayer(dot)
        let yellow = CABasicAnimation(keyPath: "backgroundColor")
        yellow.fromValue = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
        yellow.toValue = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
        yellow.duration = 1000
        card.add(yellow, forKey: "yellow")
        dot.add(Self.move(from: 300, to: 300, begin: 0, duration: 1000), forKey: "move")
        try makeScene(context, [green, card])
        // The animation runs: the display shows the card's centre yellow.
        expectPixel(try context.capture(), 100, 50, (255, 255, 0), tolerance: 0, "the animated card on screen")

        let ctx = try #require(
            CGContext(
                data: nil, width: 64, height: 64, bitsPerComponent: 8, bytesPerRow: 0,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        ctx.translateBy(x: 0, y: 64)
        ctx.scaleBy(x: 1, y: -1)
        card.render(in: ctx)
        let image = try #require(ctx.makeImage())
        for y in 0..<64 {
            for x in 0..<64 {
                let inDot = (8..<24).contains(x) && (40..<56).contains(y)
                expectPixel(
                    image, x, y, inDot ? (0, 0, 255, 255) : (255, 0, 0, 255), tolerance: 0,
                    inDot ? "the sublayer at its model place" : "the card's model colour, unrotated")
            }
        }
        finish()
    }

    @Test func renderInContextFollowsTheContextScaleAndBoundsOrigin() throws {
        // CALayer.renderInContext: docs: renders in the coordinate space of the layer, so the
        // bounds' origin (10, 20) lands at the context's user-space (10, 20). A red 20 × 16 layer with
        // a blue 4 × 4 sublayer at (12, 24) in its space, into a 64 × 64 context flipped to y down and
        // scaled by 2: the layer covers device pixels (20, 40)–(59, 71) clipped to the context, the
        // sublayer (24, 48)–(31, 55); the context's top-left stays transparent.
        let context = try server.connect(name: "render-in-context-scaled")
        let card = CALayer()
        card.bounds = CGRect(x: 10, y: 20, width: 20, height: 16)
        card.position = CGPoint(x: 200, y: 200)
        card.backgroundColor = Self.red
        let dot = CALayer()
        dot.frame = CGRect(x: 12, y: 24, width: 4, height: 4)
        dot.backgroundColor = Self.blue
        card.addSublayer(dot)
        try makeScene(context, [card])
        let ctx = try #require(
            CGContext(
                data: nil, width: 64, height: 64, bitsPerComponent: 8, bytesPerRow: 0,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        ctx.translateBy(x: 0, y: 64)
        ctx.scaleBy(x: 2, y: -2)
        card.render(in: ctx)
        let image = try #require(ctx.makeImage())
        expectPixel(image, 19, 40, (0, 0, 0, 0), tolerance: 0, "left of the layer")
        expectPixel(image, 20, 39, (0, 0, 0, 0), tolerance: 0, "above the layer")
        expectPixel(image, 20, 40, (255, 0, 0, 255), tolerance: 0, "the layer's top-left pixel")
        expectPixel(image, 59, 63, (255, 0, 0, 255), tolerance: 0, "the layer's right edge at the bottom row")
        expectPixel(image, 60, 50, (0, 0, 0, 0), tolerance: 0, "right of the layer")
        expectPixel(image, 24, 48, (0, 0, 255, 255), tolerance: 0, "the sublayer's top-left pixel")
        expectPixel(image, 31, 55, (0, 0, 255, 255), tolerance: 0, "the sublayer's bottom-right pixel")
        expectPixel(image, 32, 56, (255, 0, 0, 255), tolerance: 0, "the layer past the sublayer")
        finish()
    }

    @Test func renderInContextOfAnExportedContextDrawsItsLayer() throws {
        // CALayer.renderInContext: docs: renders the layer and its sublayers. A context that exported
        // itself (shown only inside host layers) still renders its own layer: a red 8 × 8 layer fills
        // an 8 × 8 context.
        let context = try server.connect(name: "render-exported")
        let card = CALayer()
        card.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
        card.backgroundColor = Self.red
        try makeScene(context, [card])
        _ = try context.exportToken()
        let ctx = try #require(
            CGContext(
                data: nil, width: 8, height: 8, bitsPerComponent: 8, bytesPerRow: 0,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        card.render(in: ctx)
        let image = try #require(ctx.makeImage())
        expectPixel(image, 0, 0, (255, 0, 0, 255), tolerance: 0, "the layer's top-left pixel")
        expectPixel(image, 7, 7, (255, 0, 0, 255), tolerance: 0, "the layer's bottom-right pixel")
        finish()
    }

    @Test func renderInContextOfALayerInNoContextDrawsIt() throws {
        // Apple (GNUstep's QuartzCore tests run on macOS, issue 24): render(in:) draws a layer that
        // belongs to no context, the usual case of building a layer to make an image. Lamina draws it
        // in the client, with a server running or not, and reports nothing.
        let recorder = DiagnosticsRecorder()
        defer { recorder.stop() }
        let card = CALayer()
        card.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
        card.backgroundColor = Self.red
        let ctx = try #require(
            CGContext(
                data: nil, width: 8, height: 8, bitsPerComponent: 8, bytesPerRow: 0,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        card.render(in: ctx)
        let image = try #require(ctx.makeImage())
        expectPixel(image, 0, 0, (255, 0, 0, 255), tolerance: 0, "the layer's top-left pixel")
        expectPixel(image, 7, 7, (255, 0, 0, 255), tolerance: 0, "the layer's bottom-right pixel")
        #expect(recorder.diagnostics.filter { $0.message.contains("render(in:)") }.isEmpty)
        finish()
    }

    @Test func customPropertyRedrawsFromThePresentationValue() throws {
        // CALayer.needsDisplayForKey: (custom animatable properties): while an animation of the key
        // runs, the layer is redrawn at every frame with the in-flight value (on Apple platforms in
        // the app's process, as here). A linear animation of `progress` from 0 to 200 over 1000 s,
        // begun 500 s ago, is at 100 + 0.2 per second of the test; the model value is 20. The bar
        // drawn from the presentation copy is ~100 wide; after removal, 20 again.
        let context = try server.connect(name: "custom-property")
        let bar = ProgressBar()
        bar.frame = CGRect(x: 0, y: 10, width: 300, height: 20)
        bar.setValue(CGFloat(20), forKey: "progress")
        try makeScene(context, [bar])
        let before = try context.capture()
        expectPixel(before, 19, 20, (0, 0, 255), tolerance: 0, "model bar's last column")
        expectPixel(before, 20, 20, (255, 255, 255), tolerance: 0, "past the model bar")

        let grow = CABasicAnimation(keyPath: "progress")
        grow.fromValue = 0
        grow.toValue = 200
        grow.duration = 1000
        grow.beginTime = bar.convertTime(CACurrentMediaTime(), from: nil) - 500
        bar.add(grow, forKey: "grow")
        CATransaction.flush()
        func barEnd() -> Int? {
            guard let image = bar.contents as? CGImage else { return nil }
            return (0..<image.width).last { image.pixel(x: $0, y: 10).blue == 255 }
        }
        waitFor { (barEnd() ?? 0) >= 99 }
        let end = try #require(barEnd())
        #expect((99...103).contains(end), "bar ends at column \(end)")
        // The same drawing, through the server, at a media time of our choosing.
        let during = try context.capture(at: CACurrentMediaTime())
        expectPixel(during, 98, 20, (0, 0, 255), tolerance: 0, "presentation bar")
        expectPixel(during, 105, 20, (255, 255, 255), tolerance: 0, "past the presentation bar")
        #expect(bar.value(forKey: "progress") as? CGFloat == 20, "the model value is unchanged")

        bar.removeAnimation(forKey: "grow")
        CATransaction.flush()
        waitFor { barEnd() == 19 }
        #expect(barEnd() == 19)
        let after = try context.capture(at: CACurrentMediaTime())
        expectPixel(after, 19, 20, (0, 0, 255), tolerance: 0, "model bar again")
        expectPixel(after, 20, 20, (255, 255, 255), tolerance: 0, "past the model bar again")
        finish()
    }
}

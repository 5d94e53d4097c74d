import Foundation
import Testing

@testable import Lamina
@testable import LaminaProtocol

// Layer drawing (issue 11, point 4): display(), draw(in:), the delegate's display(_:) and
// draw(_:in:), setNeedsDisplay and its partial form, the backing store, needsDisplay(forKey:) and
// custom keys. Each test names the Apple behaviour it checks and where Apple documents it.

/// A delegate for E03/E04: it counts its calls and displays or draws as configured.
private final class DrawingDelegate: NSObject, CALayerDelegate {
    var displays = 0
    var draws = 0
    var willDraws = 0
    var showYes = true
    let yes = CGImage(width: 1, height: 1, premultipliedRGBA: [255, 0, 0, 255])!
    let no = CGImage(width: 1, height: 1, premultipliedRGBA: [0, 0, 255, 255])!

    func display(_ layer: CALayer) {
        displays += 1
        layer.contents = showYes ? yes : no
    }

    func draw(_ layer: CALayer, in ctx: CGContext) {
        draws += 1
    }
}

/// A delegate that only draws: E04's arch, or a fill whose colour changes at every call.
private final class ArchDelegate: NSObject, CALayerDelegate {
    var draws = 0
    var willDraws = 0
    var fillsInstead = false

    func draw(_ layer: CALayer, in ctx: CGContext) {
        draws += 1
        if fillsInstead {
            // Red the first time, blue afterwards.
            ctx.setFillColor(red: draws == 1 ? 1 : 0, green: 0, blue: draws == 1 ? 0 : 1, alpha: 1)
            ctx.fill(layer.bounds)
            return
        }
        ctx.beginPath()
        ctx.move(to: CGPoint(x: 15, y: 15))
        ctx.addCurve(to: CGPoint(x: 295, y: 15), control1: CGPoint(x: 15, y: 250), control2: CGPoint(x: 295, y: 250))
        ctx.setLineWidth(5)
        ctx.strokePath()
    }

    func layerWillDraw(_ layer: CALayer) { willDraws += 1 }
}

/// A layer subclass that draws a bar `progress` points wide, from the left, in its whole height.
private final class BarLayer: CALayer {
    var draws = 0
    var progress: CGFloat {
        get { value(forKey: "progress") as? CGFloat ?? 0 }
        set { setValue(newValue, forKey: "progress") }
    }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "progress" || key == "cornerRadius" || super.needsDisplay(forKey: key)
    }

    override func draw(in ctx: CGContext) {
        draws += 1
        ctx.setFillColor(red: 0, green: 0.5, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: progress, height: bounds.height))
    }
}

private func pixel(_ layer: CALayer, _ x: Int, _ y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)? {
    (layer.contents as? CGImage)?.pixel(x: x, y: y)
}

@Suite("CALayer display and drawing")
struct LayerDisplayTests {
    @Test(arguments: [true, false])
    func e03DelegateDisplayWinsOverDraw(showYes: Bool) throws {
        // E03; CALayerDelegate docs (displayLayer:): "If the delegate implements this method, the layer
        // does not call drawLayer:inContext:". The image the delegate chooses becomes the contents.
        let delegate = DrawingDelegate()
        delegate.showYes = showYes
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        layer.delegate = delegate
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        #expect(delegate.displays == 1 && delegate.draws == 0)
        let image = try #require(layer.contents as? CGImage)
        #expect(image === (showYes ? delegate.yes : delegate.no))
    }

    @Test func e04DelegateStrokesTheArchIntoTheBackingStore() throws {
        // E04; CALayer.display / drawInContext: docs: the layer makes the backing store and hands
        // the delegate a context in its coordinates (iOS: origin top left). The cubic from (15, 15)
        // with controls (15, 250) and (295, 250) to (295, 15) passes at t = 0.5 through
        // 0.125·P0 + 0.375·P1 + 0.375·P2 + 0.125·P3 = (155, 191.25); a 5-point line covers
        // y 188.75…193.75 there.
        let delegate = ArchDelegate()
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 310, height: 270)
        layer.delegate = delegate
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        let image = try #require(layer.contents as? CGImage)
        #expect(image.width == 310 && image.height == 270)
        #expect(delegate.draws == 1 && delegate.willDraws == 1)
        // The default stroke colour is opaque black.
        let onCurve = image.pixel(x: 155, y: 191)
        #expect(onCurve.alpha == 255 && onCurve.red == 0 && onCurve.green == 0 && onCurve.blue == 0)
        // The ends, at the top: (15, 15) and (295, 15) are on the line.
        #expect(image.pixel(x: 15, y: 16).alpha == 255)
        #expect(image.pixel(x: 294, y: 16).alpha == 255)
        // Under the arch, above it at the middle, and in the far corner: nothing.
        #expect(image.pixel(x: 155, y: 100).alpha == 0)
        #expect(image.pixel(x: 155, y: 200).alpha == 0)
        #expect(image.pixel(x: 155, y: 20).alpha == 0)
        #expect(image.pixel(x: 5, y: 265).alpha == 0)
    }

    @Test(arguments: [(1.0, 30, 20), (2.0, 60, 40), (1.5, 45, 30)])
    func backingStoreIsBoundsTimesContentsScale(scale: Double, width: Int, height: Int) throws {
        // CALayer.contentsScale docs: the backing store has contentsScale pixels per point, and the
        // drawing is scaled to match; so a fill of the bounds covers every pixel.
        let delegate = ArchDelegate()
        delegate.fillsInstead = true
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 30, height: 20)
        layer.contentsScale = CGFloat(scale)
        layer.delegate = delegate
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        let image = try #require(layer.contents as? CGImage)
        #expect(image.width == width && image.height == height)
        #expect(image.pixel(x: width - 1, y: height - 1) == (255, 0, 0, 255))
        #expect(image.pixel(x: 0, y: 0) == (255, 0, 0, 255))
    }

    @Test func fractionalSizesRoundUp() throws {
        // The store holds the whole bounds: 10.2 × 3.5 points at scale 2 are 20.4 × 7 pixels → 21 × 7.
        let delegate = ArchDelegate()
        delegate.fillsInstead = true
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10.2, height: 3.5)
        layer.contentsScale = 2
        layer.delegate = delegate
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        let image = try #require(layer.contents as? CGImage)
        #expect(image.width == 21 && image.height == 7)
    }

    @Test func partialRedrawKeepsTheRestOfTheBackingStore() throws {
        // CALayer.setNeedsDisplayInRect: docs: only the rectangle is marked; the context handed to
        // drawing is clipped to it, and the rest of the store keeps its pixels. The delegate fills
        // the whole bounds red the first time and blue the second.
        let delegate = ArchDelegate()
        delegate.fillsInstead = true
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 30)
        layer.delegate = delegate
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        #expect(pixel(layer, 12, 12)! == (255, 0, 0, 255))
        layer.setNeedsDisplay(CGRect(x: 10, y: 10, width: 5, height: 4))
        #expect(layer.needsDisplay())
        layer.displayIfNeeded()
        #expect(delegate.draws == 2)
        let image = try #require(layer.contents as? CGImage)
        for y in 0..<30 {
            for x in 0..<40 {
                let inside = (10..<15).contains(x) && (10..<14).contains(y)
                #expect(image.pixel(x: x, y: y) == (inside ? (0, 0, 255, 255) : (255, 0, 0, 255)), "(\(x), \(y))")
            }
        }
    }

    @Test func partialRectsJoinAndAWholeMarkWins() throws {
        // Two rectangles redraw their union; setNeedsDisplay() after a rectangle redraws everything.
        let delegate = ArchDelegate()
        delegate.fillsInstead = true
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 30)
        layer.delegate = delegate
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        layer.setNeedsDisplay(CGRect(x: 0, y: 0, width: 2, height: 2))
        layer.setNeedsDisplay(CGRect(x: 8, y: 8, width: 2, height: 2))
        layer.displayIfNeeded()
        #expect(pixel(layer, 5, 5)! == (0, 0, 255, 255))
        #expect(pixel(layer, 20, 20)! == (255, 0, 0, 255))
        layer.setNeedsDisplay(CGRect(x: 0, y: 0, width: 1, height: 1))
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        #expect(pixel(layer, 39, 29)! == (0, 0, 255, 255))
        // An empty rectangle marks nothing.
        layer.setNeedsDisplay(.zero)
        #expect(!layer.needsDisplay())
    }

    @Test func displayIfNeededClearsTheMarkAndDrawsOnce() {
        // CALayer.displayIfNeeded / needsDisplay docs: display happens only when marked, and the mark
        // is cleared by displaying.
        let delegate = ArchDelegate()
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.delegate = delegate
        #expect(!layer.needsDisplay())
        layer.displayIfNeeded()
        #expect(delegate.draws == 0)
        layer.setNeedsDisplay()
        #expect(layer.needsDisplay())
        layer.displayIfNeeded()
        #expect(!layer.needsDisplay() && delegate.draws == 1)
        layer.displayIfNeeded()
        #expect(delegate.draws == 1)
    }

    @Test func boundsChangesRedrawOnlyWithNeedsDisplayOnBoundsChange() {
        // CALayer.needsDisplayOnBoundsChange docs: default NO; when YES, a bounds change marks the
        // layer. Without it the cached contents are stretched (spec §10.1).
        let layer = CALayer()
        #expect(layer.needsDisplayOnBoundsChange == false)
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.frame = CGRect(x: 0, y: 0, width: 30, height: 10)
        #expect(!layer.needsDisplay())
        layer.needsDisplayOnBoundsChange = true
        layer.bounds = CGRect(x: 0, y: 0, width: 50, height: 10)
        #expect(layer.needsDisplay())
        layer.displayIfNeeded()
        // The same bounds again is no change.
        layer.bounds = CGRect(x: 0, y: 0, width: 50, height: 10)
        #expect(!layer.needsDisplay())
        layer.frame = CGRect(x: 5, y: 5, width: 20, height: 20)
        #expect(layer.needsDisplay())
    }

    @Test func aLayerNobodyDrawsGetsNoBackingStore() {
        // CALayer.display docs: the default draws only through drawInContext: or the delegate; a
        // plain layer marked for display gets no contents (Core Animation allocates no store).
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        #expect(layer.contents == nil && !layer.needsDisplay())
        // A delegate that implements neither method: the same.
        let delegate = NoDrawingDelegate()
        layer.delegate = delegate
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        #expect(layer.contents == nil)
    }

    @Test func aSubclassDrawInContextFillsTheStore() throws {
        // CALayer.drawInContext: docs: subclasses override it to draw; the layer makes the store.
        let layer = BarLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 4)
        layer.progress = 10
        layer.displayIfNeeded()
        #expect(layer.draws == 1)
        let image = try #require(layer.contents as? CGImage)
        #expect(image.pixel(x: 9, y: 3) == (0, 128, 0, 255))
        #expect(image.pixel(x: 10, y: 3) == (0, 0, 0, 0))
    }

    @Test func needsDisplayForKeyMarksOnChange() {
        // CALayer.needsDisplayForKey: docs: false by default; a subclass returns true for keys whose
        // change must redraw the layer, custom (dynamic) properties or built-in ones.
        #expect(CALayer.needsDisplay(forKey: "progress") == false)
        #expect(CALayer.needsDisplay(forKey: "bounds") == false)
        let layer = BarLayer()
        layer.displayIfNeeded()
        layer.progress = 3
        #expect(layer.needsDisplay())
        layer.displayIfNeeded()
        layer.cornerRadius = 2
        #expect(layer.needsDisplay())
        layer.displayIfNeeded()
        layer.opacity = 0.5
        layer.setValue(1, forKey: "other")
        #expect(!layer.needsDisplay())
        // A plain layer's custom key does not mark it.
        let plain = CALayer()
        plain.setValue(1, forKey: "progress")
        #expect(!plain.needsDisplay())
    }

    @Test func drawingDefaults() {
        // CALayer.h: drawsAsynchronously NO, contentsFormat kCAContentsFormatRGBA8Uint.
        let layer = CALayer()
        #expect(layer.drawsAsynchronously == false && layer.contentsFormat == .RGBA8Uint)
    }

    @Test func drawContextIsFlippedAndClippedToTheDirtyRect() throws {
        // The context drawInContext: receives on iOS: user space = bounds in points with the origin at
        // the top left (CTM (s, 0, 0, −s, −s·x, h·s + s·y) for bounds origin (x, y)), and for a
        // partial redraw its clip bounding box is the dirty rectangle.
        final class Probe: CALayer {
            var ctm: CGAffineTransform?
            var clip: CGRect?
            override func draw(in ctx: CGContext) {
                ctm = ctx.ctm
                clip = ctx.boundingBoxOfClipPath
                ctx.fill(bounds)
            }
        }
        let layer = Probe()
        layer.bounds = CGRect(x: 5, y: 7, width: 20, height: 10)
        layer.contentsScale = 2
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        let t = try #require(layer.ctm)
        #expect(t.a == 2 && t.b == 0 && t.c == 0 && t.d == -2 && t.tx == -10 && t.ty == 34)
        layer.setNeedsDisplay(CGRect(x: 6, y: 8, width: 3, height: 4))
        layer.displayIfNeeded()
        #expect(layer.clip == CGRect(x: 6, y: 8, width: 3, height: 4))
    }

    @Test func customKeyValuesEvaluateOnTheClient() throws {
        // CALayer.needsDisplayForKey: docs (custom animatable properties): a subclass's own key
        // animates with the animation classes; the presentation copy carries the in-flight value.
        // Here a linear basic animation from 0 to 100 over 10 s, begun at layer time 1000, is at 50
        // at 1005, a keyframe one on a point key at its middle value, both in the model's type.
        let layer = BarLayer()
        layer.progress = 20
        layer.setValue(CGPoint(x: 1, y: 1), forKey: "spot")
        let anim = CABasicAnimation(keyPath: "progress")
        anim.fromValue = 0
        anim.toValue = 100
        anim.duration = 10
        anim.beginTime = 1000
        layer.add(anim, forKey: "p")
        let frames = CAKeyframeAnimation(keyPath: "spot")
        frames.values = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 20), CGPoint(x: 30, y: 40)]
        frames.duration = 10
        frames.beginTime = 1000
        layer.add(frames, forKey: "s")
        #expect(layer.animationKeys() == ["p", "s"])
        for entry in layer.attachedAnimations { entry.committed = true }
        layer.hasBeenCommitted = true
        let presented = try #require(layer.presentation(at: 1005) as? BarLayer)
        #expect(presented.value(forKey: "progress") as? CGFloat == 50)
        #expect(presented.progress == 50)
        #expect(presented.value(forKey: "spot") as? CGPoint == CGPoint(x: 10, y: 20))
        // The model keeps its value; before the animation starts the presentation shows the model.
        #expect(layer.progress == 20)
        #expect((layer.presentation(at: 999) as? BarLayer)?.progress == 20)
        for entry in layer.attachedAnimations { LayerAnimation.registry[entry.id] = nil }
    }

    @Test func customKeyAnimationsNeedAType() {
        // An animation of a custom key with no value, on a layer with no value for it, cannot be typed:
        // it is refused with a diagnostic (Apple raises no error but animates nothing visible).
        let layer = BarLayer()
        let anim = CABasicAnimation(keyPath: "nothingHere")
        layer.add(anim, forKey: "x")
        #expect(layer.animationKeys() == nil)
        // With a model value, a values-less animation is typed by it.
        layer.setValue(CGFloat(3), forKey: "nothingHere")
        layer.add(anim, forKey: "x")
        #expect(layer.animationKeys() == ["x"])
        for entry in layer.attachedAnimations { LayerAnimation.registry[entry.id] = nil }
    }

    @Test func customKeyTargetsCrossTheWire() throws {
        // docs/protocol.md, animation records: a custom key is property code 0, its values' kind and
        // the key; the server decodes it as a target it times but never applies.
        let target = PropertyTarget(keyPath: LayerKeyPath.customStandIn(for: .number)!, customKey: "progress")
        let record = AnimationRecord(
            timing: MediaTiming(beginTime: 1, duration: 2),
            content: .basic(target, BasicValues(from: .number(0), to: .number(5), by: nil)))
        let message = ClientMessage.commit(
            serial: 1, operations: [.addAnimation(7, AttachedAnimation(id: 3, key: "p", record: record))])
        let decoded = try MessageCodec.decodeClient(MessageCodec.encode(message))
        guard case .commit(1, let ops) = decoded, case .addAnimation(7, let back) = ops.first else {
            Issue.record("decoded \(decoded)")
            return
        }
        #expect(back.record == record)
        #expect(back.record.invalidReason == nil)
        // The server's evaluation leaves every property alone.
        var state = LayerState()
        back.record.apply(to: &state, parentTime: 2)
        #expect(state == LayerState())
        // A kind no key can hold is refused, naming the field.
        var bytes = MessageCodec.encode(message)
        let key = Array("progress".utf8)
        // The key is preceded by its 4-byte length, and that by the kind.
        let keyOffset = try #require(
            (0..<(bytes.count - key.count)).first { Array(bytes[$0..<($0 + key.count)]) == key })
        let kindOffset = keyOffset - 5
        #expect(bytes[kindOffset] == AnimationValue.Kind.number.rawValue)
        bytes[kindOffset] = AnimationValue.Kind.vector.rawValue
        #expect(throws: WireError.badValue(field: "addAnimation.animation.target.customKind")) {
            try MessageCodec.decodeClient(bytes)
        }
    }

    @Test func animatingADisplayKeyRedrawsAtEachFrameUntilItEnds() {
        // CALayer.needsDisplayForKey: docs: while an animation of such a key runs, the layer is
        // redisplayed at every frame. Lamina keeps the layer in its per-frame list (frame events on)
        // while the animation is attached and not over, marks it at each frame, and after the
        // animation is removed marks it once more (to draw the model value) and lets it go.
        let layer = BarLayer()
        layer.progress = 4
        layer.displayIfNeeded()
        let inList = {
            CATransaction.state.lock.withLock { LayerDisplayQueue.state.animated.contains { $0.layer === layer } }
        }
        let plain = CABasicAnimation(keyPath: "opacity")
        plain.toValue = 0.5
        layer.add(plain, forKey: "fade")
        #expect(!inList(), "opacity does not need display for this class")
        let grow = CABasicAnimation(keyPath: "progress")
        grow.toValue = 10
        grow.duration = 100
        layer.add(grow, forKey: "grow")
        #expect(inList())
        #expect(DisplayLinkCenter.state.enabled)
        LayerDisplayQueue.frame()
        #expect(layer.needsDisplay() && inList())
        layer.displayIfNeeded()
        layer.removeAnimation(forKey: "grow")
        LayerDisplayQueue.frame()
        #expect(layer.needsDisplay() && !inList())
        #expect(layer.displayState.redrawsWithoutActions)
        layer.displayIfNeeded()
        #expect(!layer.displayState.redrawsWithoutActions)
        layer.removeAllAnimations()
    }
}

private final class NoDrawingDelegate: NSObject, CALayerDelegate {}

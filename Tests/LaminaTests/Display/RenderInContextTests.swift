import Foundation
import Testing

@testable import Lamina

// `render(in:)` draws any layer in this process with Core Graphics, no server needed (issue 24,
// point 1). Expected values are Apple's, as GNUstep's QuartzCore tests observed them on macOS
// (issue 24): layers rendered into a 100 × 100 RGBA bitmap context; pixel coordinates count up from
// the bottom of the context, as Core Graphics does; a pixel is painted when any byte is not 0.

/// A 100 × 100 bitmap context (premultiplied RGBA) a layer is rendered into, and its pixels.
struct RenderedLayer {
    static let side = 100
    let ctx: CGContext

    /// Renders `layer` into a new cleared context.
    init(_ layer: CALayer) {
        ctx = CGContext(
            data: nil, width: Self.side, height: Self.side, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        layer.render(in: ctx)
    }

    /// The bytes (r, g, b, a) of the pixel at (x, y), y counting up from the bottom.
    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let p = ctx.data!.assumingMemoryBound(to: UInt8.self) + (Self.side - 1 - y) * ctx.bytesPerRow + x * 4
        return (0..<4).map { p[$0] }
    }

    /// Whether the pixel at (x, y) had anything drawn on it.
    func painted(_ x: Int, _ y: Int) -> Bool { pixel(x, y).contains { $0 != 0 } }

    /// How many pixels are painted.
    var paintedCount: Int {
        (0..<Self.side).reduce(0) { n, y in n + (0..<Self.side).filter { painted($0, y) }.count }
    }

    /// Whether exactly x [x0, x1) × y [y0, y1) is painted, and nothing else.
    func paintsExactly(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> Bool {
        for y in 0..<Self.side {
            for x in 0..<Self.side where painted(x, y) != ((x0..<x1).contains(x) && (y0..<y1).contains(y)) {
                return false
            }
        }
        return true
    }
}

@Suite("Display: render(in:)")
struct RenderInContextTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    static func layer(frame: CGRect, color: CGColor? = red) -> CALayer {
        let layer = CALayer()
        layer.frame = frame
        layer.backgroundColor = color
        return layer
    }

    /// An opaque blue image of `width` × `height` pixels.
    static func blueImage(_ width: Int, _ height: Int) -> CGImage {
        CGImage(
            width: width, height: height,
            premultipliedRGBA: Array(repeating: [0, 0, 255, 255], count: width * height).flatMap { $0 })!
    }

    @Test func theLayerIsDrawnInItsOwnSpace() {
        // Apple: a layer with frame (10, 20, 30, 40) paints x [0, 30) y [0, 40): its position does
        // not move it, nor does a transform on it; a bounds origin does (bounds (10, 10, 20, 20)
        // paints x [10, 30) y [10, 30)). It works with no server and no context showing the layer.
        #expect(
            RenderedLayer(Self.layer(frame: CGRect(x: 10, y: 20, width: 30, height: 40))).paintsExactly(0, 0, 30, 40))
        let shifted = CALayer()
        shifted.bounds = CGRect(x: 10, y: 10, width: 20, height: 20)
        shifted.position = CGPoint(x: 50, y: 50)
        shifted.backgroundColor = Self.red
        #expect(RenderedLayer(shifted).paintsExactly(10, 10, 30, 30))
        let moved = Self.layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        moved.transform = CATransform3DMakeTranslation(30, 0, 0)
        #expect(RenderedLayer(moved).paintsExactly(0, 0, 20, 20))
    }

    @Test func nothingToDraw() {
        // Apple: no colour and no contents, hidden, or opacity 0 paint nothing; half opacity paints
        // the same area, (127, 0, 0, 127) for red.
        let frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        #expect(RenderedLayer(Self.layer(frame: frame, color: nil)).paintedCount == 0)
        let hidden = Self.layer(frame: frame)
        hidden.isHidden = true
        #expect(RenderedLayer(hidden).paintedCount == 0)
        let clear = Self.layer(frame: frame)
        clear.opacity = 0
        #expect(RenderedLayer(clear).paintedCount == 0)
        let half = Self.layer(frame: frame)
        half.opacity = 0.5
        let rendered = RenderedLayer(half)
        #expect(rendered.paintedCount == 30 * 40)
        #expect(rendered.pixel(15, 20) == [127, 0, 0, 127])
    }

    @Test func bordersAndCorners() {
        // Apple: an 80 × 60 layer filled with no corner radius paints 4,800 pixels, from the corner;
        // a radius takes the corners off; a border of width 5 with nothing behind it paints 1,300
        // (80 × 60 less 70 × 50), the edge but not the middle; over a fill it adds nothing, and the
        // edge is the border's colour.
        let filled = CALayer()
        filled.bounds = CGRect(x: 0, y: 0, width: 80, height: 60)
        filled.backgroundColor = Self.red
        let plain = RenderedLayer(filled)
        #expect(plain.painted(0, 0) && plain.paintedCount == 4800)
        filled.cornerRadius = 20
        let rounded = RenderedLayer(filled)
        #expect(!rounded.painted(0, 0) && !rounded.painted(1, 1))
        #expect(rounded.painted(40, 30) && rounded.painted(0, 30))
        #expect(rounded.paintedCount < 4800)
        let edged = CALayer()
        edged.bounds = CGRect(x: 0, y: 0, width: 80, height: 60)
        edged.borderWidth = 5
        edged.borderColor = Self.blue
        let ring = RenderedLayer(edged)
        #expect(ring.paintedCount == 1300)
        #expect(ring.painted(2, 30) && !ring.painted(40, 30))
        edged.backgroundColor = Self.red
        let both = RenderedLayer(edged)
        #expect(both.paintedCount == 4800)
        #expect(both.pixel(2, 30) == [0, 0, 255, 255] && both.pixel(40, 30) == [255, 0, 0, 255])
    }

    @Test(arguments: [
        (CALayerContentsGravity.resize, [0, 0, 80, 60]), (.resizeAspect, [0, 10, 80, 50]),
        (.center, [30, 25, 50, 35]), (.top, [30, 50, 50, 60]), (.bottomLeft, [0, 0, 20, 10]),
    ])
    func gravityPlacesTheContents(_ gravity: CALayerContentsGravity, _ area: [Int]) {
        // Apple: in an 80 × 60 layer a 20 × 10 image with gravity top paints x [30, 50) y [50, 60),
        // bottomLeft x [0, 20) y [0, 10), center x [30, 50) y [25, 35), resizeAspect x [0, 80)
        // y [10, 50), resize the whole bounds.
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 80, height: 60)
        layer.contents = Self.blueImage(20, 10)
        layer.contentsGravity = gravity
        #expect(RenderedLayer(layer).paintsExactly(area[0], area[1], area[2], area[3]))
    }

    @Test func sublayers() {
        // Apple: a sublayer inside adds nothing; a red sublayer with frame (10, 10, 20, 20) of a
        // 20 × 20 layer (half outside it) paints x [10, 30) y [10, 30), cut to x [10, 20) y [10, 20)
        // when the layer masks to its bounds; a hidden sublayer is left out; the later of two
        // overlapping sublayers is on top.
        let parent = Self.layer(frame: CGRect(x: 10, y: 10, width: 40, height: 40))
        parent.addSublayer(Self.layer(frame: CGRect(x: 5, y: 5, width: 10, height: 10), color: Self.blue))
        #expect(RenderedLayer(parent).paintsExactly(0, 0, 40, 40))
        let small = Self.layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: nil)
        small.addSublayer(Self.layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20)))
        #expect(RenderedLayer(small).paintsExactly(10, 10, 30, 30))
        small.masksToBounds = true
        #expect(RenderedLayer(small).paintsExactly(10, 10, 20, 20))
        let big = Self.layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let hidden = Self.layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        hidden.isHidden = true
        big.addSublayer(hidden)
        #expect(RenderedLayer(big).paintedCount == 0)
        big.addSublayer(Self.layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20)))
        big.addSublayer(Self.layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: Self.blue))
        #expect(RenderedLayer(big).pixel(15, 15) == [0, 0, 255, 255])
    }

    @Test func zPositionOrdersSiblings() {
        // Core Animation draws siblings by zPosition first (CALayer.h): the red sublayer, added first
        // with the higher zPosition, is on top.
        let big = Self.layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let front = Self.layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        front.zPosition = 1
        big.addSublayer(front)
        big.addSublayer(Self.layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: Self.blue))
        #expect(RenderedLayer(big).pixel(15, 15) == [255, 0, 0, 255])
    }

    @Test func boundsOriginsAndTransformsPlaceSublayers() {
        // Apple: the bounds origin of the layer asked does not move its sublayers ((10, 10, 20, 20) in
        // a layer whose bounds start at (10, 10) paints x [10, 30) y [10, 30)); one further down does
        // (x [0, 20) y [0, 20)); a sublayer's transform moves it (x [40, 60)); anchored at its corner
        // it sits with that corner on its position (x [50, 70) y [50, 70)), at its centre around it
        // (x [40, 60) y [40, 60)); a sublayer transform moves the sublayers (x [40, 60)).
        let parent = CALayer()
        parent.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
        parent.bounds = CGRect(x: 10, y: 10, width: 60, height: 60)
        parent.addSublayer(Self.layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20)))
        #expect(RenderedLayer(parent).paintsExactly(10, 10, 30, 30))
        let root = Self.layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let middle = CALayer()
        middle.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
        middle.bounds = CGRect(x: 10, y: 10, width: 60, height: 60)
        middle.addSublayer(Self.layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20)))
        root.addSublayer(middle)
        #expect(RenderedLayer(root).paintsExactly(0, 0, 20, 20))
        let host = Self.layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let moved = Self.layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        moved.transform = CATransform3DMakeTranslation(30, 0, 0)
        host.addSublayer(moved)
        #expect(RenderedLayer(host).paintsExactly(40, 10, 60, 30))
        moved.removeFromSuperlayer()
        let corner = CALayer()
        corner.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        corner.position = CGPoint(x: 50, y: 50)
        corner.anchorPoint = .zero
        corner.backgroundColor = Self.red
        host.addSublayer(corner)
        #expect(RenderedLayer(host).paintsExactly(50, 50, 70, 70))
        corner.anchorPoint = CGPoint(x: 0.5, y: 0.5)
        #expect(RenderedLayer(host).paintsExactly(40, 40, 60, 60))
        corner.removeFromSuperlayer()
        host.addSublayer(Self.layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20)))
        host.sublayerTransform = CATransform3DMakeTranslation(30, 0, 0)
        #expect(RenderedLayer(host).paintsExactly(40, 10, 60, 30))
    }

    @Test func whatTheDelegateDrewOnceDisplayed() {
        // Apple: rendering does not ask the delegate to draw, so a layer never displayed paints
        // nothing; once displayed, what the delegate drew (a 10 × 10 square at its origin) appears,
        // at x [0, 10) y [0, 10) (the backing store's first row at the layer's minimum y).
        final class Painter: NSObject, CALayerDelegate {
            func draw(_ layer: CALayer, in ctx: CGContext) {
                ctx.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
                ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
            }
        }
        let painter = Painter()
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        layer.delegate = painter
        #expect(RenderedLayer(layer).paintedCount == 0)
        layer.display()
        #expect(RenderedLayer(layer).paintsExactly(0, 0, 10, 10))
        withExtendedLifetime(painter) {}
    }

    @Test func groupOpacityAndRoundedMasks() {
        // allowsGroupOpacity (on by default, CALayer.h): a half-opaque layer with an opaque sublayer
        // over its own red is composited as one: (127, 0, 0, 127) where only the layer paints and
        // (0, 0, 127, 127) where the sublayer covers it, not a blend of the two. A sublayer in the
        // corner of a rounded layer is drawn whole (100 pixels) until the layer masks to its bounds
        // (Apple, issue 24).
        let layer = Self.layer(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        layer.opacity = 0.5
        layer.addSublayer(Self.layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: Self.blue))
        let rendered = RenderedLayer(layer)
        #expect(rendered.pixel(20, 20) == [127, 0, 0, 127])
        #expect(rendered.pixel(5, 5) == [0, 0, 127, 127])
        let rounded = CALayer()
        rounded.bounds = CGRect(x: 0, y: 0, width: 80, height: 60)
        rounded.cornerRadius = 20
        rounded.addSublayer(Self.layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10)))
        #expect(RenderedLayer(rounded).paintedCount == 100)
        rounded.masksToBounds = true
        let masked = RenderedLayer(rounded)
        #expect(!masked.painted(0, 0) && masked.paintedCount < 100)
    }

    @Test func aPresentationLayerRendersItsModel() {
        // render(in:) draws model values (Apple: "renders directly from the layer tree, ignoring any
        // animations added to the render tree").
        let layer = Self.layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        layer.hasBeenCommitted = true
        let presentation = try? #require(layer.presentation())
        #expect(presentation.map { RenderedLayer($0).paintsExactly(0, 0, 10, 10) } == true)
    }
}

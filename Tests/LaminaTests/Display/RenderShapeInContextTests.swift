import Foundation
import Testing

@testable import Lamina

/// `render(in:)` draws a shape layer's path as the server does, with the pixel counts observed on
/// Apple for a 40×30 rectangle (`shared/notes/text-and-shapes.md`, issue 20): filled, 1,200 pixels;
/// stroked 4 wide (centred on the edges), 560; both, 1,496; the stroke to `strokeEnd` 0.5, 280; a
/// rectangle hanging past the bounds is not clipped unless `masksToBounds` (900, then 400).
@Suite("Display: render(in:) of shape layers")
struct RenderShapeInContextTests {
    static func shape(
        fill: Bool, stroke: Bool, strokeEnd: CGFloat = 1, rect: CGRect = CGRect(x: 20, y: 20, width: 40, height: 30)
    )
        -> CAShapeLayer
    {
        let layer = CAShapeLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.path = CGPath(rect: rect, transform: nil)
        layer.fillColor = fill ? CGColor(red: 1, green: 0, blue: 0, alpha: 1) : nil
        layer.strokeColor = stroke ? CGColor(red: 0, green: 0, blue: 1, alpha: 1) : nil
        layer.lineWidth = 4
        layer.strokeEnd = strokeEnd
        return layer
    }

    @Test func applesPixelCountsForARectangle() {
        #expect(RenderedLayer(Self.shape(fill: true, stroke: false)).paintedCount == 1_200)
        #expect(RenderedLayer(Self.shape(fill: false, stroke: true)).paintedCount == 560)
        #expect(RenderedLayer(Self.shape(fill: true, stroke: true)).paintedCount == 1_496)
        #expect(RenderedLayer(Self.shape(fill: false, stroke: true, strokeEnd: 0.5)).paintedCount == 280)
    }

    @Test func aPathPastTheBoundsIsClippedOnlyWithMasksToBounds() {
        // A 30×30 square at (-10, -10) in a 20×20 layer hangs 10 past two edges: 900 pixels, and the
        // 20×20 inside the bounds (400) with masksToBounds. The layer sits inside a larger one so that
        // what hangs out is inside the context.
        let outer = CALayer()
        outer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 40, y: 40, width: 20, height: 20)
        shape.path = CGPath(rect: CGRect(x: -10, y: -10, width: 30, height: 30), transform: nil)
        outer.addSublayer(shape)
        #expect(RenderedLayer(outer).paintedCount == 900)
        shape.masksToBounds = true
        #expect(RenderedLayer(outer).paintedCount == 400)
    }
}

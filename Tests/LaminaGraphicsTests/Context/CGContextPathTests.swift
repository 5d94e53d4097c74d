import Foundation
import Testing

@testable import LaminaGraphics

/// The current path, arcs and the CTM (Apple's `CGContext` path and transform functions).
@Suite("CGContext paths and transforms")
struct CGContextPathTests {
    /// `boundingBoxOfPath` includes Bézier control points (Apple: "the smallest rectangle that
    /// contains all points in the path, including control points"); an empty path's is null.
    @Test func boundingBoxIncludesControlPoints() {
        let context = CGContext.rgba(width: 4, height: 4)
        #expect(context.isPathEmpty)
        #expect(context.boundingBoxOfPath.isNull)
        context.move(to: CGPoint(x: 1, y: 2))
        #expect(!context.isPathEmpty)
        context.addCurve(to: CGPoint(x: 10, y: 2), control1: CGPoint(x: 3, y: 20), control2: CGPoint(x: 8, y: -5))
        #expect(context.boundingBoxOfPath == CGRect(x: 1, y: -5, width: 9, height: 25))
        #expect(context.currentPointOfPath == CGPoint(x: 10, y: 2))
        context.beginPath()
        #expect(context.isPathEmpty)
        #expect(context.currentPointOfPath == .zero)
    }

    /// Path points are fixed in device space when added; the bounding box reads them back in the
    /// current user space (a rect added after translate(5, 5) reads one unit lower-left after a
    /// further translate(1, 1)).
    @Test func pathFollowsCTMAtConstruction() {
        let context = CGContext.rgba(width: 10, height: 10)
        context.translateBy(x: 5, y: 5)
        context.addRect(CGRect(x: 0, y: 0, width: 2, height: 2))
        #expect(context.boundingBoxOfPath == CGRect(x: 0, y: 0, width: 2, height: 2))
        context.translateBy(x: 1, y: 1)
        #expect(context.boundingBoxOfPath == CGRect(x: -1, y: -1, width: 2, height: 2))
        context.fillPath()
        // Device pixels x 5…7, y 5…7 (memory rows 3…4).
        #expect(context.alpha(x: 5, row: 3) == 255)
        #expect(context.alpha(x: 6, row: 4) == 255)
        #expect(context.alpha(x: 7, row: 4) == 0)
        #expect(context.alpha(x: 5, row: 5) == 0)
    }

    /// translate, scale, rotate and concatenate compose onto the CTM as Apple documents
    /// (each applies to user space before the existing CTM).
    @Test func transformsCompose() {
        let context = CGContext.rgba(width: 20, height: 20)
        context.translateBy(x: 10, y: 10)
        context.rotate(by: .pi / 2)
        // (x, y) ↦ (10 − y, 10 + x): the rect 0…4 × 0…2 lands on x 8…10, y 10…14 (memory rows 6…9).
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 2))
        #expect(context.alpha(x: 8, row: 6) == 255)
        #expect(context.alpha(x: 9, row: 9) == 255)
        #expect(context.alpha(x: 10, row: 6) == 0)
        #expect(context.alpha(x: 8, row: 10) == 0)
        let ctm = context.ctm
        #expect(abs(ctm.a) < 1e-12 && ctm.b == 1 && ctm.c == -1 && abs(ctm.d) < 1e-12)
        #expect(ctm.tx == 10 && ctm.ty == 10)
        let other = CGContext.rgba(width: 4, height: 4)
        other.scaleBy(x: 2, y: 3)
        other.concatenate(CGAffineTransform(translationX: 1, y: 1))
        #expect(other.ctm == CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 2, ty: 3))
    }

    /// `clockwise: false` from 0 to π/2 sweeps through increasing angles: the quarter disc with
    /// x > cx and y > cy, the upper right on screen in a y-up context (Apple's `addArc` docs:
    /// angles from the positive x-axis; `clockwise` reverses on screen in a flipped coordinate
    /// system); `clockwise: true` takes the other three quarters. The arc ends at the end angle.
    @Test func arcDirection() {
        func pie(clockwise: Bool) -> CGContext {
            let context = CGContext.rgba(width: 20, height: 20)
            context.move(to: CGPoint(x: 10, y: 10))
            context.addArc(
                center: CGPoint(x: 10, y: 10), radius: 8, startAngle: 0, endAngle: .pi / 2, clockwise: clockwise)
            let end = context.currentPointOfPath
            #expect(abs(end.x - 10) < 1e-9 && abs(end.y - 18) < 1e-9)
            context.closePath()
            context.fillPath()
            return context
        }
        let counter = pie(clockwise: false)
        #expect(counter.alpha(x: 14, row: 5) == 255)
        #expect(counter.alpha(x: 5, row: 5) == 0)
        #expect(counter.alpha(x: 14, row: 14) == 0)
        let clockwise = pie(clockwise: true)
        #expect(clockwise.alpha(x: 14, row: 5) == 0)
        #expect(clockwise.alpha(x: 5, row: 5) == 255)
        #expect(clockwise.alpha(x: 5, row: 14) == 255)
        #expect(clockwise.alpha(x: 14, row: 14) == 255)
    }

    /// In the flipped layer context the same `clockwise: false` quarter lies at the lower right on
    /// screen, because y grows downwards there.
    @Test func arcInFlippedContext() throws {
        let context = try #require(
            CGContext.makeLayerContext(bounds: CGRect(x: 0, y: 0, width: 20, height: 20), contentsScale: 1))
        context.move(to: CGPoint(x: 10, y: 10))
        context.addArc(center: CGPoint(x: 10, y: 10), radius: 8, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        context.fillPath()
        #expect(context.bytes(x: 14, row: 14)[3] == 255)
        #expect(context.bytes(x: 14, row: 5)[3] == 0)
    }

    /// `addArc(tangent1End:tangent2End:radius:)` rounds the corner: from (0, 2) towards (8, 2)
    /// then up to (8, 10) with radius 4 ends at the tangent point (8, 6).
    @Test func tangentArc() {
        let empty = CGContext.rgba(width: 4, height: 4)
        // Without a current point a line is ignored (Core Graphics: "no current point").
        empty.addLine(to: CGPoint(x: 1, y: 1))
        #expect(empty.isPathEmpty)
        let context = CGContext.rgba(width: 10, height: 10)
        context.move(to: CGPoint(x: 0, y: 2))
        context.addArc(tangent1End: CGPoint(x: 8, y: 2), tangent2End: CGPoint(x: 8, y: 10), radius: 4)
        let end = context.currentPointOfPath
        #expect(abs(end.x - 8) < 1e-9 && abs(end.y - 6) < 1e-9)
    }

    /// `addPath`, `addEllipse(in:)`, `addLines` and `addQuadCurve` add their shapes; `drawPath`
    /// with `.eoFill` leaves the inside of nested rects empty and `.fillStroke` strokes over the fill.
    @Test func addPathAndDrawModes() {
        let context = CGContext.rgba(width: 8, height: 8)
        let path = CGMutablePath()
        path.addRect(CGRect(x: 0, y: 0, width: 8, height: 8))
        path.addRect(CGRect(x: 2, y: 2, width: 4, height: 4))
        context.addPath(path)
        context.drawPath(using: .eoFill)
        #expect(context.alpha(x: 1, row: 1) == 255)
        #expect(context.alpha(x: 3, row: 3) == 0)
        let both = CGContext.rgba(width: 8, height: 8)
        both.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        both.setStrokeColor(red: 0, green: 0, blue: 1, alpha: 1)
        both.setLineWidth(2)
        both.addRect(CGRect(x: 2, y: 2, width: 4, height: 4))
        both.drawPath(using: .fillStroke)
        #expect(both.bytes(x: 4, row: 4) == [255, 0, 0, 255])
        #expect(both.bytes(x: 2, row: 4) == [0, 0, 255, 255])
        #expect(both.bytes(x: 1, row: 4) == [0, 0, 255, 255])
        #expect(both.isPathEmpty)
        let quad = CGContext.rgba(width: 8, height: 8)
        quad.move(to: CGPoint(x: 0, y: 0))
        quad.addQuadCurve(to: CGPoint(x: 8, y: 0), control: CGPoint(x: 4, y: 8))
        // The quadratic's equal cubic has control points 2/3 of the way to (4, 8): y = 16/3, to
        // Cairo's path precision of 1/256 device pixel.
        let box = quad.boundingBoxOfPath
        #expect(box.minX == 0 && box.maxX == 8 && box.minY == 0 && abs(box.maxY - 16.0 / 3.0) <= 1.0 / 256.0)
    }
}

import Foundation
import Testing

@testable import LaminaGraphics

/// Strokes: width, caps, joins, miter limit, dashes and antialiasing, checked at pixels the
/// geometry decides (Apple's `setLineWidth`, `setLineCap`, `setLineJoin`, `setLineDash` docs).
@Suite("CGContext strokes")
struct CGContextStrokeTests {
    /// A 20 × 20 context with a horizontal line along y = 10 from x = 2 to 18, 4 wide, with `cap`.
    private func line(cap: CGLineCap) -> CGContext {
        let context = CGContext.rgba(width: 20, height: 20)
        context.setLineWidth(4)
        context.setLineCap(cap)
        context.addLines(between: [CGPoint(x: 2, y: 10), CGPoint(x: 18, y: 10)])
        context.strokePath()
        return context
    }

    /// A 4-wide line covers y 8…12 (memory rows 8…11, as y is up); a butt cap ends at the endpoint
    /// (Apple's default cap, "`.butt`: squared off at the endpoint").
    @Test func widthAndButtCap() {
        let context = line(cap: .butt)
        #expect(context.bytes(x: 2, row: 8) == [0, 0, 0, 255])
        #expect(context.bytes(x: 17, row: 11) == [0, 0, 0, 255])
        #expect(context.alpha(x: 10, row: 7) == 0)
        #expect(context.alpha(x: 10, row: 12) == 0)
        #expect(context.alpha(x: 1, row: 9) == 0)
        #expect(context.alpha(x: 18, row: 9) == 0)
        // Painting consumes the path (Apple: "the current path is cleared").
        #expect(context.isPathEmpty)
    }

    /// A square cap extends half the width past each endpoint (x 0…20); a round cap only partly
    /// covers the pixel one unit past the end.
    @Test func squareAndRoundCaps() {
        let square = line(cap: .square)
        #expect(square.alpha(x: 0, row: 9) == 255)
        #expect(square.alpha(x: 19, row: 10) == 255)
        let round = line(cap: .round)
        let edge = round.alpha(x: 0, row: 9)
        #expect(edge > 0 && edge < 255)
        #expect(round.alpha(x: 1, row: 9) == 255)
    }

    /// A right-angled corner at (16, 4), 4 wide: the miter join fills the corner square up to
    /// (18, 2); a bevel join cuts it along the line from (18, 4) to (16, 2), leaving pixel
    /// x 17…18, y 2…3 (memory row 17) empty; a miter limit of 1, below √2, turns the miter into a bevel.
    @Test func joinsAndMiterLimit() {
        func corner(_ configure: (CGContext) -> Void) -> UInt8 {
            let context = CGContext.rgba(width: 20, height: 20)
            context.setLineWidth(4)
            configure(context)
            context.addLines(between: [CGPoint(x: 4, y: 4), CGPoint(x: 16, y: 4), CGPoint(x: 16, y: 16)])
            context.strokePath()
            return context.alpha(x: 17, row: 17)
        }
        #expect(corner { _ in } == 255)
        #expect(corner { $0.setLineJoin(.bevel) } == 0)
        #expect(corner { $0.setLineJoin(.round) } < 255)
        #expect(corner { $0.setMiterLimit(1) } == 0)
    }

    /// Dash lengths [4, 2] paint x 0…4, 6…10, 12…16, 18…20; phase 1 starts one unit in: 0…3, 5…9, ….
    @Test func dashPattern() {
        func runs(phase: CGFloat) -> [UInt8] {
            let context = CGContext.rgba(width: 20, height: 20)
            context.setLineWidth(2)
            context.setLineDash(phase: phase, lengths: [4, 2])
            context.addLines(between: [CGPoint(x: 0, y: 10), CGPoint(x: 20, y: 10)])
            context.strokePath()
            return (0..<20).map { context.alpha(x: $0, row: 9) / 255 }
        }
        #expect(runs(phase: 0) == [1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1])
        #expect(runs(phase: 1) == [1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1])
    }

    /// With antialiasing off (`setShouldAntialias(false)`, or `setAllowsAntialiasing(false)`),
    /// every pixel is fully in or out: only alpha 0 and 255; with it on, the circle's edge has partial pixels.
    @Test func antialiasingOffGivesHardEdges() {
        func alphas(_ configure: (CGContext) -> Void) -> Set<UInt8> {
            let context = CGContext.rgba(width: 16, height: 16)
            configure(context)
            context.fillEllipse(in: CGRect(x: 1.3, y: 2.1, width: 12.4, height: 11.7))
            context.setLineWidth(1.5)
            context.strokeLineSegments(between: [CGPoint(x: 0, y: 0.3), CGPoint(x: 16, y: 9.7)])
            return Set(context.allBytes.map { $0[3] })
        }
        #expect(alphas { $0.setShouldAntialias(false) } == [0, 255])
        #expect(alphas { $0.setAllowsAntialiasing(false) } == [0, 255])
        #expect(alphas { _ in }.count > 2)
    }

    /// `stroke(_:width:)` strokes the rectangle's outline at that width, centred on the edges, and
    /// leaves the line width in the graphics state alone.
    @Test func strokeRectWithWidth() {
        let context = CGContext.rgba(width: 10, height: 10)
        context.stroke(CGRect(x: 2, y: 2, width: 6, height: 6), width: 2)
        // Left edge x = 2 covers x 1…3; the inside from x 3 on is empty.
        #expect(context.alpha(x: 1, row: 5) == 255)
        #expect(context.alpha(x: 2, row: 5) == 255)
        #expect(context.alpha(x: 3, row: 5) == 0)
        #expect(context.alpha(x: 0, row: 5) == 0)
        context.stroke(CGRect(x: 4, y: 4, width: 2, height: 2))
        // Width 1 again: x 3.5…4.5 half-covers pixel 3.
        #expect(context.alpha(x: 3, row: 4) == 128)
    }
}

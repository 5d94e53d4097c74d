import Foundation
import LaminaCore
import Testing

/// A path of lines through `points`, closed when asked.
private func polyline(_ points: [(CGFloat, CGFloat)], closed: Bool = false) -> CGMutablePath {
    let path = CGMutablePath()
    path.addLines(between: points.map { CGPoint(x: $0.0, y: $0.1) })
    if closed { path.closeSubpath() }
    return path
}

/// The number of subpaths (moves) in `path`.
private func subpathCount(_ path: CGPath) -> Int {
    var count = 0
    path.applyWithBlock { if $0.pointee.type == .moveToPoint { count += 1 } }
    return count
}

/// `CGPath.copy(strokingWithWidth:lineCap:lineJoin:miterLimit:transform:)`: the outline filled with
/// the winding rule covers what stroking covers. Apple: "creates a stroked copy of the path"
/// (CGPathCreateCopyByStrokingPath, CGPath.h); the geometry of caps, joins and the miter limit is
/// PostScript's, as the Quartz 2D Programming Guide ("Paths", "Parameters That Affect Stroking")
/// describes it.
@Suite struct PathStrokingTests {
    private let segment = polyline([(0, 0), (10, 0)])

    @Test func widthFourCoversTwoEachSide() {
        // Half the width, 2, on each side of the line.
        let outline = segment.copy(strokingWithWidth: 4, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        #expect(outline.contains(CGPoint(x: 5, y: 1.9)))
        #expect(outline.contains(CGPoint(x: 5, y: -1.9)))
        #expect(!outline.contains(CGPoint(x: 5, y: 2.1)))
        #expect(!outline.contains(CGPoint(x: 5, y: -2.1)))
        // An open subpath is one ring.
        #expect(subpathCount(outline) == 1)
        #expect(outline.boundingBox == CGRect(x: 0, y: -2, width: 10, height: 4))
    }

    @Test func capsExtendOrNot() {
        let butt = segment.copy(strokingWithWidth: 4, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        #expect(butt.contains(CGPoint(x: 9.9, y: 0)))
        #expect(!butt.contains(CGPoint(x: 10.1, y: 0)))
        #expect(!butt.contains(CGPoint(x: -0.1, y: 0)))
        // Round: a half disc of radius 2 around each end.
        let round = segment.copy(strokingWithWidth: 4, lineCap: .round, lineJoin: .miter, miterLimit: 10)
        #expect(round.contains(CGPoint(x: 11.9, y: 0)))
        #expect(round.contains(CGPoint(x: -1.9, y: 0)))
        #expect(round.contains(CGPoint(x: 11.3, y: 1.3)))  // 1.84 from the end
        #expect(!round.contains(CGPoint(x: 11.5, y: 1.5)))  // 2.12 from the end
        #expect(!round.contains(CGPoint(x: 12.1, y: 0)))
        // Square: a half square of side 4 beyond each end, corners included.
        let square = segment.copy(strokingWithWidth: 4, lineCap: .square, lineJoin: .miter, miterLimit: 10)
        #expect(square.contains(CGPoint(x: 11.9, y: 1.9)))
        #expect(square.contains(CGPoint(x: -1.9, y: -1.9)))
        #expect(!square.contains(CGPoint(x: 12.1, y: 0)))
        #expect(square.boundingBox == CGRect(x: -2, y: -2, width: 14, height: 4))
    }

    @Test func joinsShapeTheOuterCorner() {
        // (0, 0) → (10, 0) → (10, 10), width 2: the outer corner is at (11, −1); a bevel cuts it
        // along x − y = 11; a round join is the disc of radius 1 around (10, 0).
        let corner = polyline([(0, 0), (10, 0), (10, 10)])
        let miter = corner.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        let bevel = corner.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .bevel, miterLimit: 10)
        let round = corner.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .round, miterLimit: 10)
        #expect(miter.contains(CGPoint(x: 10.9, y: -0.9)))
        #expect(!bevel.contains(CGPoint(x: 10.9, y: -0.9)))
        #expect(!round.contains(CGPoint(x: 10.9, y: -0.9)))  // 1.27 from the corner
        #expect(round.contains(CGPoint(x: 10.6, y: -0.6)))  // 0.85 from the corner, past the bevel
        #expect(!bevel.contains(CGPoint(x: 10.6, y: -0.6)))
        #expect(bevel.contains(CGPoint(x: 10.4, y: -0.4)))  // x − y = 10.8 < 11
        // The inner corner is covered by both pieces, whatever the join.
        for outline in [miter, bevel, round] {
            #expect(outline.contains(CGPoint(x: 9.5, y: 0.5)))
            #expect(!outline.contains(CGPoint(x: 8.9, y: 1.1)))
        }
    }

    @Test func miterLimitBevelsLongMiters() {
        // A right angle's miter is √2 ≈ 1.414 times the width (1 / sin 45°).
        let corner = polyline([(0, 0), (10, 0), (10, 10)])
        let under = corner.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 1.5)
        let over = corner.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 1.4)
        #expect(under.contains(CGPoint(x: 10.9, y: -0.9)))
        #expect(!over.contains(CGPoint(x: 10.9, y: -0.9)))
    }

    @Test func closedSubpathGivesTwoRings() {
        // The square (0, 0)–(10, 10) stroked 2 wide: a band from −1 to 1 around each side, the
        // inside (1 to 9) a hole, mitered outer corners.
        let square = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let outline = square.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        #expect(subpathCount(outline) == 2)
        #expect(!outline.contains(CGPoint(x: 5, y: 5)))
        #expect(!outline.contains(CGPoint(x: 1.1, y: 5)))
        #expect(outline.contains(CGPoint(x: 0.9, y: 5)))
        #expect(outline.contains(CGPoint(x: -0.9, y: 5)))
        #expect(!outline.contains(CGPoint(x: -1.1, y: 5)))
        #expect(outline.contains(CGPoint(x: -0.9, y: -0.9)))  // mitered corner
        #expect(outline.contains(CGPoint(x: 10.9, y: 10.9)))
        #expect(outline.boundingBox == CGRect(x: -1, y: -1, width: 12, height: 12))
        // Closed: no caps, even round ones, at the start point.
        let rounded = square.copy(strokingWithWidth: 2, lineCap: .round, lineJoin: .bevel, miterLimit: 10)
        #expect(!rounded.contains(CGPoint(x: -0.9, y: -0.9)))
    }

    @Test func curvesAreOffsetWithinTheTolerance() {
        // A circle of radius 10 stroked 2 wide covers radii 9 to 11.
        let circle = CGPath(ellipseIn: CGRect(x: -10, y: -10, width: 20, height: 20))
        let outline = circle.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        for angle in stride(from: 0.0, to: 2 * Double.pi, by: 0.1) {
            func at(_ r: Double) -> CGPoint { CGPoint(x: r * cos(angle), y: r * sin(angle)) }
            #expect(outline.contains(at(10.95)) && outline.contains(at(9.05)), "angle \(angle)")
            #expect(!outline.contains(at(11.05)) && !outline.contains(at(8.95)), "angle \(angle)")
        }
    }

    @Test func degenerateSubpathsAreDotsOrNothing() {
        // A zero-length line: round caps draw a disc, square caps a square, butt caps nothing.
        let point = polyline([(5, 5), (5, 5)])
        let round = point.copy(strokingWithWidth: 4, lineCap: .round, lineJoin: .miter, miterLimit: 10)
        #expect(round.contains(CGPoint(x: 6.9, y: 5)) && !round.contains(CGPoint(x: 6.5, y: 6.5)))
        let square = point.copy(strokingWithWidth: 4, lineCap: .square, lineJoin: .miter, miterLimit: 10)
        #expect(square.contains(CGPoint(x: 6.9, y: 6.9)) && !square.contains(CGPoint(x: 7.1, y: 5)))
        #expect(point.copy(strokingWithWidth: 4, lineCap: .butt, lineJoin: .miter, miterLimit: 10).isEmpty)
        // A lone move, and a width of zero, stroke nothing.
        let move = CGMutablePath()
        move.move(to: .zero)
        #expect(move.copy(strokingWithWidth: 4, lineCap: .round, lineJoin: .round, miterLimit: 10).isEmpty)
        #expect(segment.copy(strokingWithWidth: 0, lineCap: .round, lineJoin: .round, miterLimit: 10).isEmpty)
    }

    @Test func reversalWithRoundJoinIsRounded() {
        // Out and back along the x axis, width 2, round join: a half disc beyond (10, 0).
        let back = polyline([(0, 0), (10, 0), (5, 0)])
        let outline = back.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .round, miterLimit: 10)
        #expect(outline.contains(CGPoint(x: 10.9, y: 0)))
        #expect(!outline.contains(CGPoint(x: 11.1, y: 0)))
        #expect(outline.contains(CGPoint(x: 7, y: 0.9)) && outline.contains(CGPoint(x: 7, y: -0.9)))
    }

    @Test func nonFiniteAndHugeInputDoesNotTrap() {
        // Paths may hold any value; stroking and dashing them returns rather than trapping.
        let wild = polyline([(0, 0), (.infinity, 0), (.nan, 5), (1e300, -1e300), (0, 0)])
        for join in [CGLineJoin.miter, .round, .bevel] {
            for cap in [CGLineCap.butt, .round, .square] {
                _ = wild.copy(strokingWithWidth: 1e200, lineCap: cap, lineJoin: join, miterLimit: .nan)
                _ = wild.copy(strokingWithWidth: 2, lineCap: cap, lineJoin: join, miterLimit: 10)
            }
        }
        _ = wild.copy(dashingWithPhase: .infinity, lengths: [1, 1])
        // 1e12 long with a period of 2 is more than maximumDashPeriods: left undashed.
        let long = polyline([(0, 0), (1e12, 0)])
        #expect(long.copy(dashingWithPhase: 0, lengths: [1, 1]) == long)
        #expect(CGPath.maximumDashPeriods == 100_000)
    }

    @Test func transformMapsTheOutline() {
        // Apple applies the transform to the elements of the converted path.
        let outline = segment.copy(
            strokingWithWidth: 4, lineCap: .butt, lineJoin: .miter, miterLimit: 10,
            transform: CGAffineTransform(translationX: 100, y: 0))
        #expect(outline.boundingBox == CGRect(x: 100, y: -2, width: 10, height: 4))
    }
}

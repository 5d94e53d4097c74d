import Foundation
import LaminaCore
import Testing

/// `CGPath.trimmedPieces(from:to:)`, which `CAShapeLayer.strokeStart` and `strokeEnd` trim strokes
/// with: fractions of the whole length, closing segments included (notes §4.2, from GNUstep's
/// Apple-run drawing tests), and `CGPath.interpolate`, which path animations blend with.
@Suite struct PathTrimmingTests {
    static let rect = CGPath(rect: CGRect(x: 10, y: 10, width: 40, height: 30))

    /// Every point the path passes through: moves and every element's end point.
    static func points(_ path: CGPath) -> [CGPoint] {
        var result: [CGPoint] = []
        path.applyWithBlock { element in
            switch element.pointee.type {
            case .moveToPoint, .addLineToPoint: result.append(element.pointee.points[0])
            case .addQuadCurveToPoint: result.append(element.pointee.points[1])
            case .addCurveToPoint: result.append(element.pointee.points[2])
            case .closeSubpath: break
            }
        }
        return result
    }

    static func close(_ a: CGPoint, _ b: CGPoint, _ tolerance: CGFloat = 1e-6) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }

    /// Half of the 140-long perimeter (a close included) is the top edge and the right edge: an open
    /// path, so a stroke ends it with caps (Apple-run: strokeEnd 0.5 of the 4-wide stroke covers
    /// 280 pixels).
    @Test func halfARectangleIsItsFirstTwoSides() {
        let half = Self.rect.trimmed(from: 0, to: 0.5)
        #expect(Self.points(half) == [CGPoint(x: 10, y: 10), CGPoint(x: 50, y: 10), CGPoint(x: 50, y: 40)])
        var closes = 0
        half.applyWithBlock { if $0.pointee.type == .closeSubpath { closes += 1 } }
        #expect(closes == 0)
    }

    /// Both ends at 0 and 1 keep the path as it is, close included (a closed stroke joins at its
    /// start only then).
    @Test func theWholeRangeKeepsThePath() {
        #expect(Self.rect.trimmed(from: 0, to: 1) == Self.rect)
        #expect(Self.rect.trimmed(from: -1, to: 7) == Self.rect)
    }

    /// strokeStart above strokeEnd draws nothing (notes §4.2); so do equal ends and NaN.
    @Test func anEmptyOrReversedRangeIsNothing() {
        #expect(Self.rect.trimmed(from: 0.6, to: 0.4).isEmpty)
        #expect(Self.rect.trimmed(from: 0.5, to: 0.5).isEmpty)
        #expect(Self.rect.trimmed(from: .nan, to: 1).isEmpty)
    }

    /// The piece through the closing segment ends on it: from 3/4 of the way (on the bottom edge)
    /// to the end (back at the start, over the close).
    @Test func trimmingRunsOverTheClose() {
        let tail = Self.rect.trimmedPieces(from: 0.75, to: 1)
        #expect(tail.count == 1)
        let points = Self.points(tail[0].path)
        #expect(Self.close(points.first!, CGPoint(x: 15, y: 40)))
        #expect(Self.close(points.last!, CGPoint(x: 10, y: 10)))
        #expect(abs(tail[0].offset - 105) < 1e-9)
    }

    /// Fractions are of all subpaths together; a subpath wholly inside the range stays whole.
    @Test func severalSubpathsShareOneLength() {
        let two = CGMutablePath()
        two.move(to: CGPoint(x: 0, y: 0))
        two.addLine(to: CGPoint(x: 10, y: 0))
        two.addRect(CGRect(x: 0, y: 10, width: 10, height: 5))  // 30 long, closed
        // Total 40: up to 0.25 is the first subpath, then 0.25...1 the rectangle, kept closed.
        let pieces = two.trimmedPieces(from: 0.125, to: 1)
        #expect(pieces.count == 2)
        #expect(Self.points(pieces[0].path) == [CGPoint(x: 5, y: 0), CGPoint(x: 10, y: 0)])
        #expect(pieces[0].offset == 5)
        #expect(pieces[1].path == CGPath(rect: CGRect(x: 0, y: 10, width: 10, height: 5)))
    }

    /// Circles start at 3 o'clock and run through 6 o'clock first on a y-down screen, so a quarter of
    /// one ends at 6 o'clock (notes T27; "Animation always starts at 3 o'clock").
    @Test func aQuarterCircleEndsAtSixOClock() {
        let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100))
        let quarter = Self.points(circle.trimmed(from: 0, to: 0.25))
        #expect(Self.close(quarter.first!, CGPoint(x: 100, y: 50)))
        #expect(Self.close(quarter.last!, CGPoint(x: 50, y: 100), 0.05))
    }

    /// CAShapeLayer.h: paths "interpolate as a linear blend" of their points when both have the same
    /// elements; otherwise there is no blend (an animation jumps at the midpoint).
    @Test func pathsWithTheSameElementsBlendPointByPoint() throws {
        let a = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let b = CGPath(rect: CGRect(x: 10, y: 20, width: 30, height: 10))
        let mid = try #require(CGPath.interpolate(a, b, 0.5))
        #expect(mid == CGPath(rect: CGRect(x: 5, y: 10, width: 20, height: 10)))
        #expect(CGPath.interpolate(a, CGPath(ellipseIn: .zero), 0.5) == nil)
        #expect(AnimationValue.interpolate(.path(a), .path(CGPath(ellipseIn: .zero)), 0.49) == .path(a))
        #expect(AnimationValue.interpolate(.path(a), .path(b), 0.5) == .path(mid))
        // Springs overshoot numbers, never paths.
        #expect(AnimationValue.interpolate(.path(a), .path(b), 1.5) == .path(b))
    }

    /// Lists blend entry by entry when their counts agree, and jump at the midpoint otherwise.
    @Test func listsBlendWhenTheirCountsAgree() {
        #expect(AnimationValue.interpolate(.numbers([0, 1]), .numbers([1, 0]), 0.25) == .numbers([0.25, 0.75]))
        #expect(AnimationValue.interpolate(.numbers([0, 1]), .numbers([1]), 0.4) == .numbers([0, 1]))
        #expect(AnimationValue.interpolate(.numbers([0, 1]), .numbers([1]), 0.5) == .numbers([1]))
        let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
        #expect(
            AnimationValue.interpolate(.colors([white, .clear]), .colors([.clear, white]), 0.5)
                == .colors([
                    RGBAColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5),
                    RGBAColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5),
                ]))
    }
}

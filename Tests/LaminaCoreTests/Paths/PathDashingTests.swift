import Foundation
import LaminaCore
import Testing

/// Each subpath of `path` as its list of points (move, then every element's end point).
private func runs(_ path: CGPath) -> [[CGPoint]] {
    var result: [[CGPoint]] = []
    path.applyWithBlock { element in
        switch element.pointee.type {
        case .moveToPoint: result.append([element.pointee.points[0]])
        case .addLineToPoint: result[result.count - 1].append(element.pointee.points[0])
        case .addQuadCurveToPoint: result[result.count - 1].append(element.pointee.points[1])
        case .addCurveToPoint: result[result.count - 1].append(element.pointee.points[2])
        case .closeSubpath: break
        @unknown default: break
        }
    }
    return result
}

/// The x extents of the dashes of a horizontal path, rounded to 1e-9.
private func spans(_ path: CGPath) -> [[Double]] {
    runs(path).map { run in [run.first!.x, run.last!.x].map { (Double($0) * 1e9).rounded() / 1e9 } }
}

private let line: CGMutablePath = {
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addLine(to: CGPoint(x: 40, y: 0))
    return path
}()

/// `CGPath.copy(dashingWithPhase:lengths:transform:)`. Apple: "lengths: an array of values that
/// specify the lengths of the painted segments and unpainted segments, respectively, of the dash
/// pattern"; "phase: a value that specifies how far into the dash pattern the line starts"
/// (CGPathCreateCopyByDashingPath, and CGContext.setLineDash for the pattern's meaning).
@Suite struct PathDashingTests {
    @Test func tenOnFiveOff() {
        #expect(spans(line.copy(dashingWithPhase: 0, lengths: [10, 5])) == [[0, 10], [15, 25], [30, 40]])
    }

    @Test func phaseShiftsThePattern() {
        // 5 into the pattern: 5 painted left, then 5 off.
        #expect(spans(line.copy(dashingWithPhase: 5, lengths: [10, 5])) == [[0, 5], [10, 20], [25, 35]])
        // 10 into it: the gap first.
        #expect(spans(line.copy(dashingWithPhase: 10, lengths: [10, 5])) == [[5, 15], [20, 30], [35, 40]])
        // A whole period is no shift; a negative phase counts back from the pattern's end.
        #expect(spans(line.copy(dashingWithPhase: 15, lengths: [10, 5])) == [[0, 10], [15, 25], [30, 40]])
        #expect(spans(line.copy(dashingWithPhase: -5, lengths: [10, 5])) == [[5, 15], [20, 30], [35, 40]])
    }

    @Test func oddCountRepeatsAlternately() {
        // [10] is 10 on, 10 off; [5, 5, 10] is on 5, off 5, on 10, off 5, on 5, off 10.
        #expect(spans(line.copy(dashingWithPhase: 0, lengths: [10])) == [[0, 10], [20, 30]])
        #expect(spans(line.copy(dashingWithPhase: 0, lengths: [5, 5, 10])) == [[0, 5], [10, 20], [25, 30]])
    }

    @Test func dashesTurnCorners() {
        // The square (0, 0)–(10, 10), perimeter 40: the second dash [15, 25] runs from (10, 5)
        // round the corner (10, 10) to (5, 10).
        let square = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let dashed = runs(square.copy(dashingWithPhase: 0, lengths: [10, 5]))
        #expect(
            dashed == [
                [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0)],
                [CGPoint(x: 10, y: 5), CGPoint(x: 10, y: 10), CGPoint(x: 5, y: 10)],
                [CGPoint(x: 0, y: 10), CGPoint(x: 0, y: 0)],
            ])
    }

    @Test func curvesStayCurvesCutAtTheirLengths() throws {
        // A quarter circle of radius 10 (length 5π ≈ 15.708) dashed [5, 100]: one curve from
        // angle 0 to the angle of arc length 5, 0.5 rad, within the arc approximation (0.03 %).
        let arc = CGMutablePath()
        arc.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        let dashed = arc.copy(dashingWithPhase: 0, lengths: [5, 100])
        var types: [CGPathElementType] = []
        dashed.applyWithBlock { types.append($0.pointee.type) }
        #expect(types == [.moveToPoint, .addCurveToPoint])
        let end = try #require(runs(dashed).first?.last)
        #expect(abs(end.x - 10 * cos(0.5)) < 0.01 && abs(end.y - 10 * sin(0.5)) < 0.01)
    }

    @Test func zeroLengthDashesAreDots() {
        // [0, 10]: a dot every 10 units, for round caps to draw.
        #expect(
            spans(line.copy(dashingWithPhase: 0, lengths: [0, 10])) == [
                [0, 0], [10, 10], [20, 20], [30, 30], [40, 40],
            ])
    }

    @Test func patternsThatCannotDashLeaveThePath() {
        // Empty, negative or all-zero lengths return the path undashed; one dash covering a whole
        // closed subpath keeps it closed.
        #expect(line.copy(dashingWithPhase: 0, lengths: []) == line)
        #expect(line.copy(dashingWithPhase: 0, lengths: [-1, 5]) == line)
        #expect(line.copy(dashingWithPhase: 0, lengths: [0, 0]) == line)
        let square = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(square.copy(dashingWithPhase: 0, lengths: [50, 5]) == square)
    }

    @Test func eachSubpathRestartsThePattern() {
        let two = CGMutablePath()
        two.move(to: .zero)
        two.addLine(to: CGPoint(x: 12, y: 0))
        two.move(to: CGPoint(x: 100, y: 0))
        two.addLine(to: CGPoint(x: 112, y: 0))
        #expect(spans(two.copy(dashingWithPhase: 0, lengths: [10, 5])) == [[0, 10], [100, 110]])
    }

    @Test func transformMapsTheDashes() {
        let dashed = line.copy(dashingWithPhase: 0, lengths: [10, 5], transform: CGAffineTransform(scaleX: 2, y: 1))
        #expect(spans(dashed) == [[0, 20], [30, 50], [60, 80]])
    }

    @Test func dashedThenStrokedCoversOnlyTheDashes() {
        // Dashing then stroking, as a context draws a dashed line.
        let outline = line.copy(dashingWithPhase: 0, lengths: [10, 5]).copy(
            strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        #expect(outline.contains(CGPoint(x: 5, y: 0.9)))
        #expect(!outline.contains(CGPoint(x: 12, y: 0)))
        #expect(outline.contains(CGPoint(x: 20, y: 0)))
    }
}

import Foundation
@testable import LaminaCore
import Testing

// Regression tests for hostile paths (issue 9, defects 1 and 2): a paced path's control points may be
// any finite numbers a client sends, and measuring it must neither trap nor cost more than a
// constant times its number of segments.

/// A quad curve from (0, 0) to (1, 0) whose control point lies `far` away.
private func farQuad(_ far: Double) -> CGMutablePath {
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addQuadCurve(to: CGPoint(x: 1, y: 0), control: CGPoint(x: 0, y: far))
    return path
}

@Test("A paced path with a control point at 1e40 is measured without trapping", arguments: [1e36, 1e40, 1e200])
func farControlPointIsMeasured(far: Double) {
    let timeline = PathTimeline(path: farQuad(far), keyTimes: nil, timingFunctions: nil, calculationMode: .paced)
    // Before the fix, converting the chord count to Int trapped for 1e36 and beyond. At 1e200 the
    // chords' lengths overflow to infinity, so the length is not finite and the path is timed evenly.
    #expect(timeline.arcSamples.count == (far < 1e100 ? PathSegment.maximumSteps + 1 : 0))
    let start = timeline.point(at: 0)
    #expect(start == CGPoint.zero)
    let end = timeline.point(at: 1)
    #expect(end == CGPoint(x: 1, y: 0))
}

@Test("A paced path of 3,900 far-flung curves is measured within its sample budget")
func manyFarCurvesStayWithinBudget() {
    let path = CGMutablePath()
    path.move(to: .zero)
    for i in 0..<3900 {
        let sign: Double = i % 2 == 0 ? 1 : -1
        path.addCurve(
            to: CGPoint(x: Double(i + 1), y: 0), control1: CGPoint(x: 0, y: sign * 1e30),
            control2: CGPoint(x: sign * 1e30, y: 0))
    }
    let timeline = PathTimeline(path: path, keyTimes: nil, timingFunctions: nil, calculationMode: .paced)
    // Each curve alone asks for 4,096 chords (16 million samples, hundreds of megabytes, before the
    // budget); the budget allows 4,096 + 16 per segment, and every segment keeps at least one.
    let limit = PathTimeline.sampleBudget(segmentCount: 3900) + 2 * 3900
    #expect(timeline.arcSamples.count <= limit)
    #expect(timeline.arcSamples.count >= 3900 * 2)
    #expect(timeline.point(at: 0.5) != nil)
}

@Test("Ordinary paths keep their full sampling (the budget does not change their timing)")
func ordinaryPathsKeepFullSampling() {
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addQuadCurve(to: CGPoint(x: 200, y: 0), control: CGPoint(x: 100, y: -100))
    let segment = PathSegment(points: [[0, 0], [100, -100], [200, 0]])
    let wanted = segment.steps(tolerance: 1e-3)
    // |Δ²P| = |(0,0) − 2·(100,−100) + (200,0)| = 200, M = 2·200 = 400, h² ≤ 8·1e-3/400: 224 steps.
    #expect(wanted == 224)
    #expect(PathTimeline.sampleCounts([segment], tolerance: 1e-3) == [224])
}

@Test("An arc swept through 1e300 radians is built from a bounded number of curves")
func hugeArcSweepIsBounded() {
    let path = CGMutablePath()
    path.addRelativeArc(center: .zero, radius: 10, startAngle: 0, delta: 1e300)
    #expect(path.pathElements.count <= 4097)
}

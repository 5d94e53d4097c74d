import Foundation
import LaminaCore
import Testing

/// `CGPath.applyWithBlock(_:)` and `isRect(_:)` as Core Graphics defines them (`CGPath.h`): elements
/// in order with their points controls first, and a rectangle recognised only when the path is one.
@Suite struct PathElementsTests {
    @Test func applyWithBlockHandsOutEveryElementWithItsPoints() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 1, y: 2))
        path.addLine(to: CGPoint(x: 3, y: 4))
        path.addQuadCurve(to: CGPoint(x: 5, y: 6), control: CGPoint(x: 7, y: 8))
        path.addCurve(to: CGPoint(x: 9, y: 10), control1: CGPoint(x: 11, y: 12), control2: CGPoint(x: 13, y: 14))
        path.closeSubpath()
        var seen: [(CGPathElementType, [CGPoint])] = []
        path.applyWithBlock { element in
            let count: Int
            switch element.pointee.type {
            case .moveToPoint, .addLineToPoint: count = 1
            case .addQuadCurveToPoint: count = 2
            case .addCurveToPoint: count = 3
            case .closeSubpath: count = 0
            }
            seen.append((element.pointee.type, (0..<count).map { element.pointee.points[$0] }))
        }
        #expect(
            seen.map(\.0) == [.moveToPoint, .addLineToPoint, .addQuadCurveToPoint, .addCurveToPoint, .closeSubpath])
        // Controls first, the end point last (CGPath.h).
        #expect(seen[2].1 == [CGPoint(x: 7, y: 8), CGPoint(x: 5, y: 6)])
        #expect(seen[3].1 == [CGPoint(x: 11, y: 12), CGPoint(x: 13, y: 14), CGPoint(x: 9, y: 10)])
        #expect(CGPathElementType.closeSubpath.rawValue == 4)
    }

    @Test func isRectRecognisesOneAxisAlignedRectangle() {
        var rect = CGRect.null
        #expect(CGPath(rect: CGRect(x: 10, y: 20, width: 30, height: 40), transform: nil).isRect(&rect))
        #expect(rect == CGRect(x: 10, y: 20, width: 30, height: 40))
        let drawn = CGMutablePath()
        drawn.move(to: CGPoint(x: 0, y: 0))
        drawn.addLine(to: CGPoint(x: 0, y: 5))
        drawn.addLine(to: CGPoint(x: 8, y: 5))
        drawn.addLine(to: CGPoint(x: 8, y: 0))
        drawn.addLine(to: CGPoint(x: 0, y: 0))
        #expect(drawn.isRect(&rect))
        #expect(rect == CGRect(x: 0, y: 0, width: 8, height: 5))
        #expect(drawn.isRect(nil))
    }

    @Test func isRectRefusesEverythingElse() {
        let triangle = CGMutablePath()
        triangle.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 5, y: 0), CGPoint(x: 0, y: 5)])
        triangle.closeSubpath()
        let two = CGMutablePath()
        two.addRect(CGRect(x: 0, y: 0, width: 1, height: 1))
        two.addRect(CGRect(x: 5, y: 5, width: 1, height: 1))
        // Apple's spelling: the transform goes by pointer.
        var turn = CGAffineTransform(rotationAngle: 0.3)
        let rotated = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 2), transform: &turn)
        let flat = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 0), transform: nil)
        let ellipse = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil)
        let paths: [CGPath] = [triangle, two, rotated, flat, ellipse]
        for path in paths {
            #expect(!path.isRect(nil))
        }
        #expect(!CGMutablePath().isRect(nil))
    }
}

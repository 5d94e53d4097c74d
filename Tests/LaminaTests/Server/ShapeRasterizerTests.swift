// What ShapeRasterizer strokes: the trimmed, dashed path, with the dash pattern anchored where each
// piece lay on its untrimmed subpath, and the extent it measures.
import Foundation
import LaminaCore
import Testing

@testable import LaminaServer

@Suite struct ShapeRasterizerTests {
    static func line(_ length: CGFloat) -> CGPath {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: length, y: 0))
        return path
    }

    /// The x ranges of the dashes of a horizontal stroke.
    static func dashes(_ elements: [PathElement]) -> [[Double]] {
        var result: [[Double]] = []
        for element in elements {
            switch element {
            case .moveTo(let p): result.append([Double(p.x)])
            case .lineTo(let p): result[result.count - 1].append(Double(p.x))
            default: break
            }
        }
        return result.map { [$0.first!, $0.last!].map { ($0 * 1e6).rounded() / 1e6 } }
    }

    /// A growing strokeEnd uncovers dashes that stay where they are; a strokeStart cuts the dash it
    /// falls in without moving the others.
    @Test func dashesStayAnchoredWhileTheStrokeIsTrimmed() {
        var shape = ShapeLayerState()
        shape.path = Self.line(100)
        shape.lineDashPattern = [10, 10]
        shape.strokeColor = .black
        #expect(
            Self.dashes(ShapeRasterizer.strokeElements(shape, path: shape.path!)).prefix(2) == [[0, 10], [20, 30]])
        shape.strokeEnd = 0.25
        #expect(Self.dashes(ShapeRasterizer.strokeElements(shape, path: shape.path!)) == [[0, 10], [20, 25]])
        shape.strokeStart = 0.05
        #expect(Self.dashes(ShapeRasterizer.strokeElements(shape, path: shape.path!)) == [[5, 10], [20, 25]])
        // The phase shifts the pattern along the path (Core Graphics' lineDashPhase).
        shape.strokeStart = 0
        shape.strokeEnd = 1
        shape.lineDashPhase = 5
        #expect(
            Self.dashes(ShapeRasterizer.strokeElements(shape, path: shape.path!)).prefix(2) == [[0, 5], [15, 25]])
    }

    @Test func theExtentHoldsTheStrokeAndNothingMore() throws {
        var shape = ShapeLayerState()
        shape.path = CGPath(rect: CGRect(x: 10, y: 10, width: 40, height: 30))
        #expect(ShapeRasterizer.extent(of: shape) == CGRect(x: 10, y: 10, width: 40, height: 30))
        shape.strokeColor = .black
        shape.lineWidth = 4
        // Square miter joins reach half the width past each corner, far inside the miter limit.
        #expect(ShapeRasterizer.extent(of: shape) == CGRect(x: 8, y: 8, width: 44, height: 34))
        shape.fillColor = nil
        shape.strokeColor = nil
        #expect(ShapeRasterizer.extent(of: shape) == nil)
        // An open line filled has no area: nothing.
        var line = ShapeLayerState()
        line.path = Self.line(10)
        #expect(ShapeRasterizer.extent(of: line) == nil)
    }
}

/// Hostile shapes (issue 20: huge element counts, NaN, dash arrays of zeros) cost bounded work: found
/// by the fuzzer, where a 564-byte commit with a vast stroke took 2 GB in Cairo's flattening.
extension ShapeRasterizerTests {
    static var star: CGPath {
        let path = CGMutablePath()
        for i in 0..<10 {
            let angle = Double(i) * .pi / 5
            let r = i % 2 == 0 ? 20.0 : 8.0
            let p = CGPoint(x: 32 + r * sin(angle), y: 24 - r * cos(angle))
            if i == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        path.closeSubpath()
        return path
    }

    @Test func vastStrokesAreMeasuredAndDrawnInBoundedWork() {
        var shape = ShapeLayerState()
        shape.path = Self.star
        shape.strokeColor = .black
        shape.lineWidth = 1e12
        shape.miterLimit = 1e300
        shape.lineJoin = .round
        let start = Date()
        let extent = ShapeRasterizer.extent(of: shape)
        #expect(extent != nil)
        _ = ShapeRasterizer.draw(shape, transform: .identity, width: 64, height: 48)
        shape.lineWidth = 1e5
        _ = ShapeRasterizer.extent(of: shape)
        _ = ShapeRasterizer.draw(shape, transform: .identity, width: 64, height: 48)
        #expect(Date().timeIntervalSince(start) < 5)
        // A drawing too large for Cairo's coordinates is not drawn at all.
        #expect(
            ShapeRasterizer.span(
                of: ShapeLayerState(), path: Self.star, transform: CGAffineTransform(scaleX: 1e9, y: 1e9)) ?? 0
                > ShapeRasterizer.maximumSpan)
    }

    @Test func dashesAndMeasuringHaveBudgets() {
        // A pattern that would cut the star into 10^11 dashes strokes it solid.
        #expect(!ShapeRasterizer.mayDash(Self.star, pattern: [1e-9, 1e-9]))
        #expect(ShapeRasterizer.mayDash(Self.star, pattern: [4, 2]))
        // Thousands of vast curves are measured at a coarser tolerance, never in more than the budget.
        let vast = CGMutablePath()
        vast.move(to: .zero)
        for i in 0..<8_000 {
            vast.addCurve(
                to: CGPoint(x: Double(i), y: 0), control1: CGPoint(x: 1e9, y: 1e9), control2: CGPoint(x: -1e9, y: 1e9))
        }
        var shape = ShapeLayerState()
        shape.path = vast
        shape.strokeColor = .black
        shape.strokeEnd = 0.5
        shape.lineDashPattern = [3, 3]
        let start = Date()
        // Measuring it would take more than the budget even at the coarser tolerance: the stroke is
        // drawn untrimmed and undashed rather than measured.
        #expect(
            vast.measuringSteps(tolerance: ShapeRasterizer.measuringTolerance(vast))
                > ShapeRasterizer.maximumMeasuringSteps)
        #expect(ShapeRasterizer.strokeElements(shape, path: vast) == vast.pathElements)
        #expect(Date().timeIntervalSince(start) < 5)
    }
}

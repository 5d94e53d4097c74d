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

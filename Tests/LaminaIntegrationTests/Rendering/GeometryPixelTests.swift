import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import LaminaVulkan
import Testing

/// Pixel-exact checks of what the geometry predicts: fractional edge coverage, opacity, ordering,
/// corner masks, borders, anchor points, perspective, clipping, non-uniform scale, and a random
/// overlapping scene against a CPU reference (which also checks that batching keeps paint order).
///
/// Every render runs in-process with Vulkan validation on and must report no validation message.
/// Coordinates are device pixels, y down; pixel (x, y) has its centre at (x + 0.5, y + 0.5). The clear
/// colour is opaque black.
@Suite(.serialized) struct GeometryPixelTests {
    // MARK: 1. Fractional edge coverage

    /// A white rectangle on black: every pixel is 255 × (x overlap × y overlap) of its unit square.
    @Test(arguments: [
        CGRect(x: 10.25, y: 5.5, width: 20.5, height: 20),  // x 10.25 ... 30.75, y 5.5 ... 25.5
        CGRect(x: 10.5, y: 7.25, width: 9.75, height: 12.5),
        CGRect(x: 10, y: 10, width: 20, height: 20),  // integral: no partial pixels
        CGRect(x: 2.6, y: 30.3, width: 40.3, height: 3.1),
    ])
    func fractionalEdgeCoverage(rect: CGRect) throws {
        try Self.checkCoverage(rect)
    }

    /// Rectangles too thin to split into edge bands and an interior (no whole pixel column or row
    /// inside): the same exact coverage is expected.
    @Test(arguments: [
        CGRect(x: 20.25, y: 20.25, width: 0.5, height: 0.5),  // inside one pixel: 0.25
        CGRect(x: 10.3, y: 5, width: 0.4, height: 20),  // a hairline inside one column: 0.4
        CGRect(x: 10.75, y: 12.9, width: 0.5, height: 3.2),  // straddles a column boundary: 0.25 + 0.25
        CGRect(x: 3.1, y: 30.6, width: 40.3, height: 1.1),  // rows 0.4 and 0.7, corners the products
    ])
    func thinRectangleCoverage(rect: CGRect) throws {
        try Self.checkCoverage(rect)
    }

    /// A white rectangle on black: every pixel is 255 × (x overlap × y overlap) of its unit square.
    static func checkCoverage(_ rect: CGRect, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (w, h) = (48, 40)
        let b = try draw(
            scene(
                width: w, height: h, children: [2],
                RendererTests.layer(2, frame: rect, color: white)), width: w, height: h,
            sourceLocation: sourceLocation)
        var bad: [String] = []
        for y in 0..<h {
            for x in 0..<w {
                let cov =
                    Self.overlap(Double(x), Double(x + 1), rect.minX, rect.maxX)
                    * Self.overlap(Double(y), Double(y + 1), rect.minY, rect.maxY)
                let v = Int((cov * 255).rounded())
                let got = Self.px(b, x, y)
                if !Self.close(got, Self.grey(v), 1) {
                    bad.append("(\(x),\(y)) coverage \(cov) expected \(v) got \(got)")
                }
            }
        }
        #expect(bad.isEmpty, "\(rect): \(bad.count) wrong, first: \(bad.prefix(12))", sourceLocation: sourceLocation)
    }

    /// The values from the brief, spelled out: columns 10 and 30 at 0.75, row 5 at 0.5, corner 0.375.
    @Test func fractionalEdgeCoverageNamedPixels() throws {
        let rect = CGRect(x: 10.25, y: 5.5, width: 20.5, height: 20)
        let b = try Self.draw(
            Self.scene(
                width: 48, height: 40, children: [2],
                RendererTests.layer(2, frame: rect, color: Self.white)), width: 48, height: 40)
        Self.expectPixel(b, 10, 15, Self.grey(191), "left column, 0.75")
        Self.expectPixel(b, 30, 15, Self.grey(191), "right column, 0.75")
        for x in 11...29 { Self.expectPixel(b, x, 15, Self.whitePx, tolerance: 0, "interior") }
        Self.expectPixel(b, 9, 15, Self.black, tolerance: 0)
        Self.expectPixel(b, 31, 15, Self.black, tolerance: 0)
        Self.expectPixel(b, 20, 5, Self.grey(128), "top row, 0.5")
        Self.expectPixel(b, 20, 25, Self.grey(128), "bottom row, 0.5")
        Self.expectPixel(b, 10, 5, Self.grey(96), "corner, 0.75 × 0.5")  // 95.6
        Self.expectPixel(b, 30, 25, Self.grey(96), "corner, 0.75 × 0.5")
    }

    // MARK: 7. anchorPoint

    @Test(arguments: [false, true])
    func anchorPointPlacesAndPivots(rotated: Bool) throws {
        var extra: [LayerProperty] = [.anchorPoint(CGPoint(x: 0, y: 0)), .position(CGPoint(x: 100, y: 100))]
        if rotated { extra.append(.transform(CATransform3DMakeRotation(.pi / 2, 0, 0, 1))) }
        let ops = RendererTests.layer(2, frame: CGRect(x: 0, y: 0, width: 100, height: 50), color: Self.white, extra)
        let b = try Self.draw(Self.scene(width: 240, height: 220, children: [2], ops), width: 240, height: 220)
        // Unrotated: x 100..<200, y 100..<150. Rotated clockwise by 90° about (100, 100): (x, y) ↦
        // (100 − y, 100 + x), so x 50..<100, y 100..<200.
        let area =
            rotated ? CGRect(x: 50, y: 100, width: 50, height: 100) : CGRect(x: 100, y: 100, width: 100, height: 50)
        if rotated {
            Self.expectPixel(b, 75, 150, Self.whitePx, "covered after rotation")
            Self.expectPixel(b, 150, 125, Self.black, "uncovered after rotation")
        } else {
            Self.expectPixel(b, 100, 100, Self.whitePx, tolerance: 0)
            Self.expectPixel(b, 199, 149, Self.whitePx, tolerance: 0)
            Self.expectPixel(b, 99, 120, Self.black, tolerance: 0)
            Self.expectPixel(b, 200, 120, Self.black, tolerance: 0)
            Self.expectPixel(b, 150, 99, Self.black, tolerance: 0)
            Self.expectPixel(b, 150, 150, Self.black, tolerance: 0)
        }
        // Edges are on pixel boundaries, so every pixel is exactly in or out (±1 for the shape path).
        Self.expectRegion(b, fill: Self.whitePx, outside: Self.black, margin: 0.45, "area \(area)") { x, y in
            area.contains(CGPoint(x: x, y: y))
        }
    }

    // MARK: 8. Perspective

    /// Parent with `sublayerTransform.m34 = −1/500`; a 100×100 child at the centre rotated about y.
    /// With Apple's matrices, local x maps to z = −x·sin(angle), so w = 1 + x·sin(angle)/500: for a
    /// positive angle the left edge is nearer (w < 1) and taller on screen.
    @Test(arguments: [Double.pi / 3, -Double.pi / 3])
    func perspectiveNearEdgeIsTaller(angle: Double) throws {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        var ops = RendererTests.layer(
            2, frame: CGRect(x: 0, y: 0, width: 300, height: 200), color: nil,
            [.sublayerTransform(perspective)])
        ops += RendererTests.layer(
            3, frame: CGRect(x: 100, y: 50, width: 100, height: 100), color: Self.white,
            [.transform(CATransform3DMakeRotation(angle, 0, 1, 0))])
        ops.append(.setSublayers(2, [3]))
        let b = try Self.draw(Self.scene(width: 300, height: 200, children: [2], ops), width: 300, height: 200)

        // Projected ends: u = ±50 from the anchor at (150, 100).
        let c = cos(angle), s = sin(angle)
        func project(_ u: Double, _ v: Double) -> (x: Double, y: Double) {
            let w = 1 + u * s / 500
            return (150 + u * c / w, 100 + v / w)
        }
        let leftTop = project(-50, -50), leftBottom = project(-50, 50)
        let rightTop = project(50, -50), rightBottom = project(50, 50)
        let leftHeight = leftBottom.y - leftTop.y, rightHeight = rightBottom.y - rightTop.y
        // Predicted height of the trapezoid at a column centre (its top and bottom edges are straight).
        func predicted(_ x: Double) -> Double {
            let t = (x - leftTop.x) / (rightTop.x - leftTop.x)
            return leftHeight + t * (rightHeight - leftHeight)
        }
        func measured(_ column: Int) -> Int {
            (0..<b.height).filter { Self.px(b, column, $0).r >= 128 }.count
        }
        let leftColumn = Int(leftTop.x.rounded(.up)) + 1, rightColumn = Int(rightTop.x.rounded(.down)) - 2
        let leftMeasured = measured(leftColumn), rightMeasured = measured(rightColumn)
        let nearIsLeft = angle > 0
        #expect((leftHeight > rightHeight) == nearIsLeft)
        if nearIsLeft {
            #expect(leftMeasured > rightMeasured + 10, "near (left) \(leftMeasured) vs far (right) \(rightMeasured)")
        } else {
            #expect(rightMeasured > leftMeasured + 10, "near (right) \(rightMeasured) vs far (left) \(leftMeasured)")
        }
        let lp = predicted(Double(leftColumn) + 0.5), rp = predicted(Double(rightColumn) + 0.5)
        #expect(abs(Double(leftMeasured) - lp) <= 2, "column \(leftColumn): \(leftMeasured) px, predicted \(lp)")
        #expect(abs(Double(rightMeasured) - rp) <= 2, "column \(rightColumn): \(rightMeasured) px, predicted \(rp)")
        // Horizontal extent: projected x from leftTop.x to rightTop.x.
        Self.expectPixel(b, Int(leftTop.x) - 2, 100, Self.black, "left of the projected child")
        Self.expectPixel(b, Int(rightTop.x) + 2, 100, Self.black, "right of the projected child")
        Self.expectPixel(b, 150, 100, Self.whitePx, "centre")
        // Whole shape: a trapezoid with vertical sides.
        Self.expectRegion(b, fill: Self.whitePx, outside: Self.black, "projected child") { x, y in
            guard x >= leftTop.x, x <= rightTop.x else { return false }
            let t = (x - leftTop.x) / (rightTop.x - leftTop.x)
            let top = leftTop.y + t * (rightTop.y - leftTop.y),
                bottom = leftBottom.y + t * (rightBottom.y - leftBottom.y)
            return y >= top && y <= bottom
        }
    }
}

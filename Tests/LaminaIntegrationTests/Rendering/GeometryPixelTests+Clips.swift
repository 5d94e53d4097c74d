import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import LaminaVulkan
import Testing

/// GeometryPixelTests: clips by masksToBounds, fractional and nested.
extension GeometryPixelTests {
    // MARK: 9. masksToBounds

    /// A clip whose device edges are fractional: the clipped child's edge pixels get the clip's exact
    /// coverage.
    @Test(arguments: [CGPoint(x: 10.5, y: 10), CGPoint(x: 10.25, y: 20.75), CGPoint(x: 10.75, y: 5.5)])
    func fractionalRectangularClip(origin: CGPoint) throws {
        let clip = CGRect(origin: origin, size: CGSize(width: 50, height: 40))
        var ops = RendererTests.layer(2, frame: clip, color: nil, [.masksToBounds(true)])
        ops += RendererTests.layer(3, frame: CGRect(x: -30, y: -30, width: 200, height: 200), color: Self.white)
        ops.append(.setSublayers(2, [3]))
        let b = try Self.draw(Self.scene(width: 80, height: 80, children: [2], ops), width: 80, height: 80)
        var bad: [String] = []
        for y in 0..<80 {
            for x in 0..<80 {
                let cov =
                    Self.overlap(Double(x), Double(x + 1), clip.minX, clip.maxX)
                    * Self.overlap(Double(y), Double(y + 1), clip.minY, clip.maxY)
                let v = Int((cov * 255).rounded())
                let got = Self.px(b, x, y)
                if !Self.close(got, Self.grey(v), 2) {
                    bad.append("(\(x),\(y)) coverage \(cov) expected \(v) got \(got)")
                }
            }
        }
        #expect(bad.isEmpty, "clip \(clip): \(bad.count) wrong, first: \(bad.prefix(12))")
        if origin.x == 10.5 {
            Self.expectPixel(b, 10, Int(origin.y) + 20, Self.grey(128), tolerance: 2, "left clip edge, 0.5")
            Self.expectPixel(b, 60, Int(origin.y) + 20, Self.grey(128), tolerance: 2, "right clip edge, 0.5")
        }
    }

    /// Nested clips. In every configuration the inner clip sticks out of the outer one, so pixels
    /// inside the inner clip but outside the outer one must stay background.
    enum NestedClip: String, CaseIterable, Sendable {
        /// Single rotated clip (baseline).
        case rotatedOnly
        /// Rounded clip (radius 20) inside a clip rotated by 45°, in the rotated plane.
        case roundedInRotated
        /// Clip rotated by 45° inside an axis-aligned rounded clip (radius 40).
        case rotatedInRounded
        /// Rounded clip (radius 10) inside a rounded clip (radius 40), both axis-aligned.
        case roundedInRounded
    }

    @Test(arguments: NestedClip.allCases)
    func nestedClips(config: NestedClip) throws {
        let q = sqrt(0.5)
        let rot45 = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        /// Device point to the plane of a layer rotated by 45° about `centre` whose bounds are `size`.
        func unrotate(_ x: Double, _ y: Double, centre: CGPoint, size: CGSize) -> (Double, Double) {
            let dx = x - centre.x, dy = y - centre.y
            return (dx * q + dy * q + size.width / 2, -dx * q + dy * q + size.height / 2)
        }
        var ops: [LayerOperation]
        let inside: (Double, Double) -> Bool
        var innerOnly: (Double, Double) -> Bool = { _, _ in false }
        switch config {
        case .rotatedOnly:
            ops = RendererTests.layer(
                2, frame: CGRect(x: 50, y: 50, width: 100, height: 100), color: nil,
                [.transform(rot45), .masksToBounds(true)])
            ops += RendererTests.layer(4, frame: CGRect(x: -200, y: -200, width: 600, height: 600), color: Self.white)
            ops.append(.setSublayers(2, [4]))
            inside = { x, y in
                let (u, v) = unrotate(x, y, centre: CGPoint(x: 100, y: 100), size: CGSize(width: 100, height: 100))
                return u >= 0 && u <= 100 && v >= 0 && v <= 100
            }
        case .roundedInRotated:
            ops = RendererTests.layer(
                2, frame: CGRect(x: 50, y: 50, width: 100, height: 100), color: nil,
                [.transform(rot45), .masksToBounds(true)])
            // In the outer plane: x −30...130, y 25...75: sticks out on both sides.
            ops += RendererTests.layer(
                3, frame: CGRect(x: -30, y: 25, width: 160, height: 50), color: nil,
                [.cornerRadius(20), .masksToBounds(true)])
            ops += RendererTests.layer(4, frame: CGRect(x: -200, y: -200, width: 600, height: 600), color: Self.white)
            ops += [.setSublayers(2, [3]), .setSublayers(3, [4])]
            func parts(_ x: Double, _ y: Double) -> (Bool, Bool) {
                let (u, v) = unrotate(x, y, centre: CGPoint(x: 100, y: 100), size: CGSize(width: 100, height: 100))
                return (
                    u >= 0 && u <= 100 && v >= 0 && v <= 100,
                    Self.roundedContains(u, v, CGRect(x: -30, y: 25, width: 160, height: 50), radius: 20)
                )
            }
            inside = { x, y in
                let (a, b) = parts(x, y); return a && b
            }
            innerOnly = { x, y in
                let (a, b) = parts(x, y); return !a && b
            }
        case .rotatedInRounded:
            let outer = CGRect(x: 40, y: 40, width: 120, height: 120)
            ops = RendererTests.layer(2, frame: outer, color: nil, [.cornerRadius(40), .masksToBounds(true)])
            // A 150×40 bar through the centre along the diagonal, reaching into the rounded corners.
            ops += RendererTests.layer(
                3, frame: CGRect(x: -15, y: 40, width: 150, height: 40), color: nil,
                [.transform(rot45), .masksToBounds(true)])
            ops += RendererTests.layer(4, frame: CGRect(x: -200, y: -200, width: 600, height: 600), color: Self.white)
            ops += [.setSublayers(2, [3]), .setSublayers(3, [4])]
            func parts(_ x: Double, _ y: Double) -> (Bool, Bool) {
                let (u, v) = unrotate(x, y, centre: CGPoint(x: 100, y: 100), size: CGSize(width: 150, height: 40))
                return (Self.roundedContains(x, y, outer, radius: 40), u >= 0 && u <= 150 && v >= 0 && v <= 40)
            }
            inside = { x, y in
                let (a, b) = parts(x, y); return a && b
            }
            innerOnly = { x, y in
                let (a, b) = parts(x, y); return !a && b
            }
        case .roundedInRounded:
            let outer = CGRect(x: 40, y: 40, width: 120, height: 120)
            ops = RendererTests.layer(2, frame: outer, color: nil, [.cornerRadius(40), .masksToBounds(true)])
            // On screen x 20...180, y 50...150: wider than the outer clip, into its rounded corners.
            ops += RendererTests.layer(
                3, frame: CGRect(x: -20, y: 10, width: 160, height: 100), color: nil,
                [.cornerRadius(10), .masksToBounds(true)])
            ops += RendererTests.layer(4, frame: CGRect(x: -200, y: -200, width: 600, height: 600), color: Self.white)
            ops += [.setSublayers(2, [3]), .setSublayers(3, [4])]
            let innerRect = CGRect(x: 20, y: 50, width: 160, height: 100)
            func parts(_ x: Double, _ y: Double) -> (Bool, Bool) {
                (Self.roundedContains(x, y, outer, radius: 40), Self.roundedContains(x, y, innerRect, radius: 10))
            }
            inside = { x, y in
                let (a, b) = parts(x, y); return a && b
            }
            innerOnly = { x, y in
                let (a, b) = parts(x, y); return !a && b
            }
        }
        let b = try Self.draw(Self.scene(width: 200, height: 200, children: [2], ops), width: 200, height: 200)
        let counts = Self.expectRegion(b, fill: Self.whitePx, outside: Self.black, tolerance: 2, "\(config)", inside)
        #expect(counts.inside > 500 && counts.outside > 500)
        // The pixels that only the inner clip would let through, counted separately for the report.
        var leaked: [String] = []
        var candidates = 0
        for y in 0..<200 {
            for x in 0..<200 where Self.classify(x, y, margin: 1.5, innerOnly) == true {
                candidates += 1
                let got = Self.px(b, x, y)
                if !Self.close(got, Self.black, 2) { leaked.append("(\(x),\(y)) \(got)") }
            }
        }
        if config != .rotatedOnly { #expect(candidates > 0, "the scene should have pixels only the inner clip admits") }
        #expect(
            leaked.isEmpty,
            "\(config): \(leaked.count) of \(candidates) pixels outside the outer clip are drawn, first: \(leaked.prefix(8))"
        )
    }
}

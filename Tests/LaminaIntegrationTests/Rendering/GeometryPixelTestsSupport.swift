import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import LaminaVulkan
import Testing

/// What the GeometryPixelTests files share: colours, scenes, rendering, and pixel and region checks.
extension GeometryPixelTests {
    // MARK: Helpers

    static let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
    static let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let green = RGBAColor(red: 0, green: 1, blue: 0, alpha: 1)
    static let blue = RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)
    typealias Pixel = (r: Int, g: Int, b: Int, a: Int)

    /// Root layer 1 (no background) spanning the display, with `children` as sublayers, then `ops`.
    static func scene(width: Int, height: Int, children: [LayerID], _ ops: [LayerOperation]) -> [LayerOperation] {
        RendererTests.layer(1, frame: CGRect(x: 0, y: 0, width: width, height: height), color: nil)
            + ops + [.setSublayers(1, children), .setRoot(display: 0, layer: 1)]
    }

    /// Renders and expects no validation message.
    static func draw(
        _ ops: [LayerOperation], width: Int, height: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Bitmap {
        let (bitmap, messages) = try RendererTests.render(ops, width: width, height: height)
        #expect(messages.isEmpty, "validation: \(messages)", sourceLocation: sourceLocation)
        return bitmap
    }

    static func px(_ b: Bitmap, _ x: Int, _ y: Int) -> Pixel {
        let (r, g, bl, a) = b.rgba(x: x, y: y)
        return (Int(r), Int(g), Int(bl), Int(a))
    }

    static func close(_ p: Pixel, _ q: Pixel, _ tolerance: Int) -> Bool {
        abs(p.r - q.r) <= tolerance && abs(p.g - q.g) <= tolerance && abs(p.b - q.b) <= tolerance
            && abs(p.a - q.a) <= tolerance
    }

    static func grey(_ v: Int) -> Pixel { (v, v, v, 255) }
    static let black: Pixel = (0, 0, 0, 255)
    static let whitePx: Pixel = (255, 255, 255, 255)

    /// Expects the pixel at (x, y) within `tolerance` of `expected` per channel.
    static func expectPixel(
        _ b: Bitmap, _ x: Int, _ y: Int, _ expected: Pixel, tolerance: Int = 1,
        _ note: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let got = px(b, x, y)
        let expectation = PixelExpectation(
            red: expected.r, green: expected.g, blue: expected.b, alpha: expected.a,
            tolerance: tolerance)
        if let failure = expectation.mismatch(actual: [got.r, got.g, got.b, got.a], x: x, y: y, note: note) {
            Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
        }
    }

    /// Length of the overlap of [a0, a1] and [b0, b1].
    static func overlap(_ a0: Double, _ a1: Double, _ b0: Double, _ b1: Double) -> Double {
        max(0, min(a1, b1) - max(a0, b0))
    }

    /// Signed distance to a rounded rectangle (negative inside), as the shaders define it.
    static func roundedDistance(_ x: Double, _ y: Double, _ r: CGRect, radius: Double) -> Double {
        let qx = abs(x - r.midX) - r.width / 2 + radius
        let qy = abs(y - r.midY) - r.height / 2 + radius
        return hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - radius
    }

    /// Rounded rectangle containment with per-corner radii (mask bits as `CACornerMask`).
    static func roundedContains(
        _ x: Double, _ y: Double, _ r: CGRect, radius: Double,
        mask: CACornerMask = .all
    ) -> Bool {
        let left = x < r.midX, top = y < r.midY
        let bit: CACornerMask =
            left
            ? (top ? .layerMinXMinYCorner : .layerMinXMaxYCorner)
            : (top ? .layerMaxXMinYCorner : .layerMaxXMaxYCorner)
        return roundedDistance(x, y, r, radius: mask.contains(bit) ? radius : 0) < 0
    }

    /// Classifies pixel (x, y) by sampling `region` on a 3×3 grid spanning ±`margin` around its centre:
    /// the region index when all samples agree, nil otherwise (the anti-aliased band, not checked).
    static func classify(_ x: Int, _ y: Int, margin: Double = 1.0, _ region: (Double, Double) -> Int) -> Int? {
        let first = region(Double(x) + 0.5, Double(y) + 0.5)
        for dy in [-margin, 0, margin] {
            for dx in [-margin, 0, margin] where region(Double(x) + 0.5 + dx, Double(y) + 0.5 + dy) != first {
                return nil
            }
        }
        return first
    }

    static func classify(_ x: Int, _ y: Int, margin: Double = 1.0, _ inside: (Double, Double) -> Bool) -> Bool? {
        classify(x, y, margin: margin) { inside($0, $1) ? 1 : 0 }.map { $0 == 1 }
    }

    /// Checks every pixel that lies clearly within one region (`region` returns an index into `colors`,
    /// or −1 for "not checked") has that region's colour. Returns how many pixels each region checked.
    @discardableResult
    static func expectRegions(
        _ b: Bitmap, _ colors: [Pixel], tolerance: Int = 1, margin: Double = 1.0,
        _ note: String = "", sourceLocation: SourceLocation = #_sourceLocation,
        _ region: (Double, Double) -> Int
    ) -> [Int] {
        var bad: [String] = []
        var counts = [Int](repeating: 0, count: colors.count)
        for y in 0..<b.height {
            for x in 0..<b.width {
                guard let i = classify(x, y, margin: margin, region), i >= 0 else { continue }
                counts[i] += 1
                let got = px(b, x, y)
                if !close(got, colors[i], tolerance) {
                    bad.append("(\(x),\(y)) expected \(colors[i]) got \(got)")
                }
            }
        }
        #expect(
            bad.isEmpty, "\(note): \(bad.count) wrong pixels, first: \(bad.prefix(12))", sourceLocation: sourceLocation)
        return counts
    }

    /// Two regions: `fill` where `inside`, `outside` elsewhere.
    @discardableResult
    static func expectRegion(
        _ b: Bitmap, fill: Pixel, outside: Pixel, tolerance: Int = 1, margin: Double = 1.0,
        _ note: String = "", sourceLocation: SourceLocation = #_sourceLocation,
        _ inside: (Double, Double) -> Bool
    ) -> (inside: Int, outside: Int) {
        let c = expectRegions(
            b, [outside, fill], tolerance: tolerance, margin: margin, note,
            sourceLocation: sourceLocation
        ) { inside($0, $1) ? 1 : 0 }
        return (c[1], c[0])
    }
}

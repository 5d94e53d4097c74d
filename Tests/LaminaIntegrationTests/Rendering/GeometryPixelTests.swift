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

    // MARK: 2. Opacity

    /// A chain of nested layers with these opacities; only the innermost has a (white) background.
    @Test(arguments: [[0.5, 0.5], [1, 0.5], [0.5, 1], [0.5, 0.5, 0.5], [0.8, 0.25], [0.4]] as [[Float]])
    func opacityMultipliesDownTheTree(chain: [Float]) throws {
        var ops: [LayerOperation] = []
        for (i, opacity) in chain.enumerated() {
            let id = LayerID(2 + i), last = i == chain.count - 1
            // Each nested layer has the same frame in its parent's coordinates as the first does at
            // the origin, so the innermost covers (20, 20, 60, 60) on screen.
            let frame = i == 0 ? CGRect(x: 20, y: 20, width: 60, height: 60) : CGRect(x: 0, y: 0, width: 60, height: 60)
            ops += RendererTests.layer(id, frame: frame, color: last ? Self.white : nil, [.opacity(opacity)])
            if !last { ops.append(.setSublayers(id, [id + 1])) }
        }
        let b = try Self.draw(Self.scene(width: 100, height: 100, children: [2], ops), width: 100, height: 100)
        let product = chain.reduce(Double(1)) { $0 * Double($1) }
        let v = Int((product * 255).rounded())
        for (x, y) in [(20, 20), (50, 50), (79, 79)] {
            Self.expectPixel(b, x, y, Self.grey(v), "opacity product \(product)")
        }
        Self.expectPixel(b, 19, 50, Self.black, tolerance: 0)
        Self.expectPixel(b, 80, 50, Self.black, tolerance: 0)
    }

    // MARK: 3. zPosition

    struct ZCase: Sendable, CustomTestStringConvertible {
        var zFirst: CGFloat, zSecond: CGFloat, firstOnTop: Bool
        var testDescription: String { "z \(zFirst) / \(zSecond) -> \(firstOnTop ? "first" : "second") on top" }
    }

    @Test(arguments: [
        ZCase(zFirst: 1, zSecond: 0, firstOnTop: true),
        ZCase(zFirst: 0, zSecond: 0, firstOnTop: false),
        ZCase(zFirst: 0.5, zSecond: 0.5, firstOnTop: false),
        ZCase(zFirst: 0, zSecond: -1, firstOnTop: true),
        ZCase(zFirst: -1, zSecond: 0, firstOnTop: false),
        ZCase(zFirst: 0, zSecond: 1, firstOnTop: false),
    ])
    func zPositionOrdersSiblings(c: ZCase) throws {
        var ops = RendererTests.layer(
            2, frame: CGRect(x: 20, y: 20, width: 80, height: 80), color: Self.red,
            [.zPosition(c.zFirst)])
        ops += RendererTests.layer(
            3, frame: CGRect(x: 60, y: 60, width: 80, height: 80), color: Self.green,
            [.zPosition(c.zSecond)])
        let b = try Self.draw(Self.scene(width: 160, height: 160, children: [2, 3], ops), width: 160, height: 160)
        let redPx: Pixel = (255, 0, 0, 255), greenPx: Pixel = (0, 255, 0, 255)
        Self.expectPixel(b, 80, 80, c.firstOnTop ? redPx : greenPx, tolerance: 0, "overlap")
        Self.expectPixel(b, 61, 99, c.firstOnTop ? redPx : greenPx, tolerance: 0, "overlap")
        Self.expectPixel(b, 30, 30, redPx, tolerance: 0, "first only")
        Self.expectPixel(b, 130, 130, greenPx, tolerance: 0, "second only")
    }

    // MARK: 4. isHidden and opacity 0

    @Test(arguments: ["hidden", "opacity0"], [true, false])
    func hiddenAndTransparentDrawNothing(how: String, onParent: Bool) throws {
        let property: LayerProperty = how == "hidden" ? .isHidden(true) : .opacity(0)
        // Parent red (20, 20, 100, 100) with a green child (50, 50, 40, 40) on screen; a blue sibling.
        var ops = RendererTests.layer(
            2, frame: CGRect(x: 20, y: 20, width: 100, height: 100), color: Self.red,
            onParent ? [property] : [])
        ops += RendererTests.layer(
            3, frame: CGRect(x: 30, y: 30, width: 40, height: 40), color: Self.green,
            onParent ? [] : [property])
        ops += RendererTests.layer(4, frame: CGRect(x: 130, y: 130, width: 40, height: 40), color: Self.blue)
        ops.append(.setSublayers(2, [3]))
        let b = try Self.draw(Self.scene(width: 180, height: 180, children: [2, 4], ops), width: 180, height: 180)
        let redPx: Pixel = (255, 0, 0, 255)
        Self.expectPixel(b, 70, 70, onParent ? Self.black : redPx, tolerance: 0, "under the child")
        Self.expectPixel(b, 25, 25, onParent ? Self.black : redPx, tolerance: 0, "parent only")
        Self.expectPixel(b, 150, 150, (0, 0, 255, 255), tolerance: 0, "sibling stays")
        if onParent {
            // Nothing of the subtree anywhere.
            Self.expectRegions(b, [Self.black], tolerance: 0, "subtree gone") { x, y in
                x < 125 && y < 125 ? 0 : -1
            }
        }
    }

    // MARK: 5. maskedCorners

    /// Screen corner (0 TL, 1 TR, 2 BL, 3 BR) of layer corner `corner` under a transform kind.
    static func screenCorner(_ corner: Int, _ kind: String) -> Int {
        switch kind {
        case "flipX": corner ^ 1
        case "flipY": corner ^ 2
        case "rotate180": corner ^ 3
        default: corner
        }
    }

    @Test(arguments: [0, 1, 2, 3], ["identity", "flipX", "flipY", "rotate180"])
    func maskedCornersFollowTheTransform(corner: Int, kind: String) throws {
        let transform: CATransform3D =
            switch kind {
            case "flipX": CATransform3DMakeScale(-1, 1, 1)
            case "flipY": CATransform3DMakeScale(1, -1, 1)
            case "rotate180": CATransform3DMakeRotation(.pi, 0, 0, 1)  // not exactly axis aligned: shape path
            default: CATransform3DIdentity
            }
        let mask = CACornerMask(rawValue: 1 << UInt(corner))
        let frame = CGRect(x: 50, y: 40, width: 100, height: 80)
        let ops = RendererTests.layer(
            2, frame: frame, color: Self.white,
            [.cornerRadius(20), .maskedCorners(mask), .transform(transform)])
        let b = try Self.draw(Self.scene(width: 200, height: 160, children: [2], ops), width: 200, height: 160)
        let rounded = Self.screenCorner(corner, kind)
        // Corner pixels and their diagonal neighbours (centre 26 px from the arc centre, radius 20).
        let pixels = [
            [(50, 40), (51, 41)], [(149, 40), (148, 41)], [(50, 119), (51, 118)], [(149, 119), (148, 118)],
        ]
        for (i, list) in pixels.enumerated() {
            for (x, y) in list {
                Self.expectPixel(
                    b, x, y, i == rounded ? Self.black : Self.whitePx, tolerance: 1,
                    "screen corner \(i), rounded corner should be \(rounded)")
            }
        }
        // The whole shape: the rounded corner on screen is the one the mask names after the transform.
        let screenMask = CACornerMask(rawValue: 1 << UInt(rounded))
        Self.expectRegion(b, fill: Self.whitePx, outside: Self.black, "mask \(corner) \(kind)") { x, y in
            Self.roundedContains(x, y, frame, radius: 20, mask: screenMask)
        }
    }

    // MARK: 6. Border

    @Test(arguments: [0, 20] as [CGFloat], [true, false])
    func borderRing(radius: CGFloat, leaf: Bool) throws {
        let frame = CGRect(x: 40, y: 40, width: 100, height: 80)  // pixels 40...139 × 40...119
        var ops = RendererTests.layer(
            2, frame: frame, color: Self.blue,
            [.borderWidth(5), .borderColor(Self.red), .cornerRadius(radius)])
        if !leaf {
            // A sublayer well inside makes the border a separate primitive drawn after the children.
            ops += RendererTests.layer(3, frame: CGRect(x: 45, y: 35, width: 10, height: 10), color: Self.green)
            ops.append(.setSublayers(2, [3]))
        }
        let b = try Self.draw(Self.scene(width: 180, height: 160, children: [2], ops), width: 180, height: 160)
        let redPx: Pixel = (255, 0, 0, 255), bluePx: Pixel = (0, 0, 255, 255)
        for i in 0...4 {
            Self.expectPixel(b, 40 + i, 80, redPx, "left border, \(i) in")
            Self.expectPixel(b, 139 - i, 80, redPx, "right border, \(i) in")
            Self.expectPixel(b, 90, 40 + i, redPx, "top border, \(i) in")
            Self.expectPixel(b, 90, 119 - i, redPx, "bottom border, \(i) in")
        }
        Self.expectPixel(b, 45, 80, bluePx, "5 in from left")
        Self.expectPixel(b, 134, 80, bluePx, "5 in from right")
        Self.expectPixel(b, 90, 45, bluePx, "5 in from top")
        Self.expectPixel(b, 90, 114, bluePx, "5 in from bottom")
        Self.expectPixel(b, 39, 80, Self.black, tolerance: 0)
        Self.expectPixel(b, 140, 80, Self.black, tolerance: 0)
        if !leaf { Self.expectPixel(b, 90, 80, (0, 255, 0, 255), "child") }
        let corners = [(40, 40, 1, 1), (139, 40, -1, 1), (40, 119, 1, -1), (139, 119, -1, -1)]
        for (cx, cy, sx, sy) in corners {
            if radius == 0 {
                Self.expectPixel(b, cx, cy, redPx, "square corner is border")
                Self.expectPixel(b, cx + 5 * sx, cy + 5 * sy, bluePx, "inside the square corner")
            } else {
                Self.expectPixel(b, cx, cy, Self.black, "outer corner pixel is background")
                // On the diagonal 17.7 px from the arc centre: between the inner (15) and outer (20) arcs.
                Self.expectPixel(b, cx + 7 * sx, cy + 7 * sy, redPx, "diagonal, inside the rounded border")
                // 10.6 px from the arc centre: inside the inner arc.
                Self.expectPixel(b, cx + 12 * sx, cy + 12 * sy, bluePx, "inside the inner arc")
            }
        }
        // Whole-image check: ring red, interior blue (the child aside), outside black.
        let inner = frame.insetBy(dx: 5, dy: 5)
        let innerRadius = max(radius - 5, 0)
        let child = CGRect(x: 85, y: 75, width: 10, height: 10)
        Self.expectRegions(b, [Self.black, redPx, bluePx, (0, 255, 0, 255)], "border \(radius) leaf \(leaf)") { x, y in
            if !Self.roundedContains(x, y, frame, radius: radius) { return 0 }
            if !Self.roundedContains(x, y, inner, radius: innerRadius) { return 1 }
            return !leaf && child.contains(CGPoint(x: x, y: y)) ? 3 : 2
        }
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

    // MARK: 10. Non-uniform scale

    struct ScaleCase: Sendable, CustomTestStringConvertible {
        var sx: CGFloat, sy: CGFloat, border: Bool
        var testDescription: String { "scale \(sx) × \(sy)\(border ? " with border" : "")" }
    }

    /// A 50×40 rounded rectangle (radius 10) at the centre, scaled about its centre: the corners become
    /// ellipses with radii 10·|sx| and 10·|sy|.
    @Test(arguments: [
        ScaleCase(sx: 2, sy: 1, border: false), ScaleCase(sx: 1, sy: 2, border: false),
        ScaleCase(sx: 3, sy: 0.5, border: false), ScaleCase(sx: -2, sy: 1, border: false),
        ScaleCase(sx: 2, sy: 1, border: true),
    ])
    func nonUniformScaleMakesEllipticalCorners(c: ScaleCase) throws {
        var extra: [LayerProperty] = [.cornerRadius(10), .transform(CATransform3DMakeScale(c.sx, c.sy, 1))]
        if c.border { extra += [.borderWidth(3), .borderColor(Self.red)] }
        let ops = RendererTests.layer(2, frame: CGRect(x: 95, y: 80, width: 50, height: 40), color: Self.white, extra)
        let b = try Self.draw(Self.scene(width: 240, height: 200, children: [2], ops), width: 240, height: 200)
        let w = 50 * abs(c.sx), h = 40 * abs(c.sy)
        let device = CGRect(x: 120 - w / 2, y: 100 - h / 2, width: w, height: h)
        let (l, t, r, bt) = (Int(device.minX), Int(device.minY), Int(device.maxX) - 1, Int(device.maxY) - 1)
        for (x, y) in [(l, t), (r, t), (l, bt), (r, bt)] {
            Self.expectPixel(b, x, y, Self.black, "corner pixel of \(device)")
        }
        Self.expectPixel(b, 120, 100, Self.whitePx, "middle")
        // Layer coordinates of a device point.
        func local(_ x: Double, _ y: Double) -> (Double, Double) { ((x - 120) / c.sx + 25, (y - 100) / c.sy + 20) }
        let bounds = CGRect(x: 0, y: 0, width: 50, height: 40)
        if c.border {
            let redPx: Pixel = (255, 0, 0, 255)
            Self.expectPixel(b, 120, t + 1, redPx, "top border band (3 px)")
            Self.expectPixel(b, l + 2, 100, redPx, "left border band (6 px)")
            Self.expectPixel(b, l + 7, 100, Self.whitePx, "inside the left border band")
            Self.expectRegions(b, [Self.black, redPx, Self.whitePx], "ring over white") { x, y in
                let (u, v) = local(x, y)
                if !Self.roundedContains(u, v, bounds, radius: 10) { return 0 }
                // The ring is 3 layer units wide: 6 px at the sides, 3 px at top and bottom.
                return Self.roundedContains(u, v, bounds.insetBy(dx: 3, dy: 3), radius: 7) ? 2 : 1
            }
        } else {
            // An elliptical corner point: 45° on the ellipse is at 0.29·radius in from each edge of the
            // corner box; a little further in is inside.
            let rx = 10 * abs(c.sx), ry = 10 * abs(c.sy)
            let inX = device.minX + rx * 0.29 + 1.5, inY = device.minY + ry * 0.29 + 1.5
            if rx * 0.29 > 3, ry * 0.29 > 2 {
                Self.expectPixel(b, Int(inX), Int(inY), Self.whitePx, tolerance: 2, "just inside the ellipse")
            }
            Self.expectRegion(b, fill: Self.whitePx, outside: Self.black, "elliptical rounded rect") { x, y in
                let (u, v) = local(x, y)
                return Self.roundedContains(u, v, bounds, radius: 10)
            }
        }
    }

    // MARK: 11. Random overlapping scene against a CPU reference

    struct RandomLayer {
        var frame: CGRect
        var radius: Double
        var fill: RGBAColor
        var borderWidth: Double
        var border: RGBAColor?
        var z: CGFloat
    }

    static func randomLayers(seed: UInt64, count: Int) -> [RandomLayer] {
        var rng = SplitMix64(seed: seed)
        func color(opaqueChance: Double) -> RGBAColor {
            let alpha =
                Double.random(in: 0...1, using: &rng) < opaqueChance ? 1 : Double.random(in: 0.15...1, using: &rng)
            return RGBAColor(
                red: .random(in: 0...1, using: &rng), green: .random(in: 0...1, using: &rng),
                blue: .random(in: 0...1, using: &rng), alpha: alpha)
        }
        return (0..<count).map { _ in
            let w = Double.random(in: 3...50, using: &rng), h = Double.random(in: 3...40, using: &rng)
            let frame = CGRect(
                x: .random(in: -10...150, using: &rng), y: .random(in: -10...110, using: &rng),
                width: w, height: h)
            let half = min(w, h) / 2
            let radius = Bool.random(using: &rng) ? 0 : Double.random(in: 0...half, using: &rng)
            let hasBorder = Double.random(in: 0...1, using: &rng) < 0.25
            let borderWidth = hasBorder ? min(Double.random(in: 0.5...4, using: &rng), half) : 0
            let z: CGFloat =
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: 1;
                case 1: -1;
                default: 0
                }
            return RandomLayer(
                frame: frame, radius: radius, fill: color(opaqueChance: 0.3), borderWidth: borderWidth,
                border: hasBorder ? color(opaqueChance: 0.5) : nil, z: z)
        }
    }

    static func randomScene(_ layers: [RandomLayer], width: Int, height: Int) -> [LayerOperation] {
        var ops: [LayerOperation] = []
        for (i, l) in layers.enumerated() {
            var extra: [LayerProperty] = [.cornerRadius(l.radius), .zPosition(l.z)]
            if let border = l.border { extra += [.borderWidth(l.borderWidth), .borderColor(border)] }
            ops += RendererTests.layer(LayerID(2 + i), frame: l.frame, color: l.fill, extra)
        }
        return scene(width: width, height: height, children: (0..<layers.count).map { LayerID(2 + $0) }, ops)
    }

    /// Back-to-front "over" compositing at pixel centres, 8-bit quantised after every layer as the
    /// blender is; nil where a pixel centre is within 1.5 px of any edge (anti-aliasing not modelled).
    static func reference(_ layers: [RandomLayer], width: Int, height: Int) -> [SIMD4<Double>?] {
        let order = layers.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }.map(\.element)
        func quantise(_ v: SIMD4<Double>) -> SIMD4<Double> { (v * 255).rounded(.toNearestOrEven) / 255 }
        func premultiplied(_ c: RGBAColor) -> SIMD4<Double> {
            SIMD4(c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
        }
        var out: [SIMD4<Double>?] = []
        out.reserveCapacity(width * height)
        for py in 0..<height {
            for px in 0..<width {
                let x = Double(px) + 0.5, y = Double(py) + 0.5
                var dst = SIMD4<Double>(0, 0, 0, 1)
                var ambiguous = false
                for l in order {
                    let d = roundedDistance(x, y, l.frame, radius: l.radius)
                    if abs(d) < 1.5 { ambiguous = true; break }
                    guard d < 0 else { continue }
                    let f = premultiplied(l.fill)
                    dst = quantise(f + dst * (1 - f.w))
                    if let border = l.border {
                        let inner = l.frame.insetBy(dx: l.borderWidth, dy: l.borderWidth)
                        let di = roundedDistance(x, y, inner, radius: max(l.radius - l.borderWidth, 0))
                        if abs(di) < 1.5 { ambiguous = true; break }
                        if di > 0 {
                            let bc = premultiplied(border)
                            dst = quantise(bc + dst * (1 - bc.w))
                        }
                    }
                }
                out.append(ambiguous ? nil : dst)
            }
        }
        return out
    }

    @Test(arguments: [1, 2, 3, 42] as [UInt64])
    func randomOverlappingLayersMatchReference(seed: UInt64) throws {
        let (w, h) = (160, 120)
        let layers = Self.randomLayers(seed: seed, count: 200)
        let b = try Self.draw(Self.randomScene(layers, width: w, height: h), width: w, height: h)
        let expected = Self.reference(layers, width: w, height: h)
        var compared = 0
        var bad: [String] = []
        for y in 0..<h {
            for x in 0..<w {
                guard let e = expected[y * w + x] else { continue }
                compared += 1
                let ep: Pixel = (
                    Int((e.x * 255).rounded()), Int((e.y * 255).rounded()), Int((e.z * 255).rounded()),
                    Int((e.w * 255).rounded())
                )
                let got = Self.px(b, x, y)
                if !Self.close(got, ep, 2) { bad.append("(\(x),\(y)) expected \(ep) got \(got)") }
            }
        }
        #expect(compared >= 800, "only \(compared) pixels far from every edge")
        #expect(bad.isEmpty, "seed \(seed): \(bad.count) of \(compared) pixels differ, first: \(bad.prefix(12))")
    }

    /// The display list of the random scene is well formed: every instance is drawn exactly once, by a
    /// batch of its own kind, and no batch is empty.
    @Test(arguments: [1, 42] as [UInt64])
    func randomSceneBatchesCoverEveryInstanceOnce(seed: UInt64) throws {
        let tree = try RenderTree().applying(
            Self.randomScene(
                Self.randomLayers(seed: seed, count: 200),
                width: 160, height: 120), displayCount: 1)
        let list = DisplayListBuilder.build(
            trees: [tree], display: 0, width: 160, height: 120,
            clearColor: SIMD4(0, 0, 0, 1))
        // Draws per instance, by kind.
        var draws = list.instances.map { [Int](repeating: 0, count: $0.count) }
        let fills =
            list.instances(of: .opaqueFill, as: FillInstance.self)
            + list.instances(of: .blendedFill, as: FillInstance.self)
        for batch in list.batches {
            #expect(!batch.instances.isEmpty)
            for i in batch.instances.map(Int.init) {
                draws[batch.kind][i] += 1
                if batch.kind == DrawKind.opaqueFill.id || batch.kind == DrawKind.blendedFill.id {
                    let fill = list.instances[batch.kind].instance(i, as: FillInstance.self)
                    #expect(
                        (batch.kind == DrawKind.opaqueFill.id) == (fill.color.w >= 1),
                        "fill \(i) in a \(DrawKind.all[batch.kind].name) batch")
                }
            }
        }
        #expect(draws.allSatisfy { $0.allSatisfy { $0 == 1 } })
        #expect(fills.count > 200 && list.instances[DrawKind.corner.id].count > 0, "scene exercises fills and corners")
        #expect(list.batches.count < list.instanceCount / 4, "batching groups instances")
    }
}

import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import LaminaVulkan
import Testing

/// GeometryPixelTests: corner masks, borders, and the elliptical corners of a non-uniform scale.
extension GeometryPixelTests {
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
}

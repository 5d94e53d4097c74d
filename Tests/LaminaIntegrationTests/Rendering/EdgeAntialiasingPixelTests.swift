import Foundation
import Lamina
import LaminaCore
import LaminaProtocol
import LaminaServer
import Testing

/// `allowsEdgeAntialiasing` and `edgeAntialiasingMask` (docs/rendering.md, "Edge anti-aliasing"): a
/// white 20×20 layer turned by 30° over black, drawn by the Vulkan renderer with validation on. Each
/// pixel's centre is mapped back into the layer's plane here, so the test knows which edge is nearest
/// and, for a hard edge, whether the pixel-centre rule covers it.
///
/// Apple: `allowsEdgeAntialiasing` "When the value is true, the layer is allowed to antialias its
/// edges, as requested by the value in the edgeAntialiasingMask property" (its default on iOS comes
/// from the app's Info.plist and is false without the key; Lamina's is true, docs/apple-differences.md);
/// `edgeAntialiasingMask` "defines how the edges of the receiver are rasterized ... By default, all
/// edges are antialiased", with `kCALayerLeftEdge` 1, `kCALayerRightEdge` 2, `kCALayerBottomEdge` 4,
/// `kCALayerTopEdge` 8.
@Suite(.serialized) struct EdgeAntialiasingPixelTests {
    /// The layer's frame: 20×20 about (30, 20), turned by 30°.
    static let side = 20.0
    static let centre = CGPoint(x: 30, y: 20)
    static let turn = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)

    /// A pixel centre in the layer's plane, the nearest edge's Apple bit, the signed distance to the
    /// square's outline (negative inside), and whether the centre is more than 2 points from the
    /// square's corners along that edge (where only that edge is near).
    static func place(_ x: Int, _ y: Int) -> (edge: UInt32, distance: Double, alongEdge: Bool) {
        let u = Double(x) + 0.5 - centre.x, v = Double(y) + 0.5 - centre.y
        let m = turn
        // The turn is orthonormal: its inverse is its transpose (Apple's row vectors).
        let lx = u * m.m11 + v * m.m12 + side / 2, ly = u * m.m21 + v * m.m22 + side / 2
        let dx = lx - side / 2, dy = ly - side / 2
        let qx = abs(dx) - side / 2, qy = abs(dy) - side / 2
        let edge: UInt32 = qx > qy ? (dx < 0 ? 1 : 2) : (dy < 0 ? 4 : 8)
        let distance = hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0)
        let along = edge < 4 ? ly : lx
        return (edge, distance, along > 2 && along < side - 2)
    }

    /// What paints the white square: its background (`shape` kind), a white image as its contents
    /// (`imageShape`), or a gradient layer's fill from white to white (`gradient`).
    enum Paint: CaseIterable { case background, contents, gradient }

    /// The red channel of every pixel near the outline (within 2 pixels), with its place.
    static func edgePixels(_ properties: [LayerProperty], paint: Paint = .background) throws -> [(
        value: Int, edge: UInt32, distance: Double, alongEdge: Bool
    )] {
        let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
        let contents = paint == .contents
        var ops = RendererTests.layer(
            2, frame: CGRect(x: centre.x - side / 2, y: centre.y - side / 2, width: side, height: side),
            color: paint == .background ? white : nil, [.transform(turn)] + properties)
        if paint == .gradient {
            ops = [.createLayer(2, .gradient), .set(2, .colors([white, white]))] + ops.dropFirst()
        }
        let image = (4, 4, [UInt8](repeating: 255, count: 64))
        let frame = try OffscreenPassPixelTests.draw(
            ops, children: [2], images: contents ? [9: image] : [:], contents: contents ? [2: 9] : [:])
        var out: [(Int, UInt32, Double, Bool)] = []
        for y in 0..<frame.bitmap.height {
            for x in 0..<frame.bitmap.width {
                let (edge, distance, along) = place(x, y)
                guard abs(distance) < 2 else { continue }
                out.append((Int(frame.bitmap.rgba(x: x, y: y).2), edge, distance, along))
            }
        }
        return out
    }

    /// Whether a hard edge's pixel is what the pixel-centre rule gives: 255 inside, 0 outside (centres
    /// within 0.01 of the outline are left out: rounding decides them).
    static func followsCentreRule(_ p: (value: Int, edge: UInt32, distance: Double, alongEdge: Bool)) -> Bool {
        abs(p.distance) < 0.01 || p.value == (p.distance < 0 ? 255 : 0)
    }

    /// The default: every edge has pixels of partial coverage.
    @Test(arguments: Paint.allCases)
    func antialiasedEdgesHavePartialPixels(paint: Paint) throws {
        let pixels = try Self.edgePixels([], paint: paint)
        for edge: UInt32 in [1, 2, 4, 8] {
            let partial = pixels.filter { $0.edge == edge && $0.value > 0 && $0.value < 255 }
            #expect(partial.count >= 5, "edge \(edge): \(partial.count) partial pixels")
        }
    }

    /// `allowsEdgeAntialiasing = false`: every pixel is the background or the layer's colour, as the
    /// pixel-centre rule says, for the background, contents and a gradient.
    @Test(arguments: Paint.allCases)
    func withoutAntialiasingEveryPixelIsWhole(paint: Paint) throws {
        let pixels = try Self.edgePixels([.allowsEdgeAntialiasing(false)], paint: paint)
        #expect(pixels.count > 100)
        let wrong = pixels.filter { !Self.followsCentreRule($0) }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    /// A mask without the left edge: that edge is hard (away from its corners, where a soft neighbour's
    /// anti-aliasing reaches), the three others stay soft.
    @Test(arguments: Paint.allCases)
    func aMaskWithoutTheLeftEdgeDrawsItHard(paint: Paint) throws {
        let mask: CAEdgeAntialiasingMask = [.layerRightEdge, .layerBottomEdge, .layerTopEdge]
        let pixels = try Self.edgePixels([.edgeAntialiasingMask(mask)], paint: paint)
        let left = pixels.filter { $0.edge == 1 && $0.alongEdge }
        #expect(left.count > 20)
        let wrong = left.filter { !Self.followsCentreRule($0) }
        #expect(wrong.isEmpty, "left edge: \(wrong.prefix(5))")
        for edge: UInt32 in [2, 4, 8] {
            let partial = pixels.filter { $0.edge == edge && $0.value > 0 && $0.value < 255 }
            #expect(partial.count >= 5, "edge \(edge): \(partial.count) partial pixels")
        }
    }
}

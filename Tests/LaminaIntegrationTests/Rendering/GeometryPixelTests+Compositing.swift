import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import LaminaVulkan
import Testing

/// GeometryPixelTests: opacity down the tree, zPosition order, and layers that draw nothing.
extension GeometryPixelTests {
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
}

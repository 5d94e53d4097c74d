import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import Testing

/// `CAReplicatorLayer.preservesDepth` drawn through the Vulkan renderer. Apple's CAReplicatorLayer
/// reference: "preservesDepth: Defines whether this layer flattens its sublayers into its plane or
/// not ... If true, the layer behaves like a CATransformLayer"; default false. With it the copies are
/// sorted by depth as a transform layer's faces; without it they are drawn in instance order.
@Suite struct ReplicatorDepthPixelTests {
    /// A 200×100 replicator filling the display, anchor (100, 50), holding one white 100×50 layer over
    /// x 70..<170, y 25..<75 at zPosition 50; two copies, the second turned by π about y through the
    /// anchor (x → 200 − x, z → −z: over x 30..<130 at z −50) and tinted cyan (instanceRedOffset −1).
    static func scene(preservesDepth: Bool) -> [LayerOperation] {
        ReplicatorPixelTests.layer(
            2, .replicator, frame: CGRect(x: 0, y: 0, width: 200, height: 100),
            [
                .instanceCount(2), .instanceTransform(CATransform3DMakeRotation(.pi, 0, 1, 0)),
                .instanceRedOffset(-1), .preservesDepth(preservesDepth),
            ])
            + ReplicatorPixelTests.layer(
                3, frame: CGRect(x: 70, y: 25, width: 100, height: 50),
                [.backgroundColor(ReplicatorPixelTests.color(1, 1, 1)), .zPosition(50)])
            + [.setSublayers(2, [3]), .setRoot(display: 0, layer: 2)]
    }

    /// Where the copies overlap (x 70..<130) the nearer one, copy 0 at z 50, is on top: white, though it
    /// is drawn first in instance order; only the farther copy shows at x 30..<70 (cyan), only the
    /// nearer at 130..<170 (white).
    @Test func theNearerCopyIsDrawnOverTheFartherOne() throws {
        let image = try ReplicatorPixelTests.render(Self.scene(preservesDepth: true), width: 200, height: 100)
        ReplicatorPixelTests.expectClose(ReplicatorPixelTests.pixel(image, 100, 50), [255, 255, 255, 255], "overlap")
        ReplicatorPixelTests.expectClose(ReplicatorPixelTests.pixel(image, 50, 50), [0, 255, 255, 255], "far only")
        ReplicatorPixelTests.expectClose(ReplicatorPixelTests.pixel(image, 150, 50), [255, 255, 255, 255], "near only")
        ReplicatorPixelTests.expectClose(ReplicatorPixelTests.pixel(image, 100, 10), [0, 0, 0, 255], "above both")
    }

    /// Without preservesDepth (the default) the copies are flattened and drawn in instance order: the
    /// second copy covers the first where they overlap (cyan at x 100).
    @Test func withoutItCopiesAreDrawnInInstanceOrder() throws {
        let image = try ReplicatorPixelTests.render(Self.scene(preservesDepth: false), width: 200, height: 100)
        ReplicatorPixelTests.expectClose(ReplicatorPixelTests.pixel(image, 100, 50), [0, 255, 255, 255], "overlap")
        ReplicatorPixelTests.expectClose(ReplicatorPixelTests.pixel(image, 50, 50), [0, 255, 255, 255], "far only")
        ReplicatorPixelTests.expectClose(ReplicatorPixelTests.pixel(image, 150, 50), [255, 255, 255, 255], "near only")
    }
}

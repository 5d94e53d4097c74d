import Foundation
import Testing

@testable import Lamina

/// Hit testing a CAReplicatorLayer: only its real sublayers are hit, never the copies it draws.
/// Apple's copies are not layer objects (CAReplicatorLayer.h: the layer "creates a specified number of
/// copies of its sublayers" when rendering; `sublayers` holds only the originals), so `hitTest(_:)`,
/// which walks `sublayers`, cannot return one: a point on a copy inside the replicator's bounds hits
/// the replicator itself, and outside them nothing.
@Suite struct ReplicatorHitTestTests {
    @Test func copiesAreNeverHit() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 100)
        let replicator = CAReplicatorLayer()
        replicator.frame = CGRect(x: 0, y: 0, width: 250, height: 100)
        replicator.instanceCount = 3
        replicator.instanceTransform = CATransform3DMakeTranslation(100, 0, 0)
        let dot = CALayer()
        dot.frame = CGRect(x: 10, y: 10, width: 50, height: 50)
        replicator.addSublayer(dot)
        root.addSublayer(replicator)

        // The original, at x 10..<60.
        #expect(root.hitTest(CGPoint(x: 30, y: 30)) === dot)
        // Copy 1 (x 110..<160) lies in the replicator's bounds: the replicator is hit, not a copy.
        #expect(root.hitTest(CGPoint(x: 130, y: 30)) === replicator)
        // Copy 2 (x 210..<260): inside the replicator's bounds up to x 250, the root's beyond.
        #expect(root.hitTest(CGPoint(x: 230, y: 30)) === replicator)
        #expect(root.hitTest(CGPoint(x: 255, y: 30)) === root)
        #expect(replicator.sublayers?.count == 1, "copies are not sublayers")
    }
}

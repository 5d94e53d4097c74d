import Foundation
import Lamina
import LaminaTesting
import Testing

/// Layout at commit time with a real laminad: the commit lays out each context's tree before it encodes
/// it, so the frames layout sets reach the server in the same commit as the changes that caused them,
/// and layout runs inside the transaction being committed (its `disableActions` applies).
@Suite(.serialized) final class LayoutCommitTests {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 64, height: 48)
    }

    deinit {
        server.stop()
    }

    /// A red layer named "box" kept at half its superlayer's size, centred, by constraints.
    static func centredBox() -> CALayer {
        let box = CALayer()
        box.name = "box"
        box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        box.addConstraint(
            CAConstraint(attribute: .width, relativeTo: "superlayer", attribute: .width, scale: 0.5, offset: 0))
        box.addConstraint(
            CAConstraint(attribute: .height, relativeTo: "superlayer", attribute: .height, scale: 0.5, offset: 0))
        box.addConstraint(CAConstraint(attribute: .midX, relativeTo: "superlayer", attribute: .midX))
        box.addConstraint(CAConstraint(attribute: .midY, relativeTo: "superlayer", attribute: .midY))
        return box
    }

    @Test func theLaidOutFrameArrivesInTheSameCommit() throws {
        // Apple (CALayer.setNeedsLayout, spec §6.4): a marked layer is laid out at the next commit.
        // The box was never sized; only layout gives it bounds 32 × 24 centred in 64 × 48, at
        // position (32, 24). The transaction lock keeps other suites' flushes out, so the server sees
        // exactly one commit of this tree: if layout ran after encoding, it would hold bounds 0,0,0,0.
        let context = try server.connect(name: "layout-commit")
        let root = CALayer()
        root.name = "root"
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        root.layoutManager = CAConstraintLayoutManager()
        let box = Self.centredBox()
        root.addSublayer(box)
        CATransaction.lock()
        context.layer = root
        CATransaction.flush()
        CATransaction.unlock()
        #expect(!root.needsLayout())
        let tree = try context.describeTree()
        #expect(tree.contains("\"box\" bounds=0,0,32,24 position=32,24"), "server tree:\n\(tree)")

        // A new root size, in an explicit transaction with actions disabled: the commit lays the box
        // out again (root 40 × 40 → box (10, 10, 20, 20)) and adds no implicit animation, because
        // layout runs before the transaction's level is closed.
        CATransaction.lock()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        CATransaction.commit()
        CATransaction.unlock()
        #expect(box.frame == CGRect(x: 10, y: 10, width: 20, height: 20))
        #expect(box.animationKeys() == nil, "layout inside a transaction without actions animates nothing")
        let resized = try context.describeTree()
        #expect(resized.contains("\"box\" bounds=0,0,20,20 position=20,20"), "server tree:\n\(resized)")

        // The pixels the geometry predicts: red inside (10..<30, 10..<30), white root around it, black
        // clear colour outside the root.
        let image = try context.capture()
        expectPixel(image, 10, 10, (255, 0, 0), tolerance: 0, "box's top-left pixel")
        expectPixel(image, 29, 29, (255, 0, 0), tolerance: 0, "box's bottom-right pixel")
        expectPixel(image, 9, 20, (255, 255, 255), tolerance: 0, "root left of the box")
        expectPixel(image, 30, 20, (255, 255, 255), tolerance: 0, "root right of the box")
        expectPixel(image, 20, 30, (255, 255, 255), tolerance: 0, "root below the box")
        expectPixel(image, 50, 20, (0, 0, 0), tolerance: 0, "outside the root")

        let report = server.stop()
        #expect(report.validationMessages.isEmpty, "validation: \(report.validationMessages)")
        #expect(report.exitStatus == 0, "laminad exit status \(report.exitStatus)\n\(report.log)")
    }

    @Test func autoresizingAtCommitFollowsTheRootsNewSize() throws {
        // Autoresizing in the commit's layout pass (AppKit's rule for NSView, which CALayer's mask
        // mirrors: the change goes to the flexible parts). The root goes 64 × 48 → 44 × 40: the child
        // pinned to the right (flexible min-x margin) moves from x 44 to 24, and its flexible height
        // takes the −8: 28 → 20. Its position is then (24 + 5, 10 + 10).
        let context = try server.connect(name: "layout-autoresize")
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let pinned = CALayer()
        pinned.name = "pinned"
        pinned.frame = CGRect(x: 44, y: 10, width: 10, height: 28)
        pinned.autoresizingMask = [.layerMinXMargin, .layerHeightSizable]
        root.addSublayer(pinned)
        CATransaction.lock()
        context.layer = root
        CATransaction.flush()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.frame = CGRect(x: 0, y: 0, width: 44, height: 40)
        CATransaction.commit()
        CATransaction.unlock()
        #expect(pinned.frame == CGRect(x: 24, y: 10, width: 10, height: 20))
        let tree = try context.describeTree()
        #expect(tree.contains("\"pinned\" bounds=0,0,10,20 position=29,20"), "server tree:\n\(tree)")
    }
}

import Foundation
import Testing

@testable import Lamina

// Layer layout (CALayer+Layout.swift): marking (`setNeedsLayout`, `needsLayout`), running
// (`layoutIfNeeded`, the top-down pass), what the default `layoutSublayers()` calls and in which order,
// and `preferredFrameSize()`. No render server is involved; the commit is covered by
// LaminaIntegrationTests/LayoutCommitTests.swift.

/// A shared log the recording layers and delegates below append to.
private final class LayoutLog {
    var entries: [String] = []
}

/// A layer that records each `layoutSublayers()` call (its name and bounds size at the time), then
/// runs the default unless `overridesDefault` is set (an override that does not call super).
private final class RecordingLayer: CALayer {
    var log = LayoutLog()
    var overridesDefault = false
    var layoutCount = 0
    var boundsSizeSeen: [CGSize] = []

    override init() { super.init() }
    override init(layer: Any) { super.init(layer: layer) }
    required init?(coder: NSCoder) { super.init(coder: coder) }

    override func layoutSublayers() {
        layoutCount += 1
        boundsSizeSeen.append(bounds.size)
        log.entries.append("layout \(name ?? "?")")
        if !overridesDefault { super.layoutSublayers() }
    }
}

/// A delegate that implements `layoutSublayers(of:)`: it logs the call with the first sublayer's frame
/// at that moment.
private final class LayingOutDelegate: NSObject, CALayerDelegate {
    let log: LayoutLog
    init(log: LayoutLog) { self.log = log }

    func layoutSublayers(of layer: CALayer) {
        let f = layer.sublayers?.first?.frame ?? .zero
        log.entries.append(
            "delegate \(layer.name ?? "?") sees \([f.minX, f.minY, f.width, f.height].map { Double($0) })")
    }
}

/// A delegate that implements only `action(for:forKey:)`, not layout.
private final class ActionOnlyDelegate: NSObject, CALayerDelegate {
    func action(for layer: CALayer, forKey event: String) -> (any CAAction)? { nil }
}

/// A layout manager that logs each call and returns `preferred` as the preferred size.
private final class RecordingLayoutManager: NSObject, CALayoutManager {
    let log: LayoutLog
    var preferred = CGSize(width: 42, height: 24)
    init(log: LayoutLog) { self.log = log }

    func layoutSublayers(of layer: CALayer) { log.entries.append("manager \(layer.name ?? "?")") }
    func invalidateLayout(of layer: CALayer) { log.entries.append("invalidate \(layer.name ?? "?")") }
    func preferredSize(of layer: CALayer) -> CGSize { preferred }
}

/// A layout manager implementing nothing: every method is the protocol's default.
private final class SilentLayoutManager: NSObject, CALayoutManager {}

/// A layer whose layout marks it again every time (layout code that never settles).
private final class RestlessLayer: CALayer {
    var layoutCount = 0
    override init() { super.init() }
    override init(layer: Any) { super.init(layer: layer) }
    required init?(coder: NSCoder) { super.init(coder: coder) }
    override func layoutSublayers() {
        layoutCount += 1
        setNeedsLayout()
    }
}

/// A recording layer named `name` logging into `log`.
private func recording(_ name: String, _ log: LayoutLog) -> RecordingLayer {
    let layer = RecordingLayer()
    layer.name = name
    layer.log = log
    return layer
}

@Suite("Layout: marking and running")
struct LayoutTests {
    @Test func e07SublayerFrameFollowsBoundsAndPosition() {
        // E07 (spec §8, Core Animation Programming Guide, "Layer Objects Define Their Own Geometry"):
        // bounds (0, 0, 100, 100) at position (200, 200) with the default anchor (0.5, 0.5) has frame
        // (150, 150, 100, 100); a layer never sized has bounds size 0 and position (0, 0).
        let layer = CALayer()
        #expect(layer.bounds.size == .zero && layer.position == .zero)
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.position = CGPoint(x: 200, y: 200)
        #expect(layer.frame == CGRect(x: 150, y: 150, width: 100, height: 100))
    }

    @Test func setNeedsLayoutMarksAndLayoutIfNeededRunsOnce() {
        // Apple, CALayer.h: setNeedsLayout "marks that -layoutSublayers needs to be invoked";
        // needsLayout "returns true when the receiver is marked as needing layout"; layoutIfNeeded
        // "traverses upwards ... then lays out the entire tree beneath that ancestor" and clears it.
        let log = LayoutLog()
        let layer = recording("solo", log)
        #expect(!layer.needsLayout())
        layer.setNeedsLayout()
        #expect(layer.needsLayout())
        layer.layoutIfNeeded()
        #expect(!layer.needsLayout())
        #expect(layer.layoutCount == 1)
        layer.layoutIfNeeded()
        #expect(layer.layoutCount == 1, "nothing marked: no second layout")
    }

    @Test func aBoundsSizeChangeMarksTheLayerButAMoveDoesNot() {
        // Apple: layoutSublayers(of:) "is called when a layer's bounds have changed" (CALayerDelegate
        // documentation); moving the layer or its bounds origin changes no size and marks nothing.
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.layoutIfNeeded()
        #expect(!layer.needsLayout())
        layer.position = CGPoint(x: 5, y: 5)
        layer.bounds.origin = CGPoint(x: 3, y: 4)
        #expect(!layer.needsLayout())
        layer.frame = CGRect(x: 0, y: 0, width: 20, height: 10)
        #expect(layer.needsLayout(), "a new size through frame marks the layer")
        layer.layoutIfNeeded()
        layer.setValue(CGFloat(30), forKeyPath: "bounds.size.height")
        #expect(layer.bounds.height == 30)
        #expect(layer.needsLayout(), "a new size through key-value coding marks the layer")
    }

    @Test func sublayersJoiningAndLeavingMarkTheLayer() {
        let parent = CALayer()
        let child = CALayer()
        parent.addSublayer(child)
        #expect(parent.needsLayout())
        parent.layoutIfNeeded()
        child.removeFromSuperlayer()
        #expect(parent.needsLayout())
        parent.layoutIfNeeded()
        parent.sublayers = nil
        #expect(parent.needsLayout(), "assigning the sublayers marks even when empty")
    }

    @Test func settingALayoutManagerMarksAndMarkingInvalidatesIt() {
        // Apple, CALayoutManager: invalidateLayoutOfLayer: "is called when the preferred size of the
        // specified layer may have changed", i.e. when the layer is marked.
        let log = LayoutLog()
        let layer = CALayer()
        layer.name = "host"
        layer.layoutIfNeeded()
        layer.layoutManager = RecordingLayoutManager(log: log)
        #expect(layer.needsLayout())
        #expect(log.entries == ["invalidate host"])
        layer.layoutIfNeeded()
        #expect(log.entries == ["invalidate host", "manager host"])
    }

    @Test func aDelegateThatLaysOutWinsOverTheLayoutManager() {
        // Apple, CALayer.layoutSublayers(): "calls the layoutSublayers(of:) method of the layer's
        // delegate object. If there is no delegate object, or the delegate does not implement that
        // method, this method calls the layoutSublayers(of:) method of the object in the layoutManager".
        let log = LayoutLog()
        let layer = CALayer()
        layer.name = "host"
        let manager = RecordingLayoutManager(log: log)
        layer.layoutManager = manager
        let laysOut = LayingOutDelegate(log: log)
        layer.delegate = laysOut
        log.entries = []
        layer.layoutSublayers()
        #expect(log.entries == ["delegate host sees [0.0, 0.0, 0.0, 0.0]"])

        let actionsOnly = ActionOnlyDelegate()
        layer.delegate = actionsOnly
        log.entries = []
        layer.layoutSublayers()
        #expect(log.entries == ["manager host"], "a delegate without layoutSublayers(of:) leaves it to the manager")

        layer.delegate = nil
        log.entries = []
        layer.layoutSublayers()
        #expect(log.entries == ["manager host"])
    }

    @Test func e76AutoresizingRunsBeforeTheDelegate() {
        // E76 (Core Animation Programming Guide, "Building Your Layer Hierarchy": autoresizing is
        // applied first, then the delegate's layoutSublayersOfLayer: is called): the delegate sees
        // the child already resized from width 30 to 130 (parent 100 → 200, layerWidthSizable).
        let log = LayoutLog()
        let parent = recording("parent", log)
        parent.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let child = CALayer()
        child.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        child.autoresizingMask = .layerWidthSizable
        parent.addSublayer(child)
        let delegate = LayingOutDelegate(log: log)
        parent.delegate = delegate
        parent.layoutIfNeeded()
        log.entries = []
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        parent.layoutIfNeeded()
        #expect(log.entries == ["layout parent", "delegate parent sees [10.0, 20.0, 130.0, 40.0]"])
    }

    @Test func e76AnOverrideWithoutSuperGetsNoDelegateNoManager() {
        // E76 (spec §6.4, Core Animation Programming Guide): overriding layoutSublayers "prevents
        // constraints and autoresizing from being applied"; the override is all that runs at layout.
        // Autoresizing, though, happens when the superlayer's bounds are set, before any layout, as
        // GNUstep's QuartzCore tests observed on macOS (issue 24): the child grows by the whole change
        // (width and height flexible) while the constraint (minX 1) is not applied.
        let log = LayoutLog()
        let parent = recording("parent", log)
        parent.overridesDefault = true
        parent.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let child = CALayer()
        child.name = "child"
        child.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        child.autoresizingMask = [.layerWidthSizable, .layerHeightSizable]
        child.addConstraint(CAConstraint(attribute: .minX, relativeTo: "superlayer", attribute: .minX, offset: 1))
        parent.addSublayer(child)
        let delegate = LayingOutDelegate(log: log)
        parent.delegate = delegate
        parent.layoutManager = CAConstraintLayoutManager()
        parent.layoutIfNeeded()
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 150)
        parent.layoutIfNeeded()
        #expect(log.entries == ["layout parent", "layout parent"])
        #expect(child.frame == CGRect(x: 10, y: 20, width: 130, height: 90))
    }

    @Test func layoutRunsTopDownAndChildrenSeeTheirNewFrames() {
        // Apple, layoutIfNeeded: "layout is performed on the entire layer-tree beneath that ancestor";
        // a parent is laid out before its sublayers, so a sublayer is laid out at the size its
        // parent's layout gave it (here by autoresizing 50 → 150 wide).
        let log = LayoutLog()
        let root = recording("root", log)
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let middle = recording("middle", log)
        middle.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        middle.autoresizingMask = .layerWidthSizable
        let leaf = recording("leaf", log)
        let sibling = recording("sibling", log)
        root.addSublayer(middle)
        middle.addSublayer(leaf)
        root.addSublayer(sibling)
        root.layoutIfNeeded()
        #expect(log.entries == ["layout root", "layout middle"], "only marked layers are laid out")
        log.entries = []
        leaf.setNeedsLayout()
        sibling.setNeedsLayout()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.layoutIfNeeded()
        #expect(log.entries == ["layout root", "layout middle", "layout leaf", "layout sibling"])
        #expect(middle.boundsSizeSeen.last == CGSize(width: 150, height: 50))
    }

    @Test func layoutIfNeededStartsAtTheTopmostMarkedAncestor() {
        // Apple, layoutIfNeeded: "the layer's super layers are traversed until a ancestor layer is
        // found that does not require layout. Then layout is performed on the entire layer-tree
        // beneath that ancestor."
        let log = LayoutLog()
        let top = recording("top", log)
        let parent = recording("parent", log)
        let child = recording("child", log)
        top.addSublayer(parent)
        parent.addSublayer(child)
        top.layoutIfNeeded()
        log.entries = []
        parent.setNeedsLayout()
        child.setNeedsLayout()
        child.layoutIfNeeded()
        #expect(log.entries == ["layout parent", "layout child"], "top is not marked, parent is")
        #expect(!parent.needsLayout() && !child.needsLayout())
    }

    @Test func layoutThatNeverSettlesStops() {
        // Lamina's bound: a layer whose layout marks itself again is laid out at most
        // maximumLayoutPasses times per run, then waits for the next commit.
        let layer = RestlessLayer()
        layer.setNeedsLayout()
        layer.layoutIfNeeded()
        #expect(layer.layoutCount == CALayer.maximumLayoutPasses)
        #expect(layer.needsLayout())
    }

    @Test func preferredFrameSizeIsTheBoundsSizeInTheSuperlayersSpace() {
        // Apple, preferredFrameSize(): without a layout manager (or one that does not implement
        // preferredSize(of:)) "returns the size of the layer's current bounds rectangle mapped into
        // the coordinate space of its superlayer".
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 30, height: 20)
        #expect(layer.preferredFrameSize() == CGSize(width: 30, height: 20))
        layer.transform = CATransform3DMakeScale(2, 3, 1)
        #expect(layer.preferredFrameSize() == CGSize(width: 60, height: 60))
        layer.transform = CATransform3DMakeAffineTransform(CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0))
        #expect(layer.preferredFrameSize() == CGSize(width: 20, height: 30), "a quarter turn swaps the sides")
        layer.transform = CATransform3DIdentity
        layer.layoutManager = SilentLayoutManager()
        #expect(layer.preferredFrameSize() == CGSize(width: 30, height: 20))
    }

    @Test func preferredFrameSizeAsksTheLayoutManager() {
        // Apple, preferredFrameSize(): "the default implementation of this method calls the
        // preferredSize(of:) method ... of its layout manager".
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 30, height: 20)
        layer.layoutManager = RecordingLayoutManager(log: LayoutLog())
        #expect(layer.preferredFrameSize() == CGSize(width: 42, height: 24))
    }
}

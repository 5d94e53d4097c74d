import Foundation
import Testing

@testable import Lamina

// Autoresizing (`autoresizingMask`, `resize(withOldSuperlayerSize:)`, `resizeSublayers(withOldSize:)`),
// with Apple's values as GNUstep's QuartzCore tests observed them on macOS (issue 24): a sublayer at
// (10, 20, 50, 40) in a 100 × 100 superlayer that becomes 200 × 300. The sublayers are resized as soon
// as the superlayer's bounds (or frame) change size, not at the next layout pass; along an axis the
// size takes a third of the change when a margin is flexible too (all of it alone), the flexible
// margins share the rest; the origin is rounded down and the size takes up the slack, rounded up.

/// A sublayer frame expected after the superlayer's size changes, for one mask.
struct AutoresizingCase: Sendable, CustomStringConvertible {
    var mask: CAAutoresizingMask
    var size: CGSize = CGSize(width: 200, height: 300)
    var frame: CGRect
    var description: String { "mask \(mask.rawValue) to \(size) → \(frame)" }
}

/// A layer that records each `resizeSublayers(withOldSize:)` call, then runs the default.
private final class ResizeRecordingLayer: CALayer {
    var oldSizes: [CGSize] = []
    override init() { super.init() }
    override init(layer: Any) { super.init(layer: layer) }
    required init?(coder: NSCoder) { super.init(coder: coder) }
    override func resizeSublayers(withOldSize size: CGSize) {
        oldSizes.append(size)
        super.resizeSublayers(withOldSize: size)
    }
}

@Suite("Layout: autoresizing")
struct AutoresizingTests {
    /// Apple's frames (GNUstep's QuartzCore tests run on macOS, issue 24).
    static let cases: [AutoresizingCase] = [
        .init(mask: [], frame: CGRect(x: 10, y: 20, width: 50, height: 40)),
        .init(mask: .layerMinXMargin, frame: CGRect(x: 110, y: 20, width: 50, height: 40)),
        .init(mask: .layerWidthSizable, frame: CGRect(x: 10, y: 20, width: 150, height: 40)),
        .init(mask: .layerMaxXMargin, frame: CGRect(x: 10, y: 20, width: 50, height: 40)),
        .init(mask: .layerMinYMargin, frame: CGRect(x: 10, y: 220, width: 50, height: 40)),
        .init(mask: .layerHeightSizable, frame: CGRect(x: 10, y: 20, width: 50, height: 240)),
        .init(mask: .layerMaxYMargin, frame: CGRect(x: 10, y: 20, width: 50, height: 40)),
        .init(mask: [.layerMinXMargin, .layerWidthSizable], frame: CGRect(x: 76, y: 20, width: 84, height: 40)),
        .init(mask: [.layerWidthSizable, .layerMaxXMargin], frame: CGRect(x: 10, y: 20, width: 84, height: 40)),
        .init(mask: [.layerMinXMargin, .layerMaxXMargin], frame: CGRect(x: 60, y: 20, width: 50, height: 40)),
        .init(
            mask: [.layerMinXMargin, .layerWidthSizable, .layerMaxXMargin],
            frame: CGRect(x: 43, y: 20, width: 84, height: 40)),
        .init(mask: [.layerMinYMargin, .layerHeightSizable], frame: CGRect(x: 10, y: 153, width: 50, height: 107)),
        .init(mask: [.layerMinYMargin, .layerMaxYMargin], frame: CGRect(x: 10, y: 120, width: 50, height: 40)),
        .init(
            mask: [.layerMinYMargin, .layerHeightSizable, .layerMaxYMargin],
            frame: CGRect(x: 10, y: 86, width: 50, height: 108)),
        .init(mask: [.layerWidthSizable, .layerHeightSizable], frame: CGRect(x: 10, y: 20, width: 150, height: 240)),
        .init(mask: CAAutoresizingMask(rawValue: 63), frame: CGRect(x: 43, y: 86, width: 84, height: 108)),
        .init(
            mask: [.layerMinXMargin, .layerWidthSizable], size: CGSize(width: 400, height: 100),
            frame: CGRect(x: 210, y: 20, width: 150, height: 40)),
        .init(
            mask: [.layerMinXMargin, .layerWidthSizable], size: CGSize(width: 110, height: 100),
            frame: CGRect(x: 16, y: 20, width: 54, height: 40)),
        .init(
            mask: [.layerMinXMargin, .layerWidthSizable], size: CGSize(width: 50, height: 25),
            frame: CGRect(x: -24, y: 20, width: 34, height: 40)),
        .init(
            mask: [.layerWidthSizable, .layerHeightSizable], size: CGSize(width: 50, height: 25),
            frame: CGRect(x: 10, y: -15, width: 0, height: 35)),
    ]

    @Test func maskRawValuesAreApples() {
        // Apple, CALayer.h: kCALayerNotSizable 0, kCALayerMinXMargin 1U << 0, kCALayerWidthSizable
        // 1U << 1, kCALayerMaxXMargin 1U << 2, kCALayerMinYMargin 1U << 3, kCALayerHeightSizable
        // 1U << 4, kCALayerMaxYMargin 1U << 5; the default mask is kCALayerNotSizable, with no class
        // default (GNUstep's QuartzCore tests run on macOS, issue 24); bits with no meaning are kept.
        #expect(kCALayerNotSizable.rawValue == 0)
        #expect(
            [
                CAAutoresizingMask.layerMinXMargin, .layerWidthSizable, .layerMaxXMargin, .layerMinYMargin,
                .layerHeightSizable, .layerMaxYMargin,
            ].map(\.rawValue) == [1, 2, 4, 8, 16, 32])
        let layer = CALayer()
        #expect(layer.autoresizingMask == kCALayerNotSizable)
        #expect(CALayer.defaultValue(forKey: "autoresizingMask") == nil)
        layer.autoresizingMask = CAAutoresizingMask(rawValue: 255)
        #expect(layer.autoresizingMask.rawValue == 255)
    }

    /// The sublayer at (10, 20, 50, 40) of a 100 × 100 superlayer, after the superlayer's bounds
    /// become `size` (no layout pass runs).
    static func resized(_ mask: CAAutoresizingMask, to size: CGSize) -> CGRect {
        let parent = CALayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let child = CALayer()
        child.frame = CGRect(x: 10, y: 20, width: 50, height: 40)
        child.autoresizingMask = mask
        parent.addSublayer(child)
        parent.bounds = CGRect(origin: .zero, size: size)
        return child.frame
    }

    @Test(arguments: cases) func applesFramesWhenTheSuperlayerResizes(_ c: AutoresizingCase) {
        #expect(Self.resized(c.mask, to: c.size) == c.frame)
    }

    @Test func resizingHappensWhenTheBoundsOrFrameAreSet() {
        // Apple (GNUstep's QuartzCore tests run on macOS, issue 24): moving the bounds without
        // resizing moves nothing; setting the superlayer's frame resizes too; a mask given after the
        // change does not act on it; a layer added afterwards keeps its frame.
        func tree(_ mask: CAAutoresizingMask) -> (CALayer, CALayer) {
            let parent = CALayer()
            parent.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
            let child = CALayer()
            child.frame = CGRect(x: 10, y: 20, width: 50, height: 40)
            child.autoresizingMask = mask
            parent.addSublayer(child)
            return (parent, child)
        }
        let sizable: CAAutoresizingMask = [.layerWidthSizable, .layerHeightSizable]
        let (moved, still) = tree(sizable)
        moved.bounds = CGRect(x: 30, y: 40, width: 100, height: 100)
        #expect(still.frame == CGRect(x: 10, y: 20, width: 50, height: 40))
        let (framed, grown) = tree(sizable)
        framed.frame = CGRect(x: 0, y: 0, width: 200, height: 300)
        #expect(grown.frame == CGRect(x: 10, y: 20, width: 150, height: 240))
        let (late, unmasked) = tree([])
        late.bounds = CGRect(x: 0, y: 0, width: 200, height: 300)
        unmasked.autoresizingMask = sizable
        #expect(unmasked.frame == CGRect(x: 10, y: 20, width: 50, height: 40))
        let parent = CALayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 300)
        let added = CALayer()
        added.frame = CGRect(x: 10, y: 20, width: 50, height: 40)
        added.autoresizingMask = sizable
        parent.addSublayer(added)
        parent.layoutIfNeeded()
        #expect(added.frame == CGRect(x: 10, y: 20, width: 50, height: 40))
    }

    @Test func resizeWithOldSuperlayerSizeAppliesTheMaskDirectly() {
        // Apple (GNUstep's QuartzCore tests run on macOS, issue 24): a sublayer of a 200 × 300 layer
        // told that the old size was 100 × 100, with minX and width flexible: (76, 20, 84, 40).
        // resizeSublayers(withOldSize:) passes it to all; a size that did not change moves nothing.
        let parent = CALayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 300)
        let child = CALayer()
        child.frame = CGRect(x: 10, y: 20, width: 50, height: 40)
        child.autoresizingMask = [.layerMinXMargin, .layerWidthSizable]
        parent.addSublayer(child)
        child.resize(withOldSuperlayerSize: CGSize(width: 100, height: 100))
        #expect(child.frame == CGRect(x: 76, y: 20, width: 84, height: 40))
        let other = CALayer()
        other.frame = CGRect(x: 10, y: 20, width: 50, height: 40)
        other.autoresizingMask = [.layerWidthSizable, .layerHeightSizable]
        parent.addSublayer(other)
        parent.resizeSublayers(withOldSize: CGSize(width: 100, height: 100))
        #expect(other.frame == CGRect(x: 10, y: 20, width: 150, height: 240))
        parent.resizeSublayers(withOldSize: CGSize(width: 200, height: 300))
        #expect(other.frame == CGRect(x: 10, y: 20, width: 150, height: 240))
    }

    @Test func eachNewSizeResizesTheSublayersAtOnce() {
        // Apple, resizeSublayers(withOldSize:): "When the autoresizingMask property is used for
        // resizing and the bounds of this layer change, the layer calls this method" with the
        // previous size; as observed on macOS (issue 24), at every change of size, before any layout.
        let parent = ResizeRecordingLayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        parent.addSublayer(CALayer())
        parent.bounds = CGRect(x: 0, y: 0, width: 120, height: 100)
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 150)
        #expect(parent.oldSizes == [CGSize(width: 100, height: 100), CGSize(width: 120, height: 100)])
        parent.bounds = CGRect(x: 5, y: 5, width: 200, height: 150)
        parent.layoutIfNeeded()
        #expect(parent.oldSizes.count == 2, "same size: no resizing")
    }

    @Test func autoresizingCarriesDownTheTree() {
        // Apple (GNUstep's QuartzCore tests run on macOS, issue 24): the layer between the two resizes
        // to 200 × 300 and carries the change on down: the leaf at (10, 20, 50, 40) becomes
        // (10, 20, 150, 240).
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let middle = CALayer()
        middle.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        middle.autoresizingMask = [.layerWidthSizable, .layerHeightSizable]
        root.addSublayer(middle)
        let leaf = CALayer()
        leaf.frame = CGRect(x: 10, y: 20, width: 50, height: 40)
        leaf.autoresizingMask = [.layerWidthSizable, .layerHeightSizable]
        middle.addSublayer(leaf)
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 300)
        #expect(middle.frame == CGRect(x: 0, y: 0, width: 200, height: 300))
        #expect(leaf.frame == CGRect(x: 10, y: 20, width: 150, height: 240))
    }
}

import Foundation
import Testing

@testable import Lamina

// Autoresizing (`autoresizingMask`, `resize(withOldSuperlayerSize:)`, `resizeSublayers(withOldSize:)`)
// as the default `layoutSublayers()` applies it. Every case starts from a child with frame
// (10, 20, 30, 40) in a parent of size (100, 100) that grows to (200, 150): +100 along x, +50 along y.
// Apple (NSView.autoresizingMask, whose behaviour CALayer's mask mirrors): "When more than one option
// along an axis is set, ... distributes the size difference as evenly as possible among the flexible
// portions"; with none set "the view does not resize at all".

/// A child frame expected after the parent grows, for one mask.
struct AutoresizingCase: Sendable, CustomStringConvertible {
    var mask: CAAutoresizingMask
    var frame: CGRect
    var description: String { "mask \(mask.rawValue) → \(frame)" }
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
    /// Hand-computed: a flexible part gets the whole change when alone, half with another, a third
    /// with two others (+100 / 3 along x, +50 / 3 along y).
    static let cases: [AutoresizingCase] = [
        .init(mask: [], frame: CGRect(x: 10, y: 20, width: 30, height: 40)),
        .init(mask: .layerMinXMargin, frame: CGRect(x: 110, y: 20, width: 30, height: 40)),
        .init(mask: .layerWidthSizable, frame: CGRect(x: 10, y: 20, width: 130, height: 40)),
        .init(mask: .layerMaxXMargin, frame: CGRect(x: 10, y: 20, width: 30, height: 40)),
        .init(mask: .layerMinYMargin, frame: CGRect(x: 10, y: 70, width: 30, height: 40)),
        .init(mask: .layerHeightSizable, frame: CGRect(x: 10, y: 20, width: 30, height: 90)),
        .init(mask: .layerMaxYMargin, frame: CGRect(x: 10, y: 20, width: 30, height: 40)),
        .init(mask: [.layerMinXMargin, .layerWidthSizable], frame: CGRect(x: 60, y: 20, width: 80, height: 40)),
        .init(mask: [.layerMinXMargin, .layerMaxXMargin], frame: CGRect(x: 60, y: 20, width: 30, height: 40)),
        .init(mask: [.layerWidthSizable, .layerMaxXMargin], frame: CGRect(x: 10, y: 20, width: 80, height: 40)),
        .init(mask: [.layerMinYMargin, .layerHeightSizable], frame: CGRect(x: 10, y: 45, width: 30, height: 65)),
        .init(mask: [.layerMinYMargin, .layerMaxYMargin], frame: CGRect(x: 10, y: 45, width: 30, height: 40)),
        .init(mask: [.layerHeightSizable, .layerMaxYMargin], frame: CGRect(x: 10, y: 20, width: 30, height: 65)),
        .init(mask: [.layerWidthSizable, .layerHeightSizable], frame: CGRect(x: 10, y: 20, width: 130, height: 90)),
        .init(
            mask: [.layerMinXMargin, .layerWidthSizable, .layerMaxXMargin],
            frame: CGRect(x: 10 + 100.0 / 3, y: 20, width: 30 + 100.0 / 3, height: 40)),
        .init(
            mask: [
                .layerMinXMargin, .layerWidthSizable, .layerMaxXMargin, .layerMinYMargin, .layerHeightSizable,
                .layerMaxYMargin,
            ],
            frame: CGRect(x: 10 + 100.0 / 3, y: 20 + 50.0 / 3, width: 30 + 100.0 / 3, height: 40 + 50.0 / 3)),
    ]

    @Test func maskRawValuesAreApples() {
        // Apple, CALayer.h: kCALayerNotSizable 0, kCALayerMinXMargin 1U << 0, kCALayerWidthSizable
        // 1U << 1, kCALayerMaxXMargin 1U << 2, kCALayerMinYMargin 1U << 3, kCALayerHeightSizable
        // 1U << 4, kCALayerMaxYMargin 1U << 5; the default mask is kCALayerNotSizable.
        #expect(kCALayerNotSizable.rawValue == 0)
        #expect(
            [
                CAAutoresizingMask.layerMinXMargin, .layerWidthSizable, .layerMaxXMargin, .layerMinYMargin,
                .layerHeightSizable, .layerMaxYMargin,
            ].map(\.rawValue) == [1, 2, 4, 8, 16, 32])
        #expect(CALayer().autoresizingMask == kCALayerNotSizable)
    }

    @Test(arguments: cases) func growingParentResizesTheChild(_ c: AutoresizingCase) {
        let parent = CALayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let child = CALayer()
        child.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        child.autoresizingMask = c.mask
        parent.addSublayer(child)
        parent.layoutIfNeeded()
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 150)
        parent.layoutIfNeeded()
        let f = child.frame
        let e = c.frame
        #expect(
            abs(f.minX - e.minX) <= 1e-9 && abs(f.minY - e.minY) <= 1e-9 && abs(f.width - e.width) <= 1e-9
                && abs(f.height - e.height) <= 1e-9, "got \(f)")
    }

    @Test func resizeWithOldSuperlayerSizeAppliesTheMaskDirectly() {
        // Apple, resize(withOldSuperlayerSize:): "Sublayers use this method to adjust their own frame
        // rectangles to reflect the new superlayer bounds, which can be retrieved directly from the
        // superlayer."
        let parent = CALayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 150)
        let child = CALayer()
        child.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        child.autoresizingMask = [.layerMinXMargin, .layerHeightSizable]
        parent.addSublayer(child)
        child.resize(withOldSuperlayerSize: CGSize(width: 100, height: 100))
        #expect(child.frame == CGRect(x: 110, y: 20, width: 30, height: 90))
    }

    @Test func resizeSublayersRunsOnlyWhenTheSizeChangedSinceTheLastLayout() {
        // Apple, resizeSublayers(withOldSize:): "When the autoresizingMask property is used for
        // resizing and the bounds of this layer change, the layer calls this method", with "the
        // previous size of the current layer".
        let parent = ResizeRecordingLayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        parent.addSublayer(CALayer())
        parent.layoutIfNeeded()
        #expect(parent.oldSizes.isEmpty, "the first layout has no previous size")
        parent.bounds = CGRect(x: 0, y: 0, width: 120, height: 100)
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 150)
        parent.layoutIfNeeded()
        #expect(parent.oldSizes == [CGSize(width: 100, height: 100)], "the size of the last layout")
        parent.setNeedsLayout()
        parent.layoutIfNeeded()
        #expect(parent.oldSizes.count == 1, "same size: no resizing")
    }

    @Test func autoresizingRecursesThroughResizedSublayers() {
        // A resized child is itself marked (its bounds size changed), so its own sublayers follow in
        // the same run: grandchild width 20 → 120 when the child goes 50 → 150.
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let child = CALayer()
        child.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        child.autoresizingMask = .layerWidthSizable
        let grandchild = CALayer()
        grandchild.frame = CGRect(x: 5, y: 5, width: 20, height: 20)
        grandchild.autoresizingMask = .layerWidthSizable
        child.addSublayer(grandchild)
        root.addSublayer(child)
        root.layoutIfNeeded()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.layoutIfNeeded()
        #expect(child.frame == CGRect(x: 0, y: 0, width: 150, height: 50))
        #expect(grandchild.frame == CGRect(x: 5, y: 5, width: 120, height: 20))
    }
}

import Foundation
import Testing

@testable import Lamina

// Names and defaults (issue 24, point 5). Expected values are Apple's, as GNUstep's QuartzCore tests
// observed them on macOS (issue 24).

/// A layer whose drawing depends on `cornerRadius`, counting its marks for display.
private final class RadiusDrawingLayer: CALayer {
    override class func needsDisplay(forKey key: String) -> Bool {
        key == "cornerRadius" || super.needsDisplay(forKey: key)
    }
}

/// A layout manager that counts `invalidateLayout(of:)`.
private final class CountingLayoutManager: NSObject, CALayoutManager {
    var invalidations = 0
    func invalidateLayout(of layer: CALayer) { invalidations += 1 }
}

@Suite("Layers: names and defaults")
struct NamesAndDefaultsTests {
    @Test func unknownNamesFallBack() {
        // Apple: an unknown contentsGravity becomes center (not the default resize), an unknown
        // cornerCurve circular, an unknown dynamic range standard, an unknown tone-map mode automatic,
        // an unknown contents format RGBA8; known names are kept.
        let layer = CALayer()
        layer.contentsGravity = .topLeft
        #expect(layer.contentsGravity == .topLeft)
        layer.contentsGravity = CALayerContentsGravity("not a gravity")
        #expect(layer.contentsGravity == .center)
        layer.cornerCurve = .continuous
        layer.cornerCurve = CALayerCornerCurve("not a curve")
        #expect(layer.cornerCurve == .circular)
        layer.preferredDynamicRange = .high
        layer.preferredDynamicRange = CALayer.DynamicRange(rawValue: "not a range")
        #expect(layer.preferredDynamicRange == .standard)
        layer.toneMapMode = .never
        layer.toneMapMode = CALayer.ToneMapMode(rawValue: "not a mode")
        #expect(layer.toneMapMode == .automatic)
        layer.contentsFormat = .gray8Uint
        #expect(layer.contentsFormat == .gray8Uint)
        layer.contentsFormat = CALayerContentsFormat("not a format")
        #expect(layer.contentsFormat == .RGBA8Uint)
        layer.setValue("not a format", forKey: "contentsFormat")
        #expect(layer.contentsFormat == .RGBA8Uint)
        #expect(CALayer.cornerCurveExpansionFactor(CALayerCornerCurve("not a curve")) == 1)
    }

    @Test func automaticContentsFormatAndDefaults() {
        // Apple: kCAContentsFormatAutomatic is named "Automatic" and is kept; preferredDynamicRange
        // defaults to standard (its class default too); defaultValue(forKey:) is nil for bounds,
        // position, minificationFilterBias and wantsDynamicContentScaling, false for
        // drawsAsynchronously.
        #expect(CALayerContentsFormat.automatic.rawValue == "Automatic")
        let layer = CALayer()
        layer.contentsFormat = .automatic
        #expect(layer.contentsFormat == .automatic)
        #expect(CALayer().preferredDynamicRange == .standard)
        #expect(CALayer.defaultValue(forKey: "preferredDynamicRange") as? String == "standard")
        for key in ["bounds", "position", "minificationFilterBias", "wantsDynamicContentScaling"] {
            #expect(CALayer.defaultValue(forKey: key) == nil, "\(key)")
        }
        #expect((CALayer.defaultValue(forKey: "drawsAsynchronously") as? NSNumber)?.boolValue == false)
        #expect(!CALayer().wantsDynamicContentScaling)
    }

    @Test func settingNilLeavesNoCompletionBlock() {
        // Apple: setCompletionBlock(nil) leaves completionBlock() nil.
        CATransaction.begin()
        CATransaction.setCompletionBlock(nil)
        #expect(CATransaction.completionBlock() == nil)
        CATransaction.commit()
    }

    @Test func theSameValueDoesNotMarkForDisplay() {
        // Apple: setting a property to the value it already has does not mark a layer whose
        // needsDisplay(forKey:) is true for it; a different value does.
        let layer = RadiusDrawingLayer()
        layer.cornerRadius = 4
        layer.displayIfNeeded()
        #expect(!layer.needsDisplay())
        layer.cornerRadius = 4
        #expect(!layer.needsDisplay())
        layer.cornerRadius = 5
        #expect(layer.needsDisplay())
    }

    @Test func aMarkedLayerDoesNotInvalidateItsLayoutAgain() {
        // Apple: setNeedsLayout() on a layer already marked does not send invalidateLayout(of:) again;
        // after layout, the next mark does.
        let manager = CountingLayoutManager()
        let layer = CALayer()
        layer.layoutManager = manager
        let first = manager.invalidations
        layer.setNeedsLayout()
        layer.setNeedsLayout()
        #expect(manager.invalidations == first)
        layer.layoutIfNeeded()
        layer.setNeedsLayout()
        #expect(manager.invalidations == first + 1)
    }
}

import Foundation
import Testing

@testable import Lamina

// `shouldArchiveValue(forKey:)` answers as Apple's layers do (issue 24, point 4): a key is archived
// once it was given a value. Expected values are Apple's, as GNUstep's QuartzCore tests observed them
// on macOS (issue 24).

/// A layer that leaves `opacity` out of its archives, whatever was set.
final class ArchivingNoOpacityLayer: CALayer {
    override func shouldArchiveValue(forKey key: String) -> Bool {
        key == "opacity" ? false : super.shouldArchiveValue(forKey: key)
    }
}

/// A layer class whose defaults give a background colour and an opacity.
private final class DefaultedLayer: CALayer {
    static let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "backgroundColor": green
        case "opacity": NSNumber(value: Float(0.5))
        default: super.defaultValue(forKey: key)
        }
    }
}

@Suite("Layers: archiving what was set")
struct ArchivingWhatWasSetTests {
    @Test func aNewLayerArchivesAlmostNothing() {
        // Apple: a new layer archives none of position, bounds, delegate, contents, opacity, hidden,
        // transform, mask, filters, contentsCenter, style, actions, sublayers, superlayer, maskedCorners,
        // preferredDynamicRange, toneMapMode, autoresizingMask, an unknown key or the empty key; it
        // does archive allowsEdgeAntialiasing and allowsGroupOpacity (taken from the application
        // bundle), cornerCurve and contentsFormat.
        let layer = CALayer()
        for key in [
            "position", "bounds", "delegate", "contents", "opacity", "hidden", "transform", "mask", "filters",
            "contentsCenter", "style", "actions", "sublayers", "superlayer", "maskedCorners", "preferredDynamicRange",
            "toneMapMode", "autoresizingMask", "wantsDynamicContentScaling", "notAKeyAtAll", "", "frame",
        ] {
            #expect(!layer.shouldArchiveValue(forKey: key), "\(key)")
        }
        for key in ["allowsEdgeAntialiasing", "allowsGroupOpacity", "cornerCurve", "contentsFormat"] {
            #expect(layer.shouldArchiveValue(forKey: key), "\(key)")
        }
    }

    @Test func whatWasSetIsArchived() {
        // Apple: an opacity or hidden given is archived; bounds set archives bounds but not position;
        // a frame gives both bounds and position, never frame itself; a value given through key-value
        // coding counts; adding a sublayer gives the superlayer sublayers to archive, never the
        // sublayer its superlayer; maskedCorners, the dynamic range, the tone-map mode, the headroom,
        // the extended range and autoresizingMask once set; dynamic content scaling never.
        let layer = CALayer()
        layer.opacity = 0.5
        layer.isHidden = true
        #expect(layer.shouldArchiveValue(forKey: "opacity") && layer.shouldArchiveValue(forKey: "hidden"))
        let sized = CALayer()
        sized.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        #expect(sized.shouldArchiveValue(forKey: "bounds") && !sized.shouldArchiveValue(forKey: "position"))
        let framed = CALayer()
        framed.frame = CGRect(x: 1, y: 2, width: 3, height: 4)
        #expect(framed.shouldArchiveValue(forKey: "bounds") && framed.shouldArchiveValue(forKey: "position"))
        #expect(!framed.shouldArchiveValue(forKey: "frame"))
        let coded = CALayer()
        coded.setValue(NSNumber(value: Float(0.25)), forKey: "opacity")
        coded.setValue(3, forKey: "custom")
        #expect(coded.shouldArchiveValue(forKey: "opacity") && coded.shouldArchiveValue(forKey: "custom"))
        coded.contentsCenter = CGRect(x: 0, y: 0, width: 0.5, height: 0.5)
        #expect(coded.shouldArchiveValue(forKey: "contentsCenter"))
        let parent = CALayer()
        let child = CALayer()
        parent.addSublayer(child)
        #expect(parent.shouldArchiveValue(forKey: "sublayers") && !child.shouldArchiveValue(forKey: "superlayer"))
        let modern = CALayer()
        modern.maskedCorners = .layerMinXMinYCorner
        modern.preferredDynamicRange = .high
        modern.toneMapMode = .never
        modern.contentsHeadroom = 2
        modern.wantsExtendedDynamicRangeContent = true
        modern.autoresizingMask = .layerWidthSizable
        modern.wantsDynamicContentScaling = true
        for key in [
            "maskedCorners", "preferredDynamicRange", "toneMapMode", "contentsHeadroom",
            "wantsExtendedDynamicRangeContent", "autoresizingMask",
        ] {
            #expect(modern.shouldArchiveValue(forKey: key), "\(key)")
        }
        #expect(!modern.shouldArchiveValue(forKey: "wantsDynamicContentScaling"))
    }

    @Test func classDefaultsAreNotValuesGiven() {
        // Apple: "a subclass does not archive a property nobody set either"; a value its
        // defaultValue(forKey:) supplies is the layer's from the start (the colour object too).
        let layer = DefaultedLayer()
        #expect(layer.backgroundColor === DefaultedLayer.green && layer.opacity == 0.5)
        #expect(!layer.shouldArchiveValue(forKey: "backgroundColor") && !layer.shouldArchiveValue(forKey: "opacity"))
    }

    @Test func anArchiveHoldsOnlyWhatWasSetAndRoundTrips() throws {
        // What was not set is not written, so an unarchived layer has the class's default for it; what
        // was set comes back, and is archived again from the copy. A subclass's `false` leaves a key out.
        let layer = CALayer()
        layer.opacity = 0.25
        layer.cornerRadius = 4
        let data = try NSKeyedArchiver.archivedData(withRootObject: layer, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CALayer.self, from: data))
        #expect(back.opacity == 0.25 && back.cornerRadius == 4 && back.bounds == .zero)
        #expect(back.shouldArchiveValue(forKey: "opacity") && !back.shouldArchiveValue(forKey: "bounds"))
        let skipping = ArchivingNoOpacityLayer()
        skipping.opacity = 0.25
        let skipped = try NSKeyedArchiver.archivedData(withRootObject: skipping, requiringSecureCoding: true)
        let restored = try #require(
            try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivingNoOpacityLayer.self, from: skipped))
        #expect(restored.opacity == 1)
    }
}

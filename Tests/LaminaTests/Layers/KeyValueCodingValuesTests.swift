import Foundation
@testable import Lamina
import Testing

/// Values through key-value coding, class defaults, and the small Apple pieces (issue 10, points 3,
/// 4, 5 and 8), checked against what Apple's QuartzCore returns.
@Suite struct KeyValueCodingValuesTests {
    /// Apple: `value(forKeyPath: "transform.rotation.z")` is an `NSNumber` (CALayer.h documents the
    /// key paths as taking `NSNumber`s), so `as! Double` and `.doubleValue` work.
    @Test func numbersComeBackAsNSNumber() throws {
        let layer = CALayer()
        layer.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        layer.cornerRadius = 6
        layer.opacity = 0.5
        let rotation = try #require(layer.value(forKeyPath: "transform.rotation.z") as? NSNumber)
        #expect(abs(rotation.doubleValue - .pi / 4) < 1e-12)
        #expect(abs((layer.value(forKeyPath: "transform.rotation.z") as! Double) - .pi / 4) < 1e-12)
        #expect(layer.value(forKey: "cornerRadius") as? Double == 6)
        // Apple boxes opacity, a Float property, as a float NSNumber.
        #expect(layer.value(forKey: "opacity") as? Float == 0.5)
        #expect((layer.value(forKey: "opacity") as? NSNumber)?.doubleValue == 0.5)
        #expect((layer.value(forKeyPath: "position.x") as? NSNumber)?.doubleValue == 0)
        // Booleans and corner masks are NSNumbers too (CALayer.h: BOOL and NSUInteger properties).
        layer.isHidden = true
        #expect(layer.value(forKey: "hidden") as? Bool == true)
        #expect((layer.value(forKey: "maskedCorners") as? NSNumber)?.uintValue == 15)
        layer.speed = 2
        #expect(layer.value(forKey: "speed") as? Float == 2)
    }

    /// Apple: structures come back boxed and cast back with `as! CGPoint`, `as! CGRect` and
    /// `as! CATransform3D`.
    @Test func structuresCastBack() {
        let layer = CALayer()
        layer.position = CGPoint(x: 3, y: 4)
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
        let t = CATransform3DMakeScale(2, 3, 1)
        layer.transform = t
        #expect(layer.value(forKey: "position") as! CGPoint == CGPoint(x: 3, y: 4))
        #expect(layer.value(forKey: "bounds") as! CGRect == CGRect(x: 0, y: 0, width: 10, height: 20))
        #expect(CATransform3DEqualToTransform(layer.value(forKey: "transform") as! CATransform3D, t))
        #expect(layer.value(forKeyPath: "bounds.size") as! CGSize == CGSize(width: 10, height: 20))
    }

    /// Apple: `value(forKey: "borderColor")` is the very object `borderColor` returns.
    @Test func colorsAreTheSameObject() {
        let layer = CALayer()
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.backgroundColor = red
        #expect((layer.value(forKey: "backgroundColor") as? CGColor) === red)
        #expect((layer.value(forKeyPath: "backgroundColor") as? CGColor) === red)
        #expect((layer.value(forKey: "borderColor") as? CGColor) === layer.borderColor)
    }

    /// Apple: the presentation layer answers key-value coding the same way (its values are
    /// NSNumbers too).
    @Test func presentationLayerNumbers() throws {
        let layer = CALayer()
        layer.zPosition = 7
        layer.hasBeenCommitted = true
        let presented = try #require(layer.presentation(at: 0))
        #expect(presented.value(forKey: "zPosition") as? Double == 7)
    }

    /// Apple (CALayer.h `+defaultValueForKey:` and the property comments): anchorPoint (0.5, 0.5),
    /// opacity 1, speed 1, maskedCorners 15, borderColor opaque black, duration infinite for a layer;
    /// fillMode removed; contentsScale 1, contentsRect and contentsCenter the unit rectangle,
    /// contentsGravity resize, minification and magnification filters linear, edgeAntialiasingMask
    /// all four edges (15), allowsGroupOpacity YES, doubleSided YES, opaque and shouldRasterize NO,
    /// rasterizationScale 1, cornerCurve circular. allowsEdgeAntialiasing is true here as the issue
    /// and decisions.md ask (iOS reads its default from Info.plist, false when absent).
    @Test func layerClassDefaults() throws {
        let unit = CGRect(x: 0, y: 0, width: 1, height: 1)
        #expect((CALayer.defaultValue(forKey: "contentsScale") as? NSNumber)?.doubleValue == 1)
        #expect(CALayer.defaultValue(forKey: "contentsRect") as? CGRect == unit)
        #expect(CALayer.defaultValue(forKey: "contentsCenter") as? CGRect == unit)
        #expect(CALayer.defaultValue(forKey: "contentsGravity") as? String == "resize")
        #expect(CALayer.defaultValue(forKey: "minificationFilter") as? String == "linear")
        #expect(CALayer.defaultValue(forKey: "magnificationFilter") as? String == "linear")
        // Apple has no class default for minificationFilterBias, bounds or position (GNUstep's
        // QuartzCore tests run on macOS, issue 24), and answers false for drawsAsynchronously.
        #expect(CALayer.defaultValue(forKey: "minificationFilterBias") == nil)
        #expect(CALayer.defaultValue(forKey: "position") == nil)
        #expect(CALayer.defaultValue(forKey: "drawsAsynchronously") as? Bool == false)
        #expect(CALayer.defaultValue(forKey: "allowsEdgeAntialiasing") as? Bool == true)
        #expect(CALayer.defaultValue(forKey: "allowsGroupOpacity") as? Bool == true)
        #expect(CALayer.defaultValue(forKey: "edgeAntialiasingMask") as? UInt32 == 15)
        #expect(CALayer.defaultValue(forKey: "opaque") as? Bool == false)
        #expect(CALayer.defaultValue(forKey: "doubleSided") as? Bool == true)
        #expect(CALayer.defaultValue(forKey: "shouldRasterize") as? Bool == false)
        #expect((CALayer.defaultValue(forKey: "rasterizationScale") as? NSNumber)?.doubleValue == 1)
        #expect(CALayer.defaultValue(forKey: "cornerCurve") as? String == "circular")
        #expect(CALayer.defaultValue(forKey: "anchorPoint") as? CGPoint == CGPoint(x: 0.5, y: 0.5))
        #expect(CALayer.defaultValue(forKey: "opacity") as? Float == 1)
        #expect(CALayer.defaultValue(forKey: "speed") as? Float == 1)
        #expect(CALayer.defaultValue(forKey: "maskedCorners") as? UInt == 15)
        #expect(CALayer.defaultValue(forKey: "hidden") as? Bool == false)
        #expect(CALayer.defaultValue(forKey: "bounds") == nil)
        #expect(CALayer.defaultValue(forKey: "backgroundColor") == nil)
        let black = try #require(CALayer.defaultValue(forKey: "borderColor") as? CGColor)
        #expect(black.components == [0, 0, 0, 1])
        #expect(CALayer.defaultValue(forKey: "duration") as? Double == .infinity)
        #expect(CALayer.defaultValue(forKey: "fillMode") as? String == "removed")
        #expect(CALayer.defaultValue(forKey: "contentsFormat") as? String == CALayerContentsFormat.RGBA8Uint.rawValue)
        #expect(CALayer.defaultValue(forKey: "noSuchKey") == nil)
        // Every row of the property table answers (the one list of Lamina's layer properties),
        // and the default equals what a new layer reads.
        let layer = CALayer()
        // backgroundColor, name, contents, shadowPath and the three filter properties default to nil
        // (CALayer.h).
        #expect(CALayer.defaultValue(forKey: "contents") == nil)
        #expect(CALayer.defaultValue(forKey: "filters") == nil)
        let noDefault: [LayerPropertyName] = [
            .backgroundColor, .name, .contents, .bounds, .position, .minificationFilterBias, .shadowPath, .filters,
            .backgroundFilters, .compositingFilter,
        ]
        #expect(CALayer.defaultValue(forKey: "shadowPath") == nil)
        for row in LayerPropertyDescriptor.table where row.layerClass == .layer && !noDefault.contains(row.name) {
            let value = CALayer.defaultValue(forKey: row.key)
            #expect(value != nil, "\(row.key)")
            // The colour objects are gray; the table's default is the same black in RGB.
            if row.name != .borderColor && row.name != .shadowColor {
                #expect("\(value ?? "nil")" == "\(layer.value(forKey: row.key) ?? "nil")", "\(row.key)")
            }
        }
        #expect(layer.duration == .infinity)
    }

    /// Apple: CAAnimation's `+defaultValueForKey:` answers its keys; duration 0, speed 1, fillMode
    /// removed, removedOnCompletion true; keyframe calculationMode linear (CAAnimation.h); springs
    /// mass 1, stiffness 100, damping 10, initialVelocity 0 (CAAnimation.h).
    @Test func animationClassDefaults() {
        #expect(CAAnimation.defaultValue(forKey: "duration") as? Double == 0)
        #expect(CAAnimation.defaultValue(forKey: "speed") as? Float == 1)
        #expect(CAAnimation.defaultValue(forKey: "fillMode") as? String == "removed")
        #expect(CAAnimation.defaultValue(forKey: "removedOnCompletion") as? Bool == true)
        #expect(CABasicAnimation.defaultValue(forKey: "additive") as? Bool == false)
        #expect(CAKeyframeAnimation.defaultValue(forKey: "calculationMode") as? String == "linear")
        #expect(CABasicAnimation.defaultValue(forKey: "calculationMode") == nil)
        #expect(CASpringAnimation.defaultValue(forKey: "stiffness") as? Double == 100)
        #expect(CASpringAnimation.defaultValue(forKey: "damping") as? Double == 10)
        #expect(CATransition.defaultValue(forKey: "endProgress") as? Float == 1)
        #expect(CABasicAnimation().value(forKey: "duration") as? Double == 0)
    }

    /// Apple: copying a CAAnimationGroup keeps the same child animation objects (a shallow copy of
    /// `animations`, as NSArray's copy is).
    @Test func groupCopyKeepsChildren() throws {
        let group = CAAnimationGroup()
        let child = CABasicAnimation(keyPath: "opacity")
        group.animations = [child]
        let copy = try #require(group.copy() as? CAAnimationGroup)
        #expect(copy !== group)
        #expect(copy.animations?.first === child)
    }

    /// Apple: `+[CAValueFunction functionWithName:]` returns nil for an unknown name and one shared
    /// instance per name.
    @Test func valueFunctionByName() throws {
        #expect(CAValueFunction(name: CAValueFunctionName("spin")) == nil)
        #expect(CAValueFunction(name: CAValueFunctionName("")) == nil)
        let a = try #require(CAValueFunction(name: .rotateZ))
        #expect(a === CAValueFunction(name: .rotateZ))
        #expect(a !== CAValueFunction(name: .rotateX))
        #expect(a.name == .rotateZ)
    }

    /// Apple: an explicit animation keeps `duration` 0 as set; the layer uses the transaction's
    /// animationDuration (CATransaction.h: 0.25 s unless set) when it is added.
    @Test func zeroDurationTakesTransactionDuration() throws {
        let layer = CALayer()
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0
        layer.add(fade, forKey: "fade")
        CATransaction.commit()
        let added = try #require(layer.animation(forKey: "fade"))
        #expect(added.duration == 0)
        #expect(layer.attachedAnimations.first?.record.timing.duration == 2)
        let plain = CALayer()
        plain.add(fade, forKey: "fade")
        #expect(plain.attachedAnimations.first?.record.timing.duration == 0.25)
        CATransaction.flush()
    }

    /// Apple's implicit animation carries the old value as its `fromValue` (an NSNumber).
    @Test func implicitAnimationFromValueReadsBack() throws {
        let layer = CALayer()
        layer.hasBeenCommitted = true
        layer.opacity = 0.25
        let implicit = try #require(layer.animation(forKey: "opacity") as? CABasicAnimation)
        #expect(implicit.fromValue as? Double == 1)
        #expect(implicit.toValue == nil)
        layer.removeAllAnimations()
        CATransaction.flush()
    }

    /// CoreGraphics: CGVector(dx:dy:), .zero, Equatable.
    @Test func vector() {
        let v = CGVector(dx: 1.5, dy: -2)
        #expect(v.dx == 1.5 && v.dy == -2)
        #expect(CGVector.zero == CGVector(dx: 0, dy: 0))
        #expect(v != .zero)
    }

    /// Apple's defaults (CALayer.h): contentsFormat RGBA8Uint, preferredDynamicRange standard (GNUstep's
    /// QuartzCore tests run on macOS, issue 24), toneMapMode automatic, contentsHeadroom 0,
    /// wantsExtendedDynamicRangeContent false; they are stored.
    @Test func dynamicRangeProperties() {
        let layer = CALayer()
        #expect(layer.contentsFormat == .RGBA8Uint)
        #expect(layer.preferredDynamicRange == .standard)
        #expect(layer.toneMapMode == .automatic)
        #expect(layer.contentsHeadroom == 0)
        #expect(!layer.wantsExtendedDynamicRangeContent)
        layer.contentsFormat = .RGBA16Float
        layer.preferredDynamicRange = .high
        layer.toneMapMode = .never
        layer.contentsHeadroom = 2.5
        layer.wantsExtendedDynamicRangeContent = true
        #expect(layer.contentsFormat == .RGBA16Float)
        #expect(layer.preferredDynamicRange == .high)
        #expect(layer.toneMapMode == .never)
        #expect(layer.contentsHeadroom == 2.5)
        #expect(layer.wantsExtendedDynamicRangeContent)
    }

    final class Ticker {
        var ticks = 0
        func tick() { ticks += 1 }
    }

    /// Apple: `CADisplayLink(target:selector:)` with a method taking no argument, and
    /// `remove(from:forMode:)` (CADisplayLink.h).
    @Test func displayLinkForms() {
        let ticker = Ticker()
        let link = CADisplayLink(target: ticker, selector: Ticker.tick)
        link.add(to: .main, forMode: .common)
        link.tick(time: 1, targetTime: 1 + 1 / 60.0)
        #expect(ticker.ticks == 1)
        link.remove(from: .main, forMode: .common)
        link.invalidate()
    }
}

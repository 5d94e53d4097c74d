import Foundation
import Testing

@testable import Lamina

// NSSecureCoding of layers and animations. Apple: CALayer, CAAnimation and its subclasses,
// CAMediaTimingFunction and CAValueFunction adopt NSSecureCoding (CALayer.h, CAAnimation.h,
// CAMediaTimingFunction.h, CAValueFunction.h), and `shouldArchiveValue(forKey:)` "returns a Boolean
// indicating whether the value of the specified key should be archived" (CALayer.h).

/// A layer that leaves `opacity` out of its archives (internal: Foundation on Linux archives only
/// top-level classes).
final class CodingNoOpacityLayer: CALayer {
    override func shouldArchiveValue(forKey key: String) -> Bool {
        key != "opacity" && super.shouldArchiveValue(forKey: key)
    }
}

/// A layer that leaves `contents` out of its archives.
final class CodingNoContentsLayer: CALayer {
    override func shouldArchiveValue(forKey key: String) -> Bool {
        key != "contents" && super.shouldArchiveValue(forKey: key)
    }
}

/// Archives `object` securely and reads it back as `T`.
private func roundTrip<T: NSObject & NSSecureCoding>(_ object: T) throws -> T {
    let data = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
    return try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: T.self, from: data))
}

/// The number in a value read back from an archive (archives hold numbers as NSNumber, as on Apple).
private func number(_ any: Any?) -> Double? { (any as? NSNumber)?.doubleValue }

@Suite("Layer and animation archiving")
struct LayerCodingTests {
    @Test func layerTreeWithAnimationsRoundTrips() throws {
        let root = CALayer()
        root.name = "root"
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.position = CGPoint(x: 100, y: 50)
        root.backgroundColor = CGColor(red: 0.25, green: 0.5, blue: 0.75, alpha: 1)
        root.transform = CATransform3DMakeRotation(0.5, 0, 0, 1)
        root.speed = 2
        root.duration = 3
        root.fillMode = .both
        root.setValue("tag", forKey: "customTag")
        let child = CALayer()
        child.name = "child"
        child.opacity = 0.25
        child.cornerRadius = 6
        child.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
        child.borderWidth = 2
        child.borderColor = nil
        child.isHidden = true
        child.anchorPoint = CGPoint(x: 0, y: 1)
        let grandchild = CALayer()
        grandchild.name = "grandchild"
        grandchild.masksToBounds = true
        grandchild.zPosition = 4
        grandchild.sublayerTransform = CATransform3DMakeScale(2, 3, 1)
        root.addSublayer(child)
        child.addSublayer(grandchild)

        let basic = CABasicAnimation(keyPath: "position")
        basic.fromValue = CGPoint(x: 1, y: 2)
        basic.toValue = CGPoint(x: 3, y: 4)
        basic.duration = 2
        basic.timingFunction = CAMediaTimingFunction(name: .easeIn)
        basic.fillMode = .forwards
        basic.isRemovedOnCompletion = false
        root.add(basic, forKey: "move")
        let keyframe = CAKeyframeAnimation(keyPath: "opacity")
        keyframe.values = [0, 0.5, 1]
        keyframe.keyTimes = [0, 0.25, 1]
        keyframe.timingFunctions = [CAMediaTimingFunction(name: .easeOut), CAMediaTimingFunction(name: .linear)]
        keyframe.calculationMode = .cubic
        keyframe.repeatCount = 2
        keyframe.autoreverses = true
        child.add(keyframe, forKey: "fade")
        let scale = CABasicAnimation(keyPath: "transform")
        scale.valueFunction = CAValueFunction(name: .scale)
        scale.toValue = [2, 2, 1]
        let spin = CASpringAnimation(keyPath: "transform.rotation.z")
        spin.toValue = 1.5
        spin.stiffness = 200
        spin.damping = 12
        let group = CAAnimationGroup()
        group.animations = [scale, spin]
        group.duration = 4
        grandchild.add(group, forKey: "group")

        let copy = try roundTrip(root)
        #expect(copy.name == "root")
        #expect(copy.bounds == CGRect(x: 0, y: 0, width: 200, height: 100))
        #expect(copy.position == CGPoint(x: 100, y: 50))
        #expect(copy.backgroundColor == CGColor(red: 0.25, green: 0.5, blue: 0.75, alpha: 1))
        #expect(copy.transform == CATransform3DMakeRotation(0.5, 0, 0, 1))
        #expect(copy.speed == 2)
        #expect(copy.duration == 3)
        #expect(copy.fillMode == .both)
        #expect((copy.value(forKey: "customTag") as? String) == "tag")
        let c = try #require(copy.sublayers?.first)
        #expect(copy.sublayers?.count == 1)
        #expect(c.superlayer === copy)
        #expect(c.name == "child")
        #expect(c.opacity == 0.25)
        #expect(c.cornerRadius == 6)
        #expect(c.maskedCorners == [.layerMinXMinYCorner, .layerMaxXMaxYCorner])
        #expect(c.borderWidth == 2)
        #expect(c.borderColor == nil)
        #expect(c.isHidden)
        #expect(c.anchorPoint == CGPoint(x: 0, y: 1))
        let g = try #require(c.sublayers?.first)
        #expect(g.name == "grandchild")
        #expect(g.masksToBounds)
        #expect(g.zPosition == 4)
        #expect(g.sublayerTransform == CATransform3DMakeScale(2, 3, 1))
        // Apple's default border colour (opaque black) survives on a layer that never set it.
        #expect(g.borderColor == CGColor(gray: 0, alpha: 1))

        #expect(copy.animationKeys() == ["move"])
        let b = try #require(copy.animation(forKey: "move") as? CABasicAnimation)
        #expect(b.keyPath == "position")
        #expect(b.fromValue as? CGPoint == CGPoint(x: 1, y: 2))
        #expect(b.toValue as? CGPoint == CGPoint(x: 3, y: 4))
        #expect(b.byValue == nil)
        #expect(b.duration == 2)
        #expect(b.timingFunction == CAMediaTimingFunction(name: .easeIn))
        #expect(b.fillMode == .forwards)
        #expect(!b.isRemovedOnCompletion)
        let k = try #require(c.animation(forKey: "fade") as? CAKeyframeAnimation)
        #expect(k.keyPath == "opacity")
        #expect((k.values ?? []).map(number) == [0, 0.5, 1])
        #expect(k.keyTimes == [0, 0.25, 1])
        #expect(
            k.timingFunctions == [CAMediaTimingFunction(name: .easeOut), CAMediaTimingFunction(name: .linear)])
        #expect(k.calculationMode == .cubic)
        #expect(k.repeatCount == 2)
        #expect(k.autoreverses)
        let gr = try #require(g.animation(forKey: "group") as? CAAnimationGroup)
        #expect(gr.duration == 4)
        #expect(gr.animations?.count == 2)
        let s = try #require(gr.animations?.first as? CABasicAnimation)
        #expect(type(of: s) == CABasicAnimation.self)
        #expect(s.keyPath == "transform")
        #expect(s.valueFunction?.name == .scale)
        #expect((s.toValue as? [Any])?.map(number) == [2, 2, 1])
        let sp = try #require(gr.animations?.last as? CASpringAnimation)
        #expect(sp.keyPath == "transform.rotation.z")
        #expect(number(sp.toValue) == 1.5)
        #expect(sp.stiffness == 200)
        #expect(sp.damping == 12)
        #expect(sp.mass == 1)
    }

    /// Apple's `CALayer` archives its `contents` image with the layer (NSSecureCoding, CALayer.h): a
    /// decoded layer shows an image with the same size and pixels; with `shouldArchiveValue` false for
    /// "contents" it has none.
    @Test func contentsImageRoundTrips() throws {
        let pixels: [UInt8] = [255, 0, 0, 255, 0, 128, 0, 128, 0, 0, 255, 255, 10, 20, 30, 40, 0, 0, 0, 0, 9, 9, 9, 9]
        let layer = CALayer()
        let source: CGImage? = CGImage(width: 3, height: 2, premultipliedRGBA: pixels)
        layer.contents = try #require(source)
        let decoded = try roundTrip(layer)
        let image = try #require(decoded.contents as? CGImage)
        #expect(image.width == 3 && image.height == 2)
        #expect(image.premultipliedRGBA == pixels)
        let skipping = CodingNoContentsLayer()
        skipping.contents = layer.contents
        #expect(try roundTrip(skipping).contents == nil)
    }

    @Test func shouldArchiveValueLeavesAKeyOut() throws {
        // CALayer.h: a key for which shouldArchiveValue(forKey:) is false is not archived; the
        // unarchived layer has the default opacity, 1.
        let layer = CodingNoOpacityLayer()
        layer.opacity = 0.5
        layer.cornerRadius = 3
        let copy = try roundTrip(layer)
        #expect(copy.opacity == 1)
        #expect(copy.cornerRadius == 3)
    }

    @Test func animationsDoNotArchiveTheirDelegate() throws {
        // CAAnimation.h: the delegate is not archived.
        final class Listener: CAAnimationDelegate {}
        let animation = CABasicAnimation(keyPath: "opacity")
        animation.delegate = Listener()
        animation.fromValue = Float(0.25)
        animation.byValue = 0.5
        let copy = try roundTrip(animation)
        #expect(copy.delegate == nil)
        #expect(number(copy.fromValue) == 0.25)
        #expect(number(copy.byValue) == 0.5)
    }

    @Test func keyframePathAndTransitionRoundTrip() throws {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 10, y: 0))
        path.addQuadCurve(to: CGPoint(x: 10, y: 10), control: CGPoint(x: 15, y: 5))
        path.addCurve(to: CGPoint(x: 0, y: 10), control1: CGPoint(x: 8, y: 12), control2: CGPoint(x: 2, y: 12))
        path.closeSubpath()
        let keyframe = CAKeyframeAnimation(keyPath: "position")
        keyframe.path = path
        keyframe.rotationMode = .rotateAuto
        let copy = try roundTrip(keyframe)
        #expect(copy.path == path)
        #expect(copy.rotationMode == .rotateAuto)
        let transition = CATransition()
        transition.type = .push
        transition.subtype = .fromLeft
        transition.startProgress = 0.25
        transition.endProgress = 0.75
        let t = try roundTrip(transition)
        #expect(t.type == .push)
        #expect(t.subtype == .fromLeft)
        #expect(t.startProgress == 0.25)
        #expect(t.endProgress == 0.75)
    }

    @Test func timingAndValueFunctionsRoundTrip() throws {
        // CAMediaTimingFunction.h: a function is its two control points; (0.1, 0.2, 0.3, 1.4) is kept.
        let f = try roundTrip(CAMediaTimingFunction(controlPoints: 0.1, 0.2, 0.3, 1.4))
        #expect(f == CAMediaTimingFunction(controlPoints: 0.1, 0.2, 0.3, 1.4))
        let v = try #require(CAValueFunction(name: .rotateZ))
        #expect(try roundTrip(v).name == .rotateZ)
        #expect(CALayer.supportsSecureCoding && CAAnimation.supportsSecureCoding)
        #expect(CAKeyframeAnimation.supportsSecureCoding && CAMediaTimingFunction.supportsSecureCoding)
        #expect(CAValueFunction.supportsSecureCoding)
    }
}

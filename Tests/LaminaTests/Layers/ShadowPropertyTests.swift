// CALayer's shadow properties on the client: Apple's defaults (CALayer.h), the copy of shadowPath,
// implicit and explicit animations with presentation values at chosen media times, key-value coding,
// archiving and the wire form.
import Foundation
import LaminaProtocol
import Testing

@testable import Lamina

@Suite(.serialized) struct ShadowPropertyTests {
    /// CALayer.h: "shadowColor ... Defaults to opaque black", "shadowOpacity ... Defaults to 0",
    /// "shadowOffset ... Defaults to (0, -3)", "shadowRadius ... Defaults to 3", "shadowPath ...
    /// Defaults to null". The same values come from `defaultValue(forKey:)`.
    @Test func defaultsAreApples() throws {
        let layer = CALayer()
        let color = try #require(layer.shadowColor)
        #expect(color.components == [0, 1] || color.components == [0, 0, 0, 1])
        #expect(color.alpha == 1)
        #expect(layer.shadowOpacity == 0)
        #expect(layer.shadowOffset == CGSize(width: 0, height: -3))
        #expect(layer.shadowRadius == 3)
        #expect(layer.shadowPath == nil)
        #expect((CALayer.defaultValue(forKey: "shadowOpacity") as? NSNumber)?.floatValue == 0)
        #expect((CALayer.defaultValue(forKey: "shadowRadius") as? NSNumber)?.doubleValue == 3)
        #expect(CALayer.defaultValue(forKey: "shadowOffset") as? CGSize == CGSize(width: 0, height: -3))
        #expect((CALayer.defaultValue(forKey: "shadowColor") as? CGColor)?.components == [0, 0, 0, 1])
        #expect(CALayer.defaultValue(forKey: "shadowPath") == nil)
        // A shadow changes nothing on the wire until the app sets it.
        #expect(LayerProperty.differences(from: LayerState(), to: layer.modelState).isEmpty)
    }

    /// The colour object given comes back; the path is copied, so changing a mutable path afterwards
    /// does not change the layer's shadow.
    @Test func colourIsKeptAndPathIsCopied() {
        let layer = CALayer()
        let color = CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.8)
        layer.shadowColor = color
        #expect(layer.shadowColor === color)
        let path = CGMutablePath()
        path.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        layer.shadowPath = path
        path.addRect(CGRect(x: 20, y: 0, width: 10, height: 10))
        #expect(layer.shadowPath == CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)))
        #expect(layer.shadowPath !== path)
        layer.shadowColor = nil
        #expect(layer.shadowColor == nil)
        #expect(layer.modelState.shadow.color == nil)
    }

    /// App. B: every shadow property animates implicitly with a CABasicAnimation from the old value.
    @Test func allFiveAnimateImplicitly() throws {
        let layer = CALayer()
        layer.hasBeenCommitted = true
        layer.shadowOpacity = 0.5
        layer.shadowRadius = 10
        layer.shadowOffset = CGSize(width: 4, height: 6)
        layer.shadowColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.shadowPath = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 20, height: 10))
        for key in ["shadowOpacity", "shadowRadius", "shadowOffset", "shadowColor", "shadowPath"] {
            #expect(layer.animation(forKey: key) is CABasicAnimation, "\(key)")
        }
        let opacity = try #require(layer.animation(forKey: "shadowOpacity") as? CABasicAnimation)
        #expect((opacity.fromValue as? NSNumber)?.floatValue == 0)
        let radius = try #require(layer.animation(forKey: "shadowRadius") as? CABasicAnimation)
        #expect((radius.fromValue as? NSNumber)?.doubleValue == 3)
        let offset = try #require(layer.animation(forKey: "shadowOffset") as? CABasicAnimation)
        #expect(offset.fromValue as? CGSize == CGSize(width: 0, height: -3))
        layer.removeAllAnimations()
        CATransaction.flush()
    }

    /// Explicit animations of every shadow property, linear over one second from layer time 10: the
    /// presentation layer at 10.25 and 10.5 shows the values a linear blend predicts.
    @Test func presentationValuesAtChosenTimes() throws {
        let layer = CALayer()
        let from = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let to = CGPath(rect: CGRect(x: 10, y: 20, width: 30, height: 10))
        try ShapeAnimationTests.attach(ShapeAnimationTests.linear("shadowRadius", from: 2, to: 10), to: layer, key: "r")
        try ShapeAnimationTests.attach(
            ShapeAnimationTests.linear("shadowOpacity", from: 0, to: 0.8), to: layer, key: "o")
        try ShapeAnimationTests.attach(
            ShapeAnimationTests.linear(
                "shadowOffset", from: CGSize(width: 0, height: -3), to: CGSize(width: 8, height: 5)),
            to: layer, key: "d")
        try ShapeAnimationTests.attach(
            ShapeAnimationTests.linear(
                "shadowColor", from: CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                to: CGColor(red: 0, green: 0, blue: 1, alpha: 0)),
            to: layer, key: "c")
        try ShapeAnimationTests.attach(
            ShapeAnimationTests.linear("shadowPath", from: from, to: to), to: layer, key: "p")
        let quarter = try #require(layer.presentation(at: 10.25))
        #expect(quarter.shadowRadius == 4)
        #expect(abs(quarter.shadowOpacity - 0.2) < 1e-6)
        #expect(quarter.shadowOffset == CGSize(width: 2, height: -1))
        let half = try #require(layer.presentation(at: 10.5))
        #expect(half.shadowRadius == 6)
        #expect(abs(half.shadowOpacity - 0.4) < 1e-6)
        #expect(half.shadowOffset == CGSize(width: 4, height: 1))
        #expect(half.shadowColor.map { RGBAColor($0) } == RGBAColor(red: 0.5, green: 0, blue: 0.5, alpha: 0.5))
        #expect(half.shadowPath == CGPath(rect: CGRect(x: 5, y: 10, width: 20, height: 10)))
        // The model keeps its own values.
        #expect(layer.shadowRadius == 3 && layer.shadowOpacity == 0)
    }

    /// A component of the offset animates through its key path, as `shadowOffset.height`.
    @Test func offsetComponentsAnimateByKeyPath() throws {
        let layer = CALayer()
        try ShapeAnimationTests.attach(
            ShapeAnimationTests.linear("shadowOffset.height", from: 0, to: 10), to: layer, key: "h")
        let half = try #require(layer.presentation(at: 10.5))
        #expect(half.shadowOffset == CGSize(width: 0, height: 5))
    }

    /// Key-value coding reads and writes the five keys with Apple's boxes.
    @Test func keyValueCoding() throws {
        let layer = CALayer()
        layer.setValue(NSNumber(value: 0.75), forKey: "shadowOpacity")
        layer.setValue(7, forKey: "shadowRadius")
        layer.setValue(CGSize(width: 1, height: 2), forKey: "shadowOffset")
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.setValue(red, forKey: "shadowColor")
        layer.setValue(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 4, height: 4)), forKey: "shadowPath")
        #expect(layer.shadowOpacity == 0.75 && layer.shadowRadius == 7)
        #expect(layer.value(forKey: "shadowOffset") as? CGSize == CGSize(width: 1, height: 2))
        #expect((layer.value(forKey: "shadowColor") as? CGColor) === red)
        #expect(
            layer.value(forKey: "shadowPath") as? CGPath == CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 4, height: 4)))
        layer.setValue(3, forKeyPath: "shadowOffset.width")
        #expect(layer.shadowOffset == CGSize(width: 3, height: 2))
    }

    /// An archived layer comes back with its shadow, the colour in its own colour model.
    @Test func archivingKeepsTheShadow() throws {
        let layer = CALayer()
        layer.shadowOpacity = 0.5
        layer.shadowRadius = 6
        layer.shadowOffset = CGSize(width: 0, height: 4)
        layer.shadowColor = CGColor(gray: 0.25, alpha: 1)
        layer.shadowPath = CGPath(
            roundedRect: CGRect(x: 0, y: 0, width: 40, height: 30), cornerWidth: 8, cornerHeight: 8, transform: nil)
        let data = try NSKeyedArchiver.archivedData(withRootObject: layer, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CALayer.self, from: data))
        #expect(back.shadowOpacity == 0.5 && back.shadowRadius == 6)
        #expect(back.shadowOffset == CGSize(width: 0, height: 4))
        #expect(back.shadowColor?.components == [0.25, 1])
        #expect(back.shadowPath == layer.shadowPath)
        // Defaults are not archived: a fresh layer comes back with Apple's.
        let plain = try NSKeyedArchiver.archivedData(withRootObject: CALayer(), requiringSecureCoding: true)
        let fresh = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CALayer.self, from: plain))
        #expect(fresh.shadowRadius == 3 && fresh.shadowOffset == CGSize(width: 0, height: -3))
    }

    /// The commit sends each shadow property that changed, with its own wire code.
    @Test func changesTravelAsTheirOwnProperties() throws {
        let layer = CALayer()
        layer.shadowOpacity = 1
        layer.shadowOffset = CGSize(width: 2, height: 2)
        let changed = LayerProperty.differences(from: LayerState(), to: layer.modelState)
        #expect(changed == [.shadowOpacity(1), .shadowOffset(CGSize(width: 2, height: 2))])
        #expect(changed.map(\.code) == [55, 57])
    }
}

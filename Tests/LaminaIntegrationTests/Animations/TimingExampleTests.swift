import Foundation
import Lamina
import LaminaTesting
import Testing

/// The worked examples of spec §9 on key paths, timing, transactions, actions and KVC, end to end:
/// a client builds the scene, the real laminad renders it at capture times passed in (no sleeps
/// where a time can be passed), and both the client's presentation values and the pixels show what
/// the timing model and the geometry predict.
///
/// Scenes: a white 200×100 root; either a red 40×40 box at (20, 30) (centre (40, 50)), or a red
/// 80×60 "door" hinged at the root's centre (anchorPoint (0, 0.5), position (100, 50)) under a root
/// `sublayerTransform` with m34 = −1/500. Geometry is y-down with the origin at the top left.
@Suite(.serialized) final class TimingExampleTests: AnimationSuite {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 200, height: 100)
    }

    deinit {
        server.stop()
    }

    // MARK: 9.3 Key paths

    /// E31: `position.x` and `bounds.size.width` are read and written through key paths; the
    /// writes go through the property setters (so `position`/`bounds` actions run) and move pixels.
    @Test func structureKeyPathsE31() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        // Frame (20, 30, 40, 40): position (40, 50), bounds size 40×40.
        #expect(number(box.value(forKeyPath: "position.x")) == 40)
        #expect(number(box.value(forKeyPath: "position.y")) == 50)
        #expect(number(box.value(forKeyPath: "bounds.size.width")) == 40)
        #expect(number(box.value(forKeyPath: "bounds.size.height")) == 40)

        // Write both at once without animation: centre x 100, width 60 → spans x 70…130.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        box.setValue(100, forKeyPath: "position.x")
        box.setValue(60.0, forKeyPath: "bounds.size.width")
        CATransaction.commit()
        #expect(box.position == CGPoint(x: 100, y: 50))
        #expect(box.bounds == CGRect(x: 0, y: 0, width: 60, height: 40))
        #expect(box.frame == CGRect(x: 70, y: 30, width: 60, height: 40))
        #expect(number(box.value(forKeyPath: "position.x")) == 100)
        #expect(number(box.value(forKeyPath: "bounds.size.width")) == 60)
        #expect(box.animationKeys() == nil)
        let moved = try context.capture()
        #expect(leftEdge(moved) == 70)
        #expect(rightEdge(moved) == 129)
        #expect(green(moved, 69, 50) == 255 && green(moved, 130, 50) == 255)

        // With actions on, writing `position.x` runs the `position` action (the whole property):
        // an implicit 0.25 s animation from (100, 50) to (150, 50) with the default curve.
        box.setValue(CGFloat(150), forKeyPath: "position.x")
        #expect(box.position.x == 150)
        #expect(box.animationKeys() == ["position"])
        try context.synchronize()
        let begin = try #require(box.animation(forKey: "position")).beginTime
        #expect(begin > 0)
        // Half-way in time: x = 100 + 50·default(0.5) ≈ 100 + 50·0.8024 ≈ 140.1; left edge x − 30.
        let x = 100 + 50 * Self.defaultCurve.evaluate(0.5)
        let half = try #require(box.presentation(at: begin + 0.125))
        #expect(abs(number(half.value(forKeyPath: "position.x"))! - x) < 1e-6)
        #expect(number(half.value(forKeyPath: "bounds.size.width")) == 60)
        let mid = try #require(leftEdge(try context.capture(at: begin + 0.125)))
        #expect(abs(Double(mid) - (x - 30)) <= 1, "left edge \(mid), expected \(x - 30)")
        // After the animation: x 150 → spans 120…180.
        #expect(leftEdge(try context.capture(at: begin + 0.5)) == 120)
        finish()
    }

    /// E30: `setValue(10, forKeyPath: "transform.translation.x")` moves the layer 10 px right.
    @Test func translationKeyPathE30() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        #expect(leftEdge(try context.capture()) == 20)
        box.setValue(10, forKeyPath: "transform.translation.x")
        #expect(box.transform.m41 == 10)
        #expect(number(box.value(forKeyPath: "transform.translation.x")) == 10)
        #expect(number(box.value(forKeyPath: "transform.translation.y")) == 0)
        #expect(box.position == CGPoint(x: 40, y: 50), "the position is untouched")
        // The change runs the `transform` action: an implicit 0.25 s animation.
        #expect(box.animationKeys() == ["transform"])
        try context.synchronize()
        let begin = try #require(box.animation(forKey: "transform")).beginTime
        // Half-way: translation 10·default(0.5) ≈ 8.02 → left edge ≈ 28.
        let tx = 10 * Self.defaultCurve.evaluate(0.5)
        let half = try #require(box.presentation(at: begin + 0.125))
        #expect(abs(half.transform.m41 - tx) < 1e-6)
        #expect(abs(Double(try #require(leftEdge(try context.capture(at: begin + 0.125)))) - (20 + tx)) <= 1)
        // Afterwards the box's left edge is at 30, its right edge at 69.
        let after = try context.capture(at: begin + 1)
        #expect(leftEdge(after) == 30)
        #expect(rightEdge(after) == 69)
        finish()
    }

    // MARK: 9.8 KVC

    /// E73: any key can be stored and read back with KVC; it changes nothing on screen.
    @Test func arbitraryKeyE73() throws {
        let context = try server.connect()
        let (_, box) = try makeScene(context)
        #expect(box.value(forKey: "someKey") == nil)
        box.setValue(50, forKey: "someKey")
        #expect(box.value(forKey: "someKey") as? Int == 50)
        box.setValue("fifty", forKey: "otherKey")
        #expect(box.value(forKey: "otherKey") as? String == "fifty")
        #expect(box.value(forKey: "someKey") as? Int == 50)
        #expect(box.animationKeys() == nil)
        try context.synchronize()
        let image = try context.capture()
        #expect(leftEdge(image) == 20 && rightEdge(image) == 59)
        finish()
    }

    /// E74: a subclass's `defaultValue(forKey:)` returns true for "masksToBounds": new instances
    /// clip without the flag being set (a plain layer beside it does not).
    @Test func defaultValueOverrideE74() throws {
        final class ClippingLayer: CALayer {
            override class func defaultValue(forKey key: String) -> Any? {
                switch key {
                case "masksToBounds": true
                case "someKey": 7
                default: super.defaultValue(forKey: key)
                }
            }
        }
        let context = try server.connect()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = Self.white
        let clipping = ClippingLayer()
        #expect(clipping.masksToBounds == true)
        #expect(clipping.value(forKey: "masksToBounds") as? Bool == true)
        #expect(clipping.value(forKey: "someKey") as? Int == 7, "unset keys read the class default")
        #expect(CALayer().masksToBounds == false)
        let plain = CALayer()
        // Two 40×40 blue layers, each with a red 60×60 child at (20, 20) that overflows them.
        for (layer, x) in [(clipping as CALayer, 20.0), (plain, 110.0)] {
            layer.frame = CGRect(x: x, y: 30, width: 40, height: 40)
            layer.backgroundColor = Self.blue
            let child = CALayer()
            child.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
            child.backgroundColor = Self.red
            layer.addSublayer(child)
            root.addSublayer(layer)
        }
        context.layer = root
        try context.synchronize()
        let image = try context.capture()
        // Inside both parents the child shows (local (30, 30)); the parent shows at local (10, 10).
        #expect(red(image, 50, 60) == 255 && blue(image, 50, 60) == 0)
        #expect(red(image, 140, 60) == 255 && blue(image, 140, 60) == 0)
        #expect(blue(image, 30, 40) == 255 && blue(image, 120, 40) == 255)
        // Outside the parent (local (50, 20)): white where clipped, red for the plain layer.
        #expect(green(image, 70, 50) == 255 && red(image, 70, 50) == 255)
        #expect(red(image, 160, 50) == 255 && green(image, 160, 50) == 0)
        // The presentation layer of the subclass keeps the class and the value.
        let presented = try #require(clipping.presentation(at: CACurrentMediaTime()))
        #expect(presented is ClippingLayer)
        #expect(presented.masksToBounds == true)
        finish()
    }
}

import Foundation
import Lamina
import LaminaCore
import LaminaProtocol
import LaminaTesting
import Testing

/// Named sublayers in key paths (issue 10, point 7). Apple's CALayer resolves a key path component
/// `sublayers.NAME` to the sublayer whose `name` is NAME, in key-value coding and in animation key
/// paths: an animation added to a parent with key path `sublayers.dot.opacity` animates the
/// sublayer named `dot` (Core Animation Programming Guide, "Key-Value Coding Extensions"; the
/// `CALayer.name` documentation: "some layout managers use the layer name to identify a layer").
/// Where several sublayers share a name, the first is the one found.
@Suite(.serialized) final class NamedSublayerKeyPathTests: AnimationSuite {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 200, height: 100)
    }

    deinit {
        server.stop()
    }

    /// A white root with two red 40×40 sublayers at (20, 30) and (120, 30), both named `dot`, and a
    /// third, unnamed, blue one at (80, 0) 20×20.
    func makeDots(_ context: CAContext) throws -> (root: CALayer, first: CALayer, second: CALayer) {
        let first = CALayer()
        first.frame = CGRect(x: 20, y: 30, width: 40, height: 40)
        first.backgroundColor = Self.red
        first.name = "dot"
        let second = CALayer()
        second.frame = CGRect(x: 120, y: 30, width: 40, height: 40)
        second.backgroundColor = Self.red
        second.name = "dot"
        let other = CALayer()
        other.frame = CGRect(x: 80, y: 0, width: 20, height: 20)
        other.backgroundColor = Self.blue
        let root = try makeScene(context, [first, second, other])
        return (root, first, second)
    }

    @Test func splittingAKeyPathIntoSublayerNamesAndTheRest() {
        #expect(PropertyTarget.splitSublayerPath("opacity").map { $0.names } == [])
        #expect(PropertyTarget.splitSublayerPath("sublayers.dot.opacity").map { $0.names } == ["dot"])
        #expect(PropertyTarget.splitSublayerPath("sublayers.dot.opacity").map { $0.rest } == "opacity")
        let nested = PropertyTarget.splitSublayerPath("sublayers.a.sublayers.b.position.x")
        #expect(nested?.names == ["a", "b"] && nested?.rest == "position.x")
        // A name with nothing after it, or an empty name, is no property key path.
        #expect(PropertyTarget.splitSublayerPath("sublayers.dot") == nil)
        #expect(PropertyTarget.splitSublayerPath("sublayers..opacity") == nil)
    }

    @Test func keyValueCodingReachesTheFirstSublayerOfAName() throws {
        let context = try server.connect()
        let (root, first, second) = try makeDots(context)
        #expect(root.value(forKeyPath: "sublayers.dot") as? CALayer === first)
        #expect(root.value(forKeyPath: "sublayers.nothing") == nil)
        first.opacity = 0.25
        #expect((root.value(forKeyPath: "sublayers.dot.opacity") as? NSNumber)?.doubleValue == 0.25)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.setValue(70.0, forKeyPath: "sublayers.dot.position.x")
        CATransaction.commit()
        #expect(first.position.x == 70)
        #expect(second.position.x == 140, "only the first sublayer of the name changes")
        // One level deeper: sublayers.a.sublayers.b.
        let inner = CALayer()
        inner.name = "b"
        first.name = "a"
        first.addSublayer(inner)
        root.setValue(CGFloat(0.5), forKeyPath: "sublayers.a.sublayers.b.opacity")
        #expect(inner.opacity == 0.5)
        finish()
    }

    @Test func anAnimationOnTheParentDrivesTheNamedSublayer() throws {
        let context = try server.connect()
        let (root, first, second) = try makeDots(context)
        let fade = CABasicAnimation(keyPath: "sublayers.dot.opacity")
        fade.fromValue = 0.0
        fade.toValue = 1.0
        fade.duration = 1
        fade.beginTime = CACurrentMediaTime() + 10
        root.add(fade, forKey: "fade")
        try context.synchronize()
        #expect(root.animationKeys() == ["fade"], "the animation stays the parent's")
        #expect(first.animationKeys() == nil)
        let begin = fade.beginTime
        // Half-way, linear: the first dot's opacity is 0.5, so red over white is (255, 128±1, 128±1);
        // the second dot of the same name is untouched (255, 0, 0); the root is not faded.
        let presented = try #require(first.presentation(at: begin + 0.5))
        #expect(abs(Double(presented.opacity) - 0.5) < 1e-6)
        #expect(try #require(second.presentation(at: begin + 0.5)).opacity == 1)
        #expect(try #require(root.presentation(at: begin + 0.5)).opacity == 1)
        let image = try context.capture(at: begin + 0.5)
        let faded = rgb(image, 40, 50)
        #expect(faded.r == 255 && abs(faded.g - 128) <= 1 && abs(faded.b - 128) <= 1, "first dot \(faded)")
        #expect(rgb(image, 140, 50) == (255, 0, 0) as RGB, "second dot \(rgb(image, 140, 50))")
        #expect(rgb(image, 90, 10) == (0, 0, 255) as RGB)
        // Before it starts (fill mode removed) and after it ends, the model opacity 1 shows.
        #expect(rgb(try context.capture(at: begin - 1), 40, 50) == (255, 0, 0) as RGB)
        #expect(rgb(try context.capture(at: begin + 2), 40, 50) == (255, 0, 0) as RGB)
        finish()
    }

    @Test func aGroupOnTheGrandparentDrivesANestedNamedSublayer() throws {
        let context = try server.connect()
        let (root, first, _) = try makeDots(context)
        let inner = CALayer()
        inner.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        inner.backgroundColor = Self.blue
        inner.name = "centre"
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        first.addSublayer(inner)
        CATransaction.commit()
        try context.synchronize()
        let move = CABasicAnimation(keyPath: "sublayers.dot.sublayers.centre.position.x")
        move.fromValue = 20.0
        move.toValue = 40.0
        let group = CAAnimationGroup()
        group.animations = [move]
        group.duration = 1
        group.beginTime = CACurrentMediaTime() + 10
        root.add(group, forKey: "group")
        try context.synchronize()
        // Half-way: the centre's position.x is 30 in the dot, so it spans x 20…40 in the dot, 40…60 on
        // screen (its model spans 30…50): blue at 45, red at 35 (the dot's own colour).
        let begin = group.beginTime
        #expect(try #require(inner.presentation(at: begin + 0.5)).position.x == 30)
        let image = try context.capture(at: begin + 0.5)
        #expect(rgb(image, 45, 50) == (0, 0, 255) as RGB)
        #expect(rgb(image, 35, 50) == (255, 0, 0) as RGB)
        finish()
    }

    @Test func theSublayerPathTravelsOnTheWireAndIsBounded() throws {
        let target = PropertyTarget(keyPath: LayerKeyPath("opacity")!, sublayerPath: ["a", "b"])
        let record = AnimationRecord(
            timing: MediaTiming(duration: 1),
            content: .basic(target, BasicValues(from: .number(0), to: .number(1))))
        let message = ClientMessage.commit(
            serial: 1, operations: [.addAnimation(1, AttachedAnimation(id: 1, key: "k", record: record))])
        let decoded = try MessageCodec.decodeClient(MessageCodec.encode(message))
        #expect(decoded == message)
        // A path deeper than a tree may be (256) is refused while decoding.
        let deep = PropertyTarget(keyPath: LayerKeyPath("opacity")!, sublayerPath: Array(repeating: "x", count: 257))
        let tooDeep = ClientMessage.commit(
            serial: 1,
            operations: [
                .addAnimation(
                    1,
                    AttachedAnimation(
                        id: 1, key: "k",
                        record: AnimationRecord(
                            timing: MediaTiming(duration: 1),
                            content: .basic(deep, BasicValues(from: .number(0), to: .number(1))))))
            ])
        #expect(throws: (any Error).self) { try MessageCodec.decodeClient(MessageCodec.encode(tooDeep)) }
    }

    /// Apple's CABasicAnimation with no values interpolates from the key's previous presentation
    /// value to its current value (CAAnimation.h); for a named sublayer's key, the sublayer's.
    @Test func anAnimationWithNoValuesStartsFromTheNamedSublayersPreviousValue() throws {
        let context = try server.connect()
        let (root, first, _) = try makeDots(context)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        first.opacity = 0
        CATransaction.commit()
        try context.synchronize()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        first.opacity = 1
        let fade = CABasicAnimation(keyPath: "sublayers.dot.opacity")
        fade.duration = 1
        fade.beginTime = CACurrentMediaTime() + 10
        root.add(fade, forKey: "fade")
        CATransaction.commit()
        try context.synchronize()
        let presented = try #require(first.presentation(at: fade.beginTime + 0.5))
        #expect(abs(Double(presented.opacity) - 0.5) < 1e-6)
        let faded = rgb(try context.capture(at: fade.beginTime + 0.5), 40, 50)
        #expect(faded.r == 255 && abs(faded.g - 128) <= 1, "first dot \(faded)")
        finish()
    }
}

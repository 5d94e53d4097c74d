// CAReplicatorLayer on the client: Apple's defaults, key-value coding, archiving, presentation copies,
// implicit animations (CAReplicatorLayer.h: every property but preservesDepth is animatable), and the
// instance count sent to the server (clamped to what it draws).
import Foundation
import LaminaProtocol
import Testing

@testable import Lamina

@Suite(.serialized) struct ReplicatorLayerTests {
    @Test func defaultsAreApples() {
        // CAReplicatorLayer.h: instanceCount "Defaults to one"; instanceDelay "Defaults to zero";
        // instanceTransform "Defaults to the identity transform"; instanceColor "Defaults to opaque
        // white"; the four offsets "Defaults to zero"; preservesDepth "Defaults to NO".
        let layer = CAReplicatorLayer()
        #expect(layer.instanceCount == 1)
        #expect(layer.instanceDelay == 0)
        #expect(CATransform3DIsIdentity(layer.instanceTransform))
        #expect(layer.instanceColor?.components == [1, 1, 1, 1])
        #expect(layer.instanceRedOffset == 0 && layer.instanceGreenOffset == 0)
        #expect(layer.instanceBlueOffset == 0 && layer.instanceAlphaOffset == 0)
        #expect(layer.preservesDepth == false)
        #expect(layer.serverLayerClass == .replicator && layer.modelState.layerClass == .replicator)
        #expect((CAReplicatorLayer.defaultValue(forKey: "instanceCount") as? NSNumber)?.intValue == 1)
        #expect((CAReplicatorLayer.defaultValue(forKey: "instanceColor") as? CGColor)?.components == [1, 1, 1, 1])
        #expect(CAReplicatorLayer.defaultValue(forKey: "preservesDepth") as? Bool == false)
        #expect(CAReplicatorLayer.defaultValue(forKey: "opacity") as? Float == 1, "other keys: the layer's")
        // Another class's key is a custom key on a plain layer, as on Apple platforms.
        #expect(CALayer.defaultValue(forKey: "instanceCount") == nil)
    }

    @Test func keyValueCodingReachesEveryProperty() {
        let layer = CAReplicatorLayer()
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.setValue(red, forKey: "instanceColor")
        #expect(layer.instanceColor === red)
        #expect(layer.value(forKey: "instanceColor") as? CGColor === red)
        layer.setValue(NSNumber(value: 12), forKey: "instanceCount")
        #expect(layer.instanceCount == 12)
        #expect((layer.value(forKey: "instanceCount") as? NSNumber)?.intValue == 12)
        layer.setValue(0.25, forKey: "instanceDelay")
        layer.setValue(NSNumber(value: -0.5), forKey: "instanceAlphaOffset")
        layer.setValue(0.1, forKey: "instanceRedOffset")
        layer.setValue(true, forKey: "preservesDepth")
        let turn = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        layer.setValue(turn, forKey: "instanceTransform")
        #expect(layer.instanceDelay == 0.25 && layer.instanceAlphaOffset == -0.5)
        #expect(layer.instanceRedOffset == 0.1 && layer.preservesDepth)
        #expect(layer.instanceTransform == turn)
        #expect((layer.value(forKey: "instanceDelay") as? NSNumber)?.doubleValue == 0.25)
        // A value of the wrong type changes nothing.
        layer.setValue("many", forKey: "instanceCount")
        #expect(layer.instanceCount == 12)
        // nil resets a colour to nil and a number to its default.
        layer.setValue(nil, forKey: "instanceColor")
        #expect(layer.instanceColor == nil)
        layer.setValue(nil, forKey: "instanceDelay")
        #expect(layer.instanceDelay == 0)
    }

    @Test func archivingKeepsEveryProperty() throws {
        let layer = CAReplicatorLayer()
        layer.instanceCount = 7
        layer.instanceDelay = 0.5
        layer.instanceTransform = CATransform3DMakeTranslation(3, 4, 0)
        layer.instanceColor = CGColor(gray: 0.5, alpha: 1)
        layer.instanceRedOffset = -0.1
        layer.instanceGreenOffset = -0.2
        layer.instanceBlueOffset = 0.3
        layer.instanceAlphaOffset = -0.4
        layer.preservesDepth = true
        let data = try NSKeyedArchiver.archivedData(withRootObject: layer, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CAReplicatorLayer.self, from: data))
        #expect(back.instanceCount == 7 && back.instanceDelay == 0.5)
        #expect(back.instanceTransform == CATransform3DMakeTranslation(3, 4, 0))
        // The colour object keeps its colour model (grey).
        #expect(back.instanceColor?.components == [0.5, 1])
        #expect(back.instanceRedOffset == -0.1 && back.instanceGreenOffset == -0.2)
        #expect(back.instanceBlueOffset == 0.3 && back.instanceAlphaOffset == -0.4)
        #expect(back.preservesDepth)
    }

    @Test func copiesCarryTheReplicatorProperties() {
        let layer = CAReplicatorLayer()
        let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        layer.instanceCount = 3
        layer.instanceColor = blue
        let copy = CAReplicatorLayer(layer: layer)
        #expect(copy.instanceCount == 3 && copy.instanceColor === blue)
    }

    /// CAReplicatorLayer.h marks instanceCount, instanceDelay, instanceTransform, instanceColor and the
    /// four offsets "Animatable"; preservesDepth is not.
    @Test func everyPropertyButPreservesDepthAnimatesImplicitly() throws {
        let layer = CAReplicatorLayer()
        layer.hasBeenCommitted = true
        layer.instanceCount = 4
        let implicit = try #require(layer.animation(forKey: "instanceCount") as? CABasicAnimation)
        #expect((implicit.fromValue as? NSNumber)?.doubleValue == 1)
        for (key, set) in [
            ("instanceDelay", { layer.instanceDelay = 1 }),
            ("instanceTransform", { layer.instanceTransform = CATransform3DMakeScale(2, 2, 1) }),
            ("instanceColor", { layer.instanceColor = CGColor(gray: 0.5, alpha: 1) }),
            ("instanceRedOffset", { layer.instanceRedOffset = -0.1 }),
            ("instanceGreenOffset", { layer.instanceGreenOffset = -0.1 }),
            ("instanceBlueOffset", { layer.instanceBlueOffset = -0.1 }),
            ("instanceAlphaOffset", { layer.instanceAlphaOffset = -0.1 }),
        ] as [(String, () -> Void)] {
            set()
            #expect(layer.animation(forKey: key) != nil, "\(key)")
        }
        layer.preservesDepth = true
        #expect(layer.animation(forKey: "preservesDepth") == nil)
        layer.removeAllAnimations()
        CATransaction.flush()
    }

    /// The presentation copy halfway through explicit animations: the count at its whole part, the
    /// alpha offset and the colour halfway.
    @Test func presentationValuesOfAReplicatorLayer() throws {
        let layer = CAReplicatorLayer()
        layer.instanceColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        for (key, from, to) in [
            ("instanceCount", 2 as Any, 7 as Any), ("instanceAlphaOffset", 0 as Any, -0.5 as Any),
            (
                "instanceColor", CGColor(red: 0, green: 0, blue: 0, alpha: 1) as Any,
                CGColor(red: 1, green: 1, blue: 1, alpha: 1) as Any
            ),
        ] {
            let animation = CABasicAnimation(keyPath: key)
            animation.fromValue = from
            animation.toValue = to
            animation.duration = 1
            animation.timingFunction = CAMediaTimingFunction(name: .linear)
            layer.add(animation, forKey: key)
            let entry = try #require(layer.attachedAnimations.last)
            entry.record.timing.beginTime = 10
            entry.committed = true
        }
        layer.hasBeenCommitted = true
        let half = try #require(layer.presentation(at: 10.5) as? CAReplicatorLayer)
        // 2 + 0.5 × 5 = 4.5: four copies.
        #expect(half.instanceCount == 4)
        #expect(abs(half.instanceAlphaOffset + 0.25) < 1e-6)
        let components = try #require(half.instanceColor?.components)
        #expect(components.count == 4 && abs(components[0] - 0.5) < 1e-6 && components[3] == 1)
        layer.removeAllAnimations()
        CATransaction.flush()
    }

    /// Apple draws nothing for an instance count below 1 and keeps the value as set; Lamina reads it
    /// back as set and sends what it draws: 0 for a negative count, at most 10,000 (the server's
    /// limit), so neither is refused.
    @Test func theCountSentIsTheCountDrawn() {
        let layer = CAReplicatorLayer()
        layer.instanceCount = -5
        #expect(layer.instanceCount == -5)
        #expect(LayerProperty.differences(from: nil, to: layer.modelState).contains(.instanceCount(0)))
        layer.instanceCount = 1_000_000_000
        #expect(layer.instanceCount == 1_000_000_000)
        #expect(LayerProperty.differences(from: nil, to: layer.modelState).contains(.instanceCount(10_000)))
        #expect(CAContext.sendable([.instanceCount(10_000)], of: layer).count == 1)
    }
}

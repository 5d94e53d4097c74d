// CAEmitterLayer and CAEmitterCell on the client: Apple's defaults (CAEmitterLayer.h, CAEmitterCell.h),
// key-value coding (the layer's keys and `emitterCells.NAME.KEY` paths), archiving, presentation
// copies, implicit animations (CAEmitterLayer.h marks birthRate, lifetime, velocity, scale, spin,
// emitterPosition, emitterZPosition, emitterSize and emitterDepth "Animatable"), and the cells sent.
import Foundation
import LaminaCore
import LaminaProtocol
import Testing

@testable import Lamina

@Suite(.serialized) struct EmitterLayerTests {
    @Test func layerDefaultsAreApples() {
        // CAEmitterLayer.h: emitterCells nil; birthRate, lifetime, velocity, scale, spin "default 1.0";
        // emitterPosition "Defaults to (0, 0)"; emitterZPosition, emitterDepth 0; emitterSize
        // "Defaults to (0, 0)"; emitterShape kCAEmitterLayerPoint; emitterMode kCAEmitterLayerVolume;
        // renderMode kCAEmitterLayerUnordered; preservesDepth NO; seed 0.
        let layer = CAEmitterLayer()
        #expect(layer.emitterCells == nil)
        #expect(layer.birthRate == 1 && layer.lifetime == 1 && layer.velocity == 1)
        #expect(layer.scale == 1 && layer.spin == 1)
        #expect(layer.emitterPosition == .zero && layer.emitterZPosition == 0)
        #expect(layer.emitterSize == .zero && layer.emitterDepth == 0)
        #expect(layer.emitterShape == .point && layer.emitterMode == .volume && layer.renderMode == .unordered)
        #expect(layer.emitterShape.rawValue == "point" && layer.renderMode.rawValue == "unordered")
        #expect(layer.preservesDepth == false && layer.seed == 0)
        #expect(layer.serverLayerClass == .emitter && layer.modelState.layerClass == .emitter)
        #expect((CAEmitterLayer.defaultValue(forKey: "birthRate") as? NSNumber)?.floatValue == 1)
        #expect(CAEmitterLayer.defaultValue(forKey: "emitterShape") as? String == "point")
        #expect((CAEmitterLayer.defaultValue(forKey: "preservesDepth") as? NSNumber)?.boolValue == false)
        #expect(CALayer.defaultValue(forKey: "birthRate") == nil, "another class's key is a custom key")
    }

    @Test func cellDefaultsAreApples() {
        // CAEmitterCell.h: "scale: Defaults to one"; "color: Defaults to opaque white"; "contentsRect:
        // Defaults to the unit rectangle"; "contentsScale: Defaults to one"; "enabled: Defaults to YES";
        // every other number "Defaults to zero"; name, contents, emitterCells nil.
        let cell = CAEmitterCell()
        #expect(cell.scale == 1 && cell.contentsScale == 1 && cell.isEnabled)
        #expect(cell.color?.components == [1, 1, 1, 1])
        #expect(cell.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(cell.name == nil && cell.contents == nil && cell.emitterCells == nil)
        for value in [
            cell.birthRate, cell.lifetime, cell.lifetimeRange, cell.redRange, cell.greenRange, cell.blueRange,
            cell.alphaRange, cell.redSpeed, cell.greenSpeed, cell.blueSpeed, cell.alphaSpeed,
        ] {
            #expect(value == 0)
        }
        for value in [
            cell.emissionLatitude, cell.emissionLongitude, cell.emissionRange, cell.velocity, cell.velocityRange,
            cell.xAcceleration, cell.yAcceleration, cell.zAcceleration, cell.scaleRange, cell.scaleSpeed, cell.spin,
            cell.spinRange,
        ] {
            #expect(value == 0)
        }
        #expect(cell.speed == 1 && cell.beginTime == 0 && cell.duration == 0 && cell.fillMode == .removed)
        #expect((CAEmitterCell.defaultValue(forKey: "scale") as? NSNumber)?.doubleValue == 1)
        #expect((CAEmitterCell.defaultValue(forKey: "velocity") as? NSNumber)?.doubleValue == 0)
        #expect((CAEmitterCell.defaultValue(forKey: "enabled") as? NSNumber)?.boolValue == true)
        #expect((CAEmitterCell.defaultValue(forKey: "color") as? CGColor)?.components == [1, 1, 1, 1])
        #expect(
            CAEmitterCell.defaultValue(forKey: "contentsRect") as? CGRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(CAEmitterCell.defaultValue(forKey: "custom") == nil)
        // The server's form of a default cell is EmitterCellState's defaults.
        #expect(cell.serverState == EmitterCellState())
    }

    @Test func keyValueCodingReachesLayerAndCells() {
        let layer = CAEmitterLayer()
        layer.setValue(NSNumber(value: 3), forKey: "birthRate")
        layer.setValue(CGPoint(x: 4, y: 5), forKey: "emitterPosition")
        layer.setValue("line", forKey: "emitterShape")
        layer.setValue(CAEmitterLayerRenderMode.additive, forKey: "renderMode")
        layer.setValue(true, forKey: "preservesDepth")
        #expect(layer.birthRate == 3 && layer.emitterPosition == CGPoint(x: 4, y: 5))
        #expect(layer.emitterShape == .line && layer.renderMode == .additive && layer.preservesDepth)
        #expect((layer.value(forKey: "birthRate") as? NSNumber)?.floatValue == 3)
        #expect(layer.value(forKey: "emitterShape") as? String == "line")
        layer.setValue("many", forKey: "lifetime")
        #expect(layer.lifetime == 1, "a value of the wrong type changes nothing")
        let spark = CAEmitterCell()
        spark.name = "spark"
        spark.birthRate = 10
        let ember = CAEmitterCell()
        ember.name = "ember"
        spark.emitterCells = [ember]
        layer.setValue([spark], forKey: "emitterCells")
        #expect(layer.emitterCells?.first === spark)
        #expect((layer.value(forKey: "emitterCells") as? [CAEmitterCell])?.count == 1)
        #expect((layer.value(forKeyPath: "emitterCells.spark.birthRate") as? NSNumber)?.floatValue == 10)
        layer.setValue(NSNumber(value: 25), forKeyPath: "emitterCells.spark.birthRate")
        #expect(spark.birthRate == 25)
        #expect(layer.modelState.emitter.cells.first?.birthRate == 25, "the change is sent")
        layer.setValue(NSNumber(value: 2), forKeyPath: "emitterCells.spark.emitterCells.ember.velocity")
        #expect(ember.velocity == 2)
        #expect(layer.modelState.emitter.cells.first?.cells.first?.velocity == 2)
        // A cell stores any key, as Apple's do.
        spark.setValue("x", forKey: "custom")
        #expect(spark.value(forKey: "custom") as? String == "x")
    }

    /// `preservesDepth` (CAEmitterLayer.h: NO by default) reaches the server's copy (row 93) whether
    /// set as a property or by key-value coding, and reads back either way; the replicator's row of
    /// the same key is not touched.
    @Test func preservesDepthIsSentAsItsOwnRow() {
        let layer = CAEmitterLayer()
        #expect(!layer.preservesDepth && !layer.modelState.emitter.preservesDepth)
        layer.preservesDepth = true
        #expect(layer.modelState.emitter.preservesDepth && !layer.modelState.replicator.preservesDepth)
        #expect((layer.value(forKey: "preservesDepth") as? NSNumber)?.boolValue == true)
        layer.setValue(false, forKey: "preservesDepth")
        #expect(!layer.preservesDepth && !layer.modelState.emitter.preservesDepth)
        layer.setValue(NSNumber(value: true), forKey: "preservesDepth")
        #expect(layer.preservesDepth && layer.modelState.emitter.preservesDepth)
        let changes = LayerProperty.differences(from: LayerState(layerClass: .emitter), to: layer.modelState)
        #expect(changes.contains(.emitterPreservesDepth(true)))
    }

    @Test func archivingKeepsLayerAndCells() throws {
        let layer = CAEmitterLayer()
        layer.birthRate = 2
        layer.emitterShape = .circle
        layer.emitterSize = CGSize(width: 10, height: 20)
        layer.seed = 42
        layer.preservesDepth = true
        let cell = CAEmitterCell()
        cell.name = "spark"
        cell.birthRate = 30
        cell.velocity = 12
        cell.alphaSpeed = -0.5
        cell.color = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        cell.contentsRect = CGRect(x: 0, y: 0, width: 0.5, height: 1)
        cell.contents = CGImage(width: 1, height: 1, premultipliedRGBA: [255, 0, 0, 255])
        let child = CAEmitterCell()
        child.lifetime = 3
        cell.emitterCells = [child]
        layer.emitterCells = [cell]
        let data = try NSKeyedArchiver.archivedData(withRootObject: layer, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CAEmitterLayer.self, from: data))
        #expect(back.birthRate == 2 && back.emitterShape == .circle && back.seed == 42)
        #expect(back.emitterSize == CGSize(width: 10, height: 20) && back.preservesDepth)
        #expect(back.modelState.emitter.preservesDepth, "the server's copy (row 93) follows the archive")
        let cellBack = try #require(back.emitterCells?.first)
        #expect(cellBack.name == "spark" && cellBack.birthRate == 30 && cellBack.velocity == 12)
        #expect(cellBack.alphaSpeed == -0.5 && cellBack.color?.components == [1, 0.5, 0, 1])
        #expect(cellBack.contentsRect == CGRect(x: 0, y: 0, width: 0.5, height: 1))
        #expect((cellBack.contents as? CGImage)?.premultipliedRGBA == [255, 0, 0, 255])
        #expect(cellBack.emitterCells?.first?.lifetime == 3)
        // The cells reach the model the server is sent.
        #expect(back.modelState.emitter.cells.first?.birthRate == 30)
    }

    @Test func copiesCarryTheCells() {
        let layer = CAEmitterLayer()
        let cell = CAEmitterCell()
        layer.emitterCells = [cell]
        layer.velocity = 4
        let copy = CAEmitterLayer(layer: layer)
        #expect(copy.emitterCells?.first === cell && copy.velocity == 4)
    }

    @Test func theAnimatableRowsAnimateImplicitly() throws {
        let layer = CAEmitterLayer()
        layer.hasBeenCommitted = true
        for (key, set) in [
            ("birthRate", { layer.birthRate = 2 }), ("lifetime", { layer.lifetime = 2 }),
            ("velocity", { layer.velocity = 2 }), ("scale", { layer.scale = 2 }), ("spin", { layer.spin = 2 }),
            ("emitterPosition", { layer.emitterPosition = CGPoint(x: 1, y: 1) }),
            ("emitterZPosition", { layer.emitterZPosition = 1 }),
            ("emitterSize", { layer.emitterSize = CGSize(width: 1, height: 1) }),
            ("emitterDepth", { layer.emitterDepth = 1 }),
        ] as [(String, () -> Void)] {
            set()
            #expect(layer.animation(forKey: key) is CABasicAnimation, "\(key)")
        }
        for (key, set) in [
            ("emitterShape", { layer.emitterShape = .line }), ("emitterMode", { layer.emitterMode = .outline }),
            ("renderMode", { layer.renderMode = .oldestLast }), ("seed", { layer.seed = 3 }),
        ] as [(String, () -> Void)] {
            set()
            #expect(layer.animation(forKey: key) == nil, "\(key)")
        }
        layer.removeAllAnimations()
        CATransaction.flush()
    }

    @Test func presentationValuesOfAnEmitterLayer() throws {
        let layer = CAEmitterLayer()
        let animation = CABasicAnimation(keyPath: "birthRate")
        animation.fromValue = 0
        animation.toValue = 10
        animation.duration = 1
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        layer.add(animation, forKey: "rate")
        let entry = try #require(layer.attachedAnimations.last)
        entry.record.timing.beginTime = 10
        entry.committed = true
        layer.hasBeenCommitted = true
        let half = try #require(layer.presentation(at: 10.5) as? CAEmitterLayer)
        #expect(abs(half.birthRate - 5) < 1e-5)
        layer.removeAllAnimations()
        CATransaction.flush()
    }

    /// The cells are copied into the model the commit sends: numbers, name, enabled flag, image id.
    @Test func theCellsAreSentAsOneOperation() throws {
        let layer = CAEmitterLayer()
        let cell = CAEmitterCell()
        cell.name = "spark"
        cell.birthRate = 5
        cell.isEnabled = false
        let image = try #require(CGImage(width: 1, height: 1, premultipliedRGBA: [0, 0, 255, 255]))
        cell.contents = image
        layer.emitterCells = [cell]
        let state = try #require(layer.modelState.emitter.cells.first)
        #expect(state.name == "spark" && state.birthRate == 5 && !state.isEnabled)
        #expect(state.contents != 0 && state.contents == image.contentsID)
        // Changing a cell afterwards changes nothing sent, as on Apple platforms (key paths do).
        cell.birthRate = 9
        #expect(layer.modelState.emitter.cells.first?.birthRate == 5)
    }
}

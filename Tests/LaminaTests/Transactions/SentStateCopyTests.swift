import Foundation
import LaminaCore
import LaminaProtocol
import LaminaTesting
import Testing

@testable import Lamina

// A commit brings each changed layer's sent record, and its committed state, up to date by copying
// only the properties the change marks name (`CALayer.copyMarkedModel`), where it used to copy the
// whole model state into both. These tests run random changes over layers of every class, on the
// properties of both words of the marks, and check after every commit that both copies are the
// model field for field, as the whole copy made them: equal, and printed alike (a negative zero
// or a string's exact text included).

/// Whether `a` and `b` hold the same values, down to the sign of a zero.
private func identical(_ a: LayerState, _ b: LayerState) -> Bool {
    a == b && String(reflecting: a) == String(reflecting: b)
}

@Suite("Sent and committed states copied by the change marks", .serialized)
struct SentStateCopyTests {
    /// A value in 0..<1, or a negative zero one time in eight.
    private func unit(_ random: inout SplitMix64) -> Double {
        random.below(8) == 0 ? -0.0 : Double(random.next() >> 11) / Double(1 << 53)
    }

    /// One random change to one of `layers` (all but the root, `layers[0]`).
    private func change(_ layers: [CALayer], _ random: inout SplitMix64) {
        let layer = layers[1 + random.below(layers.count - 1)]
        switch random.below(16) {
        case 0: layer.position = CGPoint(x: unit(&random) * 300, y: unit(&random))
        case 1: layer.zPosition = unit(&random)
        case 2: layer.name = random.below(2) == 0 ? nil : "layer \(random.below(100))"
        case 3: layer.shadowOpacity = Float(unit(&random))
        case 4:
            layer.shadowPath =
                random.below(2) == 0 ? nil : CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil)
        case 5: layer.cornerCurve = random.below(2) == 0 ? .continuous : .circular
        case 6: layer.maskedCorners = CACornerMask(rawValue: UInt(random.below(16)))
        case 7: layer.setValue(unit(&random) * 10, forKey: "cornerRadius")
        case 8:
            // Around the setter: every property is compared, and the whole state copied.
            layer.modelState.borderWidth = unit(&random)
            layer.changed()
        case 9: (layer as? CATextLayer)?.truncationMode = random.below(2) == 0 ? .end : .middle
        case 10: (layer as? CATextLayer)?.fontSize = unit(&random) * 40
        case 11: (layer as? CATextLayer)?.string = "text \(random.below(50))"
        case 12: (layer as? CAReplicatorLayer)?.instanceCount = random.below(5)
        case 13: (layer as? CAReplicatorLayer)?.instanceDelay = unit(&random)
        case 14: (layer as? CAShapeLayer)?.lineDashPattern = [NSNumber(value: unit(&random))]
        default: (layer as? CAEmitterLayer)?.birthRate = Float(unit(&random))
        }
    }

    /// Commits `context` and checks every record and committed state against the model.
    private func checkCommit(_ context: CAContext, layers: [CALayer]) {
        _ = context.changeOperations()
        for layer in layers where layer.superlayer != nil || layer === layers[0] {
            guard let record = context.sent[layer.layerID] else {
                Issue.record("layer \(layer.layerID) has no sent record")
                continue
            }
            #expect(identical(record.state, layer.modelState), "sent state of layer \(layer.layerID)")
            #expect(identical(layer.committedModelState, layer.modelState), "committed state of \(layer.layerID)")
        }
    }

    @Test(arguments: [UInt64(11), 12, 13, 14])
    func recordsAndCommittedStatesAreTheModel(seed: UInt64) throws {
        try withContext { context, _ in
            var random = SplitMix64(seed: seed)
            let root = CALayer()
            var layers = [root]
            let makers: [() -> CALayer] = [
                { CALayer() }, { CATextLayer() }, { CAReplicatorLayer() }, { CAShapeLayer() }, { CAEmitterLayer() },
                { CAGradientLayer() },
            ]
            for i in 0..<18 {
                let layer = makers[i % makers.count]()
                root.addSublayer(layer)
                layers.append(layer)
            }
            context.layer = root
            checkCommit(context, layers: layers)
            for _ in 0..<80 {
                CATransaction.begin()
                CATransaction.setDisableActions(random.below(2) == 0)
                for _ in 0..<1 + random.below(5) { change(layers, &random) }
                checkCommit(context, layers: layers)
                CATransaction.commit()
            }
        }
    }
}

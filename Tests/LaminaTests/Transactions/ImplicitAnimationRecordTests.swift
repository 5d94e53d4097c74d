import Foundation
import LaminaCore
import LaminaProtocol
import LaminaTesting
import Testing

@testable import Lamina

// The implicit animation of a property change, as a commit sends it, against the animation Apple
// describes, built by hand: a `CABasicAnimation` of the property's key, added under that key, whose
// duration is the transaction's `animationDuration` (0.25 s when none is set: CATransaction's
// documentation) and timing function the transaction's `animationTimingFunction` (Core Animation's
// default curve, `CAMediaTimingFunctionName.default`, when none is set), starting from the value on
// screen before the change (`fromValue`, CALayer's `action(forKey:)` documentation) and ending at the
// new model value. The commit path builds these without searching key strings, with one shared
// default curve and without copying the layer state per animation; what is sent must not change.

/// One implicitly animated property: its key, its model value (typed as the property is) and a
/// random new value.
private struct AnimatedProperty: Sendable {
    let key: String
    /// Whether a running animation of it, paused at its start, shows exactly its from value (the
    /// interpolation of numbers, points and rects at progress 0 is exact; of colours and transforms
    /// it goes through conversions).
    let exactAtStart: Bool
    let read: @Sendable (CALayer) -> Any
    let write: @Sendable (CALayer, inout SplitMix64) -> Void
}

extension SplitMix64 {
    /// A number in 0..<1 from the next 53 bits.
    fileprivate mutating func fraction() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

private let properties: [AnimatedProperty] = [
    AnimatedProperty(key: "position", exactAtStart: true, read: { $0.position }) { layer, random in
        layer.position = CGPoint(x: random.fraction() * 300, y: random.fraction() * 200)
    },
    AnimatedProperty(key: "opacity", exactAtStart: true, read: { $0.opacity }) { layer, random in
        layer.opacity = Float(random.fraction())
    },
    AnimatedProperty(key: "bounds", exactAtStart: true, read: { $0.bounds }) { layer, random in
        layer.bounds = CGRect(x: 0, y: 0, width: random.fraction() * 80, height: random.fraction() * 60)
    },
    AnimatedProperty(key: "cornerRadius", exactAtStart: true, read: { $0.cornerRadius }) { layer, random in
        layer.cornerRadius = random.fraction() * 12
    },
    AnimatedProperty(key: "zPosition", exactAtStart: true, read: { $0.zPosition }) { layer, random in
        layer.zPosition = random.fraction() * 10
    },
    AnimatedProperty(key: "anchorPoint", exactAtStart: true, read: { $0.anchorPoint }) { layer, random in
        layer.anchorPoint = CGPoint(x: random.fraction(), y: random.fraction())
    },
    AnimatedProperty(key: "backgroundColor", exactAtStart: false, read: { $0.backgroundColor! }) {
        layer, random in
        layer.backgroundColor = CGColor(red: random.fraction(), green: random.fraction(), blue: 0.5, alpha: 1)
    },
    AnimatedProperty(key: "transform", exactAtStart: false, read: { $0.transform }) { layer, random in
        layer.transform = CATransform3DMakeRotation(random.fraction() * 3, 0, 0, 1)
    },
]

@Suite("Implicit animations as commits send them", .serialized)
struct ImplicitAnimationRecordTests {
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func implicitAnimationsMatchTheAnimationBuiltByHand(seed: UInt64) throws {
        try withContext { context, _ in
            var random = SplitMix64(seed: seed)
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
            let layer = CALayer()
            layer.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
            // Paused: the layer's local time stands at 0, so an animation committed on it stays at
            // its start and shows its from value for as long as the test runs.
            layer.speed = 0
            root.addSublayer(layer)
            context.layer = root
            _ = context.changeOperations()
            // The from value each key's running animation shows, when one runs.
            var running: [String: Any] = [:]
            var compared = 0
            for step in 0..<80 {
                let property = properties[random.below(properties.count)]
                CATransaction.begin()
                if running[property.key] != nil && (!property.exactAtStart || random.below(2) == 0) {
                    // Removed in this transaction: the next animation starts from the model value.
                    layer.removeAnimation(forKey: property.key)
                    running[property.key] = nil
                }
                let duration: Double? = random.below(3) == 0 ? 0.1 + random.fraction() : nil
                if let duration { CATransaction.setAnimationDuration(duration) }
                let curve: CAMediaTimingFunction? =
                    random.below(3) == 0 ? CAMediaTimingFunction(name: .easeIn) : nil
                if let curve { CATransaction.setAnimationTimingFunction(curve) }
                let from = running[property.key] ?? property.read(layer)
                property.write(layer, &random)

                let expected = CABasicAnimation(keyPath: property.key)
                expected.duration = duration ?? 0.25
                expected.timingFunction = curve ?? CAMediaTimingFunction(name: .default)
                expected.fromValue = from
                var record = try expected.makeRecord(defaultDuration: 0.25)

                let ops = context.changeOperations()
                let added = ops.compactMap { op -> AttachedAnimation? in
                    if case .addAnimation(let id, let attached) = op, id == layer.layerID { return attached }
                    return nil
                }
                CATransaction.commit()
                let kind = try #require(LayerKeyPath(property.key)).kind
                func unboxed(_ value: Any?) throws -> AnimationValue? {
                    try value.map { try AnimationValue.unbox($0, as: kind, what: property.key) }
                }
                guard try unboxed(property.read(layer)) != unboxed(from) else {
                    // The new value was the old one: no action runs.
                    #expect(added.isEmpty, "step \(step): no change, yet \(added.count) animations")
                    continue
                }
                try #require(added.count == 1, "step \(step): \(property.key) sent \(added.count) animations")
                let sent = added[0]
                // The commit stamps the begin time with the layer's local time (0: paused).
                #expect(sent.record.timing.beginTime == 0)
                record.timing.beginTime = sent.record.timing.beginTime
                #expect(sent.key == property.key, "step \(step)")
                #expect(sent.record == record, "step \(step): \(property.key)")
                let attached = try #require(layer.animation(forKey: property.key) as? CABasicAnimation)
                #expect(attached.keyPath == property.key)
                #expect(attached.duration == expected.duration)
                #expect(attached.timingFunction.map(TimingCurve.init) == expected.timingFunction.map(TimingCurve.init))
                #expect(attached.delegate == nil)
                #expect(attached.toValue == nil && attached.byValue == nil)
                #expect(try unboxed(attached.fromValue) == unboxed(from), "step \(step): \(property.key) from")
                running[property.key] = from
                compared += 1
            }
            // Most steps changed their property: the comparison ran.
            #expect(compared >= 60)
            layer.removeAllAnimations()
        }
    }
}

@Suite("A layer's local time without its timing chain")
struct LayerLocalTimeTests {
    /// `localTime(atMediaTime:)` walks up the superlayers instead of building the chain of timings;
    /// over random nested `beginTime`, `speed` (0 included: a paused subtree) and `timeOffset`, it
    /// gives, bit for bit, what `MediaTiming.convert(_:through:)` gives through `timingChain`.
    @Test(arguments: [UInt64(1), 2, 3])
    func localTimeMatchesTheTimingChain(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for _ in 0..<50 {
            var layers = [CALayer()]
            for _ in 0..<random.below(5) {
                let layer = CALayer()
                layers.last!.addSublayer(layer)
                layers.append(layer)
            }
            for layer in layers {
                layer.beginTime = random.below(3) == 0 ? 0 : random.fraction() * 100 - 50
                layer.speed = [0, 1, 2, 0.5, Float(random.fraction() * 4)][random.below(5)]
                layer.timeOffset = random.below(2) == 0 ? 0 : random.fraction() * 10
            }
            let time = random.fraction() * 1_000
            for layer in layers {
                let expected = MediaTiming.convert(time, through: layer.timingChain)
                #expect(layer.localTime(atMediaTime: time).bitPattern == expected.bitPattern)
            }
        }
    }
}

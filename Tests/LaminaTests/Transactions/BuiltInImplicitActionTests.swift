import Foundation
import LaminaCore
import LaminaProtocol
import LaminaTesting
import Testing

@testable import Lamina

// A property change on a layer whose action search can only end at the built-in implicit animation
// (a Lamina layer class, no delegate, no `actions` entry, no `style`) attaches that animation without
// making the `CABasicAnimation` that `action(forKey:)` returns and the copy `add(_:forKey:)` keeps;
// the object is made when something asks for it. What Apple documents must hold as before: the
// action is a `CABasicAnimation` of the key (CALayer's `action(forKey:)` documentation), added under
// the key, with the transaction's `animationDuration` (0.25 s by default) and
// `animationTimingFunction` (the default curve), from the value before the change, no `toValue` or
// `byValue`, no delegate, removed on completion; `animation(forKey:)` returns the attached copy; the
// transaction's completion block waits for it. These tests compare, change for change, a plain layer
// (the path without objects) with one that has a delegate which returns nil (the search runs and
// continues to the built-in animation, made and copied as before).

/// Counts the runs of a completion block.
private final class RunCounter: @unchecked Sendable {
    let lock = NSLock()
    var runs = 0
    func run() { lock.withLock { runs += 1 } }
    var count: Int { lock.withLock { runs } }
}

/// A delegate with no action of its own: the search goes on to the built-in implicit animation.
private final class SearchingDelegate: CALayerDelegate {
    func display(_ layer: CALayer) {}
    func draw(_ layer: CALayer, in ctx: CGContext) {}
    func layerWillDraw(_ layer: CALayer) {}
    func layoutSublayers(of layer: CALayer) {}
}

extension SplitMix64 {
    /// A number in 0..<1 from the next 53 bits.
    fileprivate mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// One random change of an implicitly animated property, the same on every layer given.
private func randomChange(_ random: inout SplitMix64) -> (key: String, apply: (CALayer) -> Void) {
    let a = random.unit()
    let b = random.unit()
    switch random.below(6) {
    case 0: return ("position", { $0.position = CGPoint(x: a * 300, y: b * 200) })
    case 1: return ("opacity", { $0.opacity = Float(a) })
    case 2: return ("bounds", { $0.bounds = CGRect(x: 0, y: 0, width: a * 80, height: b * 60) })
    case 3: return ("cornerRadius", { $0.cornerRadius = a * 12 })
    case 4: return ("backgroundColor", { $0.backgroundColor = CGColor(red: a, green: b, blue: 0.5, alpha: 1) })
    default: return ("transform", { $0.transform = CATransform3DMakeRotation(a * 3, 0, 0, 1) })
    }
}

/// The animations a commit's operations add to layer `id`.
private func added(_ ops: [LayerOperation], to id: LayerID) -> [AttachedAnimation] {
    ops.compactMap { op in
        if case .addAnimation(let layer, let attached) = op, layer == id { return attached }
        return nil
    }
}

@Suite("The built-in implicit animation without its objects", .serialized)
struct BuiltInImplicitActionTests {
    /// Over random properties, values and transaction settings (durations 0 and negative included:
    /// 0 takes the transaction's default in the record, a negative one is refused with a diagnostic
    /// on both paths), the plain layer's commit sends the record the searched layer's sends, and its
    /// `animation(forKey:)`, made only when asked, equals the searched layer's field for field.
    @Test(arguments: [UInt64(1), 2, 3])
    func theAnimationWithoutObjectsMatchesTheSearchedOne(seed: UInt64) throws {
        try withContext { context, _ in
            var random = SplitMix64(seed: seed)
            let delegate = SearchingDelegate()
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
            let plain = CALayer()
            let searched = CALayer()
            searched.delegate = delegate
            for layer in [plain, searched] {
                // Paused: the layers' local time stands at 0, so each begin time is stamped 0.
                layer.speed = 0
                root.addSublayer(layer)
            }
            context.layer = root
            _ = context.changeOperations()
            var compared = 0
            for step in 0..<60 {
                CATransaction.begin()
                switch random.below(5) {
                case 0: CATransaction.setAnimationDuration(0.1 + random.unit())
                case 1: CATransaction.setAnimationDuration(0)
                case 2: CATransaction.setAnimationDuration(-1)
                default: break
                }
                if random.below(3) == 0 {
                    CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeIn))
                }
                let change = randomChange(&random)
                change.apply(plain)
                change.apply(searched)
                let ops = context.changeOperations()
                CATransaction.commit()
                let plainAdded = added(ops, to: plain.layerID)
                let searchedAdded = added(ops, to: searched.layerID)
                try #require(plainAdded.count == searchedAdded.count, "step \(step): \(change.key)")
                guard let sent = plainAdded.first, let expected = searchedAdded.first else { continue }
                #expect(sent.key == change.key && expected.key == change.key, "step \(step)")
                #expect(sent.record == expected.record, "step \(step): \(change.key)")
                let entry = try #require(plain.attachedAnimations.first { $0.key == change.key })
                #expect(!entry.hasMadeAnimation, "step \(step): the object was made before it was asked for")
                let made = try #require(plain.animation(forKey: change.key) as? CABasicAnimation)
                let copy = try #require(searched.animation(forKey: change.key) as? CABasicAnimation)
                #expect(plain.animation(forKey: change.key) === made, "the same object on every ask")
                #expect(made.keyPath == copy.keyPath && made.keyPath == change.key)
                #expect(made.duration == copy.duration)
                #expect(made.timingFunction.map(TimingCurve.init) == copy.timingFunction.map(TimingCurve.init))
                #expect(made.timingFunction === copy.timingFunction, "the transaction's curve object")
                #expect(made.beginTime == copy.beginTime && made.speed == copy.speed)
                #expect(made.timeOffset == copy.timeOffset && made.repeatCount == copy.repeatCount)
                #expect(made.repeatDuration == copy.repeatDuration && made.autoreverses == copy.autoreverses)
                #expect(made.fillMode == copy.fillMode && made.isRemovedOnCompletion == copy.isRemovedOnCompletion)
                #expect(made.isAdditive == copy.isAdditive && made.isCumulative == copy.isCumulative)
                #expect(made.valueFunction == nil && copy.valueFunction == nil)
                #expect(made.delegate == nil && copy.delegate == nil)
                #expect(made.toValue == nil && copy.toValue == nil && made.byValue == nil && copy.byValue == nil)
                #expect(made.resolvedFrom == copy.resolvedFrom, "step \(step): \(change.key) from")
                let kind = try #require(LayerKeyPath(change.key)).kind
                let madeFrom = try made.fromValue.map { try AnimationValue.unbox($0, as: kind, what: "made") }
                let copyFrom = try copy.fromValue.map { try AnimationValue.unbox($0, as: kind, what: "copy") }
                #expect(madeFrom == copyFrom, "step \(step): \(change.key) fromValue")
                #expect((made.fromValue == nil) == (copy.fromValue == nil))
                compared += 1
            }
            // Most steps changed their property with a valid duration: the comparison ran.
            #expect(compared >= 30, "compared \(compared)")
            plain.removeAllAnimations()
            searched.removeAllAnimations()
        }
    }

    /// A layer with a delegate, an `actions` entry for the key or a `style`, or of a class that is
    /// not Lamina's, goes through the search (the object is made at once); a plain layer does not.
    @Test func onlyAPlainSearchSkipsTheObjects() throws {
        final class Subclass: CALayer {}
        let delegate = SearchingDelegate()
        let withDelegate = CALayer()
        withDelegate.delegate = delegate
        let withActions = CALayer()
        withActions.actions = ["position": CABasicAnimation(keyPath: "position")]
        let withOtherActions = CALayer()
        withOtherActions.actions = ["opacity": NSNull()]
        let withStyle = CALayer()
        withStyle.style = ["actions": [String: any CAAction]()]
        #expect(CALayer().searchEndsAtBuiltInImplicitAction(.position))
        #expect(CAShapeLayer().searchEndsAtBuiltInImplicitAction(.position))
        #expect(withOtherActions.searchEndsAtBuiltInImplicitAction(.position))
        #expect(!withDelegate.searchEndsAtBuiltInImplicitAction(.position))
        #expect(!withActions.searchEndsAtBuiltInImplicitAction(.position))
        #expect(!withStyle.searchEndsAtBuiltInImplicitAction(.position))
        #expect(!Subclass().searchEndsAtBuiltInImplicitAction(.position))
        // Properties only explicit animations animate have no implicit action at all.
        #expect(!CALayer().searchEndsAtBuiltInImplicitAction(.doubleSided))
    }

    /// The transaction's completion block (CATransaction's `setCompletionBlock(_:)`: it runs once
    /// every animation added in the transaction has finished or been removed) waits for an implicit
    /// animation attached without its object, and runs when it is removed, as it does for the
    /// animation the search returns (a layer with a delegate).
    @Test(arguments: [false, true])
    func theCompletionBlockWaitsForTheAnimationWithoutObjects(searched: Bool) throws {
        try withContext { context, _ in
            let root = CALayer()
            let layer = CALayer()
            let delegate = SearchingDelegate()
            if searched { layer.delegate = delegate }
            layer.speed = 0
            root.addSublayer(layer)
            context.layer = root
            _ = context.changeOperations()
            let counter = RunCounter()
            CATransaction.begin()
            CATransaction.setCompletionBlock { counter.run() }
            layer.position = CGPoint(x: 40, y: 30)
            CATransaction.commit()
            CAContext.dispatchPendingCallbacks()
            let entry = try #require(layer.attachedAnimations.first)
            #expect(entry.hasMadeAnimation == searched)
            #expect(counter.count == 0, "the block ran while the animation was attached")
            layer.removeAnimation(forKey: "position")
            // The end is posted for the main thread, whose queue may take it first and then needs the
            // transaction lock that `withContext` holds: the lock is let go while the count is read
            // until it moves (at most a second).
            CATransaction.unlock()
            for _ in 0..<1000 where counter.count == 0 {
                CAContext.dispatchPendingCallbacks()
                if counter.count == 0 { usleep(1000) }
            }
            CATransaction.lock()
            #expect(counter.count == 1)
        }
    }
}

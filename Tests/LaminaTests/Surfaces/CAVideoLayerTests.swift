import Foundation
import Testing

@testable import Lamina

/// `CAVideoLayer`'s queue in the client alone: order, the bound, and the animation it sends.
@Suite struct CAVideoLayerTests {
    func surface() throws -> IOSurface { try #require(IOSurface(properties: [.width: 4, .height: 4])) }

    @Test func entriesAreSentAsADiscreteContentsAnimationInTimeOrder() throws {
        let layer = CAVideoLayer()
        let (a, b, c) = (try surface(), try surface(), try surface())
        let t0 = CACurrentMediaTime() + 100
        try layer.enqueue(a, at: t0)
        try layer.enqueue(c, at: t0 + 0.2)
        try layer.enqueue(b, at: t0 + 0.1)
        let animation = try #require(
            layer.animation(forKey: CAVideoLayer.queueAnimationKey) as? CAKeyframeAnimation)
        #expect(animation.keyPath == "contents" && animation.calculationMode == .discrete)
        #expect(animation.beginTime == t0 && abs(animation.duration - 0.2) < 1e-9)
        let values = try #require(animation.values as? [IOSurface])
        #expect(values.count == 3 && values[0] === a && values[1] === b && values[2] === c)
        let times = try #require(animation.keyTimes).map(\.doubleValue)
        #expect(times.count == 3 && times[0] == 0 && abs(times[1] - 0.5) < 1e-9 && times[2] == 1)
        #expect(animation.fillMode == .forwards && !animation.isRemovedOnCompletion)
        // An entry at a time already queued replaces that entry.
        try layer.enqueue(a, at: t0 + 0.1)
        #expect(layer.queuedFrameCount == 3)
    }

    @Test func theQueueHoldsSixteenEntriesAndDropsThoseSuperseded() throws {
        let layer = CAVideoLayer()
        let s = try surface()
        let future = CACurrentMediaTime() + 100
        for i in 0..<16 { try layer.enqueue(s, at: future + Double(i)) }
        #expect(!layer.isReadyForMoreMediaData)
        #expect(throws: CAVideoLayerError.queueFull(limit: 16)) { try layer.enqueue(s, at: future + 20) }
        #expect(throws: CAVideoLayerError.invalidTime(.infinity)) { try layer.enqueue(s, at: .infinity) }
        // Entries in the past: only the latest of them (the one shown now) is kept.
        let past = CAVideoLayer()
        let now = CACurrentMediaTime()
        for i in 0..<5 { try past.enqueue(s, at: now - 10 + Double(i)) }
        try past.enqueue(s, at: now + 100)
        #expect(past.queuedFrameCount == 2)
        past.flushAndRemoveImage()
        #expect(past.queuedFrameCount == 0 && past.animation(forKey: CAVideoLayer.queueAnimationKey) == nil)
    }
}

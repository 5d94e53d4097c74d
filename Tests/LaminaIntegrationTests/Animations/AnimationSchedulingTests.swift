import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import Testing

/// The server's frame scheduling for animations: active animations need every frame; animations
/// that have not started yet only need a frame at their start, which `advanceAnimations` predicts
/// through the layer's timing (hand-derived times below).
@Suite struct AnimationSchedulingTests {
    /// A tree with layer 1 (given layer timing) holding one opacity animation with `timing`.
    static func tree(layer: (begin: Double, speed: Double, offset: Double), timing: MediaTiming) throws -> RenderTree {
        let record = AnimationRecord(
            timing: timing,
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath("opacity")!),
                BasicValues(from: .number(0), to: .number(1))))
        return try RenderTree().applying(
            [
                .createLayer(1), .set(1, .beginTime(layer.begin)), .set(1, .speed(layer.speed)),
                .set(1, .timeOffset(layer.offset)),
                .addAnimation(1, AttachedAnimation(id: 7, key: "fade", record: record)),
                .setRoot(display: 0, layer: 1),
            ], displayCount: 1)
    }

    @Test func farFutureStartIsPredictedNotPolled() throws {
        var tree = try Self.tree(layer: (0, 1, 0), timing: MediaTiming(beginTime: 1000, duration: 1))
        let (events, running, next) = tree.advanceAnimations(to: 10)
        #expect(events.isEmpty && !running)
        #expect(next == 1000)
        // At the start the animation is active: frames every tick, and it has started.
        let atStart = tree.advanceAnimations(to: 1000)
        #expect(atStart.running && atStart.nextStart == nil)
        #expect(atStart.events.map(\.kind) == [.started])
    }

    /// Layer time is (t − 100) × 2 + 4; the animation's local time is (L − 20) × 4 + 8, which is
    /// 0 at L = 18, i.e. at t = 100 + (18 − 4) / 2 = 107.
    @Test func startThroughLayerAndAnimationTiming() throws {
        var tree = try Self.tree(
            layer: (100, 2, 4), timing: MediaTiming(beginTime: 20, timeOffset: 8, duration: 1, speed: 4))
        let (_, running, next) = tree.advanceAnimations(to: 101)
        #expect(!running)
        #expect(abs(try #require(next) - 107) < 1e-9)
    }

    /// A frozen layer clock (speed 0), a layer clock running backwards, or an animation running
    /// backwards never reaches the start by itself: no frames. Both backwards: time runs forwards.
    @Test func frozenAndBackwardsClocks() throws {
        // Each is pending at t = 1: local times −5, −6 and −6.
        for (layerSpeed, begin, speed) in [(0.0, 5.0, 1.0), (-1, 5, 1), (1, -5, -1)] {
            var tree = try Self.tree(
                layer: (0, layerSpeed, 0), timing: MediaTiming(beginTime: begin, duration: 1, speed: speed))
            #expect(tree.layers[1]!.animations[0].record.phase(atParent: tree.localTime(of: 1, at: 1).time) == .pending)
            let (_, running, next) = tree.advanceAnimations(to: 1)
            #expect(!running && next == nil, "layer speed \(layerSpeed), animation speed \(speed)")
        }
        // Layer time −t; animation local time (L + 10) × −1 = −L − 10 = t − 10: starts at t = 10.
        var both = try Self.tree(layer: (0, -1, 0), timing: MediaTiming(beginTime: -10, duration: 1, speed: -1))
        let (_, running, next) = both.advanceAnimations(to: 1)
        #expect(!running && next == 10)
    }
}

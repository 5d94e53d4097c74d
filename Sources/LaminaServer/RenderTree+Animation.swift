import LaminaCore
import LaminaProtocol

extension RenderTree {
    /// The local time of layer `id` at media time `time`, mapped through the `beginTime`,
    /// `speed` and `timeOffset` of the layer and all its ancestors, and the product of their speeds
    /// (0 when the layer's clock is frozen).
    public func localTime(of id: LayerID, at time: Double) -> (time: Double, rate: Double) {
        var chain: [LayerState] = []
        var current: LayerID? = id
        while let c = current, let layer = layers[c], chain.count <= WireLimits.maxTreeDepth {
            chain.append(layer.state)
            current = layer.superlayer
        }
        var t = time
        var rate = 1.0
        for state in chain.reversed() {
            t = state.localTime(fromParent: t)
            rate *= state.speed
        }
        return (t, rate)
    }

    /// Advances the animation bookkeeping to the frame at `time`: reports animations that started or
    /// finished since the last frame, and removes finished ones that are removed on completion.
    ///
    /// Returns the events to send and whether any animation still needs frames (pending or active
    /// on a clock that runs).
    public mutating func advanceAnimations(to time: Double) -> (events: [AnimationEvent], running: Bool) {
        var events: [AnimationEvent] = []
        var running = false
        for id in animatedLayers {
            let (layerTime, rate) = localTime(of: id, at: time)
            var kept: [AttachedAnimation] = []
            var removedAny = false
            for animation in layers[id]!.animations {
                let phase = animation.record.phase(atParent: layerTime)
                let state = reported[animation.id] ?? .notStarted
                if phase != .pending && state == .notStarted {
                    events.append(AnimationEvent(animationID: animation.id, kind: .started, time: time))
                    reported[animation.id] = .started
                }
                if phase == .finished && state != .finished {
                    if animation.record.isRemovedOnCompletion {
                        events.append(AnimationEvent(animationID: animation.id, kind: .finishedAndRemoved, time: time))
                        forget(animation)
                        removedAny = true
                        continue
                    }
                    events.append(AnimationEvent(animationID: animation.id, kind: .finished, time: time))
                    reported[animation.id] = .finished
                }
                if phase != .finished && rate != 0 { running = true }
                kept.append(animation)
            }
            if removedAny {
                layers[id]!.animations = kept
                if kept.isEmpty { animatedLayers.remove(id) }
            }
        }
        return (events, running)
    }
}

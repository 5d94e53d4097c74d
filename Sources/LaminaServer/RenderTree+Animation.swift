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
    /// Returns the events to send, whether any animation is active on a clock that runs (and so
    /// needs every frame), and otherwise the earliest media time at which a pending animation starts
    /// (nil when none will start by itself).
    public mutating func advanceAnimations(to time: Double)
        -> (events: [AnimationEvent], running: Bool, nextStart: Double?)
    {
        var events: [AnimationEvent] = []
        var running = false
        var nextStart: Double?
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
                if phase == .active && rate != 0 { running = true }
                if phase == .pending,
                    let start = Self.startTime(of: animation.record, layerTime: layerTime, rate: rate, now: time)
                {
                    nextStart = min(nextStart ?? start, start)
                }
                kept.append(animation)
            }
            if removedAny {
                layers[id]!.animations = kept
                if kept.isEmpty { animatedLayers.remove(id) }
            }
        }
        return (events, running, nextStart)
    }

    /// The media time at which a pending animation starts, given its layer's local time now and the
    /// rate at which that time runs (a layer's time is an affine function of media time, and so is
    /// the animation's local time before it starts). Nil when the animation's local time does not
    /// increase with media time: then it never starts by itself.
    static func startTime(of record: AnimationRecord, layerTime: Double, rate: Double, now: Double) -> Double? {
        let timing = record.timing
        guard rate * timing.speed > 0 else { return nil }
        // The animation's local time, (L − beginTime) × speed + timeOffset, is 0 at this layer time L.
        let startLayerTime = timing.beginTime - timing.timeOffset / timing.speed
        let start = now + (startLayerTime - layerTime) / rate
        return start.isFinite ? max(start, now) : nil
    }
}

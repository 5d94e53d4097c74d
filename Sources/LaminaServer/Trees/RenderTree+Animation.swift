import LaminaCore
import LaminaProtocol

extension RenderTree {
    /// The local time of layer `id` at media time `time`, mapped through the `beginTime`,
    /// `speed` and `timeOffset` of the layer and all its ancestors, and the product of their speeds
    /// (0 when the layer's clock is frozen).
    public func localTime(of id: LayerID, at time: Double) -> (time: Double, rate: Double) {
        var known: [LayerID: (time: Double, rate: Double)] = [:]
        return localTime(of: id, at: time, known: &known)
    }

    /// `localTime(of:at:)`, remembering the clocks of the ancestors it passes in `known`, so that
    /// the layers of one parent map its clock once.
    func localTime(
        of id: LayerID, at time: Double, known: inout [LayerID: (time: Double, rate: Double)]
    ) -> (time: Double, rate: Double) {
        // The chain up to the first layer whose clock is known (or the root), nearest first.
        var chain: [LayerID] = []
        var current: LayerID? = id
        var base = (time: time, rate: 1.0)
        while let c = current, layers[c] != nil, chain.count <= WireLimits.maxTreeDepth {
            if let clock = known[c] {
                base = clock
                break
            }
            chain.append(c)
            current = layers[c]!.superlayer
        }
        for c in chain.reversed() {
            let state = layers[c]!.state
            base = (state.localTime(fromParent: base.time), base.rate * state.speed)
            if c != id { known[c] = base }
        }
        return base
    }

    /// What advancing the animation bookkeeping to a frame's time finds: the events to report, in
    /// order, and what the tree's animations need next. Computed from a snapshot of the tree (on the
    /// frame worker, `advancement(to:)`) and applied later to the tree as it is then (`apply(_:)`), in
    /// time proportional to the events.
    public struct Advancement: Sendable {
        /// One animation's change of phase.
        struct Change: Sendable {
            var layer: LayerID
            var event: AnimationEvent
        }
        /// The animations that started or finished, in order.
        var changes: [Change] = []
        /// How many of `changes` have been applied.
        var appliedCount = 0
        /// Whether every change has been applied.
        public var isApplied: Bool { appliedCount == changes.count }
        /// Whether any animation is active on a clock that runs (and so needs every frame).
        public var running = false
        /// The earliest media time at which a pending animation starts (nil when none will start by
        /// itself).
        public var nextStart: Double?
    }

    /// What advancing to the frame at `time` finds: animations that started or finished since the
    /// last frame (finished ones that are removed on completion are to be removed), whether any runs,
    /// and when the next pending one starts. Changes nothing; `apply(_:)` does.
    public func advancement(to time: Double) -> Advancement {
        var result = Advancement()
        var clocks: [LayerID: (time: Double, rate: Double)] = [:]
        for id in animatedLayers {
            guard let layer = layers[id] else { continue }
            // The superlayer's clock, mapped once per superlayer; then this layer's, from the record
            // already read (the same arithmetic as `localTime(of:at:)`).
            var parent = (time: time, rate: 1.0)
            if let superlayer = layer.superlayer {
                if let known = clocks[superlayer] {
                    parent = known
                } else {
                    parent = localTime(of: superlayer, at: time, known: &clocks)
                    clocks[superlayer] = parent
                }
            }
            let layerTime = layer.state.localTime(fromParent: parent.time)
            let rate = parent.rate * layer.state.speed
            // An emitter's particles move whenever its time does (RenderTree+Emitter.swift).
            if rate != 0, layer.isEmitting { result.running = true }
            for animation in layer.animations {
                let phase = animation.record.phase(atParent: layerTime)
                let state = reported[animation.id] ?? .notStarted
                if phase != .pending && state == .notStarted {
                    result.changes.append(
                        .init(layer: id, event: AnimationEvent(animationID: animation.id, kind: .started, time: time)))
                }
                if phase == .finished && state != .finished {
                    let kind: AnimationEvent.Kind =
                        animation.record.isRemovedOnCompletion ? .finishedAndRemoved : .finished
                    result.changes.append(
                        .init(layer: id, event: AnimationEvent(animationID: animation.id, kind: kind, time: time)))
                    if kind == .finishedAndRemoved { continue }
                }
                if phase == .active && rate != 0 { result.running = true }
                if phase == .pending,
                    let start = Self.startTime(of: animation.record, layerTime: layerTime, rate: rate, now: time)
                {
                    result.nextStart = min(result.nextStart ?? start, start)
                }
            }
        }
        return result
    }

    /// Applies what `advancement(to:)` found on an earlier version of this tree, at most `limit` of
    /// its changes from where the last call stopped: records the phases reached and removes the
    /// finished animations that go on completion. A change about an animation the tree no longer
    /// has, or that the tree already records, is skipped. Returns the events of the changes applied,
    /// in order.
    public mutating func apply(_ advancement: inout Advancement, limit: Int = .max) -> [AnimationEvent] {
        let end = advancement.appliedCount + min(limit, advancement.changes.count - advancement.appliedCount)
        defer { advancement.appliedCount = end }
        var events: [AnimationEvent] = []
        events.reserveCapacity(end - advancement.appliedCount)
        var revised = false
        for change in advancement.changes[advancement.appliedCount..<end] {
            let id = change.event.animationID
            // One hash lookup per change: the state is read and written through its index.
            guard let index = reported.index(forKey: id) else { continue }
            let state = reported.values[index]
            switch change.event.kind {
            case .started:
                guard state == .notStarted else { continue }
                reported.values[index] = .started
            case .finished:
                guard state != .finished else { continue }
                reported.values[index] = .finished
            case .finishedAndRemoved:
                guard state != .finished,
                    let position = layers[change.layer]?.animations.firstIndex(where: { $0.id == id })
                else { continue }
                forget(layers[change.layer]!.animations.remove(at: position))
                if !layers[change.layer]!.isAnimated { animatedLayers.remove(change.layer) }
                // The layer now shows its model values: retained display lists must emit it again.
                if !revised {
                    beginRevision()
                    revised = true
                }
                noteChange(change.layer, .animations)
            }
            events.append(change.event)
        }
        return events
    }

    /// Advances the animation bookkeeping to the frame at `time`: `advancement(to:)` applied at once.
    ///
    /// Returns the events to send, whether any animation is active on a clock that runs (and so
    /// needs every frame), and otherwise the earliest media time at which a pending animation starts
    /// (nil when none will start by itself).
    public mutating func advanceAnimations(to time: Double)
        -> (events: [AnimationEvent], running: Bool, nextStart: Double?)
    {
        var found = advancement(to: time)
        return (apply(&found), found.running, found.nextStart)
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

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
        // (The layers are read where the table holds them: a layer is large to copy.)
        while let c = current, let slot = layers.slot(of: c), chain.count <= WireLimits.maxTreeDepth {
            if let clock = known[c] {
                base = clock
                break
            }
            chain.append(c)
            current = layers[slot: slot].superlayer
        }
        for c in chain.reversed() {
            let slot = layers.slot(of: c)!
            base = (
                layers[slot: slot].state.localTime(fromParent: base.time), base.rate * layers[slot: slot].state.speed
            )
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
        /// The animations looked at, with when to look at each next: recorded in the schedule once
        /// every change is applied, a slice per `apply` call as the changes are.
        var looks: [AnimationLook] = []
        /// How many of `looks` have been recorded.
        var recordedLooks = 0
        /// Whether every change has been applied and every look recorded.
        public var isApplied: Bool { appliedCount == changes.count && recordedLooks == looks.count }
        /// Whether any animation is active on a clock that runs (and so needs every frame).
        public var running = false
        /// The earliest media time at which an animation that is not running changes phase by
        /// itself: a pending one starts (or, on a clock running backwards, a finished one becomes
        /// active again). Nil when none will.
        public var nextStart: Double?
        /// How many animations the bookkeeping looked at: those whose phase change had come, or
        /// newly added, or whose clock a commit moved; not every animated layer.
        public var animationsExamined = 0
    }

    /// What advancing to the frame at `time` finds: animations that started or finished since the
    /// last frame (finished ones that are removed on completion are to be removed), whether any runs,
    /// and when the next pending one starts. Changes nothing; `apply(_:)` does.
    ///
    /// Only the animations whose phase change has come (or that are new, or whose clock moved) are
    /// looked at (`AnimationSchedule`); whether others run is the schedule's count of animations
    /// active on running clocks, and every emitter layer's clock is read (particles move while it
    /// runs).
    public func advancement(to time: Double) -> Advancement {
        var result = Advancement()
        var clocks: [LayerID: (time: Double, rate: Double)] = [:]
        for id in emitterLayers where !result.running {
            if localTime(of: id, at: time, known: &clocks).rate != 0 { result.running = true }
        }
        let (due, nextStart) = schedule.due(at: time)
        result.nextStart = nextStart
        var running = schedule.runningCount
        // Earliest first, so that events come in the order they happened.
        let ordered = due.sorted { ($0.time, $0.animation) < ($1.time, $1.animation) }
        for entry in ordered {
            guard let item = schedule.items[entry.animation], let layer = layers[item.layer],
                let animation = layer.animations.first(where: { $0.id == entry.animation })
            else { continue }
            result.animationsExamined += 1
            let clock = localTime(of: item.layer, at: time, known: &clocks)
            let (phase, change) = Self.look(at: animation, time: time, clock: clock)
            let state = reported[animation.id] ?? .notStarted
            if phase != .pending && state == .notStarted {
                result.changes.append(
                    .init(
                        layer: item.layer, event: AnimationEvent(animationID: animation.id, kind: .started, time: time))
                )
            }
            if phase == .finished && state != .finished {
                let kind: AnimationEvent.Kind =
                    animation.record.isRemovedOnCompletion ? .finishedAndRemoved : .finished
                result.changes.append(
                    .init(layer: item.layer, event: AnimationEvent(animationID: animation.id, kind: kind, time: time)))
            }
            let counted = phase == .active && clock.rate != 0
            running += (counted ? 1 : 0) - (item.counted ? 1 : 0)
            result.looks.append(
                AnimationLook(animation: animation.id, serial: item.serial, next: change ?? .infinity, counted: counted)
            )
            if let change, !counted { result.nextStart = min(result.nextStart ?? change, change) }
        }
        if running > 0 { result.running = true }
        return result
    }

    /// Applies what `advancement(to:)` found on an earlier version of this tree, at most `limit` of
    /// its changes and looks from where the last call stopped: records the phases reached and removes
    /// the finished animations that go on completion, and, once every change is applied, records in
    /// the schedule when to look at each animation looked at next. A change about an animation the
    /// tree no longer has, or that the tree already records, is skipped. Returns the events of the
    /// changes applied, in order.
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
                // Retained display lists of other displays than the one whose frame found it learn
                // from the log that the layer now shows the animation.
                if !revised {
                    beginRevision()
                    revised = true
                }
                noteChange(change.layer, .animations)
            case .finished:
                guard state != .finished else { continue }
                reported.values[index] = .finished
                if !revised {
                    beginRevision()
                    revised = true
                }
                noteChange(change.layer, .animations)
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
        if end == advancement.changes.count {
            // The looks left, within what is left of `limit`: 250,000 animations looked at in one
            // frame are as many schedule updates, too many for one turn of the server's loop.
            let from = advancement.recordedLooks
            let to = from + min(max(limit - (end - advancement.appliedCount), 0), advancement.looks.count - from)
            for look in advancement.looks[from..<to] {
                schedule.looked(at: look.animation, serial: look.serial, next: look.next, counted: look.counted)
            }
            advancement.recordedLooks = to
        }
        schedule.compact()
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
}

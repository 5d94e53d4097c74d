import LaminaCore

extension RenderTree {
    /// One look the bookkeeping took at an animation (`advancement(to:)`): when to look next
    /// (infinity: never by itself) and whether it is active on a running clock; `serial` is its
    /// schedule item's when looked at.
    struct AnimationLook: Sendable {
        var animation: UInt64
        var serial: UInt64
        var next: Double
        var counted: Bool
    }

    /// Looks at `animation` at media time `time`, its layer's clock then being `clock`: its phase,
    /// and the media time of its next phase change (nil: none by itself).
    static func look(at animation: AttachedAnimation, time: Double, clock: (time: Double, rate: Double))
        -> (phase: AnimationPhase, next: Double?)
    {
        let timing = animation.record.timing
        let phase = animation.record.phase(atParent: clock.time)
        let next = AnimationSchedule.nextChange(
            after: time, local: timing.localTime(fromParent: clock.time), slope: clock.rate * timing.speed,
            phase: phase, duration: timing.activeDuration)
        return (phase, next)
    }

    /// Finds every attached animation's next phase change again, at the next frame: after a commit
    /// that changed the hierarchy or a layer's `beginTime`, `timeOffset` or `speed`, which move
    /// layers' clocks.
    mutating func rescheduleAnimations() {
        schedule.lookAgainAtAll()
        schedule.compact()
    }

    /// The layers that may be drawn differently at media time `time` than at the last look at
    /// their animations, by the passing of time alone: layers with a running animation or one whose
    /// look is due, and emitter layers. Retained display lists draw these again each frame; a layer
    /// whose animations are all pending or finished (held by a fill mode) is drawn again only when
    /// one changes phase (`apply` logs that). Linear in those layers, not in the animated ones.
    public func animatingLayers(at time: Double) -> Set<LayerID> {
        Set(animating(at: time).list)
    }

    /// `animatingLayers(at:)` without gathering a set (a frame's retained list reads it every frame).
    func animating(at time: Double) -> AnimatingLayers {
        var layers = schedule.animating(at: time)
        layers.due += emitterLayers
        return layers
    }
}

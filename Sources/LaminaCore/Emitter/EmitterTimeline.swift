import Foundation

/// An emitter layer's values through time: its model state and the animations of its own that change
/// the emitter (its rows 77–85 or a cell's value through `emitterCells.NAME.KEY`), so the simulation
/// can read the cells as they were when each particle was born and integrate an animated birth rate.
///
/// Times are the layer's local time, as `ParticleSystem` uses them. Animations reaching the layer
/// from an ancestor by name (`sublayers.NAME.`) are not part of it: they apply at the frame's time.
public struct EmitterTimeline: Sendable {
    /// The layer's model state.
    public let model: LayerState
    /// The layer's animations that change the emitter, in the layer's order.
    public let animations: [AttachedAnimation]

    /// The timeline of a layer whose model is `model` and animations `animations`; nil when the layer
    /// is not an emitter layer or no animation changes its emitter (its values are then the same at
    /// every time).
    public init?(model: LayerState, animations: [AttachedAnimation]) {
        guard model.layerClass == .emitter else { return nil }
        var driving: [AttachedAnimation] = []
        var records = 0
        for animation in animations where animation.record.drivesEmitter {
            records += Self.records(in: animation.record)
            guard records <= Self.maxRecords else { break }
            driving.append(animation)
        }
        guard !driving.isEmpty else { return nil }
        self.model = model
        self.animations = driving
    }

    /// The most animation records (groups' children included) a timeline follows through time: the
    /// layer's first emitter animations up to it; later ones apply at the frame's time only.
    public static let maxRecords = 64

    /// How many records `record` holds, itself included.
    static func records(in record: AnimationRecord) -> Int {
        if case .group(let children) = record.content { return 1 + children.reduce(0) { $0 + records(in: $1) } }
        return 1
    }

    /// The emitter's values (its multipliers, geometry and cells) at local time `time`.
    public func emitter(at time: Double) -> EmitterLayerState {
        var state = model
        var ignored: [TransitionProgress] = []
        for animation in animations {
            animation.record.apply(to: &state, parentTime: time, id: animation.id, transitions: &ignored)
        }
        return state.emitter
    }

    /// The stretches of local time in 0...`time` where some animation may change the emitter's
    /// values (each animation's active interval, clipped), merged and sorted; outside them the values
    /// stay the same. An animation whose clock is stopped (`speed` 0) changes nothing with time.
    public func changingSpans(upTo time: Double) -> [ClosedRange<Double>] {
        var spans: [ClosedRange<Double>] = []
        for animation in animations {
            let timing = animation.record.timing
            guard timing.speed != 0, timing.speed.isFinite else { continue }
            let active = timing.activeDuration
            let a = timing.parentTime(fromLocal: 0)
            let b = active.isFinite ? timing.parentTime(fromLocal: active) : (timing.speed > 0 ? .infinity : -.infinity)
            let lower = max(min(a, b), 0)
            let upper = min(max(a, b), time)
            guard lower.isFinite || lower == 0, upper.isFinite, lower < upper else { continue }
            spans.append(lower...upper)
        }
        spans.sort { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<Double>] = []
        for span in spans {
            if let last = merged.last, span.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        return merged
    }
}

extension AnimationRecord {
    /// Whether the record (or a child of its group) animates its own layer's emitter: a row of
    /// `CAEmitterLayer` or an emitter cell's value.
    public var drivesEmitter: Bool {
        switch content {
        case .basic(let target, _), .spring(let target, _, _), .keyframe(let target, _):
            guard target.sublayerPath.isEmpty, target.customKey == nil else { return false }
            return target.cell != nil || target.keyPath.property.layerClass == .emitter
        case .group(let children): return children.contains { $0.drivesEmitter }
        case .transition: return false
        }
    }
}

import Foundation

/// What evaluating a basic animation of a number or point property (and of the other properties
/// `DirectWrite` writes whose values are plain numbers) needs, worked out once when the animation is
/// attached and kept beside its record: the property, the end values as numbers, the timing's
/// durations and the curve's coefficients, with no class, indirect enum or existential to reach.
///
/// A frame then reads the plan where the array of attached animations holds it and works the value
/// out with arithmetic alone: the record is neither copied nor retained and the timing function's
/// class is not called. The arithmetic is the general path's (`AnimationRecord.apply`), in its order,
/// so the state written is the same bit for bit (`EvaluationPlanTests` compares the two over random
/// records and times). Records the plan does not cover (`target` nil) take `DirectWrite` and then
/// the general path, as before.
struct EvaluationPlan: Sendable {
    /// The property written, or nil when the record is left to `AnimationRecord.directWrite`.
    var target: DirectWrite.Target?
    /// Whether the value is added to the current one.
    var additive = false
    /// The end values in lanes: a number in the first, a point's x and y in the first two, a rect's
    /// x, y, width and height, a colour's red, green, blue and alpha (the other lanes are 0).
    var from = SIMD4<Double>(), to = SIMD4<Double>()
    /// The record's timing.
    var timing: ResolvedTiming
    /// The record's timing curve; nil is linear.
    var curve: TimingPolynomial?

    /// The plan of `record`: `target` is set for the records `AnimationRecord.directWrite` covers
    /// whose values are numbers, points, rects or colours (a nil colour end counts as transparent
    /// black, as there; two nil colours are left to it), nil for every other record.
    init(_ record: AnimationRecord) {
        timing = ResolvedTiming(record.timing)
        curve = record.timingFunction?.function.polynomial
        guard case .basic(let target, let values) = record.content, target.sublayerPath.isEmpty,
            target.customKey == nil, target.valueFunction == nil, target.cell == nil, !target.isCumulative,
            let start = values.from, let end = values.to
        else { return }
        additive = target.isAdditive
        // A whole transform is not planned: its values are matrices (the `switch` below leaves it).
        guard let kind = DirectWrite.Target(target.keyPath, additive: additive) else { return }
        switch (kind, start, end) {
        case (.opacity, .number(let x), .number(let y)), (.positionX, .number(let x), .number(let y)),
            (.positionY, .number(let x), .number(let y)), (.transformComponent, .number(let x), .number(let y)):
            (from, to) = (SIMD4(x, 0, 0, 0), SIMD4(y, 0, 0, 0))
        case (.position, .point(let p), .point(let q)):
            (from, to) = (SIMD4(p.x, p.y, 0, 0), SIMD4(q.x, q.y, 0, 0))
        case (.bounds, .rect(let p), .rect(let q)):
            (from, to) = (
                SIMD4(p.origin.x, p.origin.y, p.width, p.height), SIMD4(q.origin.x, q.origin.y, q.width, q.height)
            )
        case (.backgroundColor, .color(let p), .color(let q)) where p != nil || q != nil:
            let x = p ?? .clear
            let y = q ?? .clear
            (from, to) = (SIMD4(x.red, x.green, x.blue, x.alpha), SIMD4(y.red, y.green, y.blue, y.alpha))
        default:
            return
        }
        self.target = kind
    }

    /// Applies the planned record at `t` (its layer's local time) to `state` as
    /// `AnimationRecord.directWrite(atParent:)` and `DirectWrite.apply(to:)` would, writing the value
    /// straight into the field (a `DirectWrite`, sized for a transform, would be copied several
    /// times on the way). False, with `state` untouched, when the plan covers no record.
    @inline(__always)
    func apply(atParent t: Double, to state: inout LayerState) -> Bool {
        guard let target else { return false }
        guard let linear = timing.progress(atParent: t) else { return true }
        let f = curve?.evaluate(linear) ?? linear
        @inline(__always) func mix(_ lane: Int) -> Double { from[lane] + (to[lane] - from[lane]) * f }
        switch target {
        case .opacity, .positionX, .positionY, .transformComponent:
            DirectWrite.write(mix(0), to: target, additive: additive, in: &state)
        case .position:
            DirectWrite.write(position: CGPoint(x: mix(0), y: mix(1)), additive: additive, in: &state)
        case .bounds:
            DirectWrite.write(
                bounds: CGRect(x: mix(0), y: mix(1), width: mix(2), height: mix(3)), additive: additive, in: &state)
        case .backgroundColor:
            // Each component is clamped to 0...1.
            @inline(__always) func unit(_ lane: Int) -> Double { min(max(mix(lane), 0), 1) }
            state.backgroundColor = RGBAColor(red: unit(0), green: unit(1), blue: unit(2), alpha: unit(3))
        case .transform:
            return false
        }
        return true
    }
}

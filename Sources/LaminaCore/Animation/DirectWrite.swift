import Foundation

/// A basic animation's effect at one time on one of the properties animations drive most often,
/// worked out in full before the layer state is touched: what `LayerAnimator` writes straight into
/// the stored field, or the word that the general path (`AnimationRecord.apply`) must run.
///
/// The value is computed from the record with arithmetic alone (no call that could release memory),
/// so the record can be read where its array holds it without being copied (a copy retains and
/// releases its content and its timing function on every evaluation); only then is the state
/// written. The arithmetic is that of the general path, in its order, so the state written is the
/// same bit for bit (`AnimationEvaluationTests` compares the two over random records and times).
enum DirectWrite {
    /// The property a direct write targets.
    enum Target {
        case opacity, position, positionX, positionY, bounds, backgroundColor, transform
        /// A virtual component of `transform` (`transform.rotation.z`, `transform.scale`, ...).
        case transformComponent(TransformComponent)

        /// The field an animation of `keyPath` writes directly, or nil when it takes the general
        /// path (colours and whole transforms only when not additive). Shared by
        /// `AnimationRecord.directWrite(atParent:)` and `EvaluationPlan`.
        @inline(__always)
        init?(_ keyPath: LayerKeyPath, additive: Bool) {
            switch (keyPath.property, keyPath.component) {
            case (.opacity, nil): self = .opacity
            case (.position, nil): self = .position
            case (.position, .pointX?): self = .positionX
            case (.position, .pointY?): self = .positionY
            case (.bounds, nil): self = .bounds
            case (.backgroundColor, nil) where !additive: self = .backgroundColor
            case (.transform, nil) where !additive: self = .transform
            case (.transform, .transform(let c)?): self = .transformComponent(c)
            default: return nil
            }
        }
    }

    /// The interpolated value, before the additive composition and the property's constraint.
    enum Value {
        case number(Double)
        case point(CGPoint)
        case rect(CGRect)
        case color(RGBAColor?)
        case transform(CATransform3D)
    }

    /// The animation has no effect at that time (before its start or after its end, not filled).
    case noEffect
    /// The record is not one the direct path covers: apply it through `AnimationRecord.apply`.
    case general
    /// Write `value` to `target`, added to the current value when `additive`.
    case write(Target, Value, additive: Bool)

    /// Applies a `write` to `state` as `PropertyTarget.write` would (`write(_:to:additive:in:)` and
    /// the functions beside it); a colour or a whole transform is stored as it is. Does nothing for
    /// `noEffect` and `general`.
    @inline(__always)
    func apply(to state: inout LayerState) {
        guard case .write(let target, let value, let additive) = self else { return }
        switch (target, value) {
        case (_, .number(let v)): Self.write(v, to: target, additive: additive, in: &state)
        case (.position, .point(let p)): Self.write(position: p, additive: additive, in: &state)
        case (.bounds, .rect(let r)): Self.write(bounds: r, additive: additive, in: &state)
        case (.backgroundColor, .color(let c)): state.backgroundColor = c
        case (.transform, .transform(let m)): state.transform = m
        default: break
        }
    }

    /// Writes the number `v` to `target` (`opacity`, `position.x` or `.y`, a transform component):
    /// added to the current value when `additive` (current first, as `AnimationValue.add` adds),
    /// opacity clamped to 0...1 in `Float`, a transform component set by
    /// `CATransform3D.setting(_:to:)`. Other targets are left alone.
    @inline(__always)
    static func write(_ v: Double, to target: Target, additive: Bool, in state: inout LayerState) {
        var v = v
        switch target {
        case .opacity:
            if additive { v = Double(state.opacity) + v }
            state.opacity = min(max(Float(v), 0), 1)
        case .positionX:
            if additive { v = state.position.x + v }
            state.position.x = v
        case .positionY:
            if additive { v = state.position.y + v }
            state.position.y = v
        case .transformComponent(let c):
            if additive { v = state.transform.component(c) + v }
            state.transform = state.transform.setting(c, to: v)
        default:
            break
        }
    }

    /// Writes `position`, added to the current one when `additive`.
    @inline(__always)
    static func write(position p: CGPoint, additive: Bool, in state: inout LayerState) {
        var p = p
        if additive { p = CGPoint(x: state.position.x + p.x, y: state.position.y + p.y) }
        state.position = p
    }

    /// Writes `bounds`, added to the current one when `additive`, its size clamped to non-negative.
    @inline(__always)
    static func write(bounds r: CGRect, additive: Bool, in state: inout LayerState) {
        var r = r
        if additive {
            let c = state.bounds
            r = CGRect(
                x: c.origin.x + r.origin.x, y: c.origin.y + r.origin.y, width: c.width + r.width,
                height: c.height + r.height)
        }
        state.bounds = CGRect(x: r.origin.x, y: r.origin.y, width: max(r.width, 0), height: max(r.height, 0))
    }
}

extension AnimationRecord {
    /// The effect of this record at `t` (its layer's local time) as a `DirectWrite`: a basic
    /// animation of the animation's own layer's `opacity`, `position` (or its `x` or `y`), `bounds`,
    /// `backgroundColor`, `transform` or a virtual component of it, with both `fromValue` and
    /// `toValue`, not cumulative, without a value function (not additive for colours and whole
    /// transforms). `general` for every other record.
    @inline(__always)
    func directWrite(atParent t: Double) -> DirectWrite {
        guard case .basic(let target, let values) = content, target.sublayerPath.isEmpty, target.customKey == nil,
            target.valueFunction == nil, target.cell == nil, !target.isCumulative
        else { return .general }
        let additive = target.isAdditive
        guard let kind = DirectWrite.Target(target.keyPath, additive: additive) else { return .general }
        // Only matching kinds: a value of another kind is left to the general path (which ignores it).
        // The interpolation is `AnimationValue.interpolate`'s for these kinds, in its order.
        func mix(_ x: Double, _ y: Double, _ t: Double) -> Double { x + (y - x) * t }
        let value: DirectWrite.Value
        switch (kind, values.from, values.to) {
        case (.opacity, .number(let x)?, .number(let y)?), (.positionX, .number(let x)?, .number(let y)?),
            (.positionY, .number(let x)?, .number(let y)?), (.transformComponent, .number(let x)?, .number(let y)?):
            guard let (f, _) = progress(atParent: t) else { return .noEffect }
            value = .number(mix(x, y, f))
        case (.position, .point(let p)?, .point(let q)?):
            guard let (f, _) = progress(atParent: t) else { return .noEffect }
            value = .point(CGPoint(x: mix(p.x, q.x, f), y: mix(p.y, q.y, f)))
        case (.bounds, .rect(let p)?, .rect(let q)?):
            guard let (f, _) = progress(atParent: t) else { return .noEffect }
            value = .rect(
                CGRect(
                    x: mix(p.origin.x, q.origin.x, f), y: mix(p.origin.y, q.origin.y, f),
                    width: mix(p.width, q.width, f),
                    height: mix(p.height, q.height, f)))
        case (.backgroundColor, .color(let p)?, .color(let q)?):
            guard let (f, _) = progress(atParent: t) else { return .noEffect }
            if p == nil && q == nil {
                value = .color(nil)
            } else {
                // A nil end counts as transparent black; each component is clamped to 0...1.
                let x = p ?? .clear
                let y = q ?? .clear
                func unit(_ a: Double, _ b: Double) -> Double { min(max(mix(a, b, f), 0), 1) }
                value = .color(
                    RGBAColor(
                        red: unit(x.red, y.red), green: unit(x.green, y.green), blue: unit(x.blue, y.blue),
                        alpha: unit(x.alpha, y.alpha)))
            }
        case (.transform, .transform(let x)?, .transform(let y)?):
            guard let (f, _) = progress(atParent: t) else { return .noEffect }
            value = .transform(x.interpolated(to: y, fraction: f))
        default:
            return .general
        }
        return .write(kind, value, additive: additive)
    }
}

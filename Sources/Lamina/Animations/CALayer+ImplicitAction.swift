import Foundation

/// The action a property change runs, found before the value is stored: the object the action
/// search returned, or the built-in implicit animation, known without making it.
enum PendingAction {
    case object(any CAAction)
    /// The built-in implicit animation (`implicitAction(forKey:)`) with the transaction's settings
    /// as they were when the search ran.
    case builtInImplicit(duration: Double, timingFunction: CAMediaTimingFunction)
}

/// The built-in implicit animation without its objects: for a layer whose action search can only
/// end at it, a property change attaches the record and the entry that the `CABasicAnimation` the
/// search returns (and the copy `add(_:forKey:)` keeps) would give, and the object is made only when
/// something asks for it (`animation(forKey:)`, a delegate, archiving). What an app sees is the same.
extension CALayer {
    /// Lamina's layer classes whose action search, `defaultAction(forKey:)`, `add(_:forKey:)` and
    /// `animation(forKey:)` are `CALayer`'s (`CAVulkanLayer` has its own search; an app's subclass
    /// may override any of them).
    static let classesWithTheBuiltInActionSearch: Set<ObjectIdentifier> = [
        ObjectIdentifier(CALayer.self), ObjectIdentifier(CAShapeLayer.self), ObjectIdentifier(CAGradientLayer.self),
        ObjectIdentifier(CATextLayer.self), ObjectIdentifier(CAReplicatorLayer.self),
        ObjectIdentifier(CAScrollLayer.self), ObjectIdentifier(CATransformLayer.self),
        ObjectIdentifier(CAEmitterLayer.self),
    ]

    /// Whether the action search for a change of `property` (`searchAction(forKey:)`) can only end at
    /// the built-in implicit animation: the layer is of a class above, has no delegate, no `actions`
    /// entry for the key and no `style`, and the property animates implicitly.
    func searchEndsAtBuiltInImplicitAction(_ property: LayerPropertyName) -> Bool {
        guard property.descriptor.animation?.isImplicit == true, delegate == nil, style == nil,
            Self.classesWithTheBuiltInActionSearch.contains(ObjectIdentifier(type(of: self)))
        else { return false }
        if let actions, actions[property.key] != nil { return false }
        return true
    }

    /// The action for a change of `property`: the built-in implicit animation's settings when the
    /// search can only end there (read now, as `implicitAction(forKey:)` reads them), else what
    /// `action(forKey:)` returns.
    func pendingAction(for property: LayerPropertyName) -> PendingAction? {
        if searchEndsAtBuiltInImplicitAction(property) {
            let settings = CATransaction.implicitAnimationSettings()
            return .builtInImplicit(
                duration: settings.duration,
                timingFunction: settings.timingFunction ?? Self.defaultImplicitTimingFunction)
        }
        return action(forKey: property.key).map(PendingAction.object)
    }

    /// Runs `action`, found for a change of `property` whose value before the change was `oldValue`.
    func runPendingAction(_ action: PendingAction, for property: LayerPropertyName, oldValue: AnimationValue) {
        switch action {
        case .object(let object):
            runAction(object, forKey: property.key, oldValue: oldValue)
        case .builtInImplicit(let duration, let timingFunction):
            attachBuiltInImplicitAnimation(
                ImplicitAnimationSource(
                    property: property, duration: duration, timingFunction: timingFunction, from: oldValue))
        }
    }

    /// Attaches the implicit animation `source` describes under its key, with the record
    /// `attachAnimation` makes from the animation object: the timing of a new animation with the
    /// source's duration (0 takes the transaction's animation duration), its curve, removal on
    /// completion, and a basic animation of the property from the value before the change to the new
    /// model value. A record `attachAnimation` would refuse (a duration that is not finite and
    /// non-negative, a property of another class) takes that path, with the object, which reports it.
    func attachBuiltInImplicitAnimation(_ source: ImplicitAnimationSource) {
        var timing = MediaTiming(
            beginTime: 0, timeOffset: 0, duration: source.duration, speed: 1, repeatCount: 0, repeatDuration: 0,
            autoreverses: false, fillMode: .removed)
        if timing.duration == 0 { timing.duration = CATransaction.animationDuration() }
        let record = AnimationRecord(
            timing: timing, timingFunction: TimingCurve(source.timingFunction), isRemovedOnCompletion: true,
            content: .basic(PropertyTarget(keyPath: LayerKeyPath(source.property)), BasicValues(from: source.from)))
        guard timing.duration.isFinite, timing.duration >= 0,
            record.propertyOfAnotherClass(than: modelState.layerClass) == nil
        else {
            runAction(source.action(), forKey: source.key, oldValue: source.from)
            return
        }
        attach(forKey: source.key) { id, groups in
            LayerAnimation(id: id, implicit: source, record: record, completionGroups: groups, layer: self)
        }
    }
}

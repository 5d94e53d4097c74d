import Foundation

extension CALayerDelegate {
    /// No action of the delegate's own: the search continues (the default for delegates that do not
    /// implement it).
    public func action(for layer: CALayer, forKey event: String) -> (any CAAction)? { nil }
}

extension CALayer {
    // MARK: Animations

    /// Attaches a copy of `anim`, replacing an animation under the same key; a nil key is allowed.
    ///
    /// The animation starts at the commit of the current transaction (or at its `beginTime`, when
    /// set). A value of the wrong type for the key path, or a key path Lamina cannot animate, is
    /// reported to `LaminaDiagnostics` and the animation is not added (Apple raises an exception).
    func attachAnimation(_ anim: CAAnimation, forKey key: String?) {
        let copy = anim.copy() as! CAAnimation
        if let basic = copy as? CABasicAnimation, basic.fromValue == nil, basic.toValue == nil, basic.byValue == nil,
            let key = basic.keyPath, let pending = pendingActionOldValue, pending.key == key, Self.isCustomKey(key)
        {
            // An implicit animation of a class's own property (CATextLayer's fontSize): from the value
            // before the change to the new model value.
            basic.fromValue = Self.box(pending.value, like: kvcValue(forKey: key))
        } else if let basic = copy as? CABasicAnimation, basic.fromValue == nil, basic.toValue == nil,
            basic.byValue == nil,
            let (names, rest) = basic.keyPath.flatMap(PropertyTarget.splitSublayerPath),
            let keyPath = LayerKeyPath(rest)
        {
            if !names.isEmpty {
                // A named sublayer's key: from that sublayer's previous presentation value.
                let driven = names.reduce(self as CALayer?) { layer, name in
                    layer?.sublayers?.first { $0.name == name }
                }
                basic.resolvedFrom = driven?.previousPresentationValue(keyPath)
            } else if let pending = pendingActionOldValue, basic.keyPath == pending.key {
                // An implicit animation: from the value before the change to the new model value,
                // which reads back as its `fromValue`, as on Apple platforms.
                basic.resolvedFrom = pending.value
                basic.fromValue = pending.value.boxed(for: keyPath)
            } else {
                // No values at all: from the key's previous presentation value to its current one.
                basic.resolvedFrom = previousPresentationValue(keyPath)
            }
        }
        hintCustomKinds(copy)
        let record: AnimationRecord
        do {
            // A duration of 0 takes the transaction's animation duration (CATransaction.h), read
            // only then (an implicit animation has its duration already).
            record = try copy.makeRecord(defaultDuration: copy.duration == 0 ? CATransaction.animationDuration() : 0)
            if let row = record.propertyOfAnotherClass(than: modelState.layerClass) {
                throw AnimationValueError(
                    description: "'\(row.key)' is a \(row.layerClass.className) property; this layer is a "
                        + modelState.layerClass.className)
            }
        } catch {
            let layerName = name.map { " (\($0))" } ?? ""
            LaminaDiagnostics.report(
                .refusedAnimation, "animation '\(key ?? "nil")' not added to layer \(layerID)\(layerName): \(error)")
            return
        }
        attach(forKey: key) { id, groups in
            LayerAnimation(
                id: id, key: key ?? "lamina.anonymous.\(id)", isAnonymous: key == nil,
                animation: copy, record: record, completionGroups: groups, layer: self)
        }
    }

    /// Attaches the entry `makeEntry` makes (given its id and the open transactions' completion
    /// groups, each registered to wait for it), ending the animation it replaces under `key`.
    func attach(forKey key: String?, _ makeEntry: (UInt64, [CompletionGroup]) -> LayerAnimation) {
        CATransaction.lock()
        defer { CATransaction.unlock() }
        LayerAnimation.nextID += 1
        let id = LayerAnimation.nextID
        if let key, let existing = attachedAnimations.firstIndex(where: { $0.key == key && !$0.isAnonymous }) {
            attachedAnimations.remove(at: existing).end(finished: false)
        }
        let groups = CATransaction.openCompletionGroups()
        for group in groups { group.register() }
        let entry = makeEntry(id, groups)
        attachedAnimations.append(entry)
        keyRecord.noteSet("animations")
        LayerAnimation.registry[id] = entry
        changed()
        animationAttached(entry)
    }

    /// The animation attached under `key` (the attached copy), or nil.
    func attachedAnimation(forKey key: String) -> CAAnimation? {
        CATransaction.lock()
        defer { CATransaction.unlock() }
        return attachedAnimations.first { $0.key == key && !$0.isAnonymous }?.animation
    }

    /// The keys of the attached animations, in the order they were added (nil when there are none).
    /// Animations added with a nil key have no key and are not listed.
    func attachedAnimationKeys() -> [String]? {
        CATransaction.lock()
        defer { CATransaction.unlock() }
        let keys = attachedAnimations.filter { !$0.isAnonymous }.map(\.key)
        return keys.isEmpty ? nil : keys
    }

    /// Removes the animation under `key`; the layer shows its model value from the next commit.
    func detachAnimation(forKey key: String) {
        CATransaction.lock()
        defer { CATransaction.unlock() }
        guard let index = attachedAnimations.firstIndex(where: { $0.key == key && !$0.isAnonymous }) else { return }
        attachedAnimations.remove(at: index).end(finished: false)
        changed()
    }

    /// Removes every attached animation.
    func detachAllAnimations() {
        CATransaction.lock()
        defer { CATransaction.unlock() }
        guard !attachedAnimations.isEmpty else { return }
        let removed = attachedAnimations
        attachedAnimations = []
        for entry in removed { entry.end(finished: false) }
        changed()
    }

    // MARK: Presentation

    /// A copy of the layer showing what is on screen now: the model values with the committed
    /// animations applied at `CACurrentMediaTime()`, computed by the same LaminaCore code the render
    /// server runs. Nil before the layer's first commit. Its `sublayers` and `superlayer` are
    /// presentation layers for the same time.

    /// The presentation layer at media time `time` (a Lamina addition, so tests can pass a time).
    public func presentation(at time: CFTimeInterval) -> CALayer? {
        let source = presentationSource ?? self
        guard source.hasBeenCommitted else { return nil }
        let layer = type(of: source).init(_presentationCopyOf: source)
        // What the last commit put on screen: changes of the transaction still open do not show.
        let committed = CATransaction.state.lock.withLock { source.committedModelState }
        layer.modelState = source.presentedState(at: time, from: committed)
        layer.kvcStorage.merge(source.presentedCustomValues(at: time)) { $1 }
        layer.presentationSource = source
        layer.presentationTime = time
        return layer
    }

    /// The model layer of a presentation layer; the layer itself otherwise.

    /// The state `base` (the model values, or those of the last commit) at media time `time` with
    /// the layer's committed animations applied.
    func presentedState(at time: Double, from base: LayerState) -> LayerState {
        CATransaction.lock()
        defer { CATransaction.unlock() }
        // One copy of the state, the animations applied to it in place (every implicit animation
        // of a layer whose previous one still runs starts from this state).
        var state = base
        var animations: [AttachedAnimation] = []
        for entry in attachedAnimations where entry.committed {
            animations.append(AttachedAnimation(id: entry.id, key: entry.key, record: entry.record))
        }
        if !animations.isEmpty {
            var transitions: [TransitionProgress] = []
            LayerAnimator.apply(
                animations, to: &state, layerTime: localTime(atMediaTime: time), transitions: &transitions)
        }
        applyAncestorAnimations(to: &state, at: time)
        return state
    }

    // MARK: Time

    /// The model timing of the layer's ancestors and itself, outermost first.
    var timingChain: [MediaTiming] {
        var chain: [MediaTiming] = []
        var current: CALayer? = presentationSource ?? self
        while let layer = current {
            chain.append(layer.modelState.timing)
            current = layer.storedSuperlayerForTiming
        }
        return chain.reversed()
    }

    /// The layer's local time at media time `time`: `MediaTiming.convert(time, through: timingChain)`,
    /// the outermost ancestor's timing applied first, computed without building the chain and
    /// reading the three timing fields in place (`modelState.timing` would copy the layer's whole
    /// state): every implicit animation reads it.
    func localTime(atMediaTime time: Double) -> Double {
        let layer = presentationSource ?? self
        let parentTime = layer.storedSuperlayerForTiming.map { $0.localTime(atMediaTime: time) } ?? time
        let beginTime = layer.modelState.beginTime
        let speed = layer.modelState.speed
        let timeOffset = layer.modelState.timeOffset
        // MediaTiming.localTime(fromParent:), term for term.
        return (parentTime - beginTime) * speed + timeOffset
    }

    /// Converts `t` from the local time of layer `l` (nil: media time) into this layer's local time.
    public func convertTime(_ t: CFTimeInterval, from l: CALayer?) -> CFTimeInterval {
        MediaTiming.convertTime(t, from: l?.timingChain ?? [], to: timingChain)
    }

    /// Converts `t` from this layer's local time into the local time of layer `l` (nil: media time).
    public func convertTime(_ t: CFTimeInterval, to l: CALayer?) -> CFTimeInterval {
        MediaTiming.convertTime(t, from: timingChain, to: l?.timingChain ?? [])
    }

    // MARK: Actions

    /// The action for `event`, searched in Core Animation's order: the delegate's
    /// `action(for:forKey:)`, the `actions` dictionary, the `style` dictionary's `actions` (following
    /// nested `style` dictionaries), the class's `defaultAction(forKey:)`, then the built-in implicit
    /// animation for an animatable property. `NSNull` anywhere stops the search with no action.
    func searchAction(forKey event: String) -> (any CAAction)? {
        func found(_ action: (any CAAction)?) -> (any CAAction)?? {
            guard let action else { return nil }
            return .some(action is NSNull ? nil : action)
        }
        if let delegate, let result = found(delegate.action(for: self, forKey: event)) { return result }
        if let result = found(actions?[event]) { return result }
        var style = self.style
        var depth = 0
        while let s = style, depth < 16 {
            if let nested = s["actions"] as? [String: any CAAction], let result = found(nested[event]) { return result }
            style = s["style"] as? [AnyHashable: Any]
            depth += 1
        }
        if let result = found(Self.defaultAction(forKey: event)) { return result }
        return Self.implicitAction(forKey: event) ?? Self.clientImplicitAction(forKey: event)
    }

    /// The built-in implicit animation of App. B: a basic animation of the property with the
    /// transaction's duration and timing function; none for other keys, nor for the properties that
    /// only explicit animations animate (`doubleSided`, `contentsScale`, ...).
    static func implicitAction(forKey event: String) -> (any CAAction)? {
        // A filter's radius (`filters.NAME.inputRadius`) animates implicitly, as App. B says of filter
        // sub-properties.
        // A parsed key path has a component exactly when the key has a dot (a whole property's key
        // has none), so the component says it without searching the string.
        guard let path = LayerKeyPath(event),
            (path.component == nil && path.property.descriptor.animation?.isImplicit == true)
                || LayerKeyPath.filterRadiusPath(event) != nil
        else { return nil }
        let animation = CABasicAnimation(keyPath: event)
        let settings = CATransaction.implicitAnimationSettings()
        animation.duration = settings.duration
        animation.timingFunction = settings.timingFunction ?? defaultImplicitTimingFunction
        return animation
    }

    /// The timing function of implicit animations when the transaction sets none: Core Animation's
    /// default curve (`CAMediaTimingFunctionName.default`). Timing functions are immutable, so the
    /// implicit animations share one instead of building (and widening) a curve per change.
    static let defaultImplicitTimingFunction = CAMediaTimingFunction(name: .default)

    /// The value at `keyPath` that the last commit put on screen: the committed model values with
    /// the committed animations applied now; nil for a layer never committed.
    func previousPresentationValue(_ keyPath: LayerKeyPath) -> AnimationValue? {
        guard presentationSource == nil, hasBeenCommitted else { return nil }
        CATransaction.lock()
        defer { CATransaction.unlock() }
        let running = attachedAnimations.filter(\.committed)
        var state = committedModelState
        if !running.isEmpty {
            let animations = running.map { AttachedAnimation(id: $0.id, key: $0.key, record: $0.record) }
            var transitions: [TransitionProgress] = []
            state = LayerAnimator.presentation(
                of: state, animations: animations, layerTime: localTime(atMediaTime: CACurrentMediaTime()),
                transitions: &transitions)
        }
        return keyPath.value(in: state)
    }

    /// Captures the value before a property change, when an action may run for it: the presented
    /// value while committed animations run, else the model value; nil when no action may run (the
    /// layer was never committed, actions are disabled, or this is a presentation layer).
    func willChange(_ property: LayerKeyPath.Property) -> AnimationValue? {
        guard presentationSource == nil, hasBeenCommitted, !CATransaction.disableActions() else { return nil }
        let hasAnimation = CATransaction.state.lock.withLock { attachedAnimations.contains { $0.committed } }
        let state = hasAnimation ? presentedState(at: CACurrentMediaTime(), from: modelState) : modelState
        return LayerKeyPath(property).value(in: state)
    }

    /// Looks up the action for a change of `property` that `store` is about to make, before the new
    /// value is stored (so the action's code reads the old value, as on Apple platforms), with the
    /// value the implicit animation starts from. Nil when no action runs: `willChange` says none may,
    /// the value does not change, or an explicit animation of the same property was added in the
    /// current transaction (so "add the animation, then set the model value" fades as intended).
    func actionBeforeChange(
        _ property: LayerKeyPath.Property, storing store: (inout LayerState) -> Void
    ) -> (action: PendingAction, old: AnimationValue)? {
        guard let old = willChange(property) else { return nil }
        var next = modelState
        store(&next)
        guard old != LayerKeyPath(property).value(in: next) else { return nil }
        let explicit = CATransaction.state.lock.withLock {
            attachedAnimations.contains { entry in
                !entry.committed
                    && entry.propertyKeyPath.flatMap(LayerKeyPath.init)?.property == property
            }
        }
        guard !explicit, let action = pendingAction(for: property) else { return nil }
        return (action, old)
    }

    /// Runs the action for `key` unless actions are disabled (used for kCAOnOrderIn/Out).
    func runActionIfAllowed(forKey key: String) {
        guard presentationSource == nil, !CATransaction.disableActions() else { return }
        runAction(forKey: key, oldValue: nil)
    }

    func runAction(forKey key: String, oldValue: AnimationValue?) {
        guard let action = action(forKey: key) else { return }
        runAction(action, forKey: key, oldValue: oldValue)
    }

    /// Runs `action`, found for `key`, with `oldValue` as the value an implicit animation starts from.
    func runAction(_ action: any CAAction, forKey key: String, oldValue: AnimationValue?) {
        let saved = pendingActionOldValue
        pendingActionOldValue = oldValue.map { (key, $0) }
        action.run(forKey: key, object: self, arguments: nil)
        pendingActionOldValue = saved
    }
}

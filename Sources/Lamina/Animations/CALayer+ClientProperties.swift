import Foundation

/// A layer class with properties of its own that the client keeps (stored like custom keys, not in
/// Lamina's property table) and that animate implicitly, as `CATextLayer`'s `fontSize` and
/// `foregroundColor` do on Apple platforms. A change of such a key runs the built-in implicit
/// animation (a basic animation with the transaction's duration and timing function, from the value
/// on screen to the new one), and the class's `needsDisplay(forKey:)` redraws the layer at each
/// display frame while it runs.
protocol ClientAnimatedProperties: CALayer {
    /// The keys that animate implicitly.
    static var implicitlyAnimatedKeys: Set<String> { get }
}

extension CALayer {
    /// Whether the class animates its own key `key` implicitly.
    static func animatesClientKeyImplicitly(_ key: String) -> Bool {
        (self as? any ClientAnimatedProperties.Type)?.implicitlyAnimatedKeys.contains(key) ?? false
    }

    /// The built-in implicit animation of a class's own animatable key; nil for other keys.
    static func clientImplicitAction(forKey event: String) -> (any CAAction)? {
        guard animatesClientKeyImplicitly(event) else { return nil }
        let animation = CABasicAnimation(keyPath: event)
        let settings = CATransaction.implicitAnimationSettings()
        animation.duration = settings.duration
        animation.timingFunction = settings.timingFunction ?? defaultImplicitTimingFunction
        return animation
    }

    /// The value on screen now of a class's own implicitly animated key, before it changes; nil when
    /// no action may run (a layer never committed, actions disabled, a presentation copy) or the
    /// value has no animatable kind.
    func clientValueBeforeChange(forKey key: String) -> AnimationValue? {
        guard Self.animatesClientKeyImplicitly(key), presentationSource == nil, hasBeenCommitted,
            !CATransaction.disableActions()
        else { return nil }
        guard let shown = presentedCustomValues(at: CACurrentMediaTime())[key] ?? kvcValue(forKey: key),
            let kind = AnimationValue.kind(of: shown)
        else { return nil }
        return try? AnimationValue.unbox(shown, as: kind, what: key)
    }

    /// Runs the action of a class's own key after a change from `old`, unless the value did not
    /// change or an explicit animation of the key was added in this transaction (which wins).
    func clientKeyDidChange(_ key: String, _ old: AnimationValue) {
        guard let new = kvcValue(forKey: key), let value = try? AnimationValue.unbox(new, as: old.kind, what: key),
            value != old
        else { return }
        let explicit = CATransaction.state.lock.withLock {
            attachedAnimations.contains { !$0.committed && $0.propertyKeyPath == key }
        }
        if explicit { return }
        runAction(forKey: key, oldValue: old)
    }
}

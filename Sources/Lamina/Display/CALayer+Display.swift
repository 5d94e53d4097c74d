import Foundation

extension CALayer {
    // MARK: Marking

    /// Keys that name no layer property in Lamina's table but are Apple's (or the client's own)
    /// and so are never custom properties.
    static let reservedKeys: Set<String> = [
        "contents", "contentsFormat",
        "filters", "backgroundFilters", "compositingFilter", "mask", "sublayers", "superlayer", "frame", "delegate",
        "actions", "style", "layoutManager", "constraints", "needsDisplayOnBoundsChange", "drawsAsynchronously",
        "duration", "repeatCount", "repeatDuration", "autoreverses", "fillMode", "autoresizingMask",
    ]

    /// Whether `key` is a custom property key: one that names no layer property (its first
    /// component is neither a property of Lamina's table nor one of Apple's), so a layer stores it
    /// with `setValue(_:forKey:)` and animations of it are evaluated by the client.
    static func isCustomKey(_ key: String) -> Bool {
        guard !key.isEmpty else { return false }
        // Without a "." byte there is no "." character: the key is its own root, found without the
        // character search (every implicit animation asks this of its key).
        guard key.utf8.contains(UInt8(ascii: ".")) else {
            return LayerPropertyName(key: key) == nil && !reservedKeys.contains(key)
        }
        let root = key.firstIndex(of: ".").map { String(key[..<$0]) } ?? key
        return LayerPropertyName(key: root) == nil && !reservedKeys.contains(root)
    }

    func markNeedsDisplay(in rect: CGRect?) {
        guard presentationSource == nil else { return }
        if let rect, rect.isNull || rect.isEmpty { return }
        CATransaction.lock()
        defer { CATransaction.unlock() }
        displayState.marks &+= 1
        if displayState.needsDisplay {
            // Already whole stays whole; two parts join into their union.
            if let dirty = displayState.dirtyRect { displayState.dirtyRect = rect.map { dirty.union($0) } }
        } else {
            displayState.needsDisplay = true
            displayState.dirtyRect = rect
        }
        LayerDisplayQueue.enqueue(self)
        CATransaction.treeDidChange()
    }

    func displayNowIfNeeded() {
        guard displayState.needsDisplay else { return }
        let marks = displayState.marks
        display()
        // A `display()` override that does not call the default still satisfies the mark, unless
        // it marked the layer again.
        if displayState.marks == marks {
            displayState.needsDisplay = false
            displayState.dirtyRect = nil
        }
    }

    // MARK: Displaying

    /// The default `display()`: the delegate's `display(_:)` when it implements one, else drawing
    /// into a backing store (`drawBackingStore(dirty:)`).
    /// It asks the delegate's `display(_:)` when the delegate implements it, and otherwise
    /// draws: it makes a backing store of `bounds.size × contentsScale` pixels (rounded up), cleared
    /// (only the dirty part when `setNeedsDisplay(_:)` named one), calls the delegate's
    /// `layerWillDraw(_:)`, then `draw(in:)` with a context whose user space is the bounds in points,
    /// origin at the top left, and sets `contents` to the image. A layer whose `draw(in:)` draws
    /// nothing of its own and whose delegate does not draw gets no backing store: its `contents`
    /// stay as they are. Drawing runs on the calling thread, whatever `drawsAsynchronously` says.
    func displayContents() {
        let dirty = displayState.needsDisplay ? displayState.dirtyRect : nil
        displayState.needsDisplay = false
        displayState.dirtyRect = nil
        if let delegate {
            displayState.delegateDisplayFellBack = false
            delegate.display(self)
            guard displayState.delegateDisplayFellBack else { return }
        }
        drawBackingStore(dirty: dirty)
    }

    /// The top of the layer's tree (the layer itself when it has no superlayer).
    var rootLayer: CALayer {
        var layer = self
        while let parent = layer.storedSuperlayerForTiming { layer = parent }
        return layer
    }

    // MARK: Animations that need display

    /// The keys an animation drives on its own layer (the first component of a property key path,
    /// or the custom key).
    static func drivenKeys(_ record: AnimationRecord) -> Set<String> {
        switch record.content {
        case .basic(let target, _), .spring(let target, _, _), .keyframe(let target, _):
            guard target.sublayerPath.isEmpty else { return [] }
            return [target.customKey ?? target.keyPath.property.key]
        case .group(let children): return children.reduce(into: []) { $0.formUnion(drivenKeys($1)) }
        case .transition: return []
        }
    }

    /// Whether the animation drives a key the class's `needsDisplay(forKey:)` names.
    func needsDisplay(for entry: LayerAnimation) -> Bool {
        // A plain CALayer's `needsDisplay(forKey:)` names no key (and no subclass overrides it): no
        // set of driven keys is built for each animation added to one.
        guard type(of: self) != CALayer.self else { return false }
        return Self.drivenKeys(entry.record).contains { type(of: self).needsDisplay(forKey: $0) }
    }

    /// Whether an animation of a key that needs display is attached and not over (pending, running,
    /// or not yet committed). Caller holds the transaction lock.
    var hasRunningDisplayAnimation: Bool {
        var localNow: Double?
        return attachedAnimations.contains { entry in
            guard !entry.ended, needsDisplay(for: entry) else { return false }
            guard entry.committed else { return true }
            if localNow == nil { localNow = localTime(atMediaTime: CACurrentMediaTime()) }
            return entry.record.phase(atParent: localNow!) != .finished
        }
    }

    /// After an animation was attached: redraws the layer at every frame while it runs when it
    /// animates a key that needs display. Caller holds the transaction lock.
    func animationAttached(_ entry: LayerAnimation) {
        guard presentationSource == nil, needsDisplay(for: entry) else { return }
        LayerDisplayQueue.addAnimated(self)
    }

    /// Gives each custom-key property animation in `animation` (groups included) the kind of the
    /// layer's model value for its key, for animations whose own values do not give one.
    func hintCustomKinds(_ animation: CAAnimation) {
        if let group = animation as? CAAnimationGroup {
            for child in group.animations ?? [] { hintCustomKinds(child) }
        } else if let property = animation as? CAPropertyAnimation, let key = property.keyPath,
            Self.isCustomKey(key)
        {
            property.customKindHint = kvcValue(forKey: key).flatMap(AnimationValue.kind(of:))
        }
    }

    // MARK: Presentation values of custom keys

    /// The presentation values of the custom keys that committed animations drive, at media time
    /// `time`, boxed like the model values (a `CGFloat` model value gives a `CGFloat`).
    func presentedCustomValues(at time: Double) -> [String: Any] {
        CATransaction.lock()
        defer { CATransaction.unlock() }
        let running = attachedAnimations.filter(\.committed)
        let keys = running.reduce(into: Set<String>()) { $0.formUnion($1.record.customKeys) }
        guard !keys.isEmpty else { return [:] }
        let animations = running.map { AttachedAnimation(id: $0.id, key: $0.key, record: $0.record) }
        let layerTime = localTime(atMediaTime: time)
        var values: [String: Any] = [:]
        for key in keys {
            guard let kind = running.lazy.compactMap({ Self.customKind(of: key, in: $0.record) }).first else {
                continue
            }
            let modelValue = kvcStorage[key] ?? Self.defaultValue(forKey: key)
            let model =
                modelValue.flatMap { try? AnimationValue.unbox($0, as: kind, what: key) } ?? AnimationValue.zero(kind)
            let value = LayerAnimator.customValue(
                forKey: key, model: model, animations: animations, layerTime: layerTime)
            values[key] = Self.box(value, like: modelValue)
        }
        return values
    }

    /// The kind of the values of the first target of custom key `key` in `record`.
    static func customKind(of key: String, in record: AnimationRecord) -> AnimationValue.Kind? {
        switch record.content {
        case .basic(let target, _), .spring(let target, _, _), .keyframe(let target, _):
            target.customKey == key && target.sublayerPath.isEmpty ? target.keyPath.kind : nil
        case .group(let children): children.lazy.compactMap { customKind(of: key, in: $0) }.first
        case .transition: nil
        }
    }

    /// `value` boxed as key-value coding returns a custom key's value: numbers in the Swift type of
    /// the model value when it has one (`CGFloat`, `Double`, `Float`), else `NSNumber`.
    static func box(_ value: AnimationValue, like model: Any?) -> Any? {
        guard case .number(let v) = value else {
            return LayerKeyPath.customStandIn(for: value.kind).flatMap { value.boxed(for: $0) }
        }
        switch model {
        case is CGFloat: return CGFloat(v)
        case is Double: return v
        case is Float: return Float(v)
        default: return NSNumber(value: v)
        }
    }
}

extension AnimationValue {
    /// The zero of `kind`: 0, the zero point, size and rectangle, no colour, the identity, false, no
    /// image, path or list.
    static func zero(_ kind: Kind) -> AnimationValue {
        switch kind {
        case .number: .number(0)
        case .point: .point(.zero)
        case .size: .size(.zero)
        case .rect: .rect(.zero)
        case .color: .color(nil)
        case .transform: .transform(CATransform3DIdentity)
        case .bool: .bool(false)
        case .vector: .vector(.zero)
        case .image: .image(0)
        case .path: .path(nil)
        case .numbers: .numbers(nil)
        case .colors: .colors(nil)
        }
    }
}

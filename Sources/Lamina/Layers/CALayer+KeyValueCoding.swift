import Foundation

extension CALayer: CAMediaTiming {
    /// When the layer's time starts, in its superlayer's time: shifts the subtree's time base.
    public var beginTime: CFTimeInterval {
        get { modelState.beginTime }
        set { update(.beginTime, \.beginTime, newValue) }
    }

    /// Added to the layer's local time; with `speed` 0 it is the frozen local time.
    public var timeOffset: CFTimeInterval {
        get { modelState.timeOffset }
        set { update(.timeOffset, \.timeOffset, newValue) }
    }

    /// The rate of the layer's time against its superlayer's; 0 pauses the subtree's animations.
    public var speed: Float {
        get { Float(modelState.speed) }
        set { update(.speed, \.speed, Double(newValue)) }
    }

    /// Kept for `CAMediaTiming`; infinite by default, as on Apple platforms. A layer's own duration and
    /// repeat settings do not affect rendering.
    public var duration: CFTimeInterval {
        get { storedTiming.duration }
        set { settingKey("duration") { storedTiming.duration = newValue } }
    }

    /// The layer's `CAMediaTiming` repeat count (kept by the client; the server maps time by `beginTime`, `speed` and `timeOffset` only).
    public var repeatCount: Float {
        get { storedTiming.repeatCount }
        set { settingKey("repeatCount") { storedTiming.repeatCount = newValue } }
    }

    /// The layer's `CAMediaTiming` repeat duration (kept by the client only).
    public var repeatDuration: CFTimeInterval {
        get { storedTiming.repeatDuration }
        set { settingKey("repeatDuration") { storedTiming.repeatDuration = newValue } }
    }

    /// The layer's `CAMediaTiming` autoreverse flag (kept by the client only).
    public var autoreverses: Bool {
        get { storedTiming.autoreverses }
        set { settingKey("autoreverses") { storedTiming.autoreverses = newValue } }
    }

    /// The layer's `CAMediaTiming` fill mode (kept by the client only).
    public var fillMode: CAMediaTimingFillMode {
        get { storedTiming.fillMode }
        set { settingKey("fillMode") { storedTiming.fillMode = newValue } }
    }
}

extension CALayer {
    // MARK: Key-value coding

    /// Applies the class's `defaultValue(forKey:)` to the properties it names (at creation).
    func applyClassDefaults() {
        guard type(of: self) != CALayer.self else { return }
        adoptLayerClass()
        for row in LayerPropertyDescriptor.animatable where row.belongs(to: modelState.layerClass) {
            let property = row.name
            guard let value = Self.defaultValue(forKey: property.key) else { continue }
            let keyPath = LayerKeyPath(property)
            guard let v = try? AnimationValue.unbox(value, as: keyPath.kind, what: property.key),
                v != keyPath.value(in: modelState)
            else { continue }
            keyPath.set(v, in: &modelState)
            if property == .backgroundColor || property == .borderColor || property == .shadowColor {
                copyColorObject(property, value as? CGColor)
            } else if property == .foregroundColor, let text = self as? CATextLayer {
                text.storedForegroundColor = value as? CGColor
            }
        }
    }

    /// Keeps the colour object a class default gives (its value is already in `modelState`); a
    /// default is not a value given to the layer, so nothing is recorded or observed.
    func copyColorObject(_ property: LayerKeyPath.Property, _ color: CGColor?) {
        switch property {
        case .backgroundColor: storedBackgroundColor = color
        case .shadowColor: storedShadowColor = color
        default: storedBorderColor = color
        }
    }

    /// The value of a property key, or of any key stored with `setValue(_:forKey:)`.
    ///
    /// Values come back as Core Animation's key-value coding returns them: numbers and Booleans as
    /// `NSNumber`, structures as themselves, colours as the very object the property returns.
    func kvcValue(forKey key: String) -> Any? {
        if let property = layerProperty(forKey: key) { return kvcPropertyValue(property) }
        switch key {
        case "duration": return NSNumber(value: duration)
        case "repeatCount": return NSNumber(value: repeatCount)
        case "repeatDuration": return NSNumber(value: repeatDuration)
        case "autoreverses": return NSNumber(value: autoreverses)
        case "fillMode": return fillMode.rawValue
        case "autoresizingMask": return NSNumber(value: autoresizingMask.rawValue)
        case "drawsAsynchronously": return NSNumber(value: drawsAsynchronously)
        case "needsDisplayOnBoundsChange": return NSNumber(value: needsDisplayOnBoundsChange)
        default: return kvcStorage[key] ?? Self.defaultValue(forKey: key)
        }
    }

    /// A table property's value as key-value coding returns it.
    func kvcPropertyValue(_ property: LayerPropertyName) -> Any? {
        switch property {
        case .backgroundColor: backgroundColor
        case .borderColor: borderColor
        case .shadowColor: shadowColor
        case .speed: NSNumber(value: speed)
        case .contents: contents
        default: classPropertyValue(property) ?? modelState[property].boxed
        }
    }

    /// Sets a property by key, or stores any value under any other key (custom properties).
    func kvcSetValue(_ value: Any?, forKey key: String) {
        if key == "contents" {
            contents = value
            return
        }
        if let property = layerProperty(forKey: key), property.layerClass != .layer {
            setClassPropertyValue(value, for: property)
            return
        }
        if layerKeyPath(key) != nil, !key.contains(".") {
            kvcSetValue(value, forKeyPath: key)
            return
        }
        switch key {
        case "filters": filters = value as? [Any]
        case "backgroundFilters": backgroundFilters = value as? [Any]
        case "compositingFilter": compositingFilter = value
        case "name": name = value as? String
        case "geometryFlipped": isGeometryFlipped = (value as? NSNumber)?.boolValue ?? (value as? Bool) ?? false
        case "cornerCurve":
            cornerCurve = (value as? CALayerCornerCurve) ?? CALayerCornerCurve(value as? String ?? "circular")
        case "maskedCorners":
            maskedCorners =
                (value as? CACornerMask) ?? CACornerMask(rawValue: UInt(value.flatMap(AnimationValue.number) ?? 15))
        case "contentsGravity":
            contentsGravity =
                (value as? CALayerContentsGravity) ?? (value as? String).map(CALayerContentsGravity.init(rawValue:))
                ?? .resize
        case "minificationFilter": minificationFilter = Self.contentsFilter(value)
        case "magnificationFilter": magnificationFilter = Self.contentsFilter(value)
        case "allowsEdgeAntialiasing":
            allowsEdgeAntialiasing = (value as? NSNumber)?.boolValue ?? (value as? Bool) ?? true
        case "allowsGroupOpacity": allowsGroupOpacity = (value as? NSNumber)?.boolValue ?? (value as? Bool) ?? true
        case "edgeAntialiasingMask":
            edgeAntialiasingMask = (value as? CAEdgeAntialiasingMask) ?? Self.edgeMask(value)
        case "opaque": isOpaque = (value as? NSNumber)?.boolValue ?? (value as? Bool) ?? false
        case "beginTime": beginTime = value.flatMap(AnimationValue.number) ?? 0
        case "timeOffset": timeOffset = value.flatMap(AnimationValue.number) ?? 0
        case "speed": speed = Float(value.flatMap(AnimationValue.number) ?? 1)
        case "duration": duration = value.flatMap(AnimationValue.number) ?? .infinity
        case "repeatCount": repeatCount = Float(value.flatMap(AnimationValue.number) ?? 0)
        case "repeatDuration": repeatDuration = value.flatMap(AnimationValue.number) ?? 0
        case "autoreverses": autoreverses = (value as? NSNumber)?.boolValue ?? (value as? Bool) ?? false
        case "autoresizingMask":
            autoresizingMask = CAAutoresizingMask(
                rawValue: UInt32(exactly: value.flatMap(AnimationValue.number) ?? 0) ?? 0)
        case "drawsAsynchronously": drawsAsynchronously = (value as? NSNumber)?.boolValue ?? (value as? Bool) ?? false
        case "needsDisplayOnBoundsChange":
            needsDisplayOnBoundsChange = (value as? NSNumber)?.boolValue ?? (value as? Bool) ?? false
        case "fillMode":
            fillMode =
                (value as? CAMediaTimingFillMode) ?? (value as? String).map { CAMediaTimingFillMode(rawValue: $0) }
                ?? .removed
        default:
            // A class's own implicitly animated keys (CATextLayer's fontSize, …) start their animation
            // from the value on screen once the new one is stored; for any other key the action is
            // looked up before the value is stored, as for properties. Like a property's, such a
            // key's change runs no action before the layer was committed.
            let old = clientValueBeforeChange(forKey: key)
            let action =
                old == nil && presentationSource == nil && !CATransaction.disableActions()
                    && !Self.animatesClientKeyImplicitly(key)
                ? self.action(forKey: key) : nil
            settingKey(key) { kvcStorage[key] = value }
            changed()
            if presentationSource == nil, type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
            if let old {
                clientKeyDidChange(key, old)
            } else if let action {
                runAction(action, forKey: key, oldValue: nil)
            }
        }
    }

    /// A contents filter given to key-value coding as the struct or its name; nil is `.linear`.
    static func contentsFilter(_ value: Any?) -> CALayerContentsFilter {
        (value as? CALayerContentsFilter) ?? (value as? String).map(CALayerContentsFilter.init(rawValue:)) ?? .linear
    }

    /// An edge mask given to key-value coding as a number: its bits when it is a whole number in
    /// `UInt32`'s range, no edges otherwise; nil is all four edges.
    static func edgeMask(_ value: Any?) -> CAEdgeAntialiasingMask {
        guard let value else { return .all }
        let n = AnimationValue.number(value) ?? 0
        return CAEdgeAntialiasingMask(rawValue: UInt32(exactly: n) ?? 0)
    }

    /// The value at a key path: a property, a structure field (`position.x`, `bounds.size.width`)
    /// or a virtual transform component (`transform.rotation.z`, `transform.scale`, ...).
    func kvcValue(forKeyPath keyPath: String) -> Any? {
        guard let path = layerKeyPath(keyPath) else { return kvcValue(forKey: keyPath) }
        if path.component == nil { return kvcPropertyValue(path.property) }
        return path.value(in: modelState).boxed(for: path)
    }

    /// Sets the value at a key path through the property's setter (so actions run). A value of the
    /// wrong type is reported to `LaminaDiagnostics` and changes nothing (Apple raises an exception).
    func kvcSetValue(_ value: Any?, forKeyPath keyPath: String) {
        if keyPath == "contents" {
            contents = value
            return
        }
        guard let path = layerKeyPath(keyPath) else {
            kvcSetValue(value, forKey: keyPath)
            return
        }
        if case .filterRadius = path.component { return setFilterRadius(value, path: path, keyPath: keyPath) }
        let newValue: AnimationValue
        do {
            if value == nil && path.kind == .color {
                newValue = .color(nil)
            } else if let value {
                newValue = try AnimationValue.unbox(value, as: path.kind, what: "the value for '\(keyPath)'")
            } else {
                throw AnimationValueError(description: "nil is not a value for '\(keyPath)'")
            }
        } catch {
            LaminaDiagnostics.report(.refusedValue, "setValue(_:forKeyPath:) on layer \(layerID): \(error)")
            return
        }
        var state = modelState
        guard path.set(newValue, in: &state) else { return }
        switch path.property {
        case .backgroundColor: backgroundColor = value as? CGColor
        case .borderColor: borderColor = value as? CGColor
        case .shadowColor: shadowColor = value as? CGColor
        case let property where property.layerClass != .layer && path.component == nil:
            setClassPropertyValue(value, for: property)
        default: update(path.property, to: state[path.property])
        }
    }
}

extension CALayer {
    /// `value(forKeyPath:)`: a path starting `sublayers.NAME` reads on from that sublayer.
    func valueThroughSublayers(forKeyPath keyPath: String) -> Any? {
        guard let (sublayer, rest) = namedSublayer(forKeyPath: keyPath) else { return kvcValue(forKeyPath: keyPath) }
        guard let sublayer else { return nil }
        guard let rest else { return sublayer }
        return sublayer.value(forKeyPath: rest)
    }

    /// `setValue(_:forKeyPath:)`: a path starting `sublayers.NAME` writes on that sublayer; a path
    /// naming only a sublayer is refused.
    func setValueThroughSublayers(_ value: Any?, forKeyPath keyPath: String) {
        guard let (sublayer, rest) = namedSublayer(forKeyPath: keyPath) else {
            return kvcSetValue(value, forKeyPath: keyPath)
        }
        guard let rest else {
            LaminaDiagnostics.report(
                .refusedValue, "setValue(_:forKeyPath:) on layer \(layerID): '\(keyPath)' names a sublayer")
            return
        }
        sublayer?.setValue(value, forKeyPath: rest)
    }
}

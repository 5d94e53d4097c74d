import Foundation

/// The layer classes the render server draws itself (`LayerClass`): which one a `CALayer` subclass
/// is, and the class storage its model starts with.
extension CALayer {
    /// The server-side class of this layer: `.shape` for a `CAShapeLayer` (and its subclasses),
    /// `.gradient` for a `CAGradientLayer`, `.text` for a `CATextLayer`, `.layer` for every other layer. A new class adds its
    /// line here (docs/architecture.md, "Adding a layer class").
    var serverLayerClass: LayerClass {
        switch self {
        case is CAShapeLayer: .shape
        case is CAGradientLayer: .gradient
        case is CATextLayer: .text
        case is CAReplicatorLayer: .replicator
        case is CATiledLayer: .tiled
        case is CAEmitterLayer: .emitter
        case is CATransformLayer: .transform
        default: .layer
        }
    }

    /// Gives the model the storage of the layer's class, with every class property at its default
    /// (at creation, before the class's `defaultValue(forKey:)` is applied).
    func adoptLayerClass() {
        let layerClass = serverLayerClass
        guard layerClass != .layer, modelState.layerClass != layerClass else { return }
        modelState.classState = layerClass.defaultState
        committedModelState.classState = layerClass.defaultState
    }

    /// The property named `key` that this layer has (its class's included), or nil: a key of another
    /// class is a custom key here, as it is on Apple platforms.
    func layerProperty(forKey key: String) -> LayerPropertyName? {
        LayerPropertyName(key: key, of: modelState.layerClass)
    }

    /// The animatable key path `string` if its property is one this layer has, else nil.
    func layerKeyPath(_ string: String) -> LayerKeyPath? {
        guard let path = LayerKeyPath(string), path.property.descriptor.belongs(to: modelState.layerClass) else {
            return nil
        }
        return path
    }
}

/// Key-value coding and archiving of the layer classes' own properties: the objects the app gave
/// (`CGColor`s, `CGPath`s, `NSNumber` arrays) are kept and returned, as the typed accessors do.
extension CALayer {
    /// The value of class property `property` as key-value coding returns it, or nil (outer) when the
    /// property is not one of this layer's class.
    func classPropertyValue(_ property: LayerPropertyName) -> Any?? {
        switch (self, property) {
        case (let shape as CAShapeLayer, .fillColor): .some(shape.fillColor)
        case (let shape as CAShapeLayer, .strokeColor): .some(shape.strokeColor)
        case (let shape as CAShapeLayer, .lineDashPattern): .some(shape.lineDashPattern)
        case (let shape as CAShapeLayer, .path): .some(shape.path)
        case (let gradient as CAGradientLayer, .colors): .some(gradient.colors)
        case (let gradient as CAGradientLayer, .locations): .some(gradient.locations)
        case (let text as CATextLayer, .foregroundColor): .some(text.foregroundColor)
        case (let replicator as CAReplicatorLayer, .instanceColor): .some(replicator.instanceColor)
        case (let replicator as CAReplicatorLayer, .instanceCount): .some(NSNumber(value: replicator.instanceCount))
        case (let emitter as CAEmitterLayer, .emitterSeed): .some(NSNumber(value: emitter.seed))
        default: nil
        }
    }

    /// Sets class property `property` from a value given to key-value coding, through its accessor
    /// (so actions run and the objects given are kept). A value of the wrong type is reported to
    /// `LaminaDiagnostics` and changes nothing.
    func setClassPropertyValue(_ value: Any?, for property: LayerPropertyName) {
        let value = value is NSNull ? nil : value
        func refuse() {
            LaminaDiagnostics.report(
                .refusedValue,
                "setValue(_:forKey:) on layer \(layerID): \(value.map { "\(type(of: $0))" } ?? "nil") is not a value for '\(property.key)'"
            )
        }
        func number(_ fallback: CGFloat) -> CGFloat? {
            guard let value else { return fallback }
            return AnimationValue.number(value).map { CGFloat($0) }
        }
        func name(_ fallback: String) -> String? {
            guard let value else { return fallback }
            if let text = value as? String { return text }
            return (value as? any RawRepresentable)?.rawValue as? String
        }
        func numbers() -> [NSNumber]?? {
            guard let value else { return .some(nil) }
            guard let list = value as? [Any] else { return nil }
            let converted = list.compactMap { AnimationValue.number($0).map { NSNumber(value: $0) } }
            return converted.count == list.count ? .some(converted) : nil
        }
        if let shape = self as? CAShapeLayer {
            switch property {
            case .path:
                guard value == nil || value is CGPath else { return refuse() }
                shape.path = value as? CGPath
            case .fillColor, .strokeColor:
                guard value == nil || value is CGColor else { return refuse() }
                if property == .fillColor {
                    shape.fillColor = value as? CGColor
                } else {
                    shape.strokeColor = value as? CGColor
                }
            case .fillRule:
                guard let text = name("non-zero") else { return refuse() }
                shape.fillRule = CAShapeLayerFillRule(text)
            case .lineCap:
                guard let text = name("butt") else { return refuse() }
                shape.lineCap = CAShapeLayerLineCap(text)
            case .lineJoin:
                guard let text = name("miter") else { return refuse() }
                shape.lineJoin = CAShapeLayerLineJoin(text)
            case .lineDashPattern:
                guard let list = numbers() else { return refuse() }
                shape.lineDashPattern = list
            case .lineWidth, .miterLimit, .lineDashPhase, .strokeStart, .strokeEnd:
                let defaults: [LayerPropertyName: CGFloat] = [.lineWidth: 1, .miterLimit: 10, .strokeEnd: 1]
                guard let v = number(defaults[property] ?? 0) else { return refuse() }
                switch property {
                case .lineWidth: shape.lineWidth = v
                case .miterLimit: shape.miterLimit = v
                case .lineDashPhase: shape.lineDashPhase = v
                case .strokeStart: shape.strokeStart = v
                default: shape.strokeEnd = v
                }
            default: refuse()
            }
        } else if let gradient = self as? CAGradientLayer {
            switch property {
            case .colors:
                guard value == nil || value is [Any] else { return refuse() }
                gradient.colors = value as? [Any]
            case .locations:
                guard let list = numbers() else { return refuse() }
                gradient.locations = list
            case .startPoint, .endPoint:
                let fallback = property == .startPoint ? CGPoint(x: 0.5, y: 0) : CGPoint(x: 0.5, y: 1)
                guard value == nil || value is CGPoint else { return refuse() }
                let point = value as? CGPoint ?? fallback
                if property == .startPoint { gradient.startPoint = point } else { gradient.endPoint = point }
            case .gradientType:
                guard let text = name("axial") else { return refuse() }
                gradient.type = CAGradientLayerType(text)
            default: refuse()
            }
        } else if let text = self as? CATextLayer, property == .foregroundColor {
            guard value == nil || value is CGColor else { return refuse() }
            text.foregroundColor = value as? CGColor
        } else if let replicator = self as? CAReplicatorLayer {
            if !replicator.setReplicatorValue(value, for: property) { refuse() }
        } else if let emitter = self as? CAEmitterLayer {
            if !emitter.setEmitterValue(value, for: property) { refuse() }
        } else {
            refuse()
        }
    }

    /// Puts back the objects behind a class property decoded from an archive (the colour objects, the
    /// dash pattern, the colours array and locations), once `modelState` holds its value.
    func restoreClassObject(_ property: LayerPropertyName, from value: Any?) {
        let value = value is NSNull ? nil : value
        if let shape = self as? CAShapeLayer {
            switch property {
            case .fillColor: shape.storedFillColor = value as? CGColor
            case .strokeColor: shape.storedStrokeColor = value as? CGColor
            case .lineDashPattern: shape.storedDashPattern = (value as? [Any])?.compactMap { $0 as? NSNumber }
            default: break
            }
        } else if let gradient = self as? CAGradientLayer {
            switch property {
            case .colors: gradient.storedColors = value as? [Any]
            case .locations: gradient.storedLocations = (value as? [Any])?.compactMap { $0 as? NSNumber }
            default: break
            }
        } else if let text = self as? CATextLayer, property == .foregroundColor {
            text.storedForegroundColor = value as? CGColor
        } else if let replicator = self as? CAReplicatorLayer, property == .instanceColor {
            replicator.storedInstanceColor = value as? CGColor
        }
    }

    /// The object an archive keeps for a class property whose value is an object the app gave (a
    /// colour keeps its colour model), or nil to archive the model value.
    func archivedClassObject(_ property: LayerPropertyName) -> Any? {
        switch property {
        case .fillColor, .strokeColor, .colors, .foregroundColor, .instanceColor:
            (classPropertyValue(property) ?? nil) ?? NSNull()
        default: nil
        }
    }

    /// The default of `key` when it names a property of `layerClass` itself (boxed as key-value coding
    /// returns it), or nil as "not one of that class's keys": what a class's `defaultValue(forKey:)`
    /// answers before asking its superclass.
    static func ownDefault(forKey key: String, of layerClass: LayerClass) -> Any?? {
        guard let property = LayerPropertyName(key: key, of: layerClass), property.layerClass == layerClass else {
            return nil
        }
        return .some(property.descriptor.defaultValue.boxed)
    }
}

import Foundation

/// Model writes: the one setter behind every property accessor, the change mark a commit looks
/// for, and the copy a presentation layer or `init(layer:)` starts from.
extension CALayer {
    /// Copies the colour objects behind `model`'s colours (presentation layers keep the model's objects).
    func copyColors(from other: CALayer) {
        storedBackgroundColor = other.storedBackgroundColor
        storedBorderColor = other.storedBorderColor
        storedShadowColor = other.storedShadowColor
    }

    /// The superlayer of a model layer (for time conversion).
    var storedSuperlayerForTiming: CALayer? { storedSuperlayer }

    func changed() {
        version &+= 1
        CATransaction.layerDidChange(self)
    }

    /// Writes a property's model value: the one setter behind every property accessor. The value is
    /// stored as given (the server clamps what it must); see `update(_:storing:alongside:)`.
    @inline(__always)
    func update<Value>(
        _ property: LayerPropertyName, _ field: WritableKeyPath<LayerState, Value>, _ value: Value,
        alongside: (() -> Void)? = nil
    ) {
        update(property, storing: { $0[keyPath: field] = value }, alongside: alongside)
    }

    /// Writes a property's model value from the table's typed form, as `update` does.
    func update(_ property: LayerPropertyName, to value: LayerValue) {
        update(property, storing: { $0[property] = value })
    }

    /// Writes a property's model value with `store`, running `alongside` (which keeps the object a
    /// colour or contents setter was given) at the same moment, in Core Animation's order:
    ///
    /// 1. The key is recorded as set, and its observers hear that it will change.
    /// 2. For an animatable property whose change may run an action (the layer was committed, actions
    ///    are on, the value differs and no explicit animation of it waits in this transaction), the
    ///    action is looked up now, before the value is stored, so a delegate's
    ///    `action(for:forKey:)` reads the old value, as on Apple platforms.
    /// 3. The value is stored and the change is recorded for the next commit; the action runs (it
    ///    sees the new model value).
    /// 4. A new bounds size resizes the sublayers and marks layout; a changed value of a key the
    ///    class's `needsDisplay(forKey:)` names marks display; the observers hear the change, unless
    ///    the value is the one the layer already had.
    @inline(__always)
    func update(
        _ property: LayerPropertyName, storing store: (inout LayerState) -> Void, alongside: (() -> Void)? = nil
    ) {
        keyRecord.noteSet(property)
        let observers = keyRecord.observers.flatMap { $0.observes(property.key) ? $0 : nil }
        let watchesDisplay =
            type(of: self) != CALayer.self && presentationSource == nil
            && type(of: self).needsDisplay(forKey: property.key)
        let oldValue = observers != nil || watchesDisplay ? modelState[property] : nil
        let oldBounds = modelState.bounds
        observers?.willChange(property.key)
        let action = property.isAnimatable ? actionBeforeChange(property, storing: store) : nil
        let held = CATransaction.holdForOpenTransaction(self)
        // The setter writes one property: the next commit compares only the properties marked.
        changeMarks.mark(property)
        store(&modelStorage)
        alongside?()
        if held {
            // `changed()` without holding the layer a second time for the same open transaction.
            version &+= 1
        } else {
            changed()
        }
        if let action { runPendingAction(action.action, for: property, oldValue: action.old) }
        if property == .bounds { boundsDidChange(from: oldBounds.size) }
        let differs = oldValue.map { $0 != modelState[property] } ?? true
        if property == .bounds && needsDisplayOnBoundsChange {
            if modelState.bounds != oldBounds { setNeedsDisplay() }
        } else if watchesDisplay && differs {
            setNeedsDisplay()
        }
        observers?.didChange(property.key, posting: differs)
    }

    /// Copies `other`'s model values, colours, contents, timing, custom keys, autoresizing mask and
    /// constraints (what `init(layer:)` copies).
    func copyModel(from other: CALayer) {
        modelState = other.modelState
        storedBackgroundColor = other.storedBackgroundColor
        storedBorderColor = other.storedBorderColor
        storedShadowColor = other.storedShadowColor
        storedContents = other.storedContents
        storedTiming.duration = other.storedTiming.duration
        storedTiming.repeatCount = other.storedTiming.repeatCount
        storedTiming.repeatDuration = other.storedTiming.repeatDuration
        storedTiming.autoreverses = other.storedTiming.autoreverses
        storedTiming.fillMode = other.storedTiming.fillMode
        kvcStorage = other.kvcStorage
        layoutState.autoresizingMask = other.layoutState.autoresizingMask
        storedConstraints = other.storedConstraints
        copySetKeys(from: other)
    }

    /// A colour property's value: the object the app set, on a model layer; the presented colour
    /// (made from the animated value), on a presentation layer.
    func color(stored: CGColor?, model: RGBAColor?) -> CGColor? {
        guard presentationSource != nil else { return stored }
        return model.map { CGColor(rgba: ($0.red, $0.green, $0.blue, $0.alpha)) }
    }

    /// Sets `backgroundColor`, keeping the object the app gave.
    func setBackgroundColor(_ color: CGColor?) {
        update(.backgroundColor, \.backgroundColor, color.map { RGBAColor($0) }) { self.storedBackgroundColor = color }
    }

    /// Sets `borderColor`, keeping the object the app gave.
    func setBorderColor(_ color: CGColor?) {
        update(.borderColor, \.borderColor, color.map { RGBAColor($0) }) { self.storedBorderColor = color }
    }
}

import Foundation

/// Model writes: the one setter behind every property accessor, the change mark a commit looks
/// for, and the copy a presentation layer or `init(layer:)` starts from.
extension CALayer {
    /// Copies the colour objects behind `model`'s colours (presentation layers keep the model's objects).
    func copyColors(from other: CALayer) {
        storedBackgroundColor = other.storedBackgroundColor
        storedBorderColor = other.storedBorderColor
    }

    /// The superlayer of a model layer (for time conversion).
    var storedSuperlayerForTiming: CALayer? { storedSuperlayer }

    func changed() {
        version &+= 1
        CATransaction.treeDidChange()
    }

    /// Writes a property's model value: the one setter behind every property accessor. For an
    /// animatable property (its row in `LayerPropertyDescriptor.table` says so) the change runs the
    /// property's action; the value is stored as given (the server clamps what it must).
    @inline(__always)
    func update<Value>(_ property: LayerPropertyName, _ field: WritableKeyPath<LayerState, Value>, _ value: Value) {
        let oldBounds = modelState.bounds
        defer {
            if property == .bounds { boundsDidChange(from: oldBounds.size) }
            displayKeyChanged(property, oldBounds: oldBounds)
        }
        guard property.isAnimatable else {
            modelState[keyPath: field] = value
            changed()
            return
        }
        let old = willChange(property)
        modelState[keyPath: field] = value
        didChange(property, old)
    }

    /// Writes a property's model value from the table's typed form, as `update` does.
    func update(_ property: LayerPropertyName, to value: LayerValue) {
        let oldBounds = modelState.bounds
        defer {
            if property == .bounds { boundsDidChange(from: oldBounds.size) }
            displayKeyChanged(property, oldBounds: oldBounds)
        }
        guard property.isAnimatable else {
            modelState[property] = value
            changed()
            return
        }
        let old = willChange(property)
        modelState[property] = value
        didChange(property, old)
    }

    /// Copies `other`'s model values, colours, contents, timing, custom keys, autoresizing mask and
    /// constraints (what `init(layer:)` copies).
    func copyModel(from other: CALayer) {
        modelState = other.modelState
        storedBackgroundColor = other.storedBackgroundColor
        storedBorderColor = other.storedBorderColor
        storedContents = other.storedContents
        storedTiming.duration = other.storedTiming.duration
        storedTiming.repeatCount = other.storedTiming.repeatCount
        storedTiming.repeatDuration = other.storedTiming.repeatDuration
        storedTiming.autoreverses = other.storedTiming.autoreverses
        storedTiming.fillMode = other.storedTiming.fillMode
        kvcStorage = other.kvcStorage
        autoresizingMask = other.autoresizingMask
        storedConstraints = other.storedConstraints
    }

    /// A colour property's value: the object the app set, on a model layer; the presented colour
    /// (made from the animated value), on a presentation layer.
    func color(stored: CGColor?, model: RGBAColor?) -> CGColor? {
        guard presentationSource != nil else { return stored }
        return model.map { CGColor(rgba: ($0.red, $0.green, $0.blue, $0.alpha)) }
    }

    /// Sets `backgroundColor`, keeping the object the app gave.
    func setBackgroundColor(_ color: CGColor?) {
        storedBackgroundColor = color
        update(.backgroundColor, \.backgroundColor, color.map { RGBAColor($0) })
    }

    /// Sets `borderColor`, keeping the object the app gave.
    func setBorderColor(_ color: CGColor?) {
        storedBorderColor = color
        update(.borderColor, \.borderColor, color.map { RGBAColor($0) })
    }
}

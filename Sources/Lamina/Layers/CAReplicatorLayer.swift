import Foundation

/// A layer that draws its sublayers several times, each copy transformed, tinted and delayed one step
/// further than the one before: Core Animation's `CAReplicatorLayer`.
///
/// The render server draws the copies (`LayerClass.replicator`): copy *k* (from 0) is the sublayers
/// drawn with `instanceTransform` applied *k* times about the layer's anchor point (so a rotation
/// turns the copies about the layer's centre, as on Apple platforms), every colour they draw
/// (backgrounds, borders, contents, shapes, gradients, text) multiplied by `instanceColor` plus *k*
/// times the four offsets (each component clamped to 0...1), and their animations evaluated
/// *k* × `instanceDelay` seconds earlier. Replicators inside replicators multiply. Every property but
/// `preservesDepth` animates on the server's clock, implicitly too (App. B). The server draws at
/// most `ReplicatorLayerState.maxInstanceCount` (10,000) copies of one replicator, and bounds the
/// copies drawn in one frame (docs/apple-differences.md).
open class CAReplicatorLayer: CALayer {
    /// The colour object the app gave (presentation layers make theirs from the animated value).
    var storedInstanceColor: CGColor? = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

    /// Creates a replicator layer with Core Animation's defaults: one copy, no delay, the identity
    /// transform, opaque white, no offsets, flattened.
    public override init() {
        super.init()
        if let color = Self.defaultValue(forKey: "instanceColor") { storedInstanceColor = color as? CGColor }
    }

    /// Creates a shadow copy of `layer` (a presentation copy), its replicator properties included.
    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAReplicatorLayer { storedInstanceColor = other.storedInstanceColor }
    }

    /// Creates a replicator layer from an archive written by `encode(with:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// Core Animation's default for `key`: the class's own properties answer their defaults (boxed as
    /// key-value coding returns them: `NSNumber`, `NSValue`, `CGColor`), every other key as `CALayer`
    /// answers it.
    open override class func defaultValue(forKey key: String) -> Any? {
        if let own = ownDefault(forKey: key, of: .replicator) { return own }
        return super.defaultValue(forKey: key)
    }

    /// How many copies of the sublayers are drawn; 1 by default. Below 1 draws none (the sublayers
    /// are not drawn at all), as on Apple platforms; Lamina draws at most 10,000. Reads back as set.
    /// Animatable.
    open var instanceCount: Int {
        get { modelState.replicator.instanceCount }
        set { update(.instanceCount, \.replicator.instanceCount, newValue) }
    }

    /// How many seconds earlier each copy's sublayers are in time than the copy before (copy *k* runs
    /// its animations *k* × this behind); 0 by default. Animatable.
    open var instanceDelay: CFTimeInterval {
        get { modelState.replicator.instanceDelay }
        set { update(.instanceDelay, \.replicator.instanceDelay, newValue) }
    }

    /// The transform applied once more to each copy, about the layer's anchor point (copy *k* gets it
    /// *k* times); the identity by default. Animatable.
    open var instanceTransform: CATransform3D {
        get { modelState.replicator.instanceTransform }
        set { update(.instanceTransform, \.replicator.instanceTransform, newValue) }
    }

    /// The colour the first copy's colours are multiplied by; opaque white (no change) by default. Nil
    /// multiplies by white. Animatable.
    open var instanceColor: CGColor? {
        get { color(stored: storedInstanceColor, model: modelState.replicator.instanceColor) }
        set {
            update(.instanceColor, \.replicator.instanceColor, newValue.map { RGBAColor($0) }) {
                self.storedInstanceColor = newValue
            }
        }
    }

    /// Added to the red of the colour multiplier for each further copy; 0 by default. Animatable.
    open var instanceRedOffset: Float {
        get { modelState.replicator.instanceRedOffset }
        set { update(.instanceRedOffset, \.replicator.instanceRedOffset, newValue) }
    }

    /// Added to the green of the colour multiplier for each further copy; 0 by default. Animatable.
    open var instanceGreenOffset: Float {
        get { modelState.replicator.instanceGreenOffset }
        set { update(.instanceGreenOffset, \.replicator.instanceGreenOffset, newValue) }
    }

    /// Added to the blue of the colour multiplier for each further copy; 0 by default. Animatable.
    open var instanceBlueOffset: Float {
        get { modelState.replicator.instanceBlueOffset }
        set { update(.instanceBlueOffset, \.replicator.instanceBlueOffset, newValue) }
    }

    /// Added to the alpha of the colour multiplier for each further copy; 0 by default. Animatable.
    open var instanceAlphaOffset: Float {
        get { modelState.replicator.instanceAlphaOffset }
        set { update(.instanceAlphaOffset, \.replicator.instanceAlphaOffset, newValue) }
    }

    /// Whether the copies keep their depth instead of being flattened into the layer's plane; false by
    /// default. Kept, archived and sent; Lamina draws the copies flattened either way. Not animatable.
    open var preservesDepth: Bool {
        get { modelState.replicator.preservesDepth }
        set { update(.preservesDepth, \.replicator.preservesDepth, newValue) }
    }

    /// Sets replicator property `property` from a value given to key-value coding, through its
    /// accessor; false when the value is not one for the property (nothing changes then).
    func setReplicatorValue(_ value: Any?, for property: LayerPropertyName) -> Bool {
        if property == .instanceColor {
            guard value == nil || value is CGColor else { return false }
            instanceColor = value as? CGColor
            return true
        }
        let fallback = LayerState(layerClass: .replicator)[property]
        guard let value else {
            update(property, to: fallback)
            return true
        }
        guard let kind = property.valueKind.animationKind,
            let unboxed = try? AnimationValue.unbox(value, as: kind, what: property.key),
            let converted = LayerValue(unboxed, as: property.valueKind)
        else { return false }
        if property == .instanceCount, case .number(let count) = converted {
            guard count.isFinite, abs(count) < Double(Int.max / 2) else { return false }
            instanceCount = Int(count)
            return true
        }
        update(property, to: converted)
        return true
    }
}

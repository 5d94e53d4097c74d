import Foundation

/// A layer that draws a colour gradient over its background colour, filling its bounds (rounded by
/// `cornerRadius`, even without `masksToBounds`) under its contents.
///
/// The render server draws the gradient in a shader at the display's resolution, so it is exact at
/// any scale. Colours are interpolated on their unpremultiplied components (white to clear shows a
/// grey band, as on Apple platforms). Nothing is drawn with fewer than two colours, or with a
/// `locations` array whose count differs from that of `colors`. `colors`, `locations`, `startPoint`
/// and `endPoint` animate on the server's clock.
open class CAGradientLayer: CALayer {
    /// The colour objects as the app gave them.
    var storedColors: [Any]?
    /// The locations as the app gave them.
    var storedLocations: [NSNumber]?

    /// Creates a gradient layer with Core Animation's defaults: no colours, evenly spaced stops, from
    /// the top edge's middle (0.5, 0) to the bottom edge's middle (0.5, 1), axial.
    public override init() {
        super.init()
    }

    /// Creates a shadow copy of `layer` (a presentation copy), its gradient properties included.
    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAGradientLayer {
            storedColors = other.storedColors
            storedLocations = other.storedLocations
        }
    }

    /// Creates a gradient layer from an archive written by `encode(with:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// Core Animation's default for `key`: the class's own properties answer their defaults (boxed
    /// as key-value coding returns them: `NSNumber`, `CGColor`, `String`, nil for none), every other
    /// key as `CALayer` answers it.
    open override class func defaultValue(forKey key: String) -> Any? {
        if let own = ownDefault(forKey: key, of: .gradient) { return own }
        return super.defaultValue(forKey: key)
    }

    /// The colours of the gradient's stops, as `CGColor`s; nil by default. Fewer than two draw nothing.
    /// Elements that are not `CGColor`s are kept but make the array draw nothing (reported to
    /// `LaminaDiagnostics` when sent). Animatable: each colour is interpolated when both arrays have
    /// the same count; otherwise the array changes at the midpoint.
    open var colors: [Any]? {
        get {
            guard presentationSource != nil else { return storedColors }
            return modelState.gradient.colors.map { $0.map { CGColor(rgba: ($0.red, $0.green, $0.blue, $0.alpha)) } }
        }
        set {
            storedColors = newValue
            let converted = newValue.map { list in list.compactMap { ($0 as? CGColor).map(RGBAColor.init) } }
            if let newValue, let converted, converted.count != newValue.count {
                LaminaDiagnostics.report(
                    .refusedValue, "colors of layer \(layerID): every element must be a CGColor; nothing is drawn")
                update(.colors, \.gradient.colors, [])
                return
            }
            update(.colors, \.gradient.colors, converted)
        }
    }

    /// Where each colour lies along the gradient, from 0 to 1, increasing; nil (evenly spaced) by
    /// default. A count other than that of `colors` draws nothing. Animatable.
    open var locations: [NSNumber]? {
        get {
            guard presentationSource != nil else { return storedLocations }
            return modelState.gradient.locations.map { $0.map { NSNumber(value: $0) } }
        }
        set {
            storedLocations = newValue.map { Array($0) }
            update(.locations, \.gradient.locations, newValue.map { $0.map(\.doubleValue) })
        }
    }

    /// Where the gradient starts, in the unit coordinate space of the bounds (x right, y down); (0.5,
    /// 0), the middle of the top edge, by default. Animatable.
    open var startPoint: CGPoint {
        get { modelState.gradient.startPoint }
        set { update(.startPoint, \.gradient.startPoint, newValue) }
    }

    /// Where the gradient ends, in the unit coordinate space of the bounds; (0.5, 1), the middle of the
    /// bottom edge, by default. Animatable.
    open var endPoint: CGPoint {
        get { modelState.gradient.endPoint }
        set { update(.endPoint, \.gradient.endPoint, newValue) }
    }

    /// The gradient's geometry; `.axial` by default. `.radial` spreads the colours from `startPoint` to
    /// the ellipse whose half axes reach `endPoint`; `.conic` turns them about `startPoint`, starting
    /// in the direction of `endPoint`. Unknown names are kept and drawn as `.axial`.
    open var type: CAGradientLayerType {
        get { modelState.gradient.type }
        set { update(.gradientType, \.gradient.type, newValue) }
    }
}

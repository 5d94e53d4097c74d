import Foundation

/// A layer that draws a path: filled, stroked, dashed and trimmed by the render server at the
/// display's resolution, between its contents and its first sublayer.
///
/// As on Apple platforms, the shape is drawn after the layer's transform, so it stays sharp at any
/// scale (no backing store, `contentsScale` does not apply), and it is not clipped to the bounds
/// unless `masksToBounds` is set. Hit testing (`contains(_:)`) uses the bounds, not the path.
/// `strokeStart`, `strokeEnd`, `lineWidth`, `miterLimit`, `lineDashPhase`, the colours and `path`
/// animate on the server's clock; `path` only explicitly (no implicit animation), and a path animation
/// blends the points of two paths with the same elements, otherwise it jumps at the midpoint.
open class CAShapeLayer: CALayer {
    /// The colour objects the app gave (presentation layers make theirs from the animated values).
    var storedFillColor: CGColor? = CGColor(gray: 0, alpha: 1)
    var storedStrokeColor: CGColor?
    /// The dash pattern as the app gave it.
    var storedDashPattern: [NSNumber]?

    /// Creates a shape layer with Core Animation's defaults: no path, an opaque black fill, no stroke.
    public override init() {
        super.init()
    }

    /// Creates a shadow copy of `layer` (a presentation copy), its shape properties included.
    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAShapeLayer {
            storedFillColor = other.storedFillColor
            storedStrokeColor = other.storedStrokeColor
            storedDashPattern = other.storedDashPattern
        }
    }

    /// Creates a shape layer from an archive written by `encode(with:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// Core Animation's default for `key`: the class's own properties answer their defaults (boxed
    /// as key-value coding returns them: `NSNumber`, `CGColor`, `String`, nil for none), every other
    /// key as `CALayer` answers it.
    open override class func defaultValue(forKey key: String) -> Any? {
        if let own = ownDefault(forKey: key, of: .shape) { return own }
        return super.defaultValue(forKey: key)
    }

    /// The path drawn, in the layer's coordinates; nil (nothing drawn) by default. The path is copied
    /// when it is set, so changing a `CGMutablePath` afterwards does not change the layer. Animatable,
    /// but only explicitly: setting it runs no implicit animation.
    open var path: CGPath? {
        get { modelState.shape.path }
        set { update(.path, \.shape.path, newValue.flatMap { $0.copy() }) }
    }

    /// The colour that fills the path; opaque black by default. nil fills nothing. Animatable.
    open var fillColor: CGColor? {
        get { color(stored: storedFillColor, model: modelState.shape.fillColor) }
        set {
            storedFillColor = newValue
            update(.fillColor, \.shape.fillColor, newValue.map { RGBAColor($0) })
        }
    }

    /// How the inside of the path is decided; `.nonZero` by default. Unknown names are kept and fill
    /// like `.nonZero`.
    open var fillRule: CAShapeLayerFillRule {
        get { modelState.shape.fillRule }
        set { update(.fillRule, \.shape.fillRule, newValue) }
    }

    /// The colour of the stroke; nil (no stroke) by default. Animatable.
    open var strokeColor: CGColor? {
        get { color(stored: storedStrokeColor, model: modelState.shape.strokeColor) }
        set {
            storedStrokeColor = newValue
            update(.strokeColor, \.shape.strokeColor, newValue.map { RGBAColor($0) })
        }
    }

    /// The width of the stroke, in the layer's units; 1 by default. Animatable.
    open var lineWidth: CGFloat {
        get { modelState.shape.lineWidth }
        set { update(.lineWidth, \.shape.lineWidth, newValue) }
    }

    /// How far a miter join may reach, as a multiple of half the line width, before it becomes a
    /// bevel; 10 by default. Animatable.
    open var miterLimit: CGFloat {
        get { modelState.shape.miterLimit }
        set { update(.miterLimit, \.shape.miterLimit, newValue) }
    }

    /// The shape of the ends of open strokes; `.butt` by default.
    open var lineCap: CAShapeLayerLineCap {
        get { modelState.shape.lineCap }
        set { update(.lineCap, \.shape.lineCap, newValue) }
    }

    /// How the stroke turns corners; `.miter` by default.
    open var lineJoin: CAShapeLayerLineJoin {
        get { modelState.shape.lineJoin }
        set { update(.lineJoin, \.shape.lineJoin, newValue) }
    }

    /// Painted and unpainted lengths that alternate along the stroke, starting with a painted one (an
    /// odd count repeats once more); nil, a solid stroke, by default. Copied when set. A pattern with
    /// a negative length or no length above 0 is not sent to the server (reported to
    /// `LaminaDiagnostics`).
    open var lineDashPattern: [NSNumber]? {
        get { storedDashPattern }
        set {
            storedDashPattern = newValue.map { Array($0) }
            update(.lineDashPattern, \.shape.lineDashPattern, newValue.map { $0.map(\.doubleValue) })
        }
    }

    /// How far into the dash pattern the stroke starts; 0 by default. Animatable (animating it from 0
    /// to the pattern's length makes "marching ants").
    open var lineDashPhase: CGFloat {
        get { modelState.shape.lineDashPhase }
        set { update(.lineDashPhase, \.shape.lineDashPhase, newValue) }
    }

    /// Where the stroke starts, as a fraction of the path's whole length (all subpaths, closing
    /// segments included); 0 by default. Animatable. Values are clamped to 0...1 when drawn.
    open var strokeStart: CGFloat {
        get { modelState.shape.strokeStart }
        set { update(.strokeStart, \.shape.strokeStart, newValue) }
    }

    /// Where the stroke ends, as a fraction of the path's whole length; 1 by default. Animatable (a
    /// progress ring animates it from 0 to 1). A stroke whose start is not below its end draws nothing.
    open var strokeEnd: CGFloat {
        get { modelState.shape.strokeEnd }
        set { update(.strokeEnd, \.shape.strokeEnd, newValue) }
    }
}

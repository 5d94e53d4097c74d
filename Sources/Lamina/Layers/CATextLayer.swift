import Foundation

/// A layer that draws a string, plain or attributed: Core Animation's `CATextLayer`.
///
/// The text is laid out with Core Text (LaminaText) and drawn by the client into the layer's
/// backing store at `contentsScale`, through `draw(in:)`, so a subclass that overrides `draw(in:)`
/// and calls `super.draw(in:)` draws it under its own transform. The first line sits at the top of
/// the bounds; what passes the bounds is clipped. The layer redraws at the next commit when one of
/// its properties changes, and when its bounds change.
///
/// A plain string is drawn in white, as the glyphs' coverage, and the render server multiplies it by
/// the presented `foregroundColor` (`LayerClass.text`, `tintsContents`), so `foregroundColor`
/// animates on the server's clock, implicitly too, with no redraw. An attributed string carries its
/// own colours and a string with colour glyphs (emoji) has colours of its own: those are drawn in
/// their colours, untinted. The other text properties are kept by the client under Core Animation's
/// keys (key-value coding, `defaultValue(forKey:)`, archiving and presentation copies see them) and
/// copied to the server's rows for `laminactl tree`; `fontSize` animates, implicitly too, by
/// redrawing the layer from its presentation copy at each display frame while the animation runs.
open class CATextLayer: CALayer {
    /// The colour object the app gave (presentation layers make theirs from the animated value).
    var storedForegroundColor: CGColor? = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    /// Set while the layer draws for its backing store when a plain string may be drawn as coverage
    /// (white); `drewCoverage` records that `draw(in:)` did.
    var drawsCoverage = false
    /// Whether the last `draw(in:)` drew a plain string in white (see `drawsCoverage`).
    var drewCoverage = false

    /// The text layer's own keys, as Core Animation names them.
    static let textKeys: Set<String> = [
        "string", "font", "fontSize", "foregroundColor", "wrapped", "truncationMode", "alignmentMode",
        "allowsFontSubpixelQuantization",
    ]

    /// Creates a text layer with Core Animation's defaults: no string, Helvetica, 36 points, opaque
    /// white, not wrapped, no truncation, natural alignment.
    public override init() {
        super.init()
        needsDisplayOnBoundsChange = true
        storedForegroundColor = Self.defaultValue(forKey: "foregroundColor") as? CGColor
        syncTextRows(notify: false)
    }

    /// Creates a shadow copy of `layer` (a presentation copy), with its text properties.
    public override init(layer: Any) {
        super.init(layer: layer)
        needsDisplayOnBoundsChange = true
        if let other = layer as? CATextLayer { storedForegroundColor = other.storedForegroundColor }
    }

    /// Creates a text layer from an archive written by `encode(with:)`; nil when it is damaged.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        needsDisplayOnBoundsChange = true
        decodeText(from: coder)
        syncTextRows(notify: false)
    }

    // MARK: Properties

    /// The text: a `String` (or `NSString`) drawn in `font`, `fontSize` and `foregroundColor`, or an
    /// `NSAttributedString` drawn with its own attributes (Core Text's defaults, Helvetica 12 and
    /// black, where it has none). Nil by default; any other value draws nothing. Reads back as given.
    open var string: Any? {
        get { textValue("string") }
        set { setTextValue(newValue, forKey: "string") }
    }

    /// The font of a plain `string`: a font name (`"Helvetica-Bold" as CFTypeRef`, a `String` or
    /// `NSString`), a `CTFont` or a `CGFont`; a font object's own size is ignored (`fontSize` wins).
    /// Reads back as given; by default a `CTFont` for Helvetica. Not used for an attributed string.
    open var font: CFTypeRef? {
        get { textValue("font") as CFTypeRef? }
        set { setTextValue(newValue, forKey: "font") }
    }

    /// The size of a plain `string`'s font, in points; 36 by default. Animatable (implicitly too).
    open var fontSize: CGFloat {
        get { textValue("fontSize").flatMap(AnimationValue.number).map { CGFloat($0) } ?? 36 }
        set { setTextValue(newValue, forKey: "fontSize") }
    }

    /// The colour of a plain `string`; opaque white by default. Nil draws the text black (Core
    /// Text's default colour). Animatable (implicitly too), on the render server's clock: the server
    /// tints the glyphs the client drew once, so a change or an animation draws nothing again.
    open var foregroundColor: CGColor? {
        get { color(stored: storedForegroundColor, model: modelState.text.foregroundColor) }
        set {
            storedForegroundColor = newValue
            update(.foregroundColor, \.text.foregroundColor, newValue.map { RGBAColor($0) })
            // Contents drawn in their colours (colour glyphs) are drawn again in the new colour.
            if !modelState.text.tintsContents, hasPlainString { setNeedsDisplay() }
        }
    }

    /// Whether the text wraps to lines as wide as the bounds; false by default (a line per
    /// paragraph, clipped at the bounds).
    open var isWrapped: Bool {
        get { textValue("wrapped").flatMap(Self.bool) ?? false }
        set { setTextValue(newValue, forKey: "wrapped") }
    }

    /// How text too wide for the bounds is shortened; `.none` by default. Unwrapped, every line too
    /// wide is truncated; wrapped, the last line that fits the bounds' height is, when text follows.
    open var truncationMode: CATextLayerTruncationMode {
        get { (textValue("truncationMode") as? String).map(CATextLayerTruncationMode.init(rawValue:)) ?? .none }
        set { setTextValue(newValue.rawValue, forKey: "truncationMode") }
    }

    /// How each line is placed across the bounds; `.natural` by default (for an attributed string
    /// too: its paragraph alignment is not used, as reported of Apple's).
    open var alignmentMode: CATextLayerAlignmentMode {
        get { (textValue("alignmentMode") as? String).map(CATextLayerAlignmentMode.init(rawValue:)) ?? .natural }
        set { setTextValue(newValue.rawValue, forKey: "alignmentMode") }
    }

    /// Whether glyph positions may be quantised to subpixels; false by default. Passed to the context
    /// the text is drawn in (`setAllowsFontSubpixelQuantization(_:)`).
    open var allowsFontSubpixelQuantization: Bool {
        get { textValue("allowsFontSubpixelQuantization").flatMap(Self.bool) ?? false }
        set { setTextValue(newValue, forKey: "allowsFontSubpixelQuantization") }
    }

    // MARK: Class behaviour

    /// Core Animation's defaults of the text keys (`fontSize` 36, `foregroundColor` opaque white,
    /// `wrapped` false, `truncationMode` "none", `alignmentMode` "natural",
    /// `allowsFontSubpixelQuantization` false, `font` a `CTFont` for Helvetica), else the layer's.
    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "fontSize": CGFloat(36)
        case "foregroundColor": CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        case "wrapped", "allowsFontSubpixelQuantization": false
        case "truncationMode": CATextLayerTruncationMode.none.rawValue
        case "alignmentMode": CATextLayerAlignmentMode.natural.rawValue
        case "font": CTFontCreateWithName("Helvetica" as CFString, 36, nil)
        default: super.defaultValue(forKey: key)
        }
    }

    /// True for the text keys but `foregroundColor` (the server tints the text) and for
    /// `contentsScale` (a change redraws the text), else the layer's.
    open override class func needsDisplay(forKey key: String) -> Bool {
        (textKeys.contains(key) && key != "foregroundColor") || key == "contentsScale"
            || super.needsDisplay(forKey: key)
    }

    /// The value of a text key (nil where it was set to nil), else the layer's.
    open override func value(forKey key: String) -> Any? {
        Self.textKeys.contains(key) ? textValue(key) : super.value(forKey: key)
    }

    /// Sets a text key through its normal form (numbers as `CGFloat`, modes as their names), else
    /// the layer's key.
    open override func setValue(_ value: Any?, forKey key: String) {
        if Self.textKeys.contains(key) {
            setTextValue(value, forKey: key)
        } else {
            super.setValue(value, forKey: key)
        }
    }

    /// Archives the layer and its text: plain values under Core Animation's keys; an attributed
    /// string with its runs; a font object by its PostScript name.
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        encodeText(to: coder)
    }

    /// Draws the text into `ctx` (the layer's backing store): laid out in the bounds from the top,
    /// aligned, wrapped and truncated as the properties say, clipped to the bounds. A subclass that
    /// overrides it and calls `super.draw(in:)` draws the text under its own changes to `ctx`.
    open override func draw(in ctx: CGContext) {
        drawText(in: ctx)
    }

    // MARK: Storage

    /// A text key's stored value (nil where it was set to nil), else its default.
    func textValue(_ key: String) -> Any? {
        let value = kvcValue(forKey: key)
        return value is NSNull ? nil : value
    }

    /// Stores a text key in its normal form and runs what a change runs (display, action), then
    /// copies the text properties to the rows the server prints.
    func setTextValue(_ value: Any?, forKey key: String) {
        kvcSetValue(Self.normalized(value, forKey: key), forKey: key)
        syncTextRows(notify: true)
    }

    /// The form a text key's value is stored in: `fontSize` a `CGFloat`, the flags `Bool`s, the
    /// modes their names; nil as `NSNull` where nil differs from the default (`string`, `font`,
    /// `foregroundColor`).
    static func normalized(_ value: Any?, forKey key: String) -> Any? {
        switch key {
        case "fontSize":
            return value.flatMap(AnimationValue.number).map { CGFloat($0) }
        case "wrapped", "allowsFontSubpixelQuantization":
            return value.flatMap(bool)
        case "truncationMode":
            return (value as? CATextLayerTruncationMode)?.rawValue ?? (value as? String)
        case "alignmentMode":
            return (value as? CATextLayerAlignmentMode)?.rawValue ?? (value as? String)
        default:
            return value ?? NSNull()
        }
    }

    /// A Boolean given as `Bool` or `NSNumber`.
    static func bool(_ value: Any) -> Bool? {
        (value as? Bool) ?? (value as? NSNumber)?.boolValue
    }
}

extension CATextLayer: ClientAnimatedProperties {
    /// `fontSize` animates implicitly on the client (CATextLayer's documentation: animatable);
    /// `foregroundColor` is a row of the property table and animates implicitly as one.
    static var implicitlyAnimatedKeys: Set<String> { ["fontSize"] }
}

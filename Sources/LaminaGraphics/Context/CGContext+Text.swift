import CCairo
import Foundation

/// The index of a glyph in a font: Core Graphics' `CGGlyph`.
public typealias CGGlyph = UInt16

/// How glyphs are painted: Core Graphics' `CGTextDrawingMode` (the C type is
/// `CGTextDrawingMode`, set with `CGContextSetTextDrawingMode`).
///
/// The clipping modes add the glyph outlines to the clip once the glyphs are drawn (and painted,
/// for the modes that also paint), as Core Graphics does.
public enum CGTextDrawingMode: Int32, Sendable {
    /// Fill the glyphs with the fill colour (the default).
    case fill = 0
    /// Stroke the glyph outlines with the stroke colour and line settings.
    case stroke = 1
    /// Fill, then stroke.
    case fillStroke = 2
    /// Paint nothing (the text position still advances where an API advances it).
    case invisible = 3
    /// Fill, then add the glyphs to the clip.
    case fillClip = 4
    /// Stroke, then add the glyphs to the clip.
    case strokeClip = 5
    /// Fill and stroke, then add the glyphs to the clip.
    case fillStrokeClip = 6
    /// Add the glyphs to the clip without painting.
    case clip = 7

    /// Whether the mode fills the glyphs.
    public var fills: Bool { self == .fill || self == .fillStroke || self == .fillClip || self == .fillStrokeClip }
    /// Whether the mode strokes the glyph outlines.
    public var strokes: Bool {
        self == .stroke || self == .fillStroke || self == .strokeClip || self == .fillStrokeClip
    }
    /// Whether the mode adds the glyphs to the clip.
    public var clips: Bool { rawValue >= 4 }
}

/// The font rendering settings that belong to the context rather than to its graphics state.
struct FontPermissions {
    var allowsFontSmoothing = true
    var allowsFontSubpixelPositioning = true
    var allowsFontSubpixelQuantization = true
}

extension CGContext {
    // MARK: Text state

    /// The transform from text space to user space that text drawing applies to glyphs (Core
    /// Graphics' `CGContextGetTextMatrix`/`CGContextSetTextMatrix`); the identity by default.
    ///
    /// As on Apple platforms it is not part of the graphics state: `saveGState()` and
    /// `restoreGState()` leave it alone. Its translation is `textPosition`. Glyph space is y-up, so
    /// text drawn into a context flipped for UIKit (y down), such as a layer's `draw(in:)` context,
    /// comes out upside down unless the text matrix (or the CTM) flips it back.
    public var textMatrix: CGAffineTransform {
        get { storedTextMatrix }
        set { storedTextMatrix = newValue }
    }

    /// Where the next text is drawn, in user space: the translation part of `textMatrix` (Core
    /// Graphics' `CGContextGetTextPosition`/`CGContextSetTextPosition`); (0, 0) by default.
    public var textPosition: CGPoint {
        get { CGPoint(x: storedTextMatrix.tx, y: storedTextMatrix.ty) }
        set {
            storedTextMatrix.tx = newValue.x
            storedTextMatrix.ty = newValue.y
        }
    }

    /// Sets how glyphs are painted: filled, stroked, both, not at all, and whether they are added to
    /// the clip. Part of the graphics state; `.fill` by default.
    public func setTextDrawingMode(_ mode: CGTextDrawingMode) {
        state.text.drawingMode = mode
    }

    /// Sets the font size `showGlyphs(_:at:)` draws at, in text-space units. Part of the graphics
    /// state; 12 by default here (Core Graphics does not document its initial value).
    public func setFontSize(_ size: CGFloat) {
        state.text.fontSize = size
    }

    /// Sets the extra space between glyphs drawn one after another (Core Graphics'
    /// `CGContextSetCharacterSpacing`); part of the graphics state, 0 by default. `showGlyphs(_:at:)`
    /// places each glyph at the position given, so it does not use it.
    public func setCharacterSpacing(_ spacing: CGFloat) {
        state.text.characterSpacing = spacing
    }

    /// Sets whether glyphs may be smoothed; part of the graphics state. Lamina draws greyscale
    /// antialiased glyphs either way (no subpixel antialiasing).
    public func setShouldSmoothFonts(_ shouldSmoothFonts: Bool) {
        state.text.shouldSmoothFonts = shouldSmoothFonts
    }

    /// Sets whether the context allows font smoothing at all; not part of the graphics state.
    public func setAllowsFontSmoothing(_ allowsFontSmoothing: Bool) {
        fontPermissions.allowsFontSmoothing = allowsFontSmoothing
    }

    /// Sets whether glyphs may be placed between pixels; part of the graphics state.
    public func setShouldSubpixelPositionFonts(_ shouldSubpixelPositionFonts: Bool) {
        state.text.shouldSubpixelPositionFonts = shouldSubpixelPositionFonts
    }

    /// Sets whether the context allows subpixel glyph positioning; not part of the graphics state.
    public func setAllowsFontSubpixelPositioning(_ allowsFontSubpixelPositioning: Bool) {
        fontPermissions.allowsFontSubpixelPositioning = allowsFontSubpixelPositioning
    }

    /// Sets whether glyph positions are quantised to a subpixel grid; part of the graphics state.
    public func setShouldSubpixelQuantizeFonts(_ shouldSubpixelQuantizeFonts: Bool) {
        state.text.shouldSubpixelQuantizeFonts = shouldSubpixelQuantizeFonts
    }

    /// Sets whether the context allows subpixel quantisation of glyph positions; not part of the
    /// graphics state (`CATextLayer` passes its `allowsFontSubpixelQuantization` here).
    public func setAllowsFontSubpixelQuantization(_ allowsFontSubpixelQuantization: Bool) {
        fontPermissions.allowsFontSubpixelQuantization = allowsFontSubpixelQuantization
    }

    // MARK: For LaminaText

    /// The text drawing mode of the graphics state.
    package var currentTextDrawingMode: CGTextDrawingMode { state.text.drawingMode }

    /// The font object `setFont(_:)` stored in the graphics state (a LaminaText `CGFont`).
    package var currentFontObject: AnyObject? {
        get { state.text.font }
        set { state.text.font = newValue }
    }

    /// The font size of the graphics state.
    package var currentFontSize: CGFloat { state.text.fontSize }

    /// The character spacing of the graphics state.
    package var currentCharacterSpacing: CGFloat { state.text.characterSpacing }

    /// The fill colour of the graphics state.
    package var currentFillColor: CGColor { state.fillColor }

    /// The stroke colour of the graphics state.
    package var currentStrokeColor: CGColor { state.strokeColor }

    /// Whether subpixel quantisation of glyph positions is both allowed and asked for.
    package var quantizesFontSubpixels: Bool {
        fontPermissions.allowsFontSubpixelQuantization && state.text.shouldSubpixelQuantizeFonts
    }

    /// The Cairo context (`cairo_t *`) this context draws with, for a module that draws with Cairo
    /// itself. Its matrix is the CTM followed by the flip to Cairo's y-down device space.
    package var cairoContext: OpaquePointer { cairo }

    /// Runs `body`, which paints with Cairo on `cairoContext`, with the graphics state's blend mode,
    /// antialiasing and mask clip applied and the pixels kept in step with `data`. `body` sets its
    /// own source through `setCairoSource(_:)` (so the global alpha applies) and must leave Cairo's
    /// state (matrix, path) as it found it, apart from the clip when it means to change it.
    package func paintWithCairo(_ body: () -> Void) {
        paint(covering: nil, body)
    }

    /// Makes Cairo's source `color` multiplied by the global alpha.
    package func setCairoSource(_ color: CGColor) {
        setSource(color)
    }
}

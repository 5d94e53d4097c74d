import CCairo
import Foundation

/// The part of a `CGContext`'s graphics state that Cairo does not keep itself.
///
/// Cairo's own state (CTM, clip path, line width, cap, join, miter limit, dash) is saved and restored
/// with `cairo_save`/`cairo_restore` alongside this value.
struct GraphicsState {
    /// The colour `fillPath`, `fill(_:)` and friends paint with; Apple's default is opaque black.
    var fillColor = CGColor(gray: 0, alpha: 1)
    /// The colour `strokePath` and friends paint with; Apple's default is opaque black.
    var strokeColor = CGColor(gray: 0, alpha: 1)
    /// The global alpha every painting call is multiplied by; Apple's default is 1.
    var alpha: CGFloat = 1
    /// How painting combines with what is there; Apple's default is `.normal`.
    var blendMode = CGBlendMode.normal
    /// Whether shapes are antialiased (when the context allows it); Apple's default is true.
    var shouldAntialias = true
    /// How images are resampled; Apple's default reads as `.default`.
    var interpolationQuality = CGInterpolationQuality.default
    /// The mask clip from `clip(to:mask:)`, in Cairo device space, if any.
    var mask: ClipMask?
    /// The text part of the graphics state (font, size, spacing, drawing mode).
    var text = TextState()
}

/// The text settings the graphics state holds (Apple's `saveGState()` documentation lists the font,
/// font size, character spacing and text drawing mode); the text matrix is not among them.
struct TextState {
    /// How glyphs are painted; Apple's default is `.fill`.
    var drawingMode = CGTextDrawingMode.fill
    /// The font `showGlyphs` draws with: a LaminaText `CGFont`, held opaquely here.
    var font: AnyObject?
    /// The size `showGlyphs` draws at, in text-space units.
    var fontSize: CGFloat = 12
    /// Extra space added after each glyph `showGlyphs` draws, in text-space units.
    var characterSpacing: CGFloat = 0
    /// Whether fonts may be smoothed (`setShouldSmoothFonts(_:)`).
    var shouldSmoothFonts = true
    /// Whether glyph positions may fall between pixels (`setShouldSubpixelPositionFonts(_:)`).
    var shouldSubpixelPositionFonts = true
    /// Whether glyph positions are quantised to a subpixel grid (`setShouldSubpixelQuantizeFonts(_:)`).
    var shouldSubpixelQuantizeFonts = true
}

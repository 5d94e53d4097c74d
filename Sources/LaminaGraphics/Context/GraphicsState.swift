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
}

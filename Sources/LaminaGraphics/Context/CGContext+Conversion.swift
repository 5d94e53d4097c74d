import CCairo
import Foundation

extension CGContext {
    /// User space to device space (pixels, origin bottom-left, y up); the same as `ctm` in a bitmap context.
    public var userSpaceToDeviceSpaceTransform: CGAffineTransform {
        ctm
    }

    /// `point` in device space.
    public func convertToDeviceSpace(_ point: CGPoint) -> CGPoint {
        point.applying(ctm)
    }

    /// `size` in device space (the transform without its translation).
    public func convertToDeviceSpace(_ size: CGSize) -> CGSize {
        size.applying(ctm)
    }

    /// The bounding box of `rect` in device space.
    public func convertToDeviceSpace(_ rect: CGRect) -> CGRect {
        rect.applying(ctm)
    }

    /// `point` (device space) in user space.
    public func convertToUserSpace(_ point: CGPoint) -> CGPoint {
        point.applying(ctm.inverted())
    }

    /// `size` (device space) in user space.
    public func convertToUserSpace(_ size: CGSize) -> CGSize {
        size.applying(ctm.inverted())
    }

    /// The bounding box of `rect` (device space) in user space.
    public func convertToUserSpace(_ rect: CGRect) -> CGRect {
        rect.applying(ctm.inverted())
    }

    /// Whether `point` (user space) is painted by the current path under `mode`.
    ///
    /// Fill modes test the interior with their rule, `.stroke` the area the stroke would cover
    /// with the current line settings, and the fill-and-stroke modes either.
    public func pathContains(_ point: CGPoint, mode: CGPathDrawingMode) -> Bool {
        let x = Double(point.x), y = Double(point.y)
        func inFill(_ rule: cairo_fill_rule_t) -> Bool {
            let saved = cairo_get_fill_rule(cairo)
            cairo_set_fill_rule(cairo, rule)
            defer { cairo_set_fill_rule(cairo, saved) }
            return cairo_in_fill(cairo, x, y) != 0
        }
        switch mode {
        case .fill: return inFill(CAIRO_FILL_RULE_WINDING)
        case .eoFill: return inFill(CAIRO_FILL_RULE_EVEN_ODD)
        case .stroke: return cairo_in_stroke(cairo, x, y) != 0
        case .fillStroke: return inFill(CAIRO_FILL_RULE_WINDING) || cairo_in_stroke(cairo, x, y) != 0
        case .eoFillStroke: return inFill(CAIRO_FILL_RULE_EVEN_ODD) || cairo_in_stroke(cairo, x, y) != 0
        }
    }

    /// Makes all drawing so far visible in `data`; every painting call already does, so this does nothing more.
    public func flush() {
        cairo_surface_flush(surface)
    }

    /// Marks the context for updating; a bitmap context is always up to date, so this does nothing.
    public func synchronize() {}

    /// Sets how far (in device pixels) curves may deviate from their flattened line segments; Cairo's
    /// tolerance, 0.1 by default.
    public func setFlatness(_ flatness: CGFloat) {
        cairo_set_tolerance(cairo, Double(max(flatness, 0.001)))
    }
}

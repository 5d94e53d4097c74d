import CCairo
import Foundation

extension CGContext {
    /// Fills the current path with the fill colour, using `rule`, and clears the path.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        paint(covering: pathExtents(fill: true, stroke: false)) { fillCurrentPath(rule: rule, preserve: false) }
        cairo_new_path(cairo)
    }

    /// Strokes the current path with the stroke colour and line settings, and clears the path.
    public func strokePath() {
        paint(covering: pathExtents(fill: false, stroke: true)) { strokeCurrentPath(preserve: false) }
        cairo_new_path(cairo)
    }

    /// Paints the current path as `mode` says (fill, stroke or both; fill before stroke), and clears the path.
    public func drawPath(using mode: CGPathDrawingMode) {
        let fills = mode != .stroke
        let strokes = mode != .fill && mode != .eoFill
        paint(covering: pathExtents(fill: fills, stroke: strokes)) {
            switch mode {
            case .fill: fillCurrentPath(rule: .winding, preserve: false)
            case .eoFill: fillCurrentPath(rule: .evenOdd, preserve: false)
            case .stroke: strokeCurrentPath(preserve: false)
            case .fillStroke:
                fillCurrentPath(rule: .winding, preserve: true)
                strokeCurrentPath(preserve: false)
            case .eoFillStroke:
                fillCurrentPath(rule: .evenOdd, preserve: true)
                strokeCurrentPath(preserve: false)
            }
        }
        cairo_new_path(cairo)
    }

    /// Fills `rect` with the fill colour; as Apple documents, this clears the current path.
    public func fill(_ rect: CGRect) {
        fill([rect])
    }

    /// Fills the rectangles with the fill colour (as one nonzero-winding path); as Apple
    /// documents, this clears the current path.
    public func fill(_ rects: [CGRect]) {
        beginPath()
        addRects(rects)
        fillPath()
    }

    /// Strokes `rect`'s outline with the stroke colour and line settings; as Apple documents, this
    /// clears the current path.
    public func stroke(_ rect: CGRect) {
        beginPath()
        addRect(rect)
        strokePath()
    }

    /// Strokes `rect`'s outline `width` user units wide, leaving the line width in the graphics
    /// state unchanged; as Apple documents, this clears the current path.
    public func stroke(_ rect: CGRect, width: CGFloat) {
        let saved = cairo_get_line_width(cairo)
        cairo_set_line_width(cairo, Double(max(0, width)))
        stroke(rect)
        cairo_set_line_width(cairo, saved)
    }

    /// Fills the ellipse inscribed in `rect`; as Apple documents, this clears the current path.
    public func fillEllipse(in rect: CGRect) {
        beginPath()
        addEllipse(in: rect)
        fillPath()
    }

    /// Strokes the ellipse inscribed in `rect`; as Apple documents, this clears the current path.
    public func strokeEllipse(in rect: CGRect) {
        beginPath()
        addEllipse(in: rect)
        strokePath()
    }

    /// Strokes a line segment between each pair of points (the first and second, the third and
    /// fourth, …; an odd last point is ignored), then clears the current path.
    public func strokeLineSegments(between points: [CGPoint]) {
        beginPath()
        var index = 0
        while index + 1 < points.count {
            move(to: points[index])
            addLine(to: points[index + 1])
            index += 2
        }
        strokePath()
    }

    /// Paints `rect` fully transparent (black in a context without alpha), whatever the blend
    /// mode, alpha and colours; the clip still applies and the current path is kept.
    public func clear(_ rect: CGRect) {
        preservingPath {
            addRect(rect)
            let mode = state.blendMode
            state.blendMode = .clear
            paint(covering: pathExtents(fill: true, stroke: false)) { fillCurrentPath(rule: .winding, preserve: false) }
            state.blendMode = mode
        }
    }

    // MARK: - Internals

    /// Runs a painting `body` that changes pixels only within `extents` (user space; nil for the
    /// whole clip), with the blend mode, antialiasing and mask clip applied, keeping `data` in step.
    ///
    /// With a mask clip, `body` paints with its blend mode onto a copy of the pixels, and the copy
    /// replaces the pixels in proportion to the mask (a clip's interpolation between old and new).
    func paint(covering extents: CGRect?, _ body: () -> Void) {
        let region = state.mask == nil ? region(of: extents) : wholeRegion
        willPaint(region)
        cairo_set_antialias(cairo, cairoAntialias)
        if let mask = state.mask {
            let backdrop = cairo_get_group_target(cairo)
            cairo_push_group(cairo)
            let matrix = cairoMatrix
            cairo_identity_matrix(cairo)
            cairo_set_source_surface(cairo, backdrop, 0, 0)
            cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
            cairo_paint(cairo)
            setCairoMatrix(matrix)
            cairo_set_operator(cairo, cairoOperator)
            body()
            cairo_pop_group_to_source(cairo)
            cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
            cairo_identity_matrix(cairo)
            cairo_mask_surface(cairo, mask.surface, 0, 0)
            setCairoMatrix(matrix)
        } else {
            cairo_set_operator(cairo, cairoOperator)
            body()
        }
        cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
        didPaint(region)
    }

    /// The user-space extents of filling and/or stroking the current path; nil (the whole clip)
    /// for a stroke with a blend mode Cairo does not bound to the stroke.
    func pathExtents(fill: Bool, stroke: Bool) -> CGRect? {
        var box = CGRect.null
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        if fill {
            cairo_fill_extents(cairo, &x1, &y1, &x2, &y2)
            box = box.union(CGRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1))
        }
        if stroke {
            if operatorIsUnbounded { return nil }
            cairo_stroke_extents(cairo, &x1, &y1, &x2, &y2)
            box = box.union(CGRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1))
        }
        return box
    }

    /// Fills Cairo's current path with the fill colour; an unbounded operator is confined to the path by clipping.
    func fillCurrentPath(rule: CGPathFillRule, preserve: Bool) {
        setSource(state.fillColor)
        cairo_set_fill_rule(cairo, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        if operatorIsUnbounded {
            paintInsideCurrentPath(preserve: preserve) { cairo_paint(cairo) }
        } else if preserve {
            cairo_fill_preserve(cairo)
        } else {
            cairo_fill(cairo)
        }
    }

    /// Strokes Cairo's current path with the stroke colour.
    func strokeCurrentPath(preserve: Bool) {
        setSource(state.strokeColor)
        if preserve { cairo_stroke_preserve(cairo) } else { cairo_stroke(cairo) }
    }

    /// Clips to Cairo's current path (with its fill rule) for the length of `body`.
    func paintInsideCurrentPath(preserve: Bool, _ body: () -> Void) {
        let saved = preserve ? cairo_copy_path(cairo) : nil
        cairo_save(cairo)
        cairo_clip(cairo)
        body()
        cairo_restore(cairo)
        if let saved {
            cairo_append_path(cairo, saved)
            cairo_path_destroy(saved)
        }
    }
}

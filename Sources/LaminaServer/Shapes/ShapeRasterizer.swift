import CCairo
import Foundation
import LaminaCore

/// Draws a `CAShapeLayer`'s fill and stroke with Cairo into premultiplied BGRA pixels: the coverage
/// the server then draws as an image (`ShapeRasterCache`, `DisplayListBuilder+Shapes.swift`).
///
/// The field's rasterizer (Cairo's anti-aliased scan converter) does the work: the path is filled
/// with the fill rule, then stroked over the fill, the stroke's pen mapped by the same transform as
/// the path, so a shape drawn straight in device pixels is exact under any affine transform. The
/// stroke is first trimmed to `strokeStart`...`strokeEnd` (`CGPath.trimmedPieces`) and dashed piece
/// by piece with the pattern anchored where each piece lay on its untrimmed subpath
/// (`CGPath.copy(dashingWithPhase:lengths:)`), so a growing `strokeEnd` uncovers dashes that stay put.
/// The work is bounded whatever the client sends (`ShapeRasterizer+Budgets.swift`). Pure: called on
/// the frame worker's thread, it touches no shared state.
enum ShapeRasterizer {
    /// The rectangle, in the layer's coordinates, that holds everything the shape paints (its fill and
    /// its stroke, joins, caps and dashes included), as Cairo measures it (`cairo_fill_extents`,
    /// `cairo_stroke_extents`), or nil when it paints nothing: no path, no visible fill or stroke, or
    /// nothing with area. A stroke's outline does not depend on the transform it is drawn under, so
    /// the rectangle holds under any transform (`ShapeRasterCache` keeps it per shape).
    static func extent(of shape: ShapeLayerState) -> CGRect? {
        guard let path = shape.path, !path.isEmpty else { return nil }
        let fills = (shape.fillColor?.alpha ?? 0) > 0
        let strokes = strokes(shape)
        guard fills || strokes, path.hasOnlyFinitePoints,
            let span = span(of: shape, path: path, transform: .identity), span > 0
        else { return nil }
        // Too large for Cairo's coordinates: the control points' box grown by the stroke's reach.
        guard span <= maximumSpan else {
            let reach = CGFloat(span - Double(max(path.boundingBox.width, path.boundingBox.height))) / 2
            return path.boundingBox.insetBy(dx: -reach, dy: -reach)
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return nil }
        defer { cairo_destroy(cr) }
        // Measured at a tolerance relative to the shape's size, and grown by it.
        let tolerance = max(span * relativeTolerance, 1e-6)
        cairo_set_tolerance(cr, tolerance)
        var box = CGRect.null
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        if fills {
            append(path.pathElements, to: cr)
            cairo_fill_extents(cr, &x0, &y0, &x1, &y1)
            if x1 > x0 && y1 > y0 { box = box.union(CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)) }
            cairo_new_path(cr)
        }
        if strokes {
            append(strokeElements(shape, path: path), to: cr)
            setStrokeStyle(shape, cr)
            cairo_stroke_extents(cr, &x0, &y0, &x1, &y1)
            if x1 > x0 && y1 > y0 { box = box.union(CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)) }
        }
        guard !box.isNull, box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite else {
            return nil
        }
        // Flattened curves and round joins or caps may fall short of the true outline by the tolerance;
        // straight lines with square corners are exact.
        let curved =
            path.pathElements.contains {
                if case .quadCurveTo = $0 { return true }
                if case .curveTo = $0 { return true }
                return false
            } || (strokes && (shape.lineJoin == .round || shape.lineCap == .round))
        return curved ? box.insetBy(dx: -CGFloat(tolerance), dy: -CGFloat(tolerance)) : box
    }

    /// Sets Cairo's stroke parameters from the shape's: width, miter limit, cap and join (unknown names
    /// as the defaults, butt and miter).
    static func setStrokeStyle(_ shape: ShapeLayerState, _ cr: OpaquePointer) {
        cairo_set_line_width(cr, shape.lineWidth)
        cairo_set_miter_limit(cr, max(shape.miterLimit, 1))
        cairo_set_line_cap(
            cr,
            shape.lineCap == .round
                ? CAIRO_LINE_CAP_ROUND : shape.lineCap == .square ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(
            cr,
            shape.lineJoin == .round
                ? CAIRO_LINE_JOIN_ROUND : shape.lineJoin == .bevel ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER)
    }

    /// Whether the shape has a visible stroke: a colour with some alpha and a width above 0.
    static func strokes(_ shape: ShapeLayerState) -> Bool {
        (shape.strokeColor?.alpha ?? 0) > 0 && shape.lineWidth > 0 && shape.lineWidth.isFinite
    }

    /// The shape drawn into a `width`×`height` image, the layer's coordinates mapped to the image's
    /// pixels by `transform` (y down, pixel (0, 0) at the top left): BGRA8, premultiplied, rows packed.
    static func draw(_ shape: ShapeLayerState, transform t: CGAffineTransform, width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        guard width > 0, height > 0, let path = shape.path, let span = span(of: shape, path: path, transform: t),
            span <= maximumSpan
        else { return pixels }
        pixels.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self),
                let surface = cairo_image_surface_create_for_data(
                    base, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(width * 4))
            else { return }
            defer { cairo_surface_destroy(surface) }
            guard let cr = cairo_create(surface) else { return }
            defer { cairo_destroy(cr) }
            var matrix = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
            cairo_set_matrix(cr, &matrix)
            cairo_set_tolerance(cr, tolerance(forSpan: span))
            if let fill = shape.fillColor, fill.alpha > 0 {
                append(path.pathElements, to: cr)
                cairo_set_fill_rule(cr, shape.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
                cairo_set_source_rgba(cr, fill.red, fill.green, fill.blue, fill.alpha)
                cairo_fill(cr)
            }
            if strokes(shape), let stroke = shape.strokeColor {
                let elements = strokeElements(shape, path: path)
                guard !elements.isEmpty else { return }
                append(elements, to: cr)
                setStrokeStyle(shape, cr)
                cairo_set_source_rgba(cr, stroke.red, stroke.green, stroke.blue, stroke.alpha)
                cairo_stroke(cr)
            }
            cairo_surface_flush(surface)
        }
        return pixels
    }

    /// The path the stroke draws: trimmed to `strokeStart`...`strokeEnd`, then dashed.
    static func strokeElements(_ shape: ShapeLayerState, path: CGPath) -> [PathElement] {
        let tolerance = measuringTolerance(path)
        let pieces: [CGPath.TrimmedPiece]
        if path.measuringSteps(tolerance: tolerance) <= maximumMeasuringSteps {
            pieces = path.trimmedPieces(
                from: Double(shape.strokeStart), to: Double(shape.strokeEnd), tolerance: tolerance)
        } else {
            // Too costly to measure: trimmed to nothing or not at all.
            pieces = shape.strokeStart < shape.strokeEnd ? [CGPath.TrimmedPiece(path: path, offset: 0)] : []
        }
        guard let pattern = shape.lineDashPattern, !pattern.isEmpty, pattern.reduce(0, +) > 0,
            mayDash(path, pattern: pattern)
        else {
            return pieces.flatMap { $0.path.pathElements }
        }
        let lengths = pattern.map { CGFloat($0) }
        return pieces.flatMap { piece in
            piece.path.copy(dashingWithPhase: shape.lineDashPhase + piece.offset, lengths: lengths).pathElements
        }
    }

    /// Appends path elements to Cairo's current path (quadratic curves as the cubic curves they are).
    static func append(_ elements: [PathElement], to cr: OpaquePointer) {
        var current = CGPoint.zero
        var start = CGPoint.zero
        for element in elements {
            switch element {
            case .moveTo(let p):
                cairo_move_to(cr, p.x, p.y)
                current = p
                start = p
            case .lineTo(let p):
                cairo_line_to(cr, p.x, p.y)
                current = p
            case .quadCurveTo(let p, let c):
                let c1 = CGPoint(x: current.x + 2 / 3 * (c.x - current.x), y: current.y + 2 / 3 * (c.y - current.y))
                let c2 = CGPoint(x: p.x + 2 / 3 * (c.x - p.x), y: p.y + 2 / 3 * (c.y - p.y))
                cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
                current = p
            case .curveTo(let p, let c1, let c2):
                cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
                current = p
            case .closeSubpath:
                cairo_close_path(cr)
                current = start
            }
        }
    }
}

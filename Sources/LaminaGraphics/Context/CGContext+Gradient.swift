import CCairo
import Foundation

extension CGContext {
    /// Fills the clip with `gradient` along the axis from `start` (location 0) to `end` (location 1).
    ///
    /// Colour is constant across lines perpendicular to the axis. Past the ends nothing is painted
    /// unless `options` asks for the end colours to extend (Apple's `drawsBeforeStartLocation`,
    /// `drawsAfterEndLocation`). Global alpha, blend mode and clip apply; the path is kept.
    public func drawLinearGradient(
        _ gradient: CGGradient, start: CGPoint, end: CGPoint, options: CGGradientDrawingOptions
    ) {
        let dx = Double(end.x - start.x), dy = Double(end.y - start.y)
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0, length.isFinite else { return }
        let reach = farthestClipCorner(from: start) / length + 1
        let (ta, tb, extend) = extent(options: options, before: -reach, after: 1 + reach)
        let from = (Double(start.x) + ta * dx, Double(start.y) + ta * dy)
        let to = (Double(start.x) + tb * dx, Double(start.y) + tb * dy)
        guard let pattern = cairo_pattern_create_linear(from.0, from.1, to.0, to.1) else { return }
        fillClip(with: pattern, gradient: gradient, ta: ta, tb: tb, extend: extend)
    }

    /// Fills the clip with `gradient` blended between the circle at `startCenter` of `startRadius`
    /// (location 0) and the circle at `endCenter` of `endRadius` (location 1).
    ///
    /// Each location is painted along the circle interpolated between the two, later circles over
    /// earlier ones. Before the start circle and past the end circle nothing is painted unless
    /// `options` extends the end colours. Global alpha, blend mode and clip apply; the path is kept.
    public func drawRadialGradient(
        _ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat, endCenter: CGPoint, endRadius: CGFloat,
        options: CGGradientDrawingOptions
    ) {
        guard startRadius.isFinite, endRadius.isFinite else { return }
        let r0 = Double(max(0, startRadius)), r1 = Double(max(0, endRadius))
        let dx = Double(endCenter.x - startCenter.x), dy = Double(endCenter.y - startCenter.y)
        let dr = r1 - r0
        let speed = max(abs(dr), (dx * dx + dy * dy).squareRoot())
        guard speed > 0, speed.isFinite else { return }
        // Far enough along that the circle has left the clip; stop where the radius reaches 0.
        let reach = 2 * (farthestClipCorner(from: startCenter) + r0 + r1 + speed) / speed + 1
        let before = dr > 0 ? max(-reach, -r0 / dr) : -reach
        let after = dr < 0 ? min(1 + reach, r0 / -dr) : 1 + reach
        let (ta, tb, extend) = extent(options: options, before: before, after: after)
        let circle = { (t: Double) -> (Double, Double, Double) in
            (Double(startCenter.x) + t * dx, Double(startCenter.y) + t * dy, max(0, r0 + t * dr))
        }
        let (x0, y0, a) = circle(ta)
        let (x1, y1, b) = circle(tb)
        guard let pattern = cairo_pattern_create_radial(x0, y0, a, x1, y1, b) else { return }
        fillClip(with: pattern, gradient: gradient, ta: ta, tb: tb, extend: extend)
    }

    /// The parameter range a gradient pattern spans and its extend mode for `options`.
    ///
    /// Both options use Cairo's padding; one option stretches the pattern's far end out to
    /// `before` or `after` (beyond the clip) with no padding, so only that side extends.
    private func extent(options: CGGradientDrawingOptions, before: Double, after: Double) -> (
        Double, Double, cairo_extend_t
    ) {
        let drawsBefore = options.contains(.drawsBeforeStartLocation)
        let drawsAfter = options.contains(.drawsAfterEndLocation)
        if drawsBefore && drawsAfter { return (0, 1, CAIRO_EXTEND_PAD) }
        // Pixman leaves a pixel sampled exactly at an unpadded end transparent; a hair more keeps
        // the ends inclusive, as Core Graphics paints them.
        let hair = 1e-4
        return (drawsBefore ? before : -hair, drawsAfter ? after : 1 + hair, CAIRO_EXTEND_NONE)
    }

    /// Paints the clip with `pattern` (consumed), its stops `gradient`'s re-mapped from 0…1 to `ta`…`tb`.
    private func fillClip(
        with pattern: OpaquePointer, gradient: CGGradient, ta: Double, tb: Double, extend: cairo_extend_t
    ) {
        defer { cairo_pattern_destroy(pattern) }
        let span = tb - ta
        let alpha = Double(state.alpha)
        // Unpadded, Pixman fades to transparent outside the stops: hold the end colours out to 0 and 1.
        var stops = gradient.stops.map {
            CGGradient.Stop(
                location: ($0.location - ta) / span, red: $0.red, green: $0.green, blue: $0.blue, alpha: $0.alpha)
        }
        if let first = stops.first, first.location > 0 {
            stops.insert(
                CGGradient.Stop(location: 0, red: first.red, green: first.green, blue: first.blue, alpha: first.alpha),
                at: 0)
        }
        if let last = stops.last, last.location < 1 {
            stops.append(
                CGGradient.Stop(location: 1, red: last.red, green: last.green, blue: last.blue, alpha: last.alpha))
        }
        for stop in stops {
            cairo_pattern_add_color_stop_rgba(
                pattern, stop.location, stop.red, stop.green, stop.blue, stop.alpha * alpha)
        }
        cairo_pattern_set_extend(pattern, extend)
        paint(covering: nil) {
            cairo_set_source(cairo, pattern)
            cairo_paint(cairo)
        }
    }

    /// The distance in user space from `point` to the clip bounding box's farthest corner.
    private func farthestClipCorner(from point: CGPoint) -> Double {
        let box = boundingBoxOfClipPath
        let xs = [Double(box.minX), Double(box.maxX)], ys = [Double(box.minY), Double(box.maxY)]
        var farthest = 0.0
        for x in xs {
            for y in ys {
                let dx = x - Double(point.x), dy = y - Double(point.y)
                farthest = max(farthest, (dx * dx + dy * dy).squareRoot())
            }
        }
        return farthest
    }
}

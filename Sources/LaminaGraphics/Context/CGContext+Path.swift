import CCairo
import Foundation

extension CGContext {
    /// Discards the current path.
    public func beginPath() {
        cairo_new_path(cairo)
    }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint) {
        cairo_move_to(cairo, Double(point.x), Double(point.y))
    }

    /// Adds a straight line from the current point to `point`; without a current point, nothing
    /// is added (Core Graphics reports "no current point" and ignores the call).
    public func addLine(to point: CGPoint) {
        guard cairo_has_current_point(cairo) != 0 else { return }
        cairo_line_to(cairo, Double(point.x), Double(point.y))
    }

    /// Adds a move to the first point and lines through the rest.
    public func addLines(between points: [CGPoint]) {
        guard let first = points.first else { return }
        move(to: first)
        for point in points.dropFirst() { addLine(to: point) }
    }

    /// Adds a cubic Bézier curve from the current point to `end`; without a current point, nothing is added.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        guard cairo_has_current_point(cairo) != 0 else { return }
        cairo_curve_to(
            cairo, Double(control1.x), Double(control1.y), Double(control2.x), Double(control2.y), Double(end.x),
            Double(end.y))
    }

    /// Adds a quadratic Bézier curve from the current point to `end` (as the equal cubic curve);
    /// without a current point, nothing is added.
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        guard cairo_has_current_point(cairo) != 0 else { return }
        let start = currentPointOfPath
        let c1 = CGPoint(x: start.x + 2 / 3 * (control.x - start.x), y: start.y + 2 / 3 * (control.y - start.y))
        let c2 = CGPoint(x: end.x + 2 / 3 * (control.x - end.x), y: end.y + 2 / 3 * (control.y - end.y))
        addCurve(to: end, control1: c1, control2: c2)
    }

    /// Adds an arc of a circle, preceded by a line from the current point to the arc's start if there is one.
    ///
    /// Angles are in radians from the positive x-axis. `clockwise` is meant in a y-up space:
    /// `clockwise: false` sweeps towards increasing angles, counter-clockwise on screen in an
    /// unflipped context; in a flipped (y-down) context, such as a layer's, the arc appears the
    /// other way round on screen, as Apple documents for flipped coordinate systems.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        if clockwise {
            cairo_arc_negative(
                cairo, Double(center.x), Double(center.y), Double(radius), Double(startAngle), Double(endAngle))
        } else {
            cairo_arc(cairo, Double(center.x), Double(center.y), Double(radius), Double(startAngle), Double(endAngle))
        }
    }

    /// Adds a line and an arc of `radius` tangent to the line from the current point to
    /// `tangent1End` and the line from `tangent1End` to `tangent2End`.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        guard cairo_has_current_point(cairo) != 0 else { return }
        let path = CGMutablePath()
        path.move(to: currentPointOfPath)
        path.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius)
        append(path.pathElements.dropFirst())
    }

    /// Adds a closed rectangle: a move to its minimum corner, three lines and a close.
    public func addRect(_ rect: CGRect) {
        let r = rect.standardized
        guard !r.isNull, !r.isInfinite else { return }
        cairo_rectangle(cairo, Double(r.minX), Double(r.minY), Double(r.width), Double(r.height))
    }

    /// Adds each rectangle as a closed subpath.
    public func addRects(_ rects: [CGRect]) {
        for rect in rects { addRect(rect) }
    }

    /// Adds the ellipse inscribed in `rect` as a closed subpath of four Bézier curves.
    public func addEllipse(in rect: CGRect) {
        let path = CGMutablePath()
        path.addEllipse(in: rect)
        append(path.pathElements[...])
    }

    /// Adds `path`'s elements, in user space, to the current path.
    public func addPath(_ path: CGPath) {
        append(path.pathElements[...])
    }

    /// Closes the current subpath with a line back to its start.
    public func closePath() {
        cairo_close_path(cairo)
    }

    /// The smallest rectangle in user space holding every point of the current path, Bézier control
    /// points included (Apple's definition); `CGRect.null` when the path is empty.
    public var boundingBoxOfPath: CGRect {
        guard let path = cairo_copy_path(cairo) else { return .null }
        defer { cairo_path_destroy(path) }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var i = 0
        let count = Int(path.pointee.num_data)
        while i < count {
            let header = path.pointee.data[i].header
            let length = Int(header.length)
            if header.type != CAIRO_PATH_CLOSE_PATH {
                for k in 1..<max(1, length) {
                    let p = path.pointee.data[i + k].point
                    minX = min(minX, p.x)
                    minY = min(minY, p.y)
                    maxX = max(maxX, p.x)
                    maxY = max(maxY, p.y)
                }
            }
            i += max(1, length)
        }
        guard minX <= maxX else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The current point in user space; `.zero` when the path is empty.
    public var currentPointOfPath: CGPoint {
        guard cairo_has_current_point(cairo) != 0 else { return .zero }
        var x = 0.0, y = 0.0
        cairo_get_current_point(cairo, &x, &y)
        return CGPoint(x: x, y: y)
    }

    /// Whether the current path has no elements.
    public var isPathEmpty: Bool {
        guard let path = cairo_copy_path(cairo) else { return true }
        defer { cairo_path_destroy(path) }
        return path.pointee.num_data == 0
    }

    /// Appends path elements (user space) to Cairo's current path.
    func append(_ elements: ArraySlice<PathElement>) {
        for element in elements {
            switch element {
            case .moveTo(let p): move(to: p)
            case .lineTo(let p): addLine(to: p)
            case .quadCurveTo(let p, let c): addQuadCurve(to: p, control: c)
            case .curveTo(let p, let c1, let c2): addCurve(to: p, control1: c1, control2: c2)
            case .closeSubpath: closePath()
            }
        }
    }

    /// Runs `body` with the current path kept: it is copied before and put back after.
    func preservingPath(_ body: () -> Void) {
        let saved = cairo_copy_path(cairo)
        cairo_new_path(cairo)
        body()
        cairo_new_path(cairo)
        if let saved {
            cairo_append_path(cairo, saved)
            cairo_path_destroy(saved)
        }
    }
}

import Foundation

/// An immutable graphics path, mirroring Core Graphics' `CGPath`, as a pure value.
///
/// A path is a list of `PathElement`s forming subpaths, each begun by a move. Instances never
/// change once built (only a `CGMutablePath` does, through its own methods), so sharing one
/// across threads is safe. Two paths are equal when their elements are equal, as Core Graphics'
/// `CGPathEqualToPath` compares them; a mutable and an immutable path can be equal.
public class CGPath: @unchecked Sendable, Hashable {
    /// The elements in order. Every subpath starts with `.moveTo`.
    public fileprivate(set) var pathElements: [PathElement]

    /// Creates a path holding `pathElements`.
    init(pathElements: [PathElement]) {
        self.pathElements = pathElements
    }

    /// Creates an immutable path of a rectangle, optionally transformed.
    ///
    /// The elements are those of `CGMutablePath.addRect(_:transform:)`. As on Apple platforms the
    /// transform is passed by pointer (`transform: &t`) or nil.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
        let path = CGMutablePath()
        path.addRect(rect, transform: transform?.pointee ?? .identity)
        self.init(pathElements: path.pathElements)
    }

    /// Creates an immutable path of the ellipse inscribed in `rect`, optionally transformed.
    ///
    /// The elements are those of `CGMutablePath.addEllipse(in:transform:)`.
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
        let path = CGMutablePath()
        path.addEllipse(in: rect, transform: transform?.pointee ?? .identity)
        self.init(pathElements: path.pathElements)
    }

    /// Creates an immutable path of a rounded rectangle, optionally transformed.
    ///
    /// The elements are those of `CGMutablePath.addRoundedRect(in:cornerWidth:cornerHeight:transform:)`.
    public convenience init(
        roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
        transform: UnsafePointer<CGAffineTransform>? = nil
    ) {
        let path = CGMutablePath()
        path.addRoundedRect(
            in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight,
            transform: transform?.pointee ?? .identity)
        self.init(pathElements: path.pathElements)
    }

    /// Whether the path has no elements.
    public var isEmpty: Bool {
        pathElements.isEmpty
    }

    /// The point where the next element would start: the last end point, or the start of the
    /// subpath just closed; `.zero` for an empty path, as on Apple platforms.
    public var currentPoint: CGPoint {
        currentPointIfAny ?? .zero
    }

    /// The smallest rectangle containing every point of every element, control points included.
    ///
    /// `CGRect.null` for an empty path, as on Apple platforms.
    public var boundingBox: CGRect {
        Self.bounds(of: pathElements.flatMap(\.points))
    }

    /// The smallest rectangle containing the path itself: end points, move points and the
    /// extreme points of every curve, but not control points that the curve does not reach.
    ///
    /// `CGRect.null` for an empty path.
    public var boundingBoxOfPath: CGRect {
        var points: [CGPoint] = []
        var current = SIMD2<Double>(0, 0)
        var start = current
        for element in pathElements {
            switch element {
            case .moveTo(let p):
                current = SIMD2<Double>(p.x, p.y)
                start = current
                points.append(p)
            case .lineTo(let p):
                current = SIMD2<Double>(p.x, p.y)
                points.append(p)
            case .quadCurveTo, .curveTo:
                let segment = PathSegment(from: current, element: element)
                points += segment.extremePoints.map { CGPoint(x: $0.x, y: $0.y) }
                current = segment.end
            case .closeSubpath:
                current = start
            }
        }
        return Self.bounds(of: points)
    }

    /// Whether `point` lies inside the area the path encloses under `rule`.
    ///
    /// The point is mapped by `transform` first (Apple: "an affine transform to apply to the
    /// point before checking"). Every subpath counts as closed. Curves are flattened to within
    /// 1e-4 of their true position, so a point that close to the outline may go either way.
    public func contains(
        _ point: CGPoint, using rule: CGPathFillRule = .winding, transform: CGAffineTransform = .identity
    ) -> Bool {
        let p = point.applying(transform)
        let px = Double(p.x)
        let py = Double(p.y)
        var winding = 0
        func edge(_ a: SIMD2<Double>, _ b: SIMD2<Double>) {
            let side = (b.x - a.x) * (py - a.y) - (px - a.x) * (b.y - a.y)
            if a.y <= py {
                if b.y > py && side > 0 { winding += 1 }
            } else if b.y <= py && side < 0 {
                winding -= 1
            }
        }
        for subpath in subpathSegments(closingOpenSubpaths: true) {
            for segment in subpath {
                let polyline = segment.flattened(tolerance: 1e-4)
                for i in 1..<polyline.count { edge(polyline[i - 1], polyline[i]) }
            }
        }
        switch rule {
        case .winding: return winding != 0
        case .evenOdd: return winding % 2 != 0
        }
    }

    /// An immutable copy with the same elements.
    public func copy() -> CGPath? {
        CGPath(pathElements: pathElements)
    }

    /// An immutable copy with every point mapped by `transform` (the identity when nil).
    public func copy(using transform: CGAffineTransform?) -> CGPath? {
        guard let transform else { return copy() }
        return CGPath(pathElements: pathElements.map { $0.applying(transform) })
    }

    /// A mutable copy with the same elements.
    public func mutableCopy() -> CGMutablePath? {
        let path = CGMutablePath()
        path.pathElements = pathElements
        return path
    }

    /// Whether the two paths have equal elements.
    public static func == (lhs: CGPath, rhs: CGPath) -> Bool {
        lhs.pathElements == rhs.pathElements
    }

    /// Hashes the elements.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(pathElements)
    }

    // MARK: - Internals shared with the keyframe timelines

    /// The current point, or nil for an empty path.
    var currentPointIfAny: CGPoint? {
        guard let last = pathElements.last else { return nil }
        if case .closeSubpath = last { return subpathStart }
        return last.points.last
    }

    /// The point of the last `.moveTo`, or nil when there is none.
    var subpathStart: CGPoint? {
        for element in pathElements.reversed() {
            if case .moveTo(let p) = element { return p }
        }
        return nil
    }

    /// True when the last subpath is open (elements follow a move and no close ends them).
    var hasOpenSubpath: Bool {
        guard let last = pathElements.last else { return false }
        if case .closeSubpath = last { return false }
        return true
    }

    /// The drawn pieces of each subpath in order: one segment per line, curve and close (a close
    /// is a line back to the subpath's start, possibly of zero length). With
    /// `closingOpenSubpaths`, an open subpath also gets a closing line, as filling treats it.
    func subpathSegments(closingOpenSubpaths: Bool) -> [[PathSegment]] {
        var result: [[PathSegment]] = []
        var current: [PathSegment] = []
        var point = SIMD2<Double>(0, 0)
        var start = point
        var open = false
        func finish() {
            if closingOpenSubpaths && open && point != start {
                current.append(PathSegment(points: [point, start]))
            }
            if !current.isEmpty { result.append(current) }
            current = []
            open = false
        }
        for element in pathElements {
            switch element {
            case .moveTo(let p):
                finish()
                point = SIMD2<Double>(p.x, p.y)
                start = point
                open = true
            case .lineTo, .quadCurveTo, .curveTo:
                let segment = PathSegment(from: point, element: element)
                current.append(segment)
                point = segment.end
                open = true
            case .closeSubpath:
                current.append(PathSegment(points: [point, start]))
                point = start
                open = false
                finish()
            }
        }
        finish()
        return result
    }

    /// The smallest rectangle containing `points`, or `CGRect.null` when there are none.
    private static func bounds(of points: [CGPoint]) -> CGRect {
        guard let first = points.first else { return .null }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points.dropFirst() {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

/// A path that can be extended, mirroring Core Graphics' `CGMutablePath`.
///
/// Every method takes an optional `transform` that maps the new points before they are added
/// (default identity). Methods that continue a subpath (lines, curves, tangent arcs) do nothing
/// when the path has no current point, as Core Graphics does (it only logs). After
/// `closeSubpath()`, continuing with a line or curve first adds an explicit `.moveTo` to the
/// closed subpath's start, so every subpath in `pathElements` begins with a move.
public final class CGMutablePath: CGPath, @unchecked Sendable {
    /// Creates an empty mutable path.
    public init() {
        super.init(pathElements: [])
    }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        pathElements.append(.moveTo(point.mapped(by: transform)))
    }

    /// Adds a straight line from the current point to `point`.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        guard beginContinuation() else { return }
        pathElements.append(.lineTo(point.mapped(by: transform)))
    }

    /// Starts a new subpath at the first point and adds lines through the others; nothing for an
    /// empty array.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first, transform: transform)
        for p in points.dropFirst() { pathElements.append(.lineTo(p.applying(transform))) }
    }

    /// Adds a quadratic Bézier curve from the current point to `end`.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        guard beginContinuation() else { return }
        pathElements.append(.quadCurveTo(end.mapped(by: transform), control: control.mapped(by: transform)))
    }

    /// Adds a cubic Bézier curve from the current point to `end`.
    public func addCurve(
        to end: CGPoint, control1: CGPoint, control2: CGPoint, transform: CGAffineTransform = .identity
    ) {
        guard beginContinuation() else { return }
        pathElements.append(
            .curveTo(
                end.mapped(by: transform), control1: control1.mapped(by: transform),
                control2: control2.mapped(by: transform))
        )
    }

    /// Adds an arc of the circle around `center`, preceded by a line from the current point to the
    /// arc's start (or a move there when the path has no current point).
    ///
    /// Angles are in radians from the positive x axis; the point at angle `a` is
    /// `center + radius·(cos a, sin a)`. As in Core Graphics, `clockwise: false` sweeps towards
    /// increasing angles and `clockwise: true` towards decreasing ones. "Clockwise" is Apple's
    /// name for the y-up space of Core Graphics; in Lamina's y-down layer space (iOS orientation,
    /// decisions.md A14) increasing angles turn clockwise on screen, so `clockwise: false` draws
    /// clockwise there, exactly as it does on iOS. The sweep is `end − start` reduced modulo 2π
    /// into `[0, 2π)` in the chosen direction, or a full circle when the difference in that
    /// direction is 2π or more (so `0` to `2π` with `clockwise: true` draws nothing). The arc is
    /// approximated by cubic curves of at most 90° each. A negative radius adds nothing.
    public func addArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
        transform: CGAffineTransform = .identity
    ) {
        guard radius >= 0, startAngle.isFinite, endAngle.isFinite else { return }
        let fullTurn = 2 * Double.pi
        let difference = clockwise ? Double(startAngle - endAngle) : Double(endAngle - startAngle)
        var sweep = difference >= fullTurn ? fullTurn : difference.truncatingRemainder(dividingBy: fullTurn)
        if sweep < 0 { sweep += fullTurn }
        if sweep >= fullTurn && difference < fullTurn { sweep = 0 }
        addArcPieces(
            center: center, radius: radius, startAngle: Double(startAngle),
            sweep: clockwise ? -sweep : sweep, transform: transform, connect: true)
    }

    /// Adds an arc of `delta` radians starting at `startAngle` (positive `delta` towards
    /// increasing angles), preceded by a line from the current point as `addArc` is.
    public func addRelativeArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat, transform: CGAffineTransform = .identity
    ) {
        guard radius >= 0, startAngle.isFinite, delta.isFinite else { return }
        addArcPieces(
            center: center, radius: radius, startAngle: Double(startAngle), sweep: Double(delta),
            transform: transform, connect: true)
    }

    /// Adds a line and an arc of `radius` tangent to the lines from the current point to
    /// `tangent1End` and from `tangent1End` to `tangent2End`, ending at the second tangent point.
    ///
    /// Needs a current point. When the three points are collinear, two coincide or the radius is
    /// 0, only a line to `tangent1End` is added. The current point is mapped back through the
    /// inverse of `transform` to build the arc in user space.
    public func addArc(
        tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat, transform: CGAffineTransform = .identity
    ) {
        guard let current = currentPointIfAny else { return }
        let inverse = transform.inverted()
        let p0 = SIMD2<Double>(Double(current.applying(inverse).x), Double(current.applying(inverse).y))
        let p1 = SIMD2<Double>(Double(tangent1End.x), Double(tangent1End.y))
        let p2 = SIMD2<Double>(Double(tangent2End.x), Double(tangent2End.y))
        let v1 = p0 - p1
        let v2 = p2 - p1
        let l1 = (v1 * v1).sum().squareRoot()
        let l2 = (v2 * v2).sum().squareRoot()
        let r = Double(radius)
        let cross = v1.x * v2.y - v1.y * v2.x
        guard r > 0, l1 > 0, l2 > 0, abs(cross) > 1e-12 * l1 * l2 else {
            addLine(to: tangent1End, transform: transform)
            return
        }
        let u1 = v1 / l1
        let u2 = v2 / l2
        let angle = acos(max(-1, min(1, (u1 * u2).sum())))
        let reach = r / tan(angle / 2)
        let t1 = p1 + u1 * reach
        let t2 = p1 + u2 * reach
        let bisector = u1 + u2
        let center = p1 + bisector / (bisector * bisector).sum().squareRoot() * (r / sin(angle / 2))
        let a1 = atan2(t1.y - center.y, t1.x - center.x)
        let a2 = atan2(t2.y - center.y, t2.x - center.x)
        var sweep = a2 - a1
        if sweep > Double.pi { sweep -= 2 * Double.pi }
        if sweep < -Double.pi { sweep += 2 * Double.pi }
        addLine(to: CGPoint(x: t1.x, y: t1.y), transform: transform)
        addArcPieces(
            center: CGPoint(x: center.x, y: center.y), radius: CGFloat(r), startAngle: a1, sweep: sweep,
            transform: transform, connect: false)
    }

    /// Adds a closed rectangle as a new subpath: a move to (minX, minY), lines to (maxX, minY),
    /// (maxX, maxY) and (minX, maxY), and a close. The rectangle is standardised first; a null
    /// or infinite rectangle adds nothing.
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        guard !rect.isNull, !rect.isInfinite else { return }
        let r = rect.standardized
        pathElements.append(.moveTo(CGPoint(x: r.minX, y: r.minY).applying(transform)))
        pathElements.append(.lineTo(CGPoint(x: r.maxX, y: r.minY).applying(transform)))
        pathElements.append(.lineTo(CGPoint(x: r.maxX, y: r.maxY).applying(transform)))
        pathElements.append(.lineTo(CGPoint(x: r.minX, y: r.maxY).applying(transform)))
        pathElements.append(.closeSubpath)
    }

    /// Adds each rectangle as `addRect(_:transform:)` does.
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for rect in rects { addRect(rect, transform: transform) }
    }

    /// Adds the ellipse inscribed in `rect` as a new closed subpath of four cubic curves.
    ///
    /// It starts at (maxX, midY) and passes (midX, maxY), (minX, midY) and (midX, minY): towards
    /// increasing angles, which is clockwise on screen in Lamina's y-down space (Apple documents
    /// the ellipse as clockwise). Each quarter uses the control distance `0.5523 × radius`
    /// (`4/3·(√2 − 1)`). A null or infinite rectangle adds nothing.
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        guard !rect.isNull, !rect.isInfinite else { return }
        let r = rect.standardized
        let rx = Double(r.width) / 2
        let ry = Double(r.height) / 2
        let cx = Double(r.midX)
        let cy = Double(r.midY)
        let k = 4.0 / 3.0 * (2.0.squareRoot() - 1)
        func p(_ x: Double, _ y: Double) -> CGPoint { CGPoint(x: cx + x, y: cy + y).applying(transform) }
        pathElements.append(.moveTo(p(rx, 0)))
        pathElements.append(.curveTo(p(0, ry), control1: p(rx, k * ry), control2: p(k * rx, ry)))
        pathElements.append(.curveTo(p(-rx, 0), control1: p(-k * rx, ry), control2: p(-rx, k * ry)))
        pathElements.append(.curveTo(p(0, -ry), control1: p(-rx, -k * ry), control2: p(-k * rx, -ry)))
        pathElements.append(.curveTo(p(rx, 0), control1: p(k * rx, -ry), control2: p(rx, -k * ry)))
        pathElements.append(.closeSubpath)
    }

    /// Adds a rounded rectangle as a new closed subpath.
    ///
    /// Corners are quarter ellipses of `cornerWidth` by `cornerHeight`, each clamped to
    /// `0...half the side` (Core Graphics requires that range; Lamina clamps instead of failing).
    /// The subpath starts at (minX + cornerWidth, minY) and runs in the direction of `addRect`;
    /// with a zero corner size it is exactly `addRect`'s rectangle.
    public func addRoundedRect(
        in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: CGAffineTransform = .identity
    ) {
        guard !rect.isNull, !rect.isInfinite else { return }
        let r = rect.standardized
        let w = min(max(Double(cornerWidth), 0), Double(r.width) / 2)
        let h = min(max(Double(cornerHeight), 0), Double(r.height) / 2)
        guard w > 0, h > 0, w.isFinite, h.isFinite else {
            addRect(r, transform: transform)
            return
        }
        let (x0, y0, x1, y1) = (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
        let k = 1 - 4.0 / 3.0 * (2.0.squareRoot() - 1)
        func p(_ x: Double, _ y: Double) -> CGPoint { CGPoint(x: x, y: y).applying(transform) }
        pathElements.append(.moveTo(p(x0 + w, y0)))
        pathElements.append(.lineTo(p(x1 - w, y0)))
        pathElements.append(.curveTo(p(x1, y0 + h), control1: p(x1 - k * w, y0), control2: p(x1, y0 + k * h)))
        pathElements.append(.lineTo(p(x1, y1 - h)))
        pathElements.append(.curveTo(p(x1 - w, y1), control1: p(x1, y1 - k * h), control2: p(x1 - k * w, y1)))
        pathElements.append(.lineTo(p(x0 + w, y1)))
        pathElements.append(.curveTo(p(x0, y1 - h), control1: p(x0 + k * w, y1), control2: p(x0, y1 - k * h)))
        pathElements.append(.lineTo(p(x0, y0 + h)))
        pathElements.append(.curveTo(p(x0 + w, y0), control1: p(x0, y0 + k * h), control2: p(x0 + k * w, y0)))
        pathElements.append(.closeSubpath)
    }

    /// Appends the elements of `path`, mapped by `transform`.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        pathElements += path.pathElements.map { $0.applying(transform) }
    }

    /// Closes the current subpath with a line back to its start; nothing when no subpath is open.
    public func closeSubpath() {
        guard hasOpenSubpath else { return }
        pathElements.append(.closeSubpath)
    }

    /// Prepares to continue the current subpath: false when there is no current point; after a
    /// close, adds a move to the closed subpath's start.
    private func beginContinuation() -> Bool {
        guard let last = pathElements.last else { return false }
        if case .closeSubpath = last, let start = subpathStart {
            pathElements.append(.moveTo(start))
        }
        return true
    }

    /// Appends an arc of `sweep` radians from `startAngle` as cubic pieces of at most 90°; with
    /// `connect`, first a line from the current point to the arc's start (or a move there when
    /// there is no current point), skipped when the two coincide.
    private func addArcPieces(
        center: CGPoint, radius: CGFloat, startAngle: Double, sweep: Double, transform: CGAffineTransform, connect: Bool
    ) {
        let c = SIMD2<Double>(Double(center.x), Double(center.y))
        let r = Double(radius)
        func point(_ a: Double) -> SIMD2<Double> { c + r * SIMD2<Double>(cos(a), sin(a)) }
        func mapped(_ v: SIMD2<Double>) -> CGPoint { CGPoint(x: v.x, y: v.y).applying(transform) }
        let start = mapped(point(startAngle))
        if connect {
            if let current = currentPointIfAny {
                if current != start {
                    _ = beginContinuation()
                    pathElements.append(.lineTo(start))
                }
            } else {
                pathElements.append(.moveTo(start))
            }
        }
        guard sweep != 0, sweep.isFinite else { return }
        _ = beginContinuation()
        // One cubic per quarter turn; a sweep of more than 1,024 turns uses longer, coarser pieces
        // rather than an unbounded number of them.
        let quarterTurns = (abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up)
        let pieces = Int(min(4096, max(1, quarterTurns)))
        let step = sweep / Double(pieces)
        let k = 4.0 / 3.0 * tan(step / 4)
        for i in 0..<pieces {
            let a0 = startAngle + step * Double(i)
            let a1 = i == pieces - 1 ? startAngle + sweep : a0 + step
            let p0 = point(a0)
            let p3 = point(a1)
            let c1 = p0 + k * r * SIMD2<Double>(-sin(a0), cos(a0))
            let c2 = p3 - k * r * SIMD2<Double>(-sin(a1), cos(a1))
            pathElements.append(.curveTo(mapped(p3), control1: mapped(c1), control2: mapped(c2)))
        }
    }
}

extension CGPoint {
    /// The point mapped by `t`; the identity leaves it as it is, so an infinite coordinate stays
    /// infinite rather than becoming NaN through 0 × ∞ (a path decoded from the wire then encodes back
    /// to the same bytes, and the server names the infinite point when it refuses it).
    fileprivate func mapped(by t: CGAffineTransform) -> CGPoint { t.isIdentity ? self : applying(t) }
}

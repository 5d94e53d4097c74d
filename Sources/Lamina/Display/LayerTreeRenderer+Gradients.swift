import Foundation

extension LayerTreeRenderer {
    /// The most pixels along either side of a gradient drawn by `render(in:)`.
    static let maxGradientPixels = 4096

    /// Draws a gradient layer's gradient as the server does: over the background, under the contents,
    /// filling the bounds shaped by the rounded corners (with or without `masksToBounds`); axial,
    /// radial or conic; stops placed by `locations` (evenly without), made non-decreasing; colours
    /// mixed on their unpremultiplied components, then premultiplied (white to clear has a grey
    /// middle). Nothing is drawn with fewer than two colours, a `locations` count other than the
    /// colours', coinciding axial points or a radial gradient whose points share an x or a y. The
    /// gradient is computed per pixel of the context's device space, so it is exact at any scale.
    static func drawGradient(_ layer: CAGradientLayer, shape: LayerShape, in ctx: CGContext, alpha: CGFloat) {
        let state = layer.modelState
        let bounds = state.bounds.standardized
        guard let stops = gradientStops(state.gradient), let t = gradientParameter(state.gradient, in: bounds)
        else { return }
        let device = ctx.userSpaceToDeviceSpaceTransform
        let sx = hypot(device.a, device.b), sy = hypot(device.c, device.d)
        guard sx.isFinite, sy.isFinite, sx > 0, sy > 0 else { return }
        let width = min(Int((bounds.width * sx).rounded(.up)), maxGradientPixels)
        let height = min(Int((bounds.height * sy).rounded(.up)), maxGradientPixels)
        guard width > 0, height > 0 else { return }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for j in 0..<height {
            let y = bounds.minY + (CGFloat(j) + 0.5) * bounds.height / CGFloat(height)
            for i in 0..<width {
                let x = bounds.minX + (CGFloat(i) + 0.5) * bounds.width / CGFloat(width)
                let c = color(of: stops, at: t(CGPoint(x: x, y: y)))
                let a = min(max(c.alpha, 0), 1)
                let o = (j * width + i) * 4
                for (k, v) in [c.red * a, c.green * a, c.blue * a, a].enumerated() {
                    pixels[o + k] = UInt8(max(0, min(255, (min(max(v, 0), 1) * 255 - 0.5).rounded(.up))))
                }
            }
        }
        guard let image = CGImage(width: width, height: height, premultipliedRGBA: pixels) else { return }
        ctx.saveGState()
        defer { ctx.restoreGState() }
        ctx.setAlpha(alpha)
        ctx.addPath(shape.path(in: bounds))
        ctx.clip()
        // The image's first row at the bounds' minimum y (Core Graphics draws it at y = 1 of the unit square).
        ctx.concatenate(
            CGAffineTransform(a: bounds.width, b: 0, c: 0, d: -bounds.height, tx: bounds.minX, ty: bounds.maxY))
        ctx.draw(image, in: CGRect(x: 0, y: 0, width: 1, height: 1))
    }

    /// The stops drawn (as the server's `DisplayListBuilder.gradientStops`): nil for fewer than two
    /// colours or a locations count other than the colours'; locations made non-decreasing.
    static func gradientStops(_ gradient: GradientLayerState) -> [(location: Double, color: RGBAColor)]? {
        guard let colors = gradient.colors, colors.count >= 2 else { return nil }
        let count = colors.count
        let locations = gradient.locations ?? (0..<count).map { Double($0) / Double(count - 1) }
        guard locations.count == count else { return nil }
        var previous = -60_000.0
        return zip(locations, colors).map { location, color in
            previous = location.isNaN ? previous : min(max(location, previous), 60_000)
            return (previous, color)
        }
    }

    /// The gradient parameter at a point of the layer (0 at the first stop's place, 1 at the last's
    /// for even stops): axial, the projection on the axis; radial, the distance in half axes; conic,
    /// the angle from the start direction over a turn, growing clockwise on a y-down screen. Nil when
    /// the gradient draws nothing.
    static func gradientParameter(_ gradient: GradientLayerState, in b: CGRect) -> ((CGPoint) -> Double)? {
        func inLayer(_ u: CGPoint) -> CGPoint { CGPoint(x: b.minX + u.x * b.width, y: b.minY + u.y * b.height) }
        let start = inLayer(gradient.startPoint), end = inLayer(gradient.endPoint)
        let ax = Double(end.x - start.x), ay = Double(end.y - start.y)
        let sx = Double(start.x), sy = Double(start.y)
        switch gradient.type {
        case .radial:
            guard gradient.startPoint.x != gradient.endPoint.x, gradient.startPoint.y != gradient.endPoint.y else {
                return nil
            }
            let (rx, ry) = (1 / abs(ax), 1 / abs(ay))
            guard rx.isFinite, ry.isFinite else { return nil }
            return { p in hypot((Double(p.x) - sx) * rx, (Double(p.y) - sy) * ry) }
        case .conic:
            let angle = ax == 0 && ay == 0 ? 0 : atan2(ay, ax)
            return { p in
                let dx = Double(p.x) - sx, dy = Double(p.y) - sy
                let a = dx == 0 && dy == 0 ? angle : atan2(dy, dx)
                let turns = (a - angle) / (2 * Double.pi)
                return turns - turns.rounded(.down)
            }
        default:
            let squared = ax * ax + ay * ay
            guard squared > 0, squared.isFinite else { return nil }
            return { p in ((Double(p.x) - sx) * ax + (Double(p.y) - sy) * ay) / squared }
        }
    }

    /// The unpremultiplied colour of `stops` at `t`: the end colours continue past the ends; between
    /// two stops their components are mixed linearly; two stops at one place make a hard edge.
    static func color(of stops: [(location: Double, color: RGBAColor)], at t: Double) -> RGBAColor {
        guard t > stops[0].location else { return stops[0].color }
        for i in 0..<(stops.count - 1) where t < stops[i + 1].location {
            let (a, b) = (stops[i], stops[i + 1])
            let k = b.location > a.location ? (t - a.location) / (b.location - a.location) : 1
            func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * k }
            return RGBAColor(
                red: mix(a.color.red, b.color.red), green: mix(a.color.green, b.color.green),
                blue: mix(a.color.blue, b.color.blue), alpha: mix(a.color.alpha, b.color.alpha))
        }
        return stops[stops.count - 1].color
    }
}

import Foundation
import LaminaCore

/// Shadows: a layer's shadow drawn by the `shadow` draw kind before its background (App. A: the
/// shadow sits under the layer), blurred in closed form (docs/rendering.md, "Shadows").
///
/// The shape is `shadowPath` when it is a rectangle, a rounded rectangle or an ellipse (as
/// `CGPath(rect:)`, `CGPath(roundedRect:cornerWidth:cornerHeight:)` and `CGPath(ellipseIn:)` build
/// them, in any direction of construction Lamina's `CGPath` uses), or without a `shadowPath` the layer's
/// rounded bounds when they are exactly what the layer draws (`boundsShape`). It is moved by
/// `shadowOffset` in the layer's space and blurred with a Gaussian whose standard deviation is
/// `shadowRadius` (at least half a device pixel, so a radius of 0 gives an anti-aliased hard edge).
/// Its alpha is `shadowOpacity` × the colour's alpha × the layer's inherited opacity (the background's
/// alpha too, for a background-only layer). The layer's own `masksToBounds` clips its shadow to its
/// rounded bounds, as on Apple platforms (spec §2.5, E09); a superlayer's clip cuts it like any
/// content.
///
/// An arbitrary `shadowPath` is filled with Cairo and blurred on the CPU (`drawRasterShadow`). A
/// layer without a `shadowPath` whose drawn alpha is not its rounded bounds casts the blurred alpha of
/// its drawing, through offscreen passes (`drawPassShadow`).
extension DisplayListBuilder {
    /// A shape the closed form draws: a box whose corners are quarter ellipses of `rx` by `ry`, rounded
    /// where `corners` says, and an alpha that scales the shadow (a translucent background's).
    struct ShadowShape: Equatable {
        var rect: CGRect
        var rx: CGFloat
        var ry: CGFloat
        var corners: CACornerMask
        var alpha: Double = 1

        /// A rectangle.
        static func box(_ rect: CGRect) -> ShadowShape { ShadowShape(rect: rect, rx: 0, ry: 0, corners: []) }
    }

    /// The most strips a corner band is cut into (the shader's loop bound is higher).
    static let maxShadowStrips = 48
    /// The widest blur drawn, in layer units: a Gaussian this wide is flat over any display.
    static let maxShadowSigma: CGFloat = 10_000

    /// Draws the shadow of `presented` (whose state is `state`) under it: `opacity` is the layer's
    /// inherited opacity, `clip` the superlayer's clip.
    mutating func drawShadow(
        _ presented: Presented, radius: CGFloat, opacity: Double, toDevice m: CATransform3D, clip parentClip: Clip,
        in context: DrawContext
    ) {
        let state = presented.state
        let shadow = state.shadow
        guard shadow.opacity > 0, let color = shadow.color, color.alpha > 0 else { return }
        let shape: ShadowShape?
        if let path = shadow.path {
            shape = Self.shadowShape(of: path)
        } else {
            shape = Self.boundsShape(presented, radius: radius, in: context)
        }
        guard let clip = Self.ownClip(parentClip, of: state, radius: radius, toDevice: m) else { return }
        if shape == nil, let path = shadow.path {
            return drawRasterShadow(
                path, shadow: shadow, color: color, opacity: Double(min(shadow.opacity, 1)) * opacity, toDevice: m,
                clip: clip)
        }
        if let shape {
            return drawShadowShape(shape, presented, opacity: opacity, toDevice: m, clip: clip)
        }
        guard !passShadowsExhausted else {
            // Over the frame's pass budget: the closed form of the rounded bounds stands in, so a crowded
            // frame keeps its shadows (docs/rendering.md, "Shadows").
            list.passShadowsApproximated += 1
            return drawShadowShape(
                Self.roundedBoundsShape(state, radius: radius), presented, opacity: opacity, toDevice: m, clip: clip)
        }
        let scale = max(1e-6, min(hypot(m.m11, m.m12), hypot(m.m21, m.m22)) / max(abs(m.m44), 1e-6))
        drawPassShadow(
            presented, color: color, alpha: Double(min(shadow.opacity, 1)) * opacity, scale: scale, clip: clip,
            in: context)
    }

    /// Whether a shadow through passes no longer fits this frame's budget (`maxPasses`, the pass
    /// pixels): `drawPassShadow` would leave it out.
    var passShadowsExhausted: Bool {
        list.passes.count + Self.passesPerShadow > Self.maxPasses
            || passPixels >= Self.passPixelBudget * list.width * list.height
    }

    /// The layer's rounded bounds as a shadow shape of full alpha.
    static func roundedBoundsShape(_ state: LayerState, radius: CGFloat) -> ShadowShape {
        let r = max(radius, 0)
        return ShadowShape(rect: state.bounds, rx: r, ry: r, corners: r > 0 ? state.maskedCorners : [], alpha: 1)
    }

    /// Draws the closed-form shadow of `shape` (layer coordinates) under the layer.
    private mutating func drawShadowShape(
        _ shape: ShadowShape, _ presented: Presented, opacity: Double, toDevice m: CATransform3D, clip: Clip
    ) {
        let shadow = presented.state.shadow
        guard let color = shadow.color else { return }
        guard shape.rect.width > 0, shape.rect.height > 0 else { return }
        let alpha = Double(min(shadow.opacity, 1)) * opacity * shape.alpha
        let premultiplied = color.premultipliedOnEightBitSteps(opacity: alpha)
        guard premultiplied.w > 0 else { return }
        let offset = shadow.offset
        let rect = shape.rect.offsetBy(dx: offset.width, dy: offset.height)
        let scale = max(1e-6, min(hypot(m.m11, m.m12), hypot(m.m21, m.m22)) / max(abs(m.m44), 1e-6))
        // At least half a device pixel, so that a radius of 0 draws an anti-aliased hard edge.
        // At most `maxShadowSigma` (a blur that wide is flat at any display size).
        let sigma = min(max(shadow.radius.isFinite ? shadow.radius : 0, 0.5 / scale), Self.maxShadowSigma)
        // Beyond three standard deviations a straight edge's shadow is below 0.0014: 0 in 8 bits.
        let margin = 3 * sigma + 1 / scale
        let piece = rect.insetBy(dx: -margin, dy: -margin)
        // Hostile but valid sizes (1e300) would reach the shaders as infinities: not drawn.
        guard [piece.minX, piece.minY, piece.maxX, piece.maxY].allSatisfy({ Float($0).isFinite }) else { return }
        guard let box = Self.deviceBoundingBox(piece, m) else { return }
        let drawn = Self.held(box).intersection(clip.deviceRect)
        guard !drawn.isEmpty else { return }
        // Strips per corner band: about two per standard deviation of the band's height, at least 6
        // (1.5 and 4 leave pixels 2/255 off the Gaussian).
        let ratio = (2 * shape.ry / sigma).rounded(.up)
        let strips = ratio.isFinite ? Int(min(max(ratio, 6), CGFloat(Self.maxShadowStrips))) : Self.maxShadowStrips
        func v(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat) -> SIMD4<Float> {
            SIMD4(Float(a), Float(b), Float(c), Float(d))
        }
        let general = clip.general.last
        let instance = ShadowInstance(
            row1: v(m.m11, m.m12, m.m13, m.m14), row2: v(m.m21, m.m22, m.m23, m.m24),
            row4: v(m.m41, m.m42, m.m43, m.m44),
            piece: v(piece.minX, piece.minY, piece.maxX, piece.maxY),
            rect: v(rect.minX, rect.minY, rect.maxX, rect.maxY),
            params: SIMD4(Float(shape.rx), Float(shape.ry), Float(sigma), Float(shape.corners.rawValue & 15)),
            color: premultiplied,
            deviceClip: v(clip.deviceRect.minX, clip.deviceRect.minY, clip.deviceRect.maxX, clip.deviceRect.maxY),
            clip: general ?? .none, flags: SIMD4(general == nil ? 0 : 1, Float(strips), 0, 0))
        emit(instance, kind: DrawKind.shadow.id, box: drawn)
        batcher.endGroup()
    }

    /// The shape of a layer's shadow without a `shadowPath`: its rounded bounds, when those are exactly
    /// the alpha of what it draws. That holds for a background alone (the shadow then takes the
    /// background's alpha), for a gradient of opaque colours, and for an opaque background (or such a
    /// gradient) with a border, gradient or contents inside the rounded bounds and sublayers that stay
    /// inside them (clipped by `masksToBounds`, or leaves without shadows whose frames lie in the
    /// rounded bounds). Nil otherwise: such a layer casts its shadow through passes (`drawPassShadow`).
    static func boundsShape(_ presented: Presented, radius: CGFloat, in context: DrawContext) -> ShadowShape? {
        let state = presented.state
        let bounds = state.bounds
        // What covers the rounded bounds: the background, or a gradient of opaque colours.
        let cover = gradientCoversBounds(state) ? 1 : state.backgroundColor?.alpha ?? 0
        guard !bounds.isEmpty, cover > 0 else { return nil }
        let r = max(radius, 0)
        let rounded = ShadowShape(
            rect: bounds, rx: r, ry: r, corners: r > 0 ? state.maskedCorners : [], alpha: cover)
        let hasContents = state.contents != 0 || state.contentsCrossFade != nil
        let hasBorder = state.borderWidth > 0 && (state.borderColor?.alpha ?? 0) > 0
        let hasOther =
            hasContents || hasBorder || state.layerClass != .layer || !presented.sublayers.isEmpty
            || presented.host != nil
        guard hasOther else { return rounded }
        // Anything else drawn is opaque over some part of the bounds: only an opaque background makes
        // the union's alpha the rounded bounds'.
        guard cover >= 1 else { return nil }
        if state.masksToBounds { return rounded }
        if hasContents && !(state.contentsGravity == .resize && r == 0) { return nil }
        if state.layerClass == .shape || presented.host != nil { return nil }
        for id in presented.sublayers {
            guard let child = context.layers[id] else { continue }
            let s = child.state
            if s.isHidden || s.opacity <= 0 { continue }
            guard child.sublayers.isEmpty, s.layerClass != .shape, s.shadow.opacity <= 0 || s.shadow.color == nil,
                Self.isInside(s.frame, bounds: bounds, radius: r, corners: state.maskedCorners)
            else { return nil }
        }
        return rounded
    }

    /// Draws the shadow of a `shadowPath` without a closed form: the path filled with Cairo in the
    /// layer's plane (`ShapeRasterCache`, so an unchanged shadow is not drawn again), its alpha blurred
    /// on the CPU (`ShadowBlur`), drawn as an image moved by the offset. The raster's scale is the
    /// largest the plane reaches on screen, lowered so that σ is at most `ShadowBlur.maxSigma` raster
    /// pixels (a large blur is drawn small and magnified, which its smoothness hides). Nothing is drawn
    /// without a raster cache (a builder without a renderer).
    mutating func drawRasterShadow(
        _ path: CGPath, shadow: LayerShadowState, color: RGBAColor, opacity: Double, toDevice m: CATransform3D,
        clip: Clip
    ) {
        guard let cache = shapes, !path.isEmpty, path.hasOnlyFinitePoints else { return }
        // The raster cache may evict what a retained list refers to, as for shape layers.
        if retention != nil { retention!.isPatchable = false }
        let alpha = RGBAColor.onEightBitStep(opacity)
        guard alpha > 0 else { return }
        let moved = CATransform3DConcat(
            CATransform3DMakeTranslation(shadow.offset.width, shadow.offset.height, 0), m)
        let bounds = path.boundingBoxOfPath
        guard !bounds.isNull, bounds.width.isFinite, bounds.height.isFinite, bounds.width > 0, bounds.height > 0
        else { return }
        let deviceScale = max(1e-6, min(hypot(m.m11, m.m12), hypot(m.m21, m.m22)) / max(abs(m.m44), 1e-6))
        let sigma = min(max(shadow.radius.isFinite ? shadow.radius : 0, 0.5 / deviceScale), Self.maxShadowSigma)
        let extent = bounds.insetBy(dx: -(3 * sigma + 1 / deviceScale), dy: -(3 * sigma + 1 / deviceScale))
        guard let device = Self.deviceBoundingBox(extent, moved), Self.held(device).intersects(clip.deviceRect)
        else { return }
        let side = CGFloat(Self.maxPerspectiveSide)
        var scale = max(device.width / extent.width, device.height / extent.height)
        scale = min(scale, CGFloat(ShadowBlur.maxSigma) / sigma)
        scale = min(max(scale, 1.0 / 64), 16)
        scale = min(scale, side / extent.width, side / extent.height)
        guard scale.isFinite, scale > 0 else { return }
        let width = max(1, Int((extent.width * scale).rounded(.up)))
        let height = max(1, Int((extent.height * scale).rounded(.up)))
        let toRaster = CGAffineTransform(
            a: scale, b: 0, c: 0, d: scale, tx: -extent.minX * scale, ty: -extent.minY * scale)
        var fill = ShapeLayerState()
        fill.path = path
        fill.fillColor = color
        let key = ShapeRasterKey(
            shape: fill, linear: SIMD4(scale, 0, 0, scale), offset: SIMD2(toRaster.tx, toRaster.ty),
            size: SIMD2(width, height), blur: sigma * scale)
        guard let raster = cache.raster(for: key, transform: toRaster) else { return }
        emitRaster(
            rect: CGRect(
                x: extent.minX, y: extent.minY, width: CGFloat(width) / scale, height: CGFloat(height) / scale),
            sampling: TextureSampling(image: raster.image, filter: .linear), opacity: alpha, toDevice: moved,
            clip: clip)
    }

    /// Whether a gradient layer's gradient covers its rounded bounds with opaque colours: it draws
    /// (as `drawGradient` decides) and every stop is opaque.
    static func gradientCoversBounds(_ state: LayerState) -> Bool {
        guard state.layerClass == .gradient, let stops = gradientStops(state.gradient),
            stops.allSatisfy({ $0.color.alpha >= 1 })
        else { return false }
        let g = state.gradient
        switch g.type {
        case .radial: return g.startPoint.x != g.endPoint.x && g.startPoint.y != g.endPoint.y
        case .conic: return true
        default: return g.startPoint != g.endPoint
        }
    }

    /// Whether `frame` lies inside `bounds` rounded by `radius` at `corners` (a box lies inside the
    /// convex rounded rectangle when its four corners do).
    static func isInside(_ frame: CGRect, bounds: CGRect, radius: CGFloat, corners: CACornerMask) -> Bool {
        guard !frame.isNull, frame.width.isFinite, frame.height.isFinite else { return false }
        let slack: CGFloat = 1e-9
        guard frame.minX >= bounds.minX - slack, frame.maxX <= bounds.maxX + slack, frame.minY >= bounds.minY - slack,
            frame.maxY <= bounds.maxY + slack
        else { return false }
        guard radius > 0 else { return true }
        let points = [
            (CGPoint(x: frame.minX, y: frame.minY), CACornerMask.layerMinXMinYCorner),
            (CGPoint(x: frame.maxX, y: frame.minY), .layerMaxXMinYCorner),
            (CGPoint(x: frame.minX, y: frame.maxY), .layerMinXMaxYCorner),
            (CGPoint(x: frame.maxX, y: frame.maxY), .layerMaxXMaxYCorner),
        ]
        for (p, corner) in points where corners.contains(corner) {
            let cx = p.x < bounds.midX ? bounds.minX + radius : bounds.maxX - radius
            let cy = p.y < bounds.midY ? bounds.minY + radius : bounds.maxY - radius
            let dx = p.x < bounds.midX ? min(p.x - cx, 0) : max(p.x - cx, 0)
            let dy = p.y < bounds.midY ? min(p.y - cy, 0) : max(p.y - cy, 0)
            if dx * dx + dy * dy > radius * radius + slack { return false }
        }
        return true
    }

    /// The closed-form shape of `path`: a rectangle, a rounded rectangle or an ellipse as Lamina's
    /// `CGPath` builds them (compared element by element, within a millionth of the size); nil for any
    /// other path.
    static func shadowShape(of path: CGPath) -> ShadowShape? {
        var rect = CGRect.null
        if path.isRect(&rect) { return .box(rect.standardized) }
        let box = path.boundingBoxOfPath
        guard !box.isNull, box.width > 0, box.height > 0, box.width.isFinite, box.height.isFinite else { return nil }
        let elements = path.pathElements
        let tolerance = max(box.width, box.height) * 1e-6
        if matches(elements, CGPath(ellipseIn: box).pathElements, tolerance) {
            return ShadowShape(rect: box, rx: box.width / 2, ry: box.height / 2, corners: .all)
        }
        // A rounded rectangle starts at (minX + cornerWidth, minY) and reaches (maxX, minY + cornerHeight).
        guard elements.count == 10, case .moveTo(let start) = elements[0], case .curveTo(let end, _, _) = elements[2]
        else { return nil }
        let w = start.x - box.minX, h = end.y - box.minY
        guard w > 0, h > 0 else { return nil }
        let candidate = CGPath(roundedRect: box, cornerWidth: w, cornerHeight: h, transform: nil)
        guard matches(elements, candidate.pathElements, tolerance) else { return nil }
        return ShadowShape(rect: box, rx: w, ry: h, corners: .all)
    }

    /// Whether two element lists are the same elements with points within `tolerance`.
    static func matches(_ a: [PathElement], _ b: [PathElement], _ tolerance: CGFloat) -> Bool {
        guard a.count == b.count else { return false }
        func near(_ p: CGPoint, _ q: CGPoint) -> Bool { abs(p.x - q.x) <= tolerance && abs(p.y - q.y) <= tolerance }
        for (x, y) in zip(a, b) {
            switch (x, y) {
            case (.moveTo(let p), .moveTo(let q)), (.lineTo(let p), .lineTo(let q)):
                guard near(p, q) else { return false }
            case (.curveTo(let p, let c1, let c2), .curveTo(let q, let d1, let d2)):
                guard near(p, q), near(c1, d1), near(c2, d2) else { return false }
            case (.closeSubpath, .closeSubpath):
                continue
            default:
                return false
            }
        }
        return true
    }
}

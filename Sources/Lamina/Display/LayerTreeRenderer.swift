import Foundation

/// Draws a layer tree into a Core Graphics context in this process: the work of
/// `CALayer.render(in:)`, for any layer, whether a context shows it or not, with no server.
///
/// It draws with the rules the render server's display lists follow (App. A), at model values
/// (animations are ignored, as Apple documents for `render(in:)`):
/// - The layer asked is drawn in its own coordinate space: its bounds in the context's user space,
///   without its own `position`, `transform` and `zPosition` (as Apple's values, observed by GNUstep's
///   QuartzCore tests run on macOS, issue 24: a layer with frame (10, 20, 30, 40) paints x [0, 30)
///   y [0, 40) of a bitmap context). Its `opacity` and `isHidden` apply.
/// - Each layer paints its background (shaped by `cornerRadius`, `maskedCorners` and `cornerCurve`),
///   then a gradient layer's gradient (shaped the same way), then its `contents` image (a text
///   layer's glyph coverage multiplied by its `foregroundColor`) placed by `ContentsLayout` (the server's rules for `contentsGravity`,
///   `contentsScale`, `contentsRect` and `contentsCenter`; the image's first row at the layer's
///   minimum y unless its contents are flipped), then its sublayers in `zPosition` order (ties in
///   `sublayers` order), clipped to its rounded bounds when `masksToBounds` is set, then its border,
///   inside the bounds. Nothing is cut at the bounds otherwise.
/// - A sublayer is placed by `position`, `anchorPoint`, `transform` and its superlayer's
///   `sublayerTransform` and `isGeometryFlipped`. A Core Graphics context can only take an affine
///   map, so a 3-D transform is flattened to its affine part (rows and columns 1, 2 and 4, divided
///   by `m44`; a perspective row is dropped), where the server projects it (docs/apple-differences.md).
/// - A layer with `opacity` below 1 is composited as one group through a transparency layer (Core
///   Animation's `allowsGroupOpacity`, on by default; with it off the opacity multiplies each
///   drawing), at the opacity rounded to 8-bit steps as the server rounds it: half opacity paints a
///   red layer (127, 0, 0, 127).
/// - Hidden layers, layers of opacity 0 and layers whose transform collapses the plane draw nothing.
///   A host layer (`CALayerHost`) draws itself but not the tree it shows.
/// - A `CAReplicatorLayer` draws its sublayers once per copy, placed and faded as the server draws
///   them (`LayerTreeRenderer+Replicator.swift`).
/// - A `CAEmitterLayer` draws its particles at its current local time after its contents
///   (`LayerTreeRenderer+Emitter.swift`), from the simulation the server runs.
/// - A `CATransformLayer` draws only its sublayers (no background, contents, border or clip; its
///   opacity multiplies each sublayer, with no group), flattened like every 3-D transform here: a
///   Core Graphics context has no depth to sort them in (docs/apple-differences.md).
enum LayerTreeRenderer {
    /// Draws `layer` (a presentation layer draws its model) and its sublayers into `ctx`.
    static func render(_ layer: CALayer, in ctx: CGContext) {
        ctx.saveGState()
        defer { ctx.restoreGState() }
        draw(layer.model(), in: ctx, alpha: 1, flipped: false)
    }

    /// Draws one layer in `ctx`, whose user space is the layer's own space; `alpha` is the opacity
    /// inherited from superlayers that do not composite as a group, `flipped` whether the layer's
    /// contents are mirrored by its ancestors' `isGeometryFlipped`.
    private static func draw(_ layer: CALayer, in ctx: CGContext, alpha inherited: CGFloat, flipped: Bool) {
        let state = layer.modelState
        guard !state.isHidden, state.opacity > 0, state.opacity.isFinite else { return }
        let opacity = eightBitStep(CGFloat(min(state.opacity, 1)))
        guard opacity > 0 else { return }
        // A transform layer draws only its sublayers, its opacity multiplying each (no group).
        let isTransform = state.layerClass == .transform
        let group = opacity < 1 && state.allowsGroupOpacity && !isTransform
        let alpha = group ? inherited : inherited * opacity
        if group {
            ctx.saveGState()
            ctx.setAlpha(eightBitStep(inherited * opacity))
            ctx.beginTransparencyLayer(auxiliaryInfo: nil)
            ctx.setAlpha(1)
        }
        defer {
            if group {
                ctx.endTransparencyLayer()
                ctx.restoreGState()
            }
        }
        let drawAlpha = group ? 1 : eightBitStep(alpha)
        let bounds = state.bounds.standardized
        let shape = LayerShape(state)
        if isTransform {
            drawSublayers(of: layer, shape: shape, in: ctx, alpha: alpha, flipped: flipped, masks: false)
            return
        }
        if let color = layer.backgroundColor, color.alpha > 0, !bounds.isEmpty {
            ctx.saveGState()
            ctx.setAlpha(drawAlpha)
            ctx.setFillColor(color)
            ctx.addPath(shape.path(in: bounds))
            ctx.fillPath()
            ctx.restoreGState()
        }
        if let gradientLayer = layer as? CAGradientLayer, !bounds.isEmpty {
            drawGradient(gradientLayer, shape: shape, in: ctx, alpha: drawAlpha)
        }
        let shown: CGImage? =
            if let text = layer as? CATextLayer { text.shownContents } else { layer.contents as? CGImage }
        if let image = shown, !bounds.isEmpty {
            drawContents(image, of: state, shape: shape, in: ctx, alpha: drawAlpha, flipped: flipped)
        }
        if let shapeLayer = layer as? CAShapeLayer {
            // `masksToBounds` cuts the path to the (rounded) bounds, as it does the sublayers.
            let clip = state.masksToBounds ? shape.path(in: bounds) : nil
            drawShape(shapeLayer, in: ctx, alpha: drawAlpha, clip: clip)
        }
        if let emitter = layer as? CAEmitterLayer {
            drawParticles(of: emitter, in: ctx, alpha: drawAlpha)
        }
        drawSublayers(of: layer, shape: shape, in: ctx, alpha: group ? 1 : alpha, flipped: flipped)
        let width = min(state.borderWidth, min(bounds.width, bounds.height) / 2)
        if width > 0, let color = layer.borderColor, color.alpha > 0 {
            ctx.saveGState()
            ctx.setAlpha(drawAlpha)
            ctx.setFillColor(color)
            ctx.addPath(shape.path(in: bounds))
            ctx.addPath(shape.path(in: bounds.insetBy(dx: width, dy: width), inset: width))
            ctx.fillPath(using: .evenOdd)
            ctx.restoreGState()
        }
    }

    /// Draws the sublayers, each in its own space, clipped to the rounded bounds with `masksToBounds`.
    private static func drawSublayers(
        of layer: CALayer, shape: LayerShape, in ctx: CGContext, alpha: CGFloat, flipped: Bool, masks: Bool = true
    ) {
        let sublayers = layer.committedSublayers
        guard !sublayers.isEmpty else { return }
        let state = layer.modelState
        ctx.saveGState()
        defer { ctx.restoreGState() }
        if masks, state.masksToBounds {
            let bounds = state.bounds.standardized
            guard !bounds.isEmpty else { return }
            ctx.addPath(shape.path(in: bounds))
            ctx.clip()
        }
        // Stable: zPosition first, `sublayers` order among equals.
        let order = sublayers.indices.sorted {
            (sublayers[$0].modelState.zPosition, $0) < (sublayers[$1].modelState.zPosition, $1)
        }
        let forSublayers = state.transformForSublayers
        // A replicator draws its sublayers once per copy (`copies(of:)`); any other layer once.
        for copy in copies(of: layer) {
            let toCopy = CATransform3DConcat(copy.transform, forSublayers)
            for index in order {
                let sublayer = sublayers[index]
                let toParent = CATransform3DConcat(sublayer.modelState.transformToSuperlayer, toCopy)
                guard let map = affineProjection(toParent) else { continue }
                ctx.saveGState()
                ctx.concatenate(map)
                draw(sublayer, in: ctx, alpha: alpha * copy.alpha, flipped: flipped != state.isGeometryFlipped)
                ctx.restoreGState()
            }
        }
    }

    /// Draws `image` where `ContentsLayout` puts it, each piece clipped to its rectangle, clipped to
    /// the rounded bounds with `masksToBounds`.
    private static func drawContents(
        _ image: CGImage, of state: LayerState, shape: LayerShape, in ctx: CGContext, alpha: CGFloat, flipped: Bool
    ) {
        guard image.width > 0, image.height > 0 else { return }
        let pieces = ContentsLayout.pieces(
            bounds: state.bounds, width: image.width, height: image.height, scale: state.contentsScale,
            gravity: state.contentsGravity, contentsRect: state.contentsRect, contentsCenter: state.contentsCenter,
            flipped: flipped)
        guard !pieces.isEmpty else { return }
        ctx.saveGState()
        defer { ctx.restoreGState() }
        ctx.setAlpha(alpha)
        if state.masksToBounds {
            ctx.addPath(shape.path(in: state.bounds.standardized))
            ctx.clip()
        }
        // The filter: magnification when drawn at or above the image's pixel size, as the server picks.
        let drawn = ContentsLayout.gravityRect(
            bounds: state.bounds, width: image.width, height: image.height, scale: state.contentsScale,
            gravity: state.contentsGravity, contentsRect: state.contentsRect)
        let device = ctx.convertToDeviceSpace(CGSize(width: drawn.width, height: drawn.height))
        let pixelsX = CGFloat(image.width) * abs(state.contentsRect.width)
        let pixelsY = CGFloat(image.height) * abs(state.contentsRect.height)
        let minifying = abs(device.width) < pixelsX || abs(device.height) < pixelsY
        let filter = minifying ? state.minificationFilter : state.magnificationFilter
        ctx.interpolationQuality = filter == .nearest ? .none : .low
        for piece in pieces {
            let r = piece.rect
            guard piece.u1 != piece.u0, piece.v1 != piece.v0, r.width > 0, r.height > 0 else { continue }
            // Core Graphics draws an image in the unit square with its first row at y = 1: map the
            // square so that texture coordinate (u, v) lands where the piece shows it.
            let a = r.width / (piece.u1 - piece.u0)
            let d = -r.height / (piece.v1 - piece.v0)
            let map = CGAffineTransform(
                a: a, b: 0, c: 0, d: d, tx: r.minX - piece.u0 * a, ty: r.minY - (1 - piece.v0) * d)
            ctx.saveGState()
            ctx.clip(to: r)
            ctx.concatenate(map)
            ctx.draw(image, in: CGRect(x: 0, y: 0, width: 1, height: 1))
            ctx.restoreGState()
        }
    }

    /// The affine part of a child-to-parent matrix (rows and columns 1, 2 and 4, divided by `m44`),
    /// or nil when it is not finite or collapses the plane.
    static func affineProjection(_ m: CATransform3D) -> CGAffineTransform? {
        let w = m.m44 != 0 && m.m44.isFinite ? m.m44 : 1
        let t = CGAffineTransform(a: m.m11 / w, b: m.m12 / w, c: m.m21 / w, d: m.m22 / w, tx: m.m41 / w, ty: m.m42 / w)
        let values = [t.a, t.b, t.c, t.d, t.tx, t.ty]
        guard values.allSatisfy(\.isFinite), abs(t.a * t.d - t.b * t.c) > 1e-12 else { return nil }
        return t
    }

    /// `v` rounded to a multiple of 1/255, halves down (the server's `onEightBitStep`).
    static func eightBitStep(_ v: CGFloat) -> CGFloat {
        let x = min(max(v, 0), 1) * 255
        return (x - 0.5).rounded(.up) / 255
    }
}

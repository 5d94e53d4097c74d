import Foundation
import LaminaCore

/// Contents: where a layer's image lies in its bounds (`contentsGravity`, `contentsScale`,
/// `contentsRect`, `contentsCenter`), how it is filtered, and the textured instances that draw it
/// between the background and the sublayers (App. A).
///
/// Apple defines the vertical gravities (`top`, `bottom` and the corners) in the unflipped, y-up sense:
/// `top` is the edge at the layer's maximum y. In Lamina's y-down layer space that edge is at the
/// bottom of the screen, so on a plain iOS-style layer `.top` draws the image at the bottom edge, as
/// Core Animation does on iOS; under an ancestor with `isGeometryFlipped` (`contentsAreFlipped()`)
/// the layer's space is mirrored and `.top` is at the top. The image itself is always drawn upright
/// on the screen: its first row at the layer's minimum y, or at its maximum y when flipped.
///
/// `isOpaque` does not turn blending off for contents: for an image assigned to `contents` Core
/// Animation keeps the image's own alpha (spec §2.3), so both textured kinds blend with premultiplied
/// "over".
extension DisplayListBuilder {
    /// One rectangle of a layer's contents: where it lies in the layer and which part of the image it
    /// shows.
    struct ContentsPiece: Equatable {
        /// The rectangle in layer coordinates.
        var rect: CGRect
        /// The normalized texture coordinate at `rect.minX`.
        var u0: CGFloat
        /// The normalized texture coordinate at `rect.minY`.
        var v0: CGFloat
        /// The normalized texture coordinate at `rect.maxX`.
        var u1: CGFloat
        /// The normalized texture coordinate at `rect.maxY` (below `v0` when the image is mirrored).
        var v1: CGFloat
        /// The sides that are outer edges of the contents, anti-aliased where they do not lie on whole
        /// device pixels: minX, minY, maxX, maxY.
        var outer: SIMD4<Float>

        /// The texture coordinate at layer position `x` (`rect`'s linear mapping, extended).
        func u(at x: CGFloat) -> CGFloat { u0 + (x - rect.minX) / rect.width * (u1 - u0) }
        /// The texture coordinate at layer position `y`.
        func v(at y: CGFloat) -> CGFloat { v0 + (y - rect.minY) / rect.height * (v1 - v0) }
    }

    /// Whether the layer draws any contents: an image it names (or fades from) is imported.
    static func showsContents(_ state: LayerState, images: [UInt64: ContentsImage]) -> Bool {
        guard !state.bounds.isEmpty else { return false }
        if state.contents != 0, images[state.contents] != nil { return true }
        if let fade = state.contentsCrossFade, fade.from != 0, images[fade.from] != nil { return true }
        return false
    }

    /// Draws the layer's contents (both images of a cross-fade, the old one first), clipped by the
    /// parent's clip and, with `masksToBounds`, by the layer's own rounded bounds (A11).
    mutating func drawContents(
        _ state: LayerState, radius: CGFloat, opacity: Double, toDevice m: CATransform3D, clip parentClip: Clip,
        flipped: Bool, images: [UInt64: ContentsImage]
    ) {
        var clip = parentClip
        if state.masksToBounds {
            guard
                let narrowed = Self.narrow(
                    parentClip, by: state.bounds, radius: radius, continuous: Self.isContinuous(state), toDevice: m)
            else { return }
            clip = narrowed
        }
        var shown: [(id: UInt64, weight: Double)] = [(state.contents, 1)]
        if let fade = state.contentsCrossFade {
            let progress = fade.progress.isNaN ? 0 : min(max(fade.progress, 0), 1)
            let exact = opacity == 1 && Self.fadeIsExactOverOldImage(state, from: fade.from, images: images)
            shown = [(fade.from, exact ? 1 : 1 - progress), (state.contents, progress)]
        }
        for (id, weight) in shown {
            guard id != 0, let image = images[id], image.width > 0, image.height > 0 else { continue }
            let alpha = RGBAColor.onEightBitStep(opacity * weight)
            guard alpha > 0 else { continue }
            let pieces = Self.contentsPieces(
                bounds: state.bounds, width: image.width, height: image.height, scale: state.contentsScale,
                gravity: state.contentsGravity, contentsRect: state.contentsRect,
                contentsCenter: state.contentsCenter, flipped: flipped)
            guard !pieces.isEmpty else { continue }
            let sampling = Self.contentsSampling(
                state, image: image,
                drawn: Self.gravityRect(
                    bounds: state.bounds, width: image.width, height: image.height, scale: state.contentsScale,
                    gravity: state.contentsGravity, contentsRect: state.contentsRect),
                toDevice: m)
            emitContents(pieces, sampling: sampling, opacity: alpha, toDevice: m, clip: clip)
        }
    }

    /// Whether a cross-fade from image `from` to the layer's contents can be drawn as the old image at
    /// full strength with the new one at `progress` over it. That gives exactly `(1 − p)·old + p·new`
    /// (decisions.md A2) when both images are opaque, the layer is drawn at opacity 1 and the new image
    /// covers everything the old one covers; otherwise each image is drawn at its own weight.
    static func fadeIsExactOverOldImage(_ state: LayerState, from: UInt64, images: [UInt64: ContentsImage]) -> Bool {
        guard let old = images[from], let new = images[state.contents], old.isOpaque, new.isOpaque else {
            return false
        }
        func drawn(_ image: ContentsImage) -> CGRect {
            let rect = gravityRect(
                bounds: state.bounds, width: image.width, height: image.height, scale: state.contentsScale,
                gravity: state.contentsGravity, contentsRect: state.contentsRect)
            return isPositionBased(state.contentsGravity) ? rect.intersection(state.bounds) : rect
        }
        let (oldRect, newRect) = (drawn(old), drawn(new))
        return !oldRect.isNull && newRect.contains(oldRect)
    }

    /// Whether `gravity` places the image at its natural size (pinned to an edge, a corner or the
    /// centre) rather than scaling it.
    static func isPositionBased(_ gravity: CALayerContentsGravity) -> Bool {
        switch gravity {
        case .center, .top, .bottom, .left, .right, .topLeft, .topRight, .bottomLeft, .bottomRight: true
        default: false
        }
    }

    /// The rectangle, in layer coordinates, that the shown part of the image (`contentsRect`) fills
    /// before any cropping: its point size is its pixel size over `scale`. Unknown gravity names
    /// resize, like `resize`. Vertical gravities follow Apple's y-up sense (`top` at maximum y).
    static func gravityRect(
        bounds: CGRect, width: Int, height: Int, scale: CGFloat, gravity: CALayerContentsGravity,
        contentsRect: CGRect
    ) -> CGRect {
        let scale = scale.isFinite && scale > 0 ? scale : 1
        let w = CGFloat(width) * abs(contentsRect.width) / scale
        let h = CGFloat(height) * abs(contentsRect.height) / scale
        switch gravity {
        case .resizeAspect, .resizeAspectFill:
            guard w > 0, h > 0 else { return bounds }
            let sx = bounds.width / w, sy = bounds.height / h
            let s = gravity == .resizeAspect ? min(sx, sy) : max(sx, sy)
            return CGRect(x: bounds.midX - w * s / 2, y: bounds.midY - h * s / 2, width: w * s, height: h * s)
        case _ where isPositionBased(gravity):
            let x: CGFloat
            switch gravity {
            case .left, .topLeft, .bottomLeft: x = bounds.minX
            case .right, .topRight, .bottomRight: x = bounds.maxX - w
            default: x = bounds.midX - w / 2
            }
            let y: CGFloat
            switch gravity {
            case .top, .topLeft, .topRight: y = bounds.maxY - h
            case .bottom, .bottomLeft, .bottomRight: y = bounds.minY
            default: y = bounds.midY - h / 2
            }
            return CGRect(x: x, y: y, width: w, height: h)
        default:
            return bounds
        }
    }

    /// The pieces that draw an image of `width`×`height` pixels in `bounds`: the gravity's rectangle,
    /// cut in nine by `contentsCenter` (the edges keep their point size and the centre stretches; when
    /// the rectangle is smaller than the two fixed edges together, both shrink in proportion), cropped
    /// to the bounds for position-based gravities, each showing its part of `contentsRect`.
    static func contentsPieces(
        bounds: CGRect, width: Int, height: Int, scale: CGFloat, gravity: CALayerContentsGravity,
        contentsRect: CGRect, contentsCenter: CGRect, flipped: Bool
    ) -> [ContentsPiece] {
        let values = [
            bounds.minX, bounds.minY, bounds.width, bounds.height, contentsRect.minX, contentsRect.minY,
            contentsRect.width, contentsRect.height, contentsCenter.minX, contentsCenter.minY,
            contentsCenter.width, contentsCenter.height, scale,
        ]
        guard values.allSatisfy(\.isFinite), contentsRect.width != 0, contentsRect.height != 0 else { return [] }
        let drawn = gravityRect(
            bounds: bounds, width: width, height: height, scale: scale, gravity: gravity,
            contentsRect: contentsRect)
        // Far beyond any display (a hostile contentsRect or scale): nothing a device could show.
        let limit: CGFloat = 1e9
        guard !drawn.isEmpty, abs(drawn.minX) < limit, abs(drawn.minY) < limit, drawn.width < limit,
            drawn.height < limit
        else { return [] }
        let region = isPositionBased(gravity) ? drawn.intersection(bounds) : drawn
        guard !region.isNull, !region.isEmpty else { return [] }
        // The fixed edges in points: the shown image's point size times the centre's unit margins.
        let center = contentsCenter.standardized
        let cx0 = min(max(center.minX, 0), 1), cx1 = min(max(center.maxX, cx0), 1)
        let cy0 = min(max(center.minY, 0), 1), cy1 = min(max(center.maxY, cy0), 1)
        let scale = scale > 0 ? scale : 1
        let w = CGFloat(width) * abs(contentsRect.width) / scale
        let h = CGFloat(height) * abs(contentsRect.height) / scale
        func edges(_ lead: CGFloat, _ trail: CGFloat, span: CGFloat) -> (CGFloat, CGFloat) {
            let total = lead + trail
            guard total > span, total > 0 else { return (lead, trail) }
            return (lead * span / total, trail * span / total)
        }
        let (left, right) = edges(cx0 * w, (1 - cx1) * w, span: drawn.width)
        let (top, bottom) = edges(cy0 * h, (1 - cy1) * h, span: drawn.height)
        // Breaks along each axis: layer positions and the unit image coordinates they show.
        let xs = [drawn.minX, drawn.minX + left, drawn.maxX - right, drawn.maxX]
        let us = [0, cx0, cx1, 1]
        let ys =
            flipped
            ? [drawn.maxY, drawn.maxY - top, drawn.minY + bottom, drawn.minY]
            : [drawn.minY, drawn.minY + top, drawn.maxY - bottom, drawn.maxY]
        let vs = [0, cy0, cy1, 1]
        func texU(_ u: CGFloat) -> CGFloat { contentsRect.minX + u * contentsRect.width }
        func texV(_ v: CGFloat) -> CGFloat { contentsRect.minY + v * contentsRect.height }
        var pieces: [ContentsPiece] = []
        for j in 0..<3 {
            let ya = ys[j], yb = ys[j + 1]
            guard abs(yb - ya) > 0 else { continue }
            for i in 0..<3 {
                let xa = xs[i], xb = xs[i + 1]
                guard xb - xa > 0 else { continue }
                let (minY, maxY) = ya < yb ? (ya, yb) : (yb, ya)
                let (vMin, vMax) = ya < yb ? (vs[j], vs[j + 1]) : (vs[j + 1], vs[j])
                var piece = ContentsPiece(
                    rect: CGRect(x: xa, y: minY, width: xb - xa, height: maxY - minY),
                    u0: texU(us[i]), v0: texV(vMin), u1: texU(us[i + 1]), v1: texV(vMax), outer: .zero)
                let cut = piece.rect.intersection(region)
                guard !cut.isNull, !cut.isEmpty else { continue }
                piece = ContentsPiece(
                    rect: cut, u0: piece.u(at: cut.minX), v0: piece.v(at: cut.minY), u1: piece.u(at: cut.maxX),
                    v1: piece.v(at: cut.maxY),
                    outer: SIMD4(
                        cut.minX == region.minX ? 1 : 0, cut.minY == region.minY ? 1 : 0,
                        cut.maxX == region.maxX ? 1 : 0, cut.maxY == region.maxY ? 1 : 0))
                pieces.append(piece)
            }
        }
        return pieces
    }

    /// The sampling of an image drawn over `drawn` (layer coordinates, the gravity's rectangle): the
    /// minification filter when it is drawn smaller than its pixel size along either axis, else the
    /// magnification filter. `trilinear` reads the mip chain (with `minificationFilterBias`) only when
    /// minifying an image that has one; otherwise it is bilinear.
    static func contentsSampling(
        _ state: LayerState, image: ContentsImage, drawn: CGRect, toDevice m: CATransform3D
    ) -> TextureSampling {
        let w = abs(m.m44) > 1e-9 ? abs(m.m44) : 1
        let deviceX = hypot(m.m11, m.m12) / w, deviceY = hypot(m.m21, m.m22) / w
        let pixelsX = CGFloat(image.width) * abs(state.contentsRect.width)
        let pixelsY = CGFloat(image.height) * abs(state.contentsRect.height)
        let ratioX = pixelsX > 0 ? drawn.width * deviceX / pixelsX : 1
        let ratioY = pixelsY > 0 ? drawn.height * deviceY / pixelsY : 1
        let minifying = ratioX < 1 || ratioY < 1
        let filter: TextureFilter
        switch minifying ? state.minificationFilter : state.magnificationFilter {
        case .nearest: filter = .nearest
        case .trilinear: filter = minifying && image.mipmapped ? .trilinear : .linear
        default: filter = .linear
        }
        return TextureSampling(image: image.image, filter: filter, lodBias: state.minificationFilterBias)
    }

    /// Emits the pieces of one image: `ImageInstance`s on the linear path (`plainImage` at opacity 1,
    /// else `image`) when the layer is
    /// axis-aligned, no general clip is in force and the contents' outer edges and the device clip lie
    /// on whole pixels; otherwise `ImageShapeInstance`s with anti-aliased outer edges.
    mutating func emitContents(
        _ pieces: [ContentsPiece], sampling: TextureSampling, opacity: Float, toDevice m: CATransform3D, clip: Clip
    ) {
        let region = pieces.dropFirst().reduce(pieces[0].rect) { $0.union($1.rect) }
        if clip.general.isEmpty && Self.isAxisAligned(m) && Self.isIntegral(clip.deviceRect)
            && Self.isIntegral(Self.deviceRect(region, m))
        {
            for piece in pieces {
                let device = Self.deviceRect(piece.rect, m).intersection(clip.deviceRect)
                guard !device.isNull, !device.isEmpty else { continue }
                // Back from device to layer coordinates (a mirrored axis swaps which end is which).
                let lx0 = (device.minX - m.m41) / m.m11, lx1 = (device.maxX - m.m41) / m.m11
                let ly0 = (device.minY - m.m42) / m.m22, ly1 = (device.maxY - m.m42) / m.m22
                let instance = ImageInstance(
                    rect: SIMD4(Float(device.minX), Float(device.minY), Float(device.maxX), Float(device.maxY)),
                    uv: SIMD4(
                        Float(piece.u(at: lx0)), Float(piece.v(at: ly0)), Float(piece.u(at: lx1)),
                        Float(piece.v(at: ly1))),
                    opacity: opacity)
                emit(
                    instance, kind: opacity >= 1 ? DrawKind.plainImage.id : DrawKind.image.id, box: device,
                    texture: sampling)
            }
            batcher.endGroup()
            return
        }
        guard let box = Self.deviceBoundingBox(region, m), box.intersects(clip.deviceRect) else { return }
        let scale = max(1e-6, min(hypot(m.m11, m.m12), hypot(m.m21, m.m22)) / max(abs(m.m44), 1e-6))
        let margin = Float(min(1.5 / scale, max(region.width, region.height) + 1))
        func v(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat) -> SIMD4<Float> {
            SIMD4(Float(a), Float(b), Float(c), Float(d))
        }
        let device = v(clip.deviceRect.minX, clip.deviceRect.minY, clip.deviceRect.maxX, clip.deviceRect.maxY)
        for piece in pieces {
            let r = piece.rect
            let grow = piece.outer * margin
            let grown = CGRect(
                x: r.minX - CGFloat(grow.x), y: r.minY - CGFloat(grow.y),
                width: r.width + CGFloat(grow.x + grow.z), height: r.height + CGFloat(grow.y + grow.w))
            guard let pieceBox = Self.deviceBoundingBox(grown, m) else { continue }
            let drawn = pieceBox.insetBy(dx: -1, dy: -1).intersection(clip.deviceRect)
            guard !drawn.isNull, !drawn.isEmpty else { continue }
            let au = (piece.u1 - piece.u0) / r.width, av = (piece.v1 - piece.v0) / r.height
            let instance = ImageShapeInstance(
                row1: v(m.m11, m.m12, m.m13, m.m14), row2: v(m.m21, m.m22, m.m23, m.m24),
                row4: v(m.m41, m.m42, m.m43, m.m44), rect: v(r.minX, r.minY, r.maxX, r.maxY), grow: grow,
                uvTransform: v(au, av, piece.u0 - r.minX * au, piece.v0 - r.minY * av),
                params: SIMD4(opacity, 0, Float(clip.general.count), 0), deviceClip: device,
                clipA: clip.general.count > 0 ? clip.general[0] : .none,
                clipB: clip.general.count > 1 ? clip.general[1] : .none)
            emit(instance, kind: DrawKind.imageShape.id, box: drawn, texture: sampling)
        }
        batcher.endGroup()
    }
}

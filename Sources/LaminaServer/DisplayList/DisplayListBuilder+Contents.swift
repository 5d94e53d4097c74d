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
    /// One rectangle of a layer's contents (LaminaCore's `ContentsLayout.Piece`).
    typealias ContentsPiece = ContentsLayout.Piece

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
        flipped: Bool, images: [UInt64: ContentsImage], instanceTint: SIMD3<Double>? = nil
    ) {
        guard let clip = Self.ownClip(parentClip, of: state, radius: radius, toDevice: m) else { return }
        var shown: [(id: UInt64, weight: Double)] = [(state.contents, 1)]
        var dissolve = false
        if let fade = state.contentsCrossFade {
            let progress = fade.progress.isNaN ? 0 : min(max(fade.progress, 0), 1)
            let exact = opacity == 1 && Self.fadeIsExactOverOldImage(state, from: fade.from, images: images)
            shown = [(fade.from, exact ? 1 : 1 - progress), (state.contents, progress)]
            // Otherwise the two images are added with their weights in a pass and that is drawn over
            // (`drawDissolve`), unless the frame's passes are spent.
            dissolve = !exact && progress > 0 && progress < 1 && dissolveFits(parts: 0)
        }
        // A text layer's coverage is tinted by its foreground colour, which a replicator's copy has
        // already multiplied; other contents take the copy's colour here.
        var tint = Self.contentsTint(state)
        if tint == nil, let instanceTint {
            tint = SIMD4(Float(instanceTint.x), Float(instanceTint.y), Float(instanceTint.z), 1)
        }
        var parts: [DissolvePart] = []
        for (id, weight) in shown {
            guard id != 0, let image = images[id], image.width > 0, image.height > 0 else { continue }
            let alpha = RGBAColor.onEightBitStep(dissolve ? weight : opacity * weight)
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
            let soft = Self.softEdges(state)
            if dissolve {
                parts.append(
                    DissolvePart(weight: weight) { [tint] in
                        $0.emitContents(
                            pieces, sampling: sampling, opacity: alpha, tint: tint, toDevice: m, clip: clip,
                            additive: true, softEdges: soft, video: image.videoCode)
                    })
            } else {
                emitContents(
                    pieces, sampling: sampling, opacity: alpha, tint: tint, toDevice: m, clip: clip, softEdges: soft,
                    video: image.videoCode)
            }
        }
        if dissolve { drawDissolve(parts, opacity: opacity, clip: clip.deviceRect, direct: true) }
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

    /// Whether `gravity` places the image at its natural size (`ContentsLayout.isPositionBased`).
    static func isPositionBased(_ gravity: CALayerContentsGravity) -> Bool {
        ContentsLayout.isPositionBased(gravity)
    }

    /// The rectangle the shown part of the image fills (`ContentsLayout.gravityRect`).
    static func gravityRect(
        bounds: CGRect, width: Int, height: Int, scale: CGFloat, gravity: CALayerContentsGravity,
        contentsRect: CGRect
    ) -> CGRect {
        ContentsLayout.gravityRect(
            bounds: bounds, width: width, height: height, scale: scale, gravity: gravity, contentsRect: contentsRect)
    }

    /// The pieces that draw an image in `bounds` (`ContentsLayout.pieces`).
    static func contentsPieces(
        bounds: CGRect, width: Int, height: Int, scale: CGFloat, gravity: CALayerContentsGravity,
        contentsRect: CGRect, contentsCenter: CGRect, flipped: Bool
    ) -> [ContentsPiece] {
        ContentsLayout.pieces(
            bounds: bounds, width: width, height: height, scale: scale, gravity: gravity,
            contentsRect: contentsRect, contentsCenter: contentsCenter, flipped: flipped)
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

    /// Emits the pieces of one image: `ImageInstance`s on the linear path (`plainImage` at opacity 1
    /// without a tint, else `image`) when the layer is
    /// axis-aligned, no general clip is in force and the contents' outer edges and the device clip lie
    /// on whole pixels; otherwise `ImageShapeInstance`s with anti-aliased outer edges. A `tint` (a
    /// premultiplied colour, `contentsTint(_:)`) multiplies every texel as well as the opacity.
    /// `additive` draws with the additive kinds (`additiveImage`, `additiveImageShape`) instead.
    /// `softEdges` (minX, minY, maxX, maxY: 1 or 0) leaves out the anti-aliasing of the outer edges
    /// whose lane is 0 (`edgeAntialiasingMask`, `DisplayListBuilder+EdgeAntialiasing.swift`).
    /// `video` (`ContentsImage.videoCode`) draws a YCbCr surface's planes with the `video` kinds (the
    /// general path's instances, the conversion in the tint's lane: YCbCr contents take no tint).
    mutating func emitContents(
        _ pieces: [ContentsPiece], sampling: TextureSampling, opacity: Float, tint: SIMD4<Float>? = nil,
        toDevice m: CATransform3D, clip: Clip, additive: Bool = false, softEdges: SIMD4<Float> = SIMD4(repeating: 1),
        video: Float? = nil
    ) {
        let region = pieces.dropFirst().reduce(pieces[0].rect) { $0.union($1.rect) }
        if video == nil,
            clip.general.isEmpty && Self.isAxisAligned(m) && Self.isIntegral(clip.deviceRect)
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
                    opacity: opacity, tint: tint)
                let kind =
                    additive
                    ? DrawKind.additiveImage : opacity >= 1 && tint == nil ? DrawKind.plainImage : DrawKind.image
                emit(instance, kind: kind.id, box: device, texture: sampling)
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
            let grow = piece.outer * margin * softEdges
            let grown = CGRect(
                x: r.minX - CGFloat(grow.x), y: r.minY - CGFloat(grow.y),
                width: r.width + CGFloat(grow.x + grow.z), height: r.height + CGFloat(grow.y + grow.w))
            guard let pieceBox = Self.deviceBoundingBox(grown, m) else { continue }
            let drawn = Self.held(pieceBox.insetBy(dx: -1, dy: -1)).intersection(clip.deviceRect)
            guard !drawn.isNull, !drawn.isEmpty else { continue }
            let au = (piece.u1 - piece.u0) / r.width, av = (piece.v1 - piece.v0) / r.height
            let instance = ImageShapeInstance(
                row1: v(m.m11, m.m12, m.m13, m.m14), row2: v(m.m21, m.m22, m.m23, m.m24),
                row4: v(m.m41, m.m42, m.m43, m.m44), rect: v(r.minX, r.minY, r.maxX, r.maxY), grow: grow,
                uvTransform: v(au, av, piece.u0 - r.minX * au, piece.v0 - r.minY * av),
                params: video.map { SIMD4(opacity, $0, Float(clip.general.count), 0) }
                    ?? Self.imageShapeParams(opacity: opacity, tint: tint, clips: clip.general.count),
                deviceClip: device,
                clipA: clip.general.count > 0 ? clip.general[0] : .none,
                clipB: clip.general.count > 1 ? clip.general[1] : .none)
            let kind =
                video == nil
                ? (additive ? DrawKind.additiveImageShape : DrawKind.imageShape)
                : (additive ? DrawKind.additiveVideo : DrawKind.video)
            emit(instance, kind: kind.id, box: drawn, texture: sampling)
        }
        batcher.endGroup()
    }
}

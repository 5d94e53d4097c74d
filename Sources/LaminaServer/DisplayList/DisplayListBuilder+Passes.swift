import Foundation
import LaminaCore

/// Offscreen passes (docs/rendering.md, "Offscreen passes"): a layer with a mask, or a faded layer
/// whose drawing overlaps itself (group opacity), is drawn whole (shadow, background, contents,
/// sublayers, border) at full opacity into an image of its own covering its clipped device bounds;
/// the mask's alpha then multiplies that image, and the image is drawn in the pass around it with the
/// layer's opacity (App. A: opacity and mask come last).
extension DisplayListBuilder {
    /// The most pieces a faded subtree is tested for overlaps; beyond it the subtree takes a pass.
    static let maxOverlapPieces = 128
    /// The most layers a probe visits (`drawingOverlaps`); beyond it the subtree takes a pass.
    static let maxProbedLayers = 512
    /// The most offscreen passes one display list draws. A client's layers are bounded but many, so
    /// passes are too: past this, or past `passPixelBudget`, a faded group is faded per piece and a
    /// masked layer is drawn without its mask (docs/rendering.md, "Offscreen passes").
    static let maxPasses = 128
    /// The most pass pixels one display list draws, as a multiple of the display's pixels.
    static let passPixelBudget = 4

    /// Whether the layer must be drawn through an offscreen pass: it has a mask that exists, or its own
    /// opacity is below 1 with `allowsGroupOpacity` and its drawing has overlapping pieces. Never
    /// inside a probe (`measuring`) or for the layer a pass is drawing.
    mutating func needsPass(_ presented: Presented, toDevice: CATransform3D, in context: DrawContext) -> Bool {
        guard !measuring, !presented.inPass, list.passes.count + 2 <= Self.maxPasses,
            passPixels < Self.passPixelBudget * list.width * list.height
        else { return false }
        if let mask = presented.mask, context.layers[mask] != nil { return true }
        let state = presented.state
        guard state.allowsGroupOpacity, state.opacity < 1 else { return false }
        if drawsDisjointLeaf(presented, toDevice: toDevice, in: context) { return false }
        if drawingOverlaps(presented, in: context) { return true }
        // The answer rests on the sublayers too: a patch that redraws only one of them (moved onto
        // its sibling) would keep a per-piece fade where a full build draws a pass.
        if retention != nil, !presented.sublayers.isEmpty || presented.host != nil { retention!.isPatchable = false }
        return false
    }

    /// Whether the layer is a leaf that draws only its background and border, in pieces that never
    /// touch the same pixel: one colour, or both faded as one (`GroupFade`, `fadesAsOne`). Fading
    /// such a drawing piece by piece is fading the group, so it needs no probe (`drawingOverlaps`) and
    /// no pass. Any other layer answers false here and is probed.
    func drawsDisjointLeaf(_ presented: Presented, toDevice: CATransform3D, in context: DrawContext) -> Bool {
        let state = presented.state
        guard state.layerClass == .layer, presented.sublayers.isEmpty, presented.host == nil,
            !Self.showsContents(state, images: context.contentsImages),
            state.filterState.backgroundFilters.isEmpty,
            state.shadow.opacity <= 0 || (state.shadow.color?.alpha ?? 0) <= 0
        else { return false }
        let hasFill = (state.backgroundColor?.alpha ?? 0) > 0
        guard hasFill, Self.borderColor(state, opacity: 1) != nil else { return true }
        return Self.fadesAsOne(
            bounds: state.bounds, borderWidth: Self.borderWidth(state), toDevice: toDevice, clip: context.clip)
    }

    /// Whether two pieces of the layer's drawing (with its subtree's) may touch the same pixel, so
    /// that fading each piece on its own differs from fading the whole (E13). Measured by drawing the
    /// layer at full opacity with a probe builder that keeps nothing; each piece's pixels are the box
    /// it was emitted with, less the pixel of margin added for anti-aliasing.
    func drawingOverlaps(_ presented: Presented, in context: DrawContext) -> Bool {
        var probe = DisplayListBuilder(
            list: DisplayList(width: list.width, height: list.height),
            batcher: Batcher(width: list.width, height: list.height, recordsOnly: true), exported: exported,
            shapes: shapes)
        probe.measuring = true
        probe.contextStack = contextStack
        probe.hostedDraws = hostedDraws
        var full = presented
        full.state.opacity = 1
        full.inPass = true
        var fullContext = context
        fullContext.opacity = 1
        fullContext.image.opacity = 1
        probe.drawLayer(full, in: fullContext)
        guard probe.list.layersVisited <= Self.maxProbedLayers else { return true }
        let pieces = probe.list.emitted.map { piece -> DamageRect in
            let p = piece.pixels
            return DamageRect(x: p.x + 1, y: p.y + 1, width: p.width - 2, height: p.height - 2)
        }.filter { $0.width > 0 && $0.height > 0 }
        guard pieces.count <= Self.maxOverlapPieces else { return true }
        for i in pieces.indices {
            for j in pieces.indices where j > i && pieces[i].intersects(pieces[j]) { return true }
        }
        return false
    }

    /// Draws the layer through an offscreen pass: its whole drawing at full opacity into a pass over
    /// its clipped device bounds, then its mask's alpha into it (from a second pass), then the pass's
    /// image with `opacity` (the layer's, times what it inherits) in the list being built.
    mutating func drawInPass(_ presented: Presented, toDevice: CATransform3D, opacity: Double, in context: DrawContext)
    {
        if retention != nil { retention!.isPatchable = false }
        // The layer is visited again below; count it once.
        list.layersVisited -= 1
        let outer = batcher
        batcher = Batcher(width: list.width, height: list.height)
        let start = list.emitted.count
        var content = presented
        content.inPass = true
        content.state.opacity = 1
        var contentContext = context
        contentContext.opacity = 1
        contentContext.image.opacity = 1
        drawLayer(content, in: contentContext)
        var rect = Self.covered(list.emitted[start...])
        rect = rect.intersection(DamageRect(covering: context.clip.deviceRect, width: list.width, height: list.height))
        guard rect.area > 0 else {
            batcher = outer
            return
        }
        passPixels += rect.area * (presented.mask == nil ? 1 : 2)
        let box = CGRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        let whole = SIMD4<Float>(0, 0, 1, 1)
        let rectLanes = SIMD4<Float>(Float(box.minX), Float(box.minY), Float(box.maxX), Float(box.maxY))
        if let maskID = presented.mask, let maskLayer = context.layers[maskID] {
            // The mask's own pass: its drawing in the layer's coordinate space (like a sublayer, at the
            // layer's local time), over the same pixels.
            let contentBatcher = batcher
            batcher = Batcher(width: list.width, height: list.height)
            var mask = Presented(maskLayer, parentTime: presented.time)
            mask.id = maskID
            let maskContext = DrawContext(
                layers: context.layers, snapshots: context.snapshots, parentSublayerTransform: CATransform3DIdentity,
                parentToDevice: toDevice, opacity: 1, clip: Clip(deviceRect: box),
                contentsImages: context.contentsImages, flipped: context.flipped != presented.state.isGeometryFlipped)
            draw(mask, in: maskContext)
            let maskImage = RenderImageID.offscreenPass(list.passes.count)
            list.passes.append(OffscreenPass(rect: rect, batches: batcher.finish(), image: maskImage))
            batcher = contentBatcher
            batcher.endGroup()
            emit(
                ImageInstance(rect: rectLanes, uv: whole, opacity: 1), kind: DrawKind.maskIn.id, box: box,
                texture: TextureSampling(image: maskImage, filter: .nearest))
        }
        let image = RenderImageID.offscreenPass(list.passes.count)
        list.passes.append(OffscreenPass(rect: rect, batches: batcher.finish(), image: image))
        batcher = outer
        batcher.endGroup()
        let kind = opacity >= 1 ? DrawKind.plainImage : DrawKind.image
        emit(
            ImageInstance(rect: rectLanes, uv: whole, opacity: Float(opacity)), kind: kind.id, box: box,
            texture: TextureSampling(image: image, filter: .nearest))
        batcher.endGroup()
    }

    /// The device pixels the instances emitted in `pieces` may touch (zero area when none): what a pass
    /// drawing them must cover.
    static func covered(_ pieces: ArraySlice<EmittedInstance>) -> DamageRect {
        var rect = DamageRect(x: 0, y: 0, width: 0, height: 0)
        for piece in pieces where piece.pixels.area > 0 {
            rect = rect.area == 0 ? piece.pixels : rect.union(piece.pixels)
        }
        return rect
    }

    /// Whether the front of a layer's plane faces the viewer under its layer-to-device matrix `m`: the
    /// plane's orientation on the screen (the sign of its homography's determinant, at the plane's
    /// centre where `w` decides the side of the eye) is the one it has in layer space.
    /// A mirror by an ancestor's `isGeometryFlipped` (`flipped`) is not a turn: it is taken out.
    static func facesViewer(_ m: CATransform3D, bounds: CGRect, flipped: Bool) -> Bool {
        let det =
            m.m11 * (m.m22 * m.m44 - m.m24 * m.m42) - m.m12 * (m.m21 * m.m44 - m.m24 * m.m41)
            + m.m14 * (m.m21 * m.m42 - m.m22 * m.m41)
        let w = bounds.midX * m.m14 + bounds.midY * m.m24 + m.m44
        return (det * w > 0) != flipped
    }
}

extension DamageRect {
    /// The pixels in both rectangles (zero area when they do not meet).
    func intersection(_ other: DamageRect) -> DamageRect {
        let x0 = max(x, other.x)
        let y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width)
        let y1 = min(y + height, other.y + other.height)
        return DamageRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}

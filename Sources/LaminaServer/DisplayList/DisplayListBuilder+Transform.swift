import Foundation
import LaminaCore

/// Transform layers (`CATransformLayer`): 3-D without flattening (docs/rendering.md, "3-D sorting
/// and splitting").
///
/// A transform layer draws nothing of its own and does not flatten. Its sublayers, and those of its
/// transform-layer sublayers, are *faces*: each is an ordinary layer, drawn as always (its
/// background, contents, border and its own sublayers flattened into its plane), but placed by the
/// full 4×4 matrix to the space of the nearest ancestor that flattens (the transform layer's
/// superlayer, or the display for a root). There the faces are sorted back to front by a BSP tree of
/// their planes (`DepthSort`), which splits faces that cross, and drawn in that order:
///
/// - A face that was not split is drawn whole, directly, as any layer is.
/// - A face that was split is drawn once into an offscreen pass over its device pixels, and each
///   piece is then drawn from that image: the pixel rows of the pass whose centres lie on the piece's
///   side of every plane that cut it, copied texel for texel (`plainImage` rows of one pixel, merged
///   where consecutive rows are alike). Pieces of one face share each cutting line with the same
///   coefficients and opposite signs, so every pixel centre falls in exactly one piece: no seam, no
///   pixel twice. The cut edges are hard (a pixel belongs to one face or the other, as with a depth
///   buffer); the face's own outer edges keep their anti-aliasing, since only the cuts bound a piece.
///
/// The work is bounded (`maxTransformFaces`, `maxTransformPieces`, `maxPieceRows`, and the pass
/// budget of `DisplayListBuilder+Passes.swift`): past a bound, the faces are drawn in the painter's
/// order of their centres' depth, or a split face is drawn whole at its first piece. A build that
/// drew a transform layer is not patched later (the faces' order depends on all of them).
extension DisplayListBuilder {
    /// The most faces of one transform-layer tree sorted with splitting; past it, the painter's order.
    public static let maxTransformFaces = 256
    /// The most pieces the BSP sort of one tree may make (whole faces count one each); past it, the
    /// painter's order.
    public static let maxTransformPieces = 1_024
    /// The most pixel rows one display list draws for split pieces; a split face past it is drawn
    /// whole at its first piece.
    public static let maxPieceRows = 65_536
    /// The most layers of a face looked at to find the extent of its drawing in its plane.
    static let maxExtentLayers = 64

    /// A face of a transform-layer tree: an ordinary layer, what it is drawn in, and its full matrix.
    struct TransformFace {
        /// The layer.
        var presented: Presented
        /// What it is drawn in: its parent's 3-D matrix as `parentSublayerTransform`, the flattening
        /// ancestor's matrix as `parentToDevice`.
        var context: DrawContext
        /// The full 4×4 matrix from the face's space to the flattening ancestor's.
        var matrix: CATransform3D
    }

    /// Draws transform layer `presented` in what its superlayer hands down: its faces sorted and
    /// split in 3-D (see above).
    mutating func drawTransformLayer(_ presented: Presented, in context: DrawContext) {
        if retention != nil { retention!.isPatchable = false }
        let state = presented.state
        guard !state.isHidden else { return }
        let opacity = context.opacity * Double(state.opacity) * context.image.opacity
        guard opacity > 0 else { return }
        var toSpace = CATransform3DConcat(state.transformToSuperlayer, context.parentSublayerTransform)
        if context.image.offset != .zero {
            // A transition image moves the whole picture within the flattening ancestor's plane.
            toSpace = CATransform3DConcat(
                toSpace, CATransform3DMakeTranslation(context.image.offset.x, context.image.offset.y, 0))
        }
        guard toSpace.isFinite else { return }
        var faces: [TransformFace] = []
        collectFaces(of: presented, toSpace: toSpace, opacity: opacity, in: context, into: &faces)
        drawSorted(faces)
    }

    /// Draws `faces` sorted back to front in their flattening ancestor's space, crossing faces split
    /// (see above): a transform layer's faces, or a replicator's copies that preserve depth.
    mutating func drawSorted(_ faces: [TransformFace]) {
        guard !faces.isEmpty else { return }

        // Each face's polygon in the flattening ancestor's space, after the perspective divide.
        var polygons: [DepthPolygon] = []
        var unsorted: [Int] = []
        for (index, face) in faces.enumerated() {
            switch facePolygon(face, index: index) {
            case .polygon(let polygon): polygons.append(polygon)
            case .unsortable: unsorted.append(index)
            case .invisible: break
            }
        }
        let sorted: [DepthPolygon] =
            polygons.count <= Self.maxTransformFaces
            ? DepthSort.sort(polygons, maxPieces: Self.maxTransformPieces).pieces
            : DepthSort.painterOrder(polygons)

        // A face partly behind the eye has no place in the sort; it is drawn first (the builder draws
        // no plane that crosses the eye's plane anyway, docs/apple-differences.md).
        for index in unsorted {
            draw(faces[index].presented, in: faces[index].context)
        }
        var pieceCounts = [Int](repeating: 0, count: faces.count)
        for piece in sorted { pieceCounts[piece.face] += 1 }
        var passes: [Int: (image: RenderImageID, rect: DamageRect)] = [:]
        var drawnWhole = Set<Int>()
        for piece in sorted {
            let index = piece.face
            let face = faces[index]
            guard pieceCounts[index] > 1 else {
                draw(face.presented, in: face.context)
                continue
            }
            if drawnWhole.contains(index) { continue }
            if passes[index] == nil {
                guard canSplit(face, pieces: pieceCounts[index]) else {
                    // Past a budget (or in a probe, which draws no pass): the face whole, here.
                    drawnWhole.insert(index)
                    draw(face.presented, in: face.context)
                    continue
                }
                guard let pass = drawFacePass(face) else {
                    // It draws nothing inside the clip.
                    drawnWhole.insert(index)
                    continue
                }
                passes[index] = pass
            }
            emitPiece(piece, of: face, from: passes[index]!)
        }
    }

    /// Adds the faces under transform layer `presented` to `faces`, in drawing order (each transform
    /// layer's sublayers by `zPosition`, then array order; a nested transform layer's faces at its
    /// place). `toSpace` takes the transform layer's space to the flattening ancestor's; `opacity` is
    /// what its faces inherit (the transform layer's own opacity multiplies each of them: no group).
    mutating func collectFaces(
        of presented: Presented, toSpace: CATransform3D, opacity: Double, in context: DrawContext,
        into faces: inout [TransformFace]
    ) {
        let state = presented.state
        let forSublayers = CATransform3DConcat(state.transformForSublayers, toSpace)
        let childContext = DrawContext(
            layers: context.layers, snapshots: context.snapshots, parentSublayerTransform: forSublayers,
            parentToDevice: context.parentToDevice, opacity: opacity, clip: context.clip,
            contentsImages: context.contentsImages, flipped: context.flipped != state.isGeometryFlipped,
            instanceTint: context.instanceTint, opacityFadesGroup: opacity >= 1)
        let (children, order) = Self.presentedSublayers(of: presented, time: presented.time, in: context)
        for index in order {
            let child = children[index]
            let matrix = CATransform3DConcat(child.state.transformToSuperlayer, forSublayers)
            if child.state.layerClass == .transform && child.transitions.isEmpty {
                list.layersVisited += 1
                guard !child.state.isHidden, matrix.isFinite else { continue }
                let childOpacity = opacity * Double(child.state.opacity)
                guard childOpacity > 0 else { continue }
                collectFaces(of: child, toSpace: matrix, opacity: childOpacity, in: childContext, into: &faces)
            } else {
                faces.append(TransformFace(presented: child, context: childContext, matrix: matrix))
            }
        }
    }

    /// What a face is for the sort.
    enum FacePolygon {
        /// Its polygon.
        case polygon(DepthPolygon)
        /// It may draw, but part of it lies behind the eye: it is not sorted.
        case unsortable
        /// It draws nothing (hidden, transparent, collapsed, turned away while single-sided, or empty).
        case invisible
    }

    /// The polygon of face `index` for the sort: the rectangle its drawing covers in its plane
    /// (`faceExtent`), in the flattening ancestor's space after the perspective divide.
    mutating func facePolygon(_ face: TransformFace, index: Int) -> FacePolygon {
        let state = face.presented.state
        guard !state.isHidden, state.opacity > 0, face.matrix.isFinite else { return .invisible }
        let toDevice = CATransform3DConcat(Self.flattened(face.matrix), face.context.parentToDevice)
        guard Self.isDrawable(toDevice) else { return .invisible }
        guard state.isDoubleSided || Self.facesViewer(toDevice, bounds: state.bounds, flipped: face.context.flipped)
        else { return .invisible }
        var budget = Self.maxExtentLayers
        let extent = faceExtent(face.presented, in: face.context, budget: &budget)
        guard !extent.isNull, extent.width > 0 || extent.height > 0 else { return .invisible }
        let corners = [
            (extent.minX, extent.minY), (extent.maxX, extent.minY), (extent.maxX, extent.maxY),
            (extent.minX, extent.maxY),
        ].map { face.matrix.transform(x: $0.0, y: $0.1, z: 0) }
        guard corners.allSatisfy({ $0.w > 1e-9 }) else { return .unsortable }
        let vertices = corners.map { SIMD3<Double>(Double($0.x / $0.w), Double($0.y / $0.w), Double($0.z / $0.w)) }
        guard vertices.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else { return .unsortable }
        // A face with no area in space (a line) shows nothing that needs sorting: drawn unsorted.
        guard let polygon = DepthPolygon(face: index, vertices: vertices) else { return .unsortable }
        return .polygon(polygon)
    }

    /// The rectangle, in the layer's own coordinates, that holds what it draws: its bounds, its
    /// shadow, a shape layer's path and stroke, and (unless it masks to its bounds) its sublayers'
    /// extents flattened into its plane, looking at no more than `budget` layers. A replicator's
    /// copies after the first and contents drawn outside the bounds by their gravity are not counted
    /// (docs/apple-differences.md).
    func faceExtent(_ presented: Presented, in context: DrawContext, budget: inout Int) -> CGRect {
        let state = presented.state
        var extent = state.layerClass == .transform ? CGRect.null : state.bounds.standardized
        let shadow = state.shadow
        if shadow.opacity > 0, let color = shadow.color, color.alpha > 0, state.layerClass != .transform {
            let base = shadow.path?.boundingBox ?? state.bounds.standardized
            let reach = 3 * max(shadow.radius.isFinite ? shadow.radius : 0, 0) + 1
            let box = base.offsetBy(dx: shadow.offset.width, dy: shadow.offset.height).insetBy(dx: -reach, dy: -reach)
            if box.minX.isFinite && box.maxX.isFinite && box.minY.isFinite && box.maxY.isFinite {
                extent = extent.union(box)
            }
        }
        if state.layerClass == .shape, let path = state.shape.path {
            let box = path.boundingBox
            let stroke =
                state.shape.strokeColor == nil ? 0 : max(state.shape.lineWidth, 0) * max(state.shape.miterLimit, 1)
            let grown = box.insetBy(dx: -stroke, dy: -stroke)
            if !box.isNull, grown.minX.isFinite, grown.maxX.isFinite, grown.minY.isFinite, grown.maxY.isFinite {
                extent = extent.union(grown)
            }
        }
        guard !state.masksToBounds || state.layerClass == .transform, !presented.sublayers.isEmpty, budget > 0 else {
            return extent
        }
        let forSublayers = state.transformForSublayers
        let (children, _) = Self.presentedSublayers(of: presented, time: presented.time, in: context)
        for child in children {
            budget -= 1
            guard budget >= 0 else { break }
            guard !child.state.isHidden else { continue }
            let inner = faceExtent(child, in: context, budget: &budget)
            guard !inner.isNull else { continue }
            let m = Self.flattened(CATransform3DConcat(child.state.transformToSuperlayer, forSublayers))
            let corners = [
                (inner.minX, inner.minY), (inner.maxX, inner.minY), (inner.minX, inner.maxY), (inner.maxX, inner.maxY),
            ].map { m.transform(x: $0.0, y: $0.1, z: 0) }
            guard corners.allSatisfy({ $0.w > 1e-9 }) else { continue }
            let xs = corners.map { $0.x / $0.w }, ys = corners.map { $0.y / $0.w }
            let box = CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
            if box.minX.isFinite, box.maxX.isFinite, box.minY.isFinite, box.maxY.isFinite {
                extent = extent.union(box)
            }
        }
        return extent
    }

    /// Whether a face split into `pieces` pieces may be drawn split: not in a probe, and within the
    /// pass budget and the row budget (its polygon's device height per piece).
    func canSplit(_ face: TransformFace, pieces: Int) -> Bool {
        guard !measuring, list.passes.count + 2 <= Self.maxPasses,
            passPixels < Self.passPixelBudget * list.width * list.height
        else { return false }
        let toDevice = CATransform3DConcat(Self.flattened(face.matrix), face.context.parentToDevice)
        let height: CGFloat
        if let box = Self.deviceBoundingBox(face.presented.state.bounds, toDevice) {
            height = min(box.height, CGFloat(list.height)) + 2
        } else {
            height = CGFloat(list.height)
        }
        return pieceRows + Int(height) * pieces <= Self.maxPieceRows
    }

    /// Draws a face whole into an offscreen pass over its device pixels (cut to the clip), as it
    /// would be drawn directly; nil when it draws nothing.
    mutating func drawFacePass(_ face: TransformFace) -> (image: RenderImageID, rect: DamageRect)? {
        let outer = batcher
        batcher = Batcher(width: list.width, height: list.height)
        let start = list.emitted.count
        draw(face.presented, in: face.context)
        var rect = Self.covered(list.emitted[start...])
        rect = rect.intersection(
            DamageRect(covering: face.context.clip.deviceRect, width: list.width, height: list.height))
        guard rect.area > 0 else {
            batcher = outer
            return nil
        }
        passPixels += rect.area
        let image = RenderImageID.offscreenPass(list.passes.count)
        list.passes.append(OffscreenPass(rect: rect, batches: batcher.finish(), image: image))
        batcher = outer
        batcher.endGroup()
        return (image, rect)
    }

    /// Draws one piece of a split face from the face's pass: the pixel rows of the pass whose centres
    /// lie on the piece's side of each cut.
    mutating func emitPiece(
        _ piece: DepthPolygon, of face: TransformFace, from pass: (image: RenderImageID, rect: DamageRect)
    ) {
        guard let lines = Self.deviceCutLines(piece, toDevice: face.context.parentToDevice) else { return }
        let rect = pass.rect
        let rows = Self.pieceRows(lines: lines, in: rect)
        let texture = TextureSampling(image: pass.image, filter: .nearest)
        let w = Float(rect.width), h = Float(rect.height)
        for row in rows {
            let box = CGRect(x: row.x0, y: row.y0, width: row.x1 - row.x0, height: row.y1 - row.y0)
            let uv = SIMD4<Float>(
                Float(row.x0 - rect.x) / w, Float(row.y0 - rect.y) / h, Float(row.x1 - rect.x) / w,
                Float(row.y1 - rect.y) / h)
            emit(
                ImageInstance(
                    rect: SIMD4(Float(row.x0), Float(row.y0), Float(row.x1), Float(row.y1)), uv: uv, opacity: 1),
                kind: DrawKind.plainImage.id, box: box, texture: texture)
            pieceRows += row.y1 - row.y0
        }
        batcher.endGroup()
    }

    /// The lines in device pixels that bound a piece: for each cut, (a, b, c) with `a x + b y + c ≥ 0`
    /// on the piece's side (the side of its plane the piece keeps, on the face's plane, seen from the
    /// viewer and mapped through the flattening ancestor's matrix `toDevice`); nil when the face's
    /// plane is edge-on or the matrix is singular (nothing of it shows).
    static func deviceCutLines(_ piece: DepthPolygon, toDevice m: CATransform3D) -> [SIMD3<Double>]? {
        let n = piece.plane.normal
        guard abs(n.z) > 1e-9 else { return nil }
        let g = [[m.m11, m.m12, m.m14], [m.m21, m.m22, m.m24], [m.m41, m.m42, m.m44]].map { $0.map(Double.init) }
        guard let inverse = invert3x3(g) else { return nil }
        return piece.cuts.map { cut in
            // On the face's plane, z = (offset − n.x x − n.y y) / n.z; the cut's distance is then
            // linear in the ancestor's x and y.
            let p = cut.plane.normal
            var line = SIMD3<Double>(
                p.x - p.z * n.x / n.z, p.y - p.z * n.y / n.z, p.z * piece.plane.offset / n.z - cut.plane.offset)
            if !cut.keepsFront { line = -line }
            // [x y 1] · G⁻¹ = [X Y W] (W > 0 where the plane is in front of the eye), so the side is
            // [x y 1] · G⁻¹ · line ≥ 0.
            return SIMD3(
                inverse[0][0] * line.x + inverse[0][1] * line.y + inverse[0][2] * line.z,
                inverse[1][0] * line.x + inverse[1][1] * line.y + inverse[1][2] * line.z,
                inverse[2][0] * line.x + inverse[2][1] * line.y + inverse[2][2] * line.z)
        }
    }

    /// One run of pixels a piece draws: `x0..<x1` × `y0..<y1`, device pixels.
    struct PieceRow: Equatable {
        var x0: Int, x1: Int, y0: Int, y1: Int
    }

    /// The pixels of `rect` whose centres lie on the kept side of every line, as runs: each row's
    /// contiguous span (a convex region meets a row in one span), consecutive rows with the same span
    /// merged. A centre exactly on a line belongs to the side where `a > 0` (or, for a horizontal
    /// line, `b > 0`), so two pieces that share a line with opposite signs share no pixel and leave
    /// none out.
    static func pieceRows(lines: [SIMD3<Double>], in rect: DamageRect) -> [PieceRow] {
        var rows: [PieceRow] = []
        guard rect.area > 0 else { return rows }
        for y in rect.y..<(rect.y + rect.height) {
            let yc = Double(y) + 0.5
            var lo = rect.x, hi = rect.x + rect.width  // pixels lo..<hi
            for line in lines where lo < hi {
                let a = line.x, v = line.y * yc + line.z
                if a == 0 {
                    if v < 0 || (v == 0 && line.y < 0) || (v == 0 && line.y == 0 && line.z < 0) { hi = lo }
                    continue
                }
                // Pixel x is in when a (x + ½) + v ≥ 0 (a > 0) or > 0 (a < 0): x ≥ t or x < t for
                // t = −v/a − ½, the same t for both signs of the line.
                let t = -v / a - 0.5
                guard t.isFinite else {
                    if t.isNaN { hi = lo }
                    continue
                }
                let bound = t.rounded(.up)
                if a > 0 {
                    if bound > Double(lo) { lo = bound >= Double(hi) ? hi : Int(bound) }
                } else {
                    if bound < Double(hi) { hi = bound <= Double(lo) ? lo : Int(bound) }
                }
            }
            guard lo < hi else { continue }
            if var last = rows.last, last.y1 == y, last.x0 == lo, last.x1 == hi {
                last.y1 = y + 1
                rows[rows.count - 1] = last
            } else {
                rows.append(PieceRow(x0: lo, x1: hi, y0: y, y1: y + 1))
            }
        }
        return rows
    }
}

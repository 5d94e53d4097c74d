import Foundation
import LaminaCore

/// Turns render trees into a display list: walks each tree back to front, composes transforms,
/// multiplies opacity, applies clips, and emits primitives in paint order (App. A: background,
/// sublayers, border), then groups them into order-preserving batches.
///
/// Axis-aligned layers become flat `FillInstance`s (interiors, straight edges with exact fractional
/// coverage) plus small `ShapeInstance` corner pieces; anything rotated, projected or under a rounded
/// clip becomes whole `ShapeInstance`s.
public struct DisplayListBuilder {
    var list: DisplayList
    var batcher = Batcher()

    /// Builds the list for a `width`×`height` display from `trees`, drawn in the given order.
    public static func build(trees: [RenderTree], display: UInt32, width: Int, height: Int,
                             clearColor: SIMD4<Float> = .zero) -> DisplayList {
        var builder = DisplayListBuilder(list: DisplayList(width: width, height: height, clearColor: clearColor))
        let screen = Clip(deviceRect: CGRect(x: 0, y: 0, width: width, height: height), general: nil)
        for tree in trees {
            guard let root = tree.roots[display], let layer = tree.layers[root] else { continue }
            builder.draw(layer, in: tree, parentSublayerTransform: CATransform3DIdentity,
                         parentToDevice: CATransform3DIdentity, opacity: 1, clip: screen)
        }
        builder.list.batches = builder.batcher.finish()
        return builder.list
    }

    /// The clip in force: an axis-aligned device rectangle plus at most one general clip (a rounded or
    /// transformed rectangle in some layer's plane).
    struct Clip {
        var deviceRect: CGRect
        var general: GeneralClip?
    }

    struct GeneralClip {
        /// Device (x, y, 1) to clip-layer coordinates, rows of a 3×3 homography.
        var rows: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
        var rect: CGRect
        var radius: CGFloat
    }

    /// Draws `layer` and its subtree. `parentSublayerTransform` is the superlayer's `sublayerTransform`
    /// about its anchor; the child is flattened into the superlayer's plane only after it, so a parent's
    /// perspective foreshortens its children.
    mutating func draw(_ layer: RenderLayer, in tree: RenderTree, parentSublayerTransform: CATransform3D,
                       parentToDevice: CATransform3D, opacity parentOpacity: Double, clip parentClip: Clip) {
        let state = layer.state
        guard !state.isHidden else { return }
        let opacity = parentOpacity * Double(state.opacity)
        guard opacity > 0 else { return }
        let toParent = CATransform3DConcat(state.transformToSuperlayer, parentSublayerTransform)
        let toDevice = CATransform3DConcat(Self.flattened(toParent), parentToDevice)
        guard Self.isDrawable(toDevice) else { return }
        let radius = min(state.cornerRadius, min(state.bounds.width, state.bounds.height) / 2)

        if let color = state.backgroundColor, color.alpha > 0, !state.bounds.isEmpty {
            emitShape(bounds: state.bounds, radius: radius, corners: state.maskedCorners, borderWidth: 0,
                      color: color.premultiplied(opacity: opacity), toDevice: toDevice, clip: parentClip)
        }

        if !layer.sublayers.isEmpty {
            var clip = parentClip
            if state.masksToBounds {
                guard let narrowed = Self.narrow(parentClip, by: state.bounds, radius: radius, toDevice: toDevice) else {
                    return drawBorder(state, radius: radius, opacity: opacity, toDevice: toDevice, clip: parentClip)
                }
                clip = narrowed
            }
            let sublayerTransform = state.transformForSublayers
            let children = layer.sublayers.compactMap { tree.layers[$0] }
            // Stable sort: zPosition first, array order breaks ties.
            let ordered = children.enumerated().sorted {
                ($0.element.state.zPosition, $0.offset) < ($1.element.state.zPosition, $1.offset)
            }
            for (_, child) in ordered {
                draw(child, in: tree, parentSublayerTransform: sublayerTransform, parentToDevice: toDevice,
                     opacity: opacity, clip: clip)
            }
        }
        drawBorder(state, radius: radius, opacity: opacity, toDevice: toDevice, clip: parentClip)
    }

    mutating func drawBorder(_ state: LayerState, radius: CGFloat, opacity: Double, toDevice: CATransform3D,
                             clip: Clip) {
        guard state.borderWidth > 0, let color = state.borderColor, color.alpha > 0, !state.bounds.isEmpty else {
            return
        }
        let width = min(state.borderWidth, min(state.bounds.width, state.bounds.height) / 2)
        emitShape(bounds: state.bounds, radius: radius, corners: state.maskedCorners, borderWidth: width,
                  color: color.premultiplied(opacity: opacity), toDevice: toDevice, clip: clip)
    }

    /// Drops the z output of a child-to-parent matrix (its third column): a standard layer flattens
    /// its subtree into its own plane. Perspective already applied stays in the w column.
    static func flattened(_ m: CATransform3D) -> CATransform3D {
        var f = m
        f.m13 = 0; f.m23 = 0; f.m33 = 0; f.m43 = 0
        return f
    }

    /// False for matrices that are not finite or that put the layer's plane behind the viewer.
    static func isDrawable(_ m: CATransform3D) -> Bool {
        m.isFinite && abs(m.m11 * m.m22 - m.m12 * m.m21) + abs(m.m14) + abs(m.m24) > 1e-12
    }

    /// A matrix that maps the layer plane to the device with no rotation, skew or projection.
    static func isAxisAligned(_ m: CATransform3D) -> Bool {
        m.m12 == 0 && m.m21 == 0 && m.m14 == 0 && m.m24 == 0 && m.m44 == 1 && m.m11 != 0 && m.m22 != 0
    }

    /// The clip after entering a layer with `masksToBounds`; nil when nothing can be visible.
    static func narrow(_ clip: Clip, by bounds: CGRect, radius: CGFloat, toDevice m: CATransform3D) -> Clip? {
        var result = clip
        if isAxisAligned(m) && radius == 0 {
            result.deviceRect = clip.deviceRect.intersection(deviceRect(bounds, m))
            return result.deviceRect.isEmpty ? nil : result
        }
        // The plane's homography G: [x y 1]·G = [X Y W]; its inverse maps device pixels back to the plane.
        let g = [[m.m11, m.m12, m.m14], [m.m21, m.m22, m.m24], [m.m41, m.m42, m.m44]].map { $0.map(Double.init) }
        guard let h = invert3x3(g) else { return nil }
        func row(_ r: [Double]) -> SIMD4<Float> { SIMD4(Float(r[0]), Float(r[1]), Float(r[2]), 0) }
        let general = GeneralClip(rows: (row(h[0]), row(h[1]), row(h[2])), rect: bounds, radius: radius)
        // The clip's device bounding box always narrows the rectangle, so nested general clips
        // still cut to the outer clip's box (the inner one keeps its exact shape).
        if let box = deviceBoundingBox(bounds, m) {
            result.deviceRect = clip.deviceRect.intersection(box)
            if result.deviceRect.isEmpty { return nil }
        }
        result.general = general
        return result
    }

    static func invert3x3(_ a: [[Double]]) -> [[Double]]? {
        let det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
            - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
            + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        let inv = 1 / det
        return [
            [(a[1][1] * a[2][2] - a[1][2] * a[2][1]) * inv, (a[0][2] * a[2][1] - a[0][1] * a[2][2]) * inv,
             (a[0][1] * a[1][2] - a[0][2] * a[1][1]) * inv],
            [(a[1][2] * a[2][0] - a[1][0] * a[2][2]) * inv, (a[0][0] * a[2][2] - a[0][2] * a[2][0]) * inv,
             (a[0][2] * a[1][0] - a[0][0] * a[1][2]) * inv],
            [(a[1][0] * a[2][1] - a[1][1] * a[2][0]) * inv, (a[0][1] * a[2][0] - a[0][0] * a[2][1]) * inv,
             (a[0][0] * a[1][1] - a[0][1] * a[1][0]) * inv],
        ]
    }

    static func deviceRect(_ r: CGRect, _ m: CATransform3D) -> CGRect {
        let x0 = r.minX * m.m11 + m.m41, x1 = r.maxX * m.m11 + m.m41
        let y0 = r.minY * m.m22 + m.m42, y1 = r.maxY * m.m22 + m.m42
        return CGRect(x: min(x0, x1), y: min(y0, y1), width: abs(x1 - x0), height: abs(y1 - y0))
    }

    /// The device bounding box of a rectangle in a layer plane; nil when a corner is behind the viewer.
    static func deviceBoundingBox(_ r: CGRect, _ m: CATransform3D) -> CGRect? {
        let pts = [(r.minX, r.minY), (r.maxX, r.minY), (r.minX, r.maxY), (r.maxX, r.maxY)].map {
            m.transform(x: $0.0, y: $0.1, z: 0)
        }
        guard pts.allSatisfy({ $0.w > 1e-9 }) else { return nil }
        let xs = pts.map { $0.x / $0.w }, ys = pts.map { $0.y / $0.w }
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    // MARK: Emitting primitives

    /// Emits a filled rounded rectangle (`borderWidth` 0) or a border ring.
    mutating func emitShape(bounds: CGRect, radius: CGFloat, corners: CACornerMask, borderWidth: CGFloat,
                            color: SIMD4<Float>, toDevice m: CATransform3D, clip: Clip) {
        let template = shapeTemplate(bounds: bounds, radius: radius, corners: corners, borderWidth: borderWidth,
                                     color: color, toDevice: m, clip: clip)
        if clip.general == nil && Self.isAxisAligned(m) && Self.isIntegral(clip.deviceRect) {
            emitAxisAligned(bounds: bounds, radius: radius, corners: corners, borderWidth: borderWidth,
                            color: color, toDevice: m, clip: clip.deviceRect, template: template)
            return
        }
        // General case: one quad over the whole shape, grown by about one device pixel for anti-aliasing.
        guard let box = Self.deviceBoundingBox(bounds, m) else {
            return  // Part of the plane is behind the viewer: not drawn (documented limitation).
        }
        guard box.intersects(clip.deviceRect) else { return }
        let scale = max(1e-6, min(hypot(m.m11, m.m12), hypot(m.m21, m.m22)) / max(abs(m.m44), 1e-6))
        let margin = min(1.5 / scale, max(bounds.width, bounds.height) + 1)
        var piece = template
        piece.piece = SIMD4(Float(bounds.minX - margin), Float(bounds.minY - margin),
                            Float(bounds.maxX + margin), Float(bounds.maxY + margin))
        batcher.add(.shape, index: list.shapes.count, box: box.insetBy(dx: -2, dy: -2).intersection(clip.deviceRect))
        list.shapes.append(piece)
    }

    func shapeTemplate(bounds: CGRect, radius: CGFloat, corners: CACornerMask, borderWidth: CGFloat,
                       color: SIMD4<Float>, toDevice m: CATransform3D, clip: Clip) -> ShapeInstance {
        func v(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat) -> SIMD4<Float> {
            SIMD4(Float(a), Float(b), Float(c), Float(d))
        }
        let g = clip.general
        return ShapeInstance(
            transform: (v(m.m11, m.m12, m.m13, m.m14), v(m.m21, m.m22, m.m23, m.m24),
                        v(m.m31, m.m32, m.m33, m.m34), v(m.m41, m.m42, m.m43, m.m44)),
            piece: .zero,
            shapeRect: v(bounds.minX, bounds.minY, bounds.maxX, bounds.maxY),
            shapeParams: SIMD4(Float(radius), Float(borderWidth), Float(corners.rawValue), 0),
            color: color,
            deviceClip: v(clip.deviceRect.minX, clip.deviceRect.minY, clip.deviceRect.maxX, clip.deviceRect.maxY),
            clipRow0: g?.rows.0 ?? .zero, clipRow1: g?.rows.1 ?? .zero, clipRow2: g?.rows.2 ?? .zero,
            clipRect: g.map { v($0.rect.minX, $0.rect.minY, $0.rect.maxX, $0.rect.maxY) } ?? .zero,
            clipParams: SIMD4(Float(g?.radius ?? 0), g == nil ? 0 : 1, 0, 0))
    }

    static func isIntegral(_ r: CGRect) -> Bool {
        r.minX == r.minX.rounded() && r.minY == r.minY.rounded() && r.maxX == r.maxX.rounded()
            && r.maxY == r.maxY.rounded()
    }

    /// One axis of a fractional interval cut at pixel boundaries: integer spans with their coverage.
    static func spans(_ a: CGFloat, _ b: CGFloat) -> [(lo: CGFloat, hi: CGFloat, coverage: CGFloat)] {
        guard b > a else { return [] }
        let fa = a.rounded(.down), cb = b.rounded(.up)
        if cb - fa <= 1 { return [(fa, cb, b - a)] }
        var out: [(CGFloat, CGFloat, CGFloat)] = []
        let ca = a.rounded(.up), fb = b.rounded(.down)
        if ca > a { out.append((fa, ca, ca - a)) }
        if fb > ca { out.append((ca, fb, 1)) }
        if b > fb { out.append((fb, cb, b - fb)) }
        return out
    }

    /// Axis-aligned layer: flat fills for everything with straight edges, shape pieces for the corners.
    ///
    /// The device rectangle is cut by four inner grid lines (`xa`, `xb`, `ya`, `yb`) into corner boxes,
    /// edge bands and a middle band. Edge pixels that the shape covers only partly get the colour
    /// scaled by their exact coverage, which is constant along a straight edge.
    mutating func emitAxisAligned(bounds: CGRect, radius: CGFloat, corners: CACornerMask, borderWidth: CGFloat,
                                  color: SIMD4<Float>, toDevice m: CATransform3D, clip: CGRect,
                                  template: ShapeInstance) {
        let d = Self.deviceRect(bounds, m)
        let sx = abs(m.m11), sy = abs(m.m22)
        let rounded = radius > 0 && corners != []
        let isBorder = borderWidth > 0
        let bx = borderWidth * sx, by = borderWidth * sy
        // How far the corner regions reach into the shape, in device pixels.
        let cornerX = max(rounded ? radius * sx : 0, bx)
        let cornerY = max(rounded ? radius * sy : 0, by)
        let xa = (d.minX + cornerX).rounded(.up), xb = (d.maxX - cornerX).rounded(.down)
        let ya = (d.minY + cornerY).rounded(.up), yb = (d.maxY - cornerY).rounded(.down)
        let x0 = d.minX.rounded(.down), x1 = d.maxX.rounded(.up)
        let y0 = d.minY.rounded(.down), y1 = d.maxY.rounded(.up)
        guard xa < xb, ya < yb else {
            // Too small to split: the whole shape as one piece.
            emitShapePiece(CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), toDevice: m, clip: clip,
                           template: template)
            return
        }
        if rounded || isBorder {
            for box in [CGRect(x: x0, y: y0, width: xa - x0, height: ya - y0),
                        CGRect(x: xb, y: y0, width: x1 - xb, height: ya - y0),
                        CGRect(x: x0, y: yb, width: xa - x0, height: y1 - yb),
                        CGRect(x: xb, y: yb, width: x1 - xb, height: y1 - yb)] where !box.isEmpty {
                emitShapePiece(box, toDevice: m, clip: clip, template: template)
            }
        } else {
            // Square corners of a filled rectangle: each corner box is a product of two edge coverages.
            let left = Self.spans(d.minX, xa), right = Self.spans(xb, d.maxX)
            let top = Self.spans(d.minY, ya), bottom = Self.spans(yb, d.maxY)
            for (xs, ys) in [(left, top), (right, top), (left, bottom), (right, bottom)] {
                emitFills(xs, ys, color: color, clip: clip)
            }
        }
        let middleX = [(lo: xa, hi: xb, coverage: CGFloat(1))]
        let middleY = [(lo: ya, hi: yb, coverage: CGFloat(1))]
        if isBorder {
            emitFills(middleX, Self.spans(d.minY, d.minY + by), color: color, clip: clip)
            emitFills(middleX, Self.spans(d.maxY - by, d.maxY), color: color, clip: clip)
            emitFills(Self.spans(d.minX, d.minX + bx), middleY, color: color, clip: clip)
            emitFills(Self.spans(d.maxX - bx, d.maxX), middleY, color: color, clip: clip)
        } else {
            emitFills(middleX, Self.spans(d.minY, ya), color: color, clip: clip)
            emitFills(middleX, Self.spans(yb, d.maxY), color: color, clip: clip)
            emitFills(Self.spans(d.minX, d.maxX), middleY, color: color, clip: clip)
        }
    }

    /// Emits the cross product of x and y spans as fills with coverage-scaled colour, cut to `clip`.
    mutating func emitFills(_ xs: [(lo: CGFloat, hi: CGFloat, coverage: CGFloat)],
                            _ ys: [(lo: CGFloat, hi: CGFloat, coverage: CGFloat)],
                            color: SIMD4<Float>, clip: CGRect) {
        for y in ys {
            for x in xs {
                let rect = CGRect(x: x.lo, y: y.lo, width: x.hi - x.lo, height: y.hi - y.lo).intersection(clip)
                guard !rect.isEmpty else { continue }
                let c = color * Float(x.coverage * y.coverage)
                guard c.w > 0 else { continue }
                let kind: BatchKind = c.w >= 1 ? .opaqueFill : .blendedFill
                batcher.add(kind, index: list.fills.count, box: rect)
                list.fills.append(FillInstance(
                    rect: SIMD4(Float(rect.minX), Float(rect.minY), Float(rect.maxX), Float(rect.maxY)), color: c))
            }
        }
    }

    /// Emits a shape piece covering `deviceBox` (integer pixels) of an axis-aligned layer.
    mutating func emitShapePiece(_ deviceBox: CGRect, toDevice m: CATransform3D, clip: CGRect,
                                 template: ShapeInstance) {
        let box = deviceBox.intersection(clip)
        guard !box.isEmpty else { return }
        // Back to layer coordinates (the matrix is a scale and a translation here).
        let lx0 = (box.minX - m.m41) / m.m11, lx1 = (box.maxX - m.m41) / m.m11
        let ly0 = (box.minY - m.m42) / m.m22, ly1 = (box.maxY - m.m42) / m.m22
        var piece = template
        piece.piece = SIMD4(Float(min(lx0, lx1)), Float(min(ly0, ly1)), Float(max(lx0, lx1)), Float(max(ly0, ly1)))
        batcher.add(.shape, index: list.shapes.count, box: box)
        list.shapes.append(piece)
    }
}

/// Groups primitives into as few batches as draw order allows: a primitive joins the latest batch of
/// its kind when it overlaps nothing drawn after that batch.
struct Batcher {
    struct Pending {
        var kind: BatchKind
        var instances: [Int32] = []
        var boxes: [CGRect] = []
        var union: CGRect = .null
    }
    var batches: [Pending] = []
    /// How many batches back a primitive may move; bounds the cost per primitive.
    static let lookback = 12
    /// Above this many boxes, a batch is tested by its union only (conservative).
    static let exactTestLimit = 48

    mutating func add(_ kind: BatchKind, index: Int, box: CGRect) {
        var target: Int?
        var j = batches.count - 1
        while j >= 0 && j >= batches.count - Self.lookback {
            if batches[j].kind == kind { target = j; break }
            if overlaps(batches[j], box) { break }
            j -= 1
        }
        if target == nil {
            batches.append(Pending(kind: kind))
            target = batches.count - 1
        }
        batches[target!].instances.append(Int32(index))
        if batches[target!].boxes.count <= Self.exactTestLimit { batches[target!].boxes.append(box) }
        batches[target!].union = batches[target!].union.union(box)
    }

    func overlaps(_ batch: Pending, _ box: CGRect) -> Bool {
        guard batch.union.intersects(box) else { return false }
        if batch.instances.count > Self.exactTestLimit { return true }
        return batch.boxes.contains { $0.intersects(box) }
    }

    func finish() -> [DrawBatch] { batches.map { DrawBatch(kind: $0.kind, instances: $0.instances) } }
}

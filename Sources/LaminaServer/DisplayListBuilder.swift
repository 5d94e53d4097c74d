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
    var batcher: Batcher

    /// Builds the list for a `width`×`height` display from `trees`, drawn in the given order, with
    /// every animation evaluated at media time `time`.
    public static func build(trees: [RenderTree], display: UInt32, width: Int, height: Int,
                             clearColor: SIMD4<Float> = .zero, time: Double = 0) -> DisplayList {
        var builder = DisplayListBuilder(list: DisplayList(width: width, height: height, clearColor: clearColor),
                                         batcher: Batcher(width: width, height: height))
        let screen = Clip(deviceRect: CGRect(x: 0, y: 0, width: width, height: height))
        for tree in trees {
            guard let root = tree.roots[display], let layer = tree.layers[root] else { continue }
            let presented = Presented(layer, parentTime: time)
            builder.draw(presented, layers: tree.layers, snapshots: tree.snapshots,
                         parentSublayerTransform: CATransform3DIdentity, parentToDevice: CATransform3DIdentity,
                         opacity: 1, clip: screen)
        }
        builder.list.batches = builder.batcher.finish()
        return builder.list
    }

    /// The clip in force: an axis-aligned device rectangle plus up to two general clips (rounded or
    /// transformed rectangles in some layer's plane), innermost last. A third nested general clip
    /// pushes out the outermost, which then clips only to its device bounding box (still part of
    /// `deviceRect`).
    struct Clip {
        var deviceRect: CGRect
        var general: [ShapeClip] = []
        static let maxGeneral = 2
    }

    /// Draws `layer` and its subtree, whose layers are in `layers`. `parentSublayerTransform` is the
    /// superlayer's `sublayerTransform` about its anchor; the child is flattened into the superlayer's
    /// plane only after it, so a parent's perspective foreshortens its children. `image` moves and
    /// fades the whole subtree within the layer's plane (one image of a transition).
    mutating func draw(_ presented: Presented, layers: [LayerID: RenderLayer], snapshots: [UInt64: TransitionSnapshot],
                       parentSublayerTransform: CATransform3D, parentToDevice: CATransform3D,
                       opacity parentOpacity: Double, clip parentClip: Clip, image: TransitionImage = .identity) {
        if !presented.transitions.isEmpty {
            return drawTransition(presented, layers: layers, snapshots: snapshots,
                                  parentSublayerTransform: parentSublayerTransform, parentToDevice: parentToDevice,
                                  opacity: parentOpacity, clip: parentClip, image: image)
        }
        let state = presented.state
        guard !state.isHidden else { return }
        let opacity = parentOpacity * Double(state.opacity) * image.opacity
        guard opacity > 0 else { return }
        let toParent = CATransform3DConcat(state.transformToSuperlayer, parentSublayerTransform)
        var toDevice = CATransform3DConcat(Self.flattened(toParent), parentToDevice)
        if image.offset != .zero {
            toDevice = CATransform3DConcat(CATransform3DMakeTranslation(image.offset.x, image.offset.y, 0), toDevice)
        }
        guard Self.isDrawable(toDevice) else { return }
        let radius = min(state.cornerRadius, min(state.bounds.width, state.bounds.height) / 2)

        let fill = state.backgroundColor.flatMap { $0.alpha > 0 ? $0.premultiplied(opacity: opacity) : nil }
        let border = Self.borderColor(state, opacity: opacity)
        if presented.sublayers.isEmpty {
            // A leaf: nothing is drawn between background and border, so they may share corner pieces.
            if !state.bounds.isEmpty, fill != nil || border != nil {
                emitShape(bounds: state.bounds, radius: radius, corners: state.maskedCorners,
                          borderWidth: Self.borderWidth(state), fill: fill, border: border, toDevice: toDevice,
                          clip: parentClip)
            }
            return
        }
        if let fill, !state.bounds.isEmpty {
            emitShape(bounds: state.bounds, radius: radius, corners: state.maskedCorners, borderWidth: 0,
                      fill: fill, border: nil, toDevice: toDevice, clip: parentClip)
        }

        if !presented.sublayers.isEmpty {
            var clip = parentClip
            if state.masksToBounds {
                guard let narrowed = Self.narrow(parentClip, by: state.bounds, radius: radius, toDevice: toDevice) else {
                    return drawBorder(state, radius: radius, opacity: opacity, toDevice: toDevice, clip: parentClip)
                }
                clip = narrowed
            }
            let sublayerTransform = state.transformForSublayers
            var children: [Presented] = []
            children.reserveCapacity(presented.sublayers.count)
            for id in presented.sublayers {
                if let child = layers[id] { children.append(Presented(child, parentTime: presented.time)) }
            }
            // Stable sort: zPosition first, array order breaks ties. Only indices move, and only when
            // the zPositions differ.
            var order = Array(children.indices)
            if let z = children.first?.state.zPosition, children.contains(where: { $0.state.zPosition != z }) {
                order.sort { (children[$0].state.zPosition, $0) < (children[$1].state.zPosition, $1) }
            }
            for index in order {
                draw(children[index], layers: layers, snapshots: snapshots, parentSublayerTransform: sublayerTransform,
                     parentToDevice: toDevice, opacity: opacity, clip: clip)
            }
        }
        drawBorder(state, radius: radius, opacity: opacity, toDevice: toDevice, clip: parentClip)
    }

    /// Draws a layer with a transition in progress: its latest transition's before-image (the
    /// snapshot taken when the transition was added) and after-image (the live layer, with any
    /// earlier transitions still applied), each moved and faded as the transition says. Either image
    /// may be hidden or empty; the other is still drawn.
    mutating func drawTransition(_ presented: Presented, layers: [LayerID: RenderLayer],
                                 snapshots: [UInt64: TransitionSnapshot], parentSublayerTransform: CATransform3D,
                                 parentToDevice: CATransform3D, opacity: Double, clip: Clip, image: TransitionImage) {
        var after = presented
        let transition = after.transitions.removeLast()
        let images = transition.images(size: presented.state.bounds.size)
        let drawAfter = { (builder: inout DisplayListBuilder) in
            builder.draw(after, layers: layers, snapshots: snapshots, parentSublayerTransform: parentSublayerTransform,
                         parentToDevice: parentToDevice, opacity: opacity, clip: clip,
                         image: images.after.within(image))
        }
        if images.beforeOnTop { drawAfter(&self) }
        if let snapshot = snapshots[transition.id], let root = snapshot.layers[snapshot.root] {
            // The snapshot's layers keep running their own animations, in the same parent time.
            var before = Presented(root, parentTime: presented.parentTime)
            before.transitions = []
            draw(before, layers: snapshot.layers, snapshots: [:], parentSublayerTransform: parentSublayerTransform,
                 parentToDevice: parentToDevice, opacity: opacity, clip: clip, image: images.before.within(image))
        }
        if !images.beforeOnTop { drawAfter(&self) }
    }

    /// A render-tree layer with its presentation state at one time.
    struct Presented {
        /// The layer's sublayer ids (the render layer itself is not kept: it is large to copy).
        let sublayers: [LayerID]
        /// The presentation values: the model with the layer's animations applied.
        let state: LayerState
        /// The layer's local time: the parent time of its sublayers.
        let time: Double
        /// Transitions in progress on the layer.
        var transitions: [TransitionProgress] = []

        /// The superlayer's local time.
        let parentTime: Double

        init(_ layer: RenderLayer, parentTime: Double) {
            sublayers = layer.sublayers
            self.parentTime = parentTime
            time = layer.state.localTime(fromParent: parentTime)
            if layer.animations.isEmpty {
                state = layer.state
            } else {
                state = LayerAnimator.presentation(of: layer.state, animations: layer.animations,
                                                   layerTime: time, transitions: &transitions)
            }
        }
    }

    mutating func drawBorder(_ state: LayerState, radius: CGFloat, opacity: Double, toDevice: CATransform3D,
                             clip: Clip) {
        guard let border = Self.borderColor(state, opacity: opacity), !state.bounds.isEmpty else { return }
        emitShape(bounds: state.bounds, radius: radius, corners: state.maskedCorners, borderWidth: Self.borderWidth(state),
                  fill: nil, border: border, toDevice: toDevice, clip: clip)
    }

    /// The premultiplied border colour, or nil when no border is drawn.
    static func borderColor(_ state: LayerState, opacity: Double) -> SIMD4<Float>? {
        guard state.borderWidth > 0, let color = state.borderColor, color.alpha > 0 else { return nil }
        return color.premultiplied(opacity: opacity)
    }

    /// The border width, limited to half the smaller side as the ring cannot be wider.
    static func borderWidth(_ state: LayerState) -> CGFloat {
        min(state.borderWidth, min(state.bounds.width, state.bounds.height) / 2)
    }

    /// Drops the z output of a child-to-parent matrix (its third column): a standard layer flattens
    /// its subtree into its own plane. Perspective already applied stays in the w column.
    static func flattened(_ m: CATransform3D) -> CATransform3D {
        var f = m
        f.m13 = 0; f.m23 = 0; f.m33 = 0; f.m43 = 0
        return f
    }

    /// False for matrices that are not finite or that collapse the layer's plane to a line or a point.
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
        func row(_ r: [Double], _ w: CGFloat = 0) -> SIMD4<Float> { SIMD4(Float(r[0]), Float(r[1]), Float(r[2]), Float(w)) }
        let general = ShapeClip(row0: row(h[0], radius), row1: row(h[1]), row2: row(h[2]),
                                rect: SIMD4(Float(bounds.minX), Float(bounds.minY), Float(bounds.maxX), Float(bounds.maxY)))
        // The clip's device bounding box always narrows the rectangle, so nested general clips
        // still cut to the outer clip's box (the inner one keeps its exact shape).
        if let box = deviceBoundingBox(bounds, m) {
            result.deviceRect = clip.deviceRect.intersection(box)
            if result.deviceRect.isEmpty { return nil }
        }
        if result.general.count == Clip.maxGeneral { result.general.removeFirst() }
        result.general.append(general)
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

    /// Emits a layer's background (`fill`) and border ring (`border`, `borderWidth` wide); either may be
    /// nil. Both together are drawn as background then border.
    mutating func emitShape(bounds: CGRect, radius: CGFloat, corners: CACornerMask, borderWidth: CGFloat,
                            fill: SIMD4<Float>?, border: SIMD4<Float>?, toDevice m: CATransform3D, clip: Clip) {
        if clip.general.isEmpty && Self.isAxisAligned(m) && Self.isIntegral(clip.deviceRect) {
            if fill != nil && border != nil && abs(m.m11) != abs(m.m22) {
                // Elliptical corners need the shape pipeline, which draws one colour per piece.
                emitShape(bounds: bounds, radius: radius, corners: corners, borderWidth: 0, fill: fill, border: nil,
                          toDevice: m, clip: clip)
                emitShape(bounds: bounds, radius: radius, corners: corners, borderWidth: borderWidth, fill: nil,
                          border: border, toDevice: m, clip: clip)
                return
            }
            emitAxisAligned(bounds: bounds, radius: radius, corners: corners, borderWidth: border == nil ? 0 : borderWidth,
                            fill: fill, border: border, toDevice: m, clip: clip.deviceRect)
            return
        }
        // General case: one quad over the whole shape per colour, grown by about one device pixel for
        // anti-aliasing.
        guard let box = Self.deviceBoundingBox(bounds, m) else {
            return  // Part of the plane is behind the viewer: not drawn (documented limitation).
        }
        guard box.intersects(clip.deviceRect) else { return }
        let scale = max(1e-6, min(hypot(m.m11, m.m12), hypot(m.m21, m.m22)) / max(abs(m.m44), 1e-6))
        let margin = min(1.5 / scale, max(bounds.width, bounds.height) + 1)
        for (color, width) in [(fill, CGFloat(0)), (border, borderWidth)] {
            guard let color else { continue }
            var piece = shapeTemplate(bounds: bounds, radius: radius, corners: corners, borderWidth: width,
                                      color: color, toDevice: m, clip: clip)
            piece.piece = SIMD4(Float(bounds.minX - margin), Float(bounds.minY - margin),
                                Float(bounds.maxX + margin), Float(bounds.maxY + margin))
            batcher.add(.shape, index: list.shapes.count, box: box.insetBy(dx: -2, dy: -2).intersection(clip.deviceRect))
            list.shapes.append(piece)
            batcher.endGroup()
        }
    }

    func shapeTemplate(bounds: CGRect, radius: CGFloat, corners: CACornerMask, borderWidth: CGFloat,
                       color: SIMD4<Float>, toDevice m: CATransform3D, clip: Clip) -> ShapeInstance {
        func v(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat) -> SIMD4<Float> {
            SIMD4(Float(a), Float(b), Float(c), Float(d))
        }
        return ShapeInstance(
            row1: v(m.m11, m.m12, m.m13, m.m14), row2: v(m.m21, m.m22, m.m23, m.m24),
            row4: v(m.m41, m.m42, m.m43, m.m44),
            piece: .zero,
            shapeRect: v(bounds.minX, bounds.minY, bounds.maxX, bounds.maxY),
            shapeParams: SIMD4(Float(radius), Float(borderWidth), Float(corners.rawValue), Float(clip.general.count)),
            color: color,
            deviceClip: v(clip.deviceRect.minX, clip.deviceRect.minY, clip.deviceRect.maxX, clip.deviceRect.maxY),
            clipA: clip.general.count > 0 ? clip.general[0] : .none,
            clipB: clip.general.count > 1 ? clip.general[1] : .none)
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

    /// Axis-aligned layer: flat fills for everything with straight edges, corner pieces for the corners.
    ///
    /// The device rectangle is cut by four inner grid lines (`xa`, `xb`, `ya`, `yb`) into corner boxes,
    /// edge bands and a middle band. Edge pixels that the shape covers only partly get the colour
    /// scaled by their exact coverage, which is constant along a straight edge. Corner boxes become
    /// `CornerInstance`s (uniform scale) or `ShapeInstance`s (non-uniform scale, one colour).
    mutating func emitAxisAligned(bounds: CGRect, radius: CGFloat, corners: CACornerMask, borderWidth: CGFloat,
                                  fill: SIMD4<Float>?, border: SIMD4<Float>?, toDevice m: CATransform3D,
                                  clip: CGRect) {
        let d = Self.deviceRect(bounds, m)
        let rounded = radius > 0 && corners != []
        if let fill, !rounded, border == nil, Self.isIntegral(d) {
            // The common case of a plain rectangle on whole pixels: one fill, nothing partly covered.
            emitFills([(d.minX, d.maxX, 1)], [(d.minY, d.maxY, 1)], color: fill, clip: clip)
            batcher.endGroup()
            return
        }
        let sx = abs(m.m11), sy = abs(m.m22)
        let bx = borderWidth * sx, by = borderWidth * sy
        // How far the corner regions reach into the shape, in device pixels.
        let cornerX = max(rounded ? radius * sx : 0, bx)
        let cornerY = max(rounded ? radius * sy : 0, by)
        let xa = (d.minX + cornerX).rounded(.up), xb = (d.maxX - cornerX).rounded(.down)
        let ya = (d.minY + cornerY).rounded(.up), yb = (d.maxY - cornerY).rounded(.down)
        let x0 = d.minX.rounded(.down), x1 = d.maxX.rounded(.up)
        let y0 = d.minY.rounded(.down), y1 = d.maxY.rounded(.up)
        let corner = { (box: CGRect, builder: inout DisplayListBuilder) in
            builder.emitCornerPiece(box, bounds: bounds, device: d, radius: radius, corners: corners,
                                    borderWidth: borderWidth, fill: fill, border: border, toDevice: m, clip: clip)
        }
        guard xa < xb, ya < yb else {
            if let fill, !rounded, border == nil {
                // A thin plain rectangle: exact coverage is still the product of the two edge spans.
                emitFills(Self.spans(d.minX, d.maxX), Self.spans(d.minY, d.maxY), color: fill, clip: clip)
            } else {
                // Too small to split: the whole shape as one piece.
                corner(CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), &self)
            }
            batcher.endGroup()
            return
        }
        if rounded || border != nil {
            for box in [CGRect(x: x0, y: y0, width: xa - x0, height: ya - y0),
                        CGRect(x: xb, y: y0, width: x1 - xb, height: ya - y0),
                        CGRect(x: x0, y: yb, width: xa - x0, height: y1 - yb),
                        CGRect(x: xb, y: yb, width: x1 - xb, height: y1 - yb)] where !box.isEmpty {
                corner(box, &self)
            }
        } else if let fill {
            // Square corners of a filled rectangle: each corner box is a product of two edge coverages.
            let left = Self.spans(d.minX, xa), right = Self.spans(xb, d.maxX)
            let top = Self.spans(d.minY, ya), bottom = Self.spans(yb, d.maxY)
            for (xs, ys) in [(left, top), (right, top), (left, bottom), (right, bottom)] {
                emitFills(xs, ys, color: fill, clip: clip)
            }
        }
        let middleX = [(lo: xa, hi: xb, coverage: CGFloat(1))]
        let middleY = [(lo: ya, hi: yb, coverage: CGFloat(1))]
        if let fill {
            emitFills(middleX, Self.spans(d.minY, ya), color: fill, clip: clip)
            emitFills(middleX, Self.spans(yb, d.maxY), color: fill, clip: clip)
            emitFills(Self.spans(d.minX, d.maxX), middleY, color: fill, clip: clip)
        }
        // Corners and background bands are disjoint; the border bands lie over the background.
        batcher.endGroup()
        if let border {
            emitFills(middleX, Self.spans(d.minY, d.minY + by), color: border, clip: clip)
            emitFills(middleX, Self.spans(d.maxY - by, d.maxY), color: border, clip: clip)
            emitFills(Self.spans(d.minX, d.minX + bx), middleY, color: border, clip: clip)
            emitFills(Self.spans(d.maxX - bx, d.maxX), middleY, color: border, clip: clip)
            batcher.endGroup()
        }
    }

    /// Emits one corner box (integer device pixels) of an axis-aligned shape.
    mutating func emitCornerPiece(_ deviceBox: CGRect, bounds: CGRect, device d: CGRect, radius: CGFloat,
                                  corners: CACornerMask, borderWidth: CGFloat, fill: SIMD4<Float>?,
                                  border: SIMD4<Float>?, toDevice m: CATransform3D, clip: CGRect) {
        let box = deviceBox.intersection(clip)
        guard !box.isEmpty else { return }
        let scale = abs(m.m11)
        if scale == abs(m.m22) {
            // Mirroring swaps which corner is which; the mask follows the device axes.
            var mask = corners.rawValue
            if m.m11 < 0 { mask = (mask & 0b0101) << 1 | (mask & 0b1010) >> 1 }
            if m.m22 < 0 { mask = (mask & 0b0011) << 2 | (mask & 0b1100) >> 2 }
            batcher.add(.corner, index: list.corners.count, box: box)
            list.corners.append(CornerInstance(
                rect: SIMD4(Float(box.minX), Float(box.minY), Float(box.maxX), Float(box.maxY)),
                shape: SIMD4(Float(d.midX), Float(d.midY), Float(d.width / 2), Float(d.height / 2)),
                params: SIMD4(Float(radius * scale), Float(borderWidth * scale), Float(mask), 0),
                fill: fill ?? .zero, border: border ?? .zero))
            return
        }
        // Non-uniform scale: elliptical corners, drawn in layer coordinates by the shape pipeline.
        let lx0 = (box.minX - m.m41) / m.m11, lx1 = (box.maxX - m.m41) / m.m11
        let ly0 = (box.minY - m.m42) / m.m22, ly1 = (box.maxY - m.m42) / m.m22
        var piece = shapeTemplate(bounds: bounds, radius: radius, corners: corners,
                                  borderWidth: border == nil ? 0 : borderWidth, color: border ?? fill ?? .zero,
                                  toDevice: m, clip: Clip(deviceRect: clip))
        piece.piece = SIMD4(Float(min(lx0, lx1)), Float(min(ly0, ly1)), Float(max(lx0, lx1)), Float(max(ly0, ly1)))
        batcher.add(.shape, index: list.shapes.count, box: box)
        list.shapes.append(piece)
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
}

/// Orders primitives into as few batches as draw order allows.
///
/// Batches cycle through the kinds (opaque fill, blended fill, corner, shape, then opaque fill again),
/// so batch `b` holds kind `b % 4`. A primitive goes into the lowest batch of its kind that comes after
/// every earlier primitive it may overlap: the same batch for a primitive of its own kind (a batch
/// keeps submission order), a later one otherwise. "May overlap" is judged on a grid of 16-pixel
/// cells, which remembers per cell and kind the highest batch used. Primitives added between two
/// `endGroup()` calls are disjoint by construction (the pieces of one shape), so they do not
/// constrain each other.
struct Batcher {
    static let cellSize = 16
    static let kinds: [BatchKind] = [.opaqueFill, .blendedFill, .corner, .shape]
    let columns: Int
    let rows: Int
    /// Highest batch per cell and kind, -1 when none: `(row * columns + column) * 4 + kind`.
    var highest: [Int32]
    var pending: [(kind: Int, index: Int32, cells: (Int, Int, Int, Int))] = []
    var placed: [(batch: Int32, kind: Int, index: Int32)] = []

    init(width: Int, height: Int) {
        columns = max(1, (width + Self.cellSize - 1) / Self.cellSize)
        rows = max(1, (height + Self.cellSize - 1) / Self.cellSize)
        highest = [Int32](repeating: -1, count: columns * rows * 4)
    }

    /// Adds primitive `index` of `kind` covering `box` (device pixels) to the current group.
    mutating func add(_ kind: BatchKind, index: Int, box: CGRect) {
        let k = Self.kinds.firstIndex(of: kind)!
        let c0 = min(max(Int((box.minX / CGFloat(Self.cellSize)).rounded(.down)), 0), columns - 1)
        let r0 = min(max(Int((box.minY / CGFloat(Self.cellSize)).rounded(.down)), 0), rows - 1)
        let c1 = min(max(Int(((box.maxX - 0.001) / CGFloat(Self.cellSize)).rounded(.down)), c0), columns - 1)
        let r1 = min(max(Int(((box.maxY - 0.001) / CGFloat(Self.cellSize)).rounded(.down)), r0), rows - 1)
        pending.append((k, Int32(index), (c0, r0, c1, r1)))
    }

    /// Places the current group's primitives.
    mutating func endGroup() {
        guard !pending.isEmpty else { return }
        var batches: [Int32] = []
        batches.reserveCapacity(pending.count)
        for p in pending {
            var required: Int32 = 0
            for r in p.cells.1...p.cells.3 {
                var cell = (r * columns + p.cells.0) * 4
                for _ in p.cells.0...p.cells.2 {
                    for q in 0..<4 {
                        let h = highest[cell + q]
                        if h >= 0 { required = max(required, q == p.kind ? h : h + 1) }
                    }
                    cell += 4
                }
            }
            // The lowest batch at or after `required` that holds this kind.
            let b = required + Int32((p.kind - Int(required % 4) + 4) % 4)
            batches.append(b)
        }
        for (p, b) in zip(pending, batches) {
            for r in p.cells.1...p.cells.3 {
                for c in p.cells.0...p.cells.2 {
                    let i = (r * columns + c) * 4 + p.kind
                    if highest[i] < b { highest[i] = b }
                }
            }
            placed.append((b, p.kind, p.index))
        }
        pending.removeAll(keepingCapacity: true)
    }

    mutating func finish() -> [DrawBatch] {
        endGroup()
        // Stable: submission order within a batch.
        let ordered = placed.enumerated().sorted { ($0.element.batch, $0.offset) < ($1.element.batch, $1.offset) }
        var out: [DrawBatch] = []
        var current: Int32 = -1
        for (_, item) in ordered {
            if item.batch != current {
                out.append(DrawBatch(kind: Self.kinds[item.kind], instances: []))
                current = item.batch
            }
            out[out.count - 1].instances.append(item.index)
        }
        return out
    }
}

import Foundation
import LaminaCore

/// Emission: turns one layer's background and border into instances of the draw kinds and hands
/// them to the batcher.
extension DisplayListBuilder {
    /// Emits a layer's background (`fill`) and border ring (`border`, `borderWidth` wide); either may be
    /// nil. Both together are drawn as background then border. `continuous` draws the rounded corners
    /// with the continuous curve (the shaders' `cornerDistance`), which reaches
    /// `radius × continuousExpansion` along each edge.
    mutating func emitShape(
        bounds: CGRect, radius: CGFloat, corners: CACornerMask, continuous: Bool = false, borderWidth: CGFloat,
        fill: SIMD4<Float>?, border: SIMD4<Float>?, toDevice m: CATransform3D, clip: Clip, hardEdges: UInt32 = 0,
        fade: GroupFade? = nil
    ) {
        if clip.general.isEmpty && Self.isAxisAligned(m) && Self.isIntegral(clip.deviceRect) {
            if fill != nil && border != nil && abs(m.m11) != abs(m.m22) {
                // Elliptical corners need the shape pipeline, which draws one colour per piece.
                emitShape(
                    bounds: bounds, radius: radius, corners: corners, continuous: continuous, borderWidth: 0,
                    fill: fill, border: nil, toDevice: m, clip: clip)
                emitShape(
                    bounds: bounds, radius: radius, corners: corners, continuous: continuous,
                    borderWidth: borderWidth, fill: nil, border: border, toDevice: m, clip: clip)
                return
            }
            emitAxisAligned(
                bounds: bounds, radius: radius, corners: corners, continuous: continuous,
                borderWidth: border == nil ? 0 : borderWidth,
                fill: fill, border: border, toDevice: m, clip: clip.deviceRect, fade: fade)
            return
        }
        // General case: one quad over the whole shape per colour, grown by about one device pixel for
        // anti-aliasing.
        guard let box = Self.deviceBoundingBox(bounds, m) else {
            return  // Part of the plane is behind the viewer: not drawn (documented limitation).
        }
        guard Self.held(box).intersects(clip.deviceRect) else { return }
        let scale = max(1e-6, min(hypot(m.m11, m.m12), hypot(m.m21, m.m22)) / max(abs(m.m44), 1e-6))
        let margin = min(1.5 / scale, max(bounds.width, bounds.height) + 1)
        for (color, width) in [(fill, CGFloat(0)), (border, borderWidth)] {
            guard let color else { continue }
            var piece = shapeTemplate(
                bounds: bounds, radius: radius, corners: corners, continuous: continuous, borderWidth: width,
                color: color, toDevice: m, clip: clip)
            piece.shapeParams.z += Float(32 * (hardEdges & 15))
            piece.piece = SIMD4(
                Float(bounds.minX - margin), Float(bounds.minY - margin),
                Float(bounds.maxX + margin), Float(bounds.maxY + margin))
            emit(
                piece, kind: Self.shapeKind(piece),
                box: Self.held(box.insetBy(dx: -2, dy: -2)).intersection(clip.deviceRect))
            batcher.endGroup()
        }
    }

    /// A leaf layer's background and border faded as one group (`allowsGroupOpacity`) without an
    /// offscreen pass: their premultiplied colours at full opacity, and the opacity, applied after the
    /// border is composited over the background. Used where `fadesAsOne` holds: every pixel of the
    /// shape is then drawn by exactly one piece, which composites the two itself.
    struct GroupFade {
        /// The background colour at full opacity, premultiplied, on 8-bit steps.
        var fill: SIMD4<Float>
        /// The border colour at full opacity, premultiplied, on 8-bit steps.
        var border: SIMD4<Float>
        /// The opacity the composited pixels are multiplied by.
        var opacity: Double
    }

    /// Whether `emitShape` draws a background and a `borderWidth` border through `m` in `clip` as
    /// disjoint pieces when given a `GroupFade`: an axis-aligned, uniformly scaled shape on whole
    /// device pixels whose border bands end on whole pixels too, so that each band pixel is one
    /// instance of the border over the background and each corner one piece that composites both.
    static func fadesAsOne(bounds: CGRect, borderWidth: CGFloat, toDevice m: CATransform3D, clip: Clip) -> Bool {
        guard clip.general.isEmpty, isAxisAligned(m), isIntegral(clip.deviceRect), abs(m.m11) == abs(m.m22) else {
            return false
        }
        let band = borderWidth * abs(m.m11)
        return isIntegral(deviceRect(bounds, m)) && band == band.rounded()
    }

    /// How far a continuous corner reaches along each edge, as a multiple of the radius (Apple's
    /// `cornerCurveExpansionFactor(.continuous)`); the shaders use the same constant.
    static let continuousExpansion: CGFloat = 1.528665

    /// The corner mask as the shaders read it: the four corner bits, plus 16 for continuous corners.
    static func maskValue(_ corners: UInt, continuous: Bool) -> Float {
        Float(corners & 15 | (continuous ? 16 : 0))
    }

    /// How far the rounded corners reach into the shape from each edge, in layer units: the radius,
    /// or for continuous corners the radius times `continuousExpansion`, at most half the shorter side.
    static func cornerReach(bounds: CGRect, radius: CGFloat, continuous: Bool) -> CGFloat {
        guard continuous else { return radius }
        return max(min(radius * continuousExpansion, min(bounds.width, bounds.height) / 2), radius)
    }

    func shapeTemplate(
        bounds: CGRect, radius: CGFloat, corners: CACornerMask, continuous: Bool = false, borderWidth: CGFloat,
        color: SIMD4<Float>, toDevice m: CATransform3D, clip: Clip
    ) -> ShapeInstance {
        func v(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat) -> SIMD4<Float> {
            SIMD4(Float(a), Float(b), Float(c), Float(d))
        }
        return ShapeInstance(
            row1: v(m.m11, m.m12, m.m13, m.m14), row2: v(m.m21, m.m22, m.m23, m.m24),
            row4: v(m.m41, m.m42, m.m43, m.m44),
            piece: .zero,
            shapeRect: v(bounds.minX, bounds.minY, bounds.maxX, bounds.maxY),
            shapeParams: SIMD4(
                Float(radius), Float(borderWidth), Self.maskValue(corners.rawValue, continuous: continuous),
                Float(clip.general.count)),
            color: color,
            deviceClip: v(clip.deviceRect.minX, clip.deviceRect.minY, clip.deviceRect.maxX, clip.deviceRect.maxY),
            clipA: clip.general.count > 0 ? clip.general[0] : .none,
            clipB: clip.general.count > 1 ? clip.general[1] : .none)
    }

    /// One axis of a fractional interval cut at pixel boundaries: integer spans with their coverage.
    static func spans(_ a: CGFloat, _ b: CGFloat) -> FillSpans {
        guard b > a else { return FillSpans() }
        let fa = a.rounded(.down), cb = b.rounded(.up)
        if cb - fa <= 1 { return FillSpans(fa, cb, coverage: b - a) }
        var out = FillSpans()
        let ca = a.rounded(.up), fb = b.rounded(.down)
        if ca > a { out.append((fa, ca, ca - a)) }
        if fb > ca { out.append((ca, fb, 1)) }
        if b > fb { out.append((fb, cb, b - fb)) }
        return out
    }

    /// The spans of `a...b` as `spans` cuts them; while the builder draws a layer that moves
    /// (`stablePieces`), always three (`stableSpans`).
    func pieceSpans(_ a: CGFloat, _ b: CGFloat) -> FillSpans {
        stablePieces ? Self.stableSpans(a, b) : Self.spans(a, b)
    }

    /// `spans(a, b)` as three spans whatever the fractions of `a` and `b`: the partly covered first
    /// pixel, the whole pixels, the partly covered last pixel, each empty (no pixels, coverage 0)
    /// where `spans` leaves it out. An interval within one pixel is that pixel then two empty spans;
    /// an empty interval three empty spans.
    static func stableSpans(_ a: CGFloat, _ b: CGFloat) -> FillSpans {
        var out = FillSpans()
        guard b > a else {
            let at = a.isNaN ? 0 : a
            for _ in 0..<3 { out.append((at, at, 0)) }
            return out
        }
        let fa = a.rounded(.down), cb = b.rounded(.up)
        if cb - fa <= 1 {
            out.append((fa, cb, b - a))
            out.append((cb, cb, 0))
            out.append((cb, cb, 0))
            return out
        }
        let ca = a.rounded(.up), fb = b.rounded(.down)
        out.append((fa, ca, ca - a))
        out.append((ca, fb, 1))
        out.append((fb, cb, b - fb))
        return out
    }

    /// Axis-aligned layer: flat fills for everything with straight edges, corner pieces for the corners.
    ///
    /// The device rectangle is cut by four inner grid lines (`xa`, `xb`, `ya`, `yb`) into corner boxes,
    /// edge bands and a middle band. Edge pixels that the shape covers only partly get the colour
    /// scaled by their exact coverage, which is constant along a straight edge. Corner boxes become
    /// `CornerInstance`s (uniform scale) or `ShapeInstance`s (non-uniform scale, one colour).
    mutating func emitAxisAligned(
        bounds: CGRect, radius: CGFloat, corners: CACornerMask, continuous: Bool = false, borderWidth: CGFloat,
        fill: SIMD4<Float>?, border: SIMD4<Float>?, toDevice m: CATransform3D,
        clip: CGRect, fade: GroupFade? = nil
    ) {
        let d = Self.deviceRect(bounds, m)
        let rounded = radius > 0 && corners != []
        if let fill, !rounded, border == nil, Self.isIntegral(d), !stablePieces {
            // The common case of a plain rectangle on whole pixels: one fill, nothing partly covered.
            emitFills(FillSpans(d.minX, d.maxX), FillSpans(d.minY, d.maxY), color: fill, clip: clip)
            batcher.endGroup()
            return
        }
        let sx = abs(m.m11), sy = abs(m.m22)
        let bx = borderWidth * sx, by = borderWidth * sy
        // How far the corner regions reach into the shape, in device pixels.
        let reach = Self.cornerReach(bounds: bounds, radius: radius, continuous: continuous)
        let cornerX = max(rounded ? reach * sx : 0, bx)
        let cornerY = max(rounded ? reach * sy : 0, by)
        let xa = (d.minX + cornerX).rounded(.up), xb = (d.maxX - cornerX).rounded(.down)
        let ya = (d.minY + cornerY).rounded(.up), yb = (d.maxY - cornerY).rounded(.down)
        let x0 = d.minX.rounded(.down), x1 = d.maxX.rounded(.up)
        let y0 = d.minY.rounded(.down), y1 = d.maxY.rounded(.up)
        // Faded as one group: every pixel is drawn by one piece, the corners composite at full opacity
        // and fade after, the border bands carry the border over the background.
        let asOne =
            fill != nil && border != nil && fade != nil && Self.isIntegral(d) && bx == bx.rounded()
            && by == by.rounded()
        let corner = { (box: CGRect, builder: inout DisplayListBuilder) in
            if asOne, let fade {
                builder.emitCornerPiece(
                    box, bounds: bounds, device: d, radius: radius, corners: corners, continuous: continuous,
                    borderWidth: borderWidth, fill: fade.fill, border: fade.border, toDevice: m, clip: clip,
                    fade: Float(fade.opacity))
            } else {
                builder.emitCornerPiece(
                    box, bounds: bounds, device: d, radius: radius, corners: corners, continuous: continuous,
                    borderWidth: borderWidth, fill: fill, border: border, toDevice: m, clip: clip)
            }
        }
        if stablePieces, let fill, !rounded, border == nil {
            // A moving plain rectangle: one piece wherever it is, its edges' coverage found per pixel.
            emitCoverageFill(d, color: fill, clip: clip)
            batcher.endGroup()
            return
        }
        guard xa < xb, ya < yb else {
            if let fill, !rounded, border == nil {
                // A thin plain rectangle: exact coverage is still the product of the two edge spans.
                emitFills(pieceSpans(d.minX, d.maxX), pieceSpans(d.minY, d.maxY), color: fill, clip: clip)
            } else {
                // Too small to split: the whole shape as one piece.
                corner(CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), &self)
            }
            batcher.endGroup()
            return
        }
        if rounded || border != nil {
            for box in [
                CGRect(x: x0, y: y0, width: xa - x0, height: ya - y0),
                CGRect(x: xb, y: y0, width: x1 - xb, height: ya - y0),
                CGRect(x: x0, y: yb, width: xa - x0, height: y1 - yb),
                CGRect(x: xb, y: yb, width: x1 - xb, height: y1 - yb),
            ] where !box.isEmpty {
                corner(box, &self)
            }
        } else if let fill {
            // Square corners of a filled rectangle: each corner box is a product of two edge coverages.
            let left = pieceSpans(d.minX, xa), right = pieceSpans(xb, d.maxX)
            let top = pieceSpans(d.minY, ya), bottom = pieceSpans(yb, d.maxY)
            for (xs, ys) in [(left, top), (right, top), (left, bottom), (right, bottom)] {
                emitFills(xs, ys, color: fill, clip: clip)
            }
        }
        let middleX = FillSpans(xa, xb)
        let middleY = FillSpans(ya, yb)
        if asOne, let fill, let fade {
            // The background inside the border, and the border bands with the background composited in.
            emitFills(middleX, pieceSpans(d.minY + by, ya), color: fill, clip: clip)
            emitFills(middleX, pieceSpans(yb, d.maxY - by), color: fill, clip: clip)
            emitFills(pieceSpans(d.minX + bx, d.maxX - bx), middleY, color: fill, clip: clip)
            let band = (fade.border + fade.fill * (1 - fade.border.w)) * Float(fade.opacity)
            emitFills(middleX, pieceSpans(d.minY, d.minY + by), color: band, clip: clip)
            emitFills(middleX, pieceSpans(d.maxY - by, d.maxY), color: band, clip: clip)
            emitFills(pieceSpans(d.minX, d.minX + bx), middleY, color: band, clip: clip)
            emitFills(pieceSpans(d.maxX - bx, d.maxX), middleY, color: band, clip: clip)
            batcher.endGroup()
            return
        }
        if let fill {
            emitFills(middleX, pieceSpans(d.minY, ya), color: fill, clip: clip)
            emitFills(middleX, pieceSpans(yb, d.maxY), color: fill, clip: clip)
            emitFills(pieceSpans(d.minX, d.maxX), middleY, color: fill, clip: clip)
        }
        // Corners and background bands are disjoint; the border bands lie over the background.
        batcher.endGroup()
        if let border {
            emitFills(middleX, pieceSpans(d.minY, d.minY + by), color: border, clip: clip)
            emitFills(middleX, pieceSpans(d.maxY - by, d.maxY), color: border, clip: clip)
            emitFills(pieceSpans(d.minX, d.minX + bx), middleY, color: border, clip: clip)
            emitFills(pieceSpans(d.maxX - bx, d.maxX), middleY, color: border, clip: clip)
            batcher.endGroup()
        }
    }

    /// Emits one corner box (integer device pixels) of an axis-aligned shape.
    mutating func emitCornerPiece(
        _ deviceBox: CGRect, bounds: CGRect, device d: CGRect, radius: CGFloat,
        corners: CACornerMask, continuous: Bool, borderWidth: CGFloat, fill: SIMD4<Float>?,
        border: SIMD4<Float>?, toDevice m: CATransform3D, clip: CGRect, fade: Float = 1
    ) {
        let box = Self.held(deviceBox).intersection(clip)
        let scale = abs(m.m11)
        if box.isEmpty, stablePieces, scale == abs(m.m22) {
            // A moving layer's corner out of sight: an empty piece keeps its place (`emitStableFill`).
            let piece = CornerInstance(rect: .zero, shape: .zero, params: .zero, fill: .zero, border: .zero)
            return emit(piece, kind: continuous ? DrawKind.continuousCorner.id : DrawKind.corner.id, box: .zero)
        }
        guard !box.isEmpty else { return }
        if scale == abs(m.m22) {
            // Mirroring swaps which corner is which; the mask follows the device axes.
            var mask = corners.rawValue
            if m.m11 < 0 { mask = (mask & 0b0101) << 1 | (mask & 0b1010) >> 1 }
            if m.m22 < 0 { mask = (mask & 0b0011) << 2 | (mask & 0b1100) >> 2 }
            let piece = CornerInstance(
                rect: SIMD4(Float(box.minX), Float(box.minY), Float(box.maxX), Float(box.maxY)),
                shape: SIMD4(Float(d.midX), Float(d.midY), Float(d.width / 2), Float(d.height / 2)),
                params: SIMD4(
                    Float(radius * scale), Float(borderWidth * scale), Self.maskValue(mask, continuous: continuous),
                    fade),
                fill: fill ?? .zero, border: border ?? .zero)
            emit(piece, kind: continuous ? DrawKind.continuousCorner.id : DrawKind.corner.id, box: box)
            return
        }
        // Non-uniform scale: elliptical corners, drawn in layer coordinates by the shape pipeline.
        let lx0 = (box.minX - m.m41) / m.m11, lx1 = (box.maxX - m.m41) / m.m11
        let ly0 = (box.minY - m.m42) / m.m22, ly1 = (box.maxY - m.m42) / m.m22
        var piece = shapeTemplate(
            bounds: bounds, radius: radius, corners: corners, continuous: continuous,
            borderWidth: border == nil ? 0 : borderWidth, color: border ?? fill ?? .zero,
            toDevice: m, clip: Clip(deviceRect: clip))
        piece.piece = SIMD4(Float(min(lx0, lx1)), Float(min(ly0, ly1)), Float(max(lx0, lx1)), Float(max(ly0, ly1)))
        emit(piece, kind: Self.shapeKind(piece), box: box)
    }

    /// The draw kind of a shape piece: `continuousShape` when its corners or one of its clips' corners
    /// are continuous (mask flag 16; clip flag 1 in `row1.w`), else `shape`.
    static func shapeKind(_ piece: ShapeInstance) -> Int {
        let continuous =
            Int(piece.shapeParams.z + 0.5) & 16 != 0 || piece.clipA.row1.w > 0.5 || piece.clipB.row1.w > 0.5
        return continuous ? DrawKind.continuousShape.id : DrawKind.shape.id
    }

    /// Emits the cross product of x and y spans as fills with coverage-scaled colour, cut to `clip`.
    mutating func emitFills(
        _ xs: FillSpans, _ ys: FillSpans,
        color: SIMD4<Float>, clip: CGRect
    ) {
        let (clipX0, clipY0, clipX1, clipY1) = (clip.minX, clip.minY, clip.maxX, clip.maxY)
        for y in ys {
            for x in xs {
                // The span pair cut to the clip (spans run from lo to hi; an empty result is no rect).
                let x0 = max(Self.held(x.lo), clipX0), x1 = min(Self.held(x.hi), clipX1)
                let y0 = max(Self.held(y.lo), clipY0), y1 = min(Self.held(y.hi), clipY1)
                let rect = x1 > x0 && y1 > y0 ? CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : .null
                if stablePieces {
                    emitStableFill(rect, coverage: x.coverage * y.coverage, color: color)
                    continue
                }
                guard !rect.isEmpty else { continue }
                // The instance rounds its colour to 8-bit steps, so the opaque/blended choice and the
                // skip of invisible pieces look at the colour that is drawn.
                let fill = FillInstance(
                    rect: SIMD4(Float(rect.minX), Float(rect.minY), Float(rect.maxX), Float(rect.maxY)),
                    color: color * Float(x.coverage * y.coverage))
                guard fill.color.w > 0 else { continue }
                emit(fill, kind: fill.color.w >= 1 ? DrawKind.opaqueFill.id : DrawKind.blendedFill.id, box: rect)
            }
        }
    }

    /// Emits one fill piece of a layer that moves (`stablePieces`), drawn or not: an empty or unseen
    /// piece is an empty instance that draws nothing, so that the layer keeps its number of pieces,
    /// and each piece its kind (opaque only for a whole pixel span of an opaque colour), as it moves.
    /// A retained list then writes a moving layer's new pieces over its old ones in place.
    mutating func emitStableFill(_ rect: CGRect, coverage: CGFloat, color: SIMD4<Float>) {
        // An empty piece covers no pixel and no batcher cell wherever it is: it sits at the origin.
        let box = rect.isEmpty ? .zero : rect
        let color = color * Float(coverage)
        let fill = FillInstance(
            rect: SIMD4(Float(box.minX), Float(box.minY), Float(box.maxX), Float(box.maxY)),
            color: rect.isEmpty ? .zero : color)
        let opaque = !rect.isEmpty && coverage >= 1 && color.w >= 1
        emit(fill, kind: opaque ? DrawKind.opaqueFill.id : DrawKind.blendedFill.id, box: box)
    }

    /// Emits device rectangle `d` cut to `clip` (whole pixels) as one `coverageFill` instance of
    /// `color`: the fills `emitFills` cuts a rectangle into, drawn by one piece whatever the fractions
    /// of its edges. An unseen rectangle is an empty instance that draws nothing (`emitStableFill`).
    mutating func emitCoverageFill(_ d: CGRect, color: SIMD4<Float>, clip: CGRect) {
        guard
            let x = CoverageFillInstance.axis(Self.held(d.minX), Self.held(d.maxX), clip: clip.minX, clip.maxX),
            let y = CoverageFillInstance.axis(Self.held(d.minY), Self.held(d.maxY), clip: clip.minY, clip.maxY)
        else {
            return emit(CoverageFillInstance.empty, kind: DrawKind.coverageFill.id, box: .zero)
        }
        func f(_ v: Double) -> Float { Float(v) }
        let fill = CoverageFillInstance(
            pixels: SIMD4(f(x.first), f(y.first), f(x.last + 1), f(y.last + 1)),
            edges: SIMD4(f(x.firstCoverage), f(y.firstCoverage), f(x.lastCoverage), f(y.lastCoverage)),
            corners: SIMD4(
                f(x.firstCoverage * y.firstCoverage), f(x.lastCoverage * y.firstCoverage),
                f(x.firstCoverage * y.lastCoverage), f(x.lastCoverage * y.lastCoverage)),
            color: color)
        let box = CGRect(x: x.first, y: y.first, width: x.last + 1 - x.first, height: y.last + 1 - y.first)
        emit(fill, kind: DrawKind.coverageFill.id, box: box)
    }

    /// Appends `instance` to the list as kind `kind` (a `DrawKind.id`) and hands it to the batcher as
    /// covering `box` (device pixels) in the current group; `texture` is what an instance of a textured
    /// kind samples.
    mutating func emit<Instance>(_ instance: Instance, kind: Int, box: CGRect, texture: TextureSampling? = nil) {
        let index = list.append(instance, kind: kind)
        batcher.add(kind, index: index, box: box, texture: texture)
        // An empty instance (a moving layer's piece that draws nothing: `emitStableFill`) touches no pixel.
        let pixels =
            box.isEmpty
            ? DamageRect(x: 0, y: 0, width: 0, height: 0)
            : DamageRect(covering: box, width: list.width, height: list.height)
        list.emitted.append(EmittedInstance(kind: kind, index: index, pixels: pixels, texture: texture))
    }
}

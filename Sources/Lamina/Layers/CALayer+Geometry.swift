import Foundation

// Coordinate conversion between layers and hit testing, as on Apple's `CALayer`.
//
// Everything here reads geometry only through `model`, `superlayer` and `sublayerList`, so it works
// the same on model layers and on presentation layers (whose `model` holds presentation values).
//
// Each layer is flattened into its superlayer's plane, as Core Animation renders it: a 2-D point lies
// on its layer's z = 0 plane, and the map from that plane to the superlayer's z = 0 plane is a plane
// projective map (a homography), the 3×3 matrix made of rows and columns 1, 2 and 4 of the layer's
// full 4×4 matrix. Conversions compose these 3×3 maps level by level; going down a level inverts
// one. A `CATransformLayer` does not flatten: across one, the full 4×4 matrices are multiplied and
// flattened only at the next ancestor that flattens.

extension CALayer {
    // MARK: Converting points

    /// Converts `p` from the coordinate space of `l` to this layer's coordinate space.
    ///
    /// Coordinate spaces are bounds spaces: `bounds` is expressed in a layer's own space, and its
    /// sublayers' `position` and `frame` in it (before `sublayerTransform`, which the conversion
    /// applies). The path goes up from `l` to the nearest common ancestor and down to this layer;
    /// each step down finds the point on the lower layer's plane that projects onto the given point
    /// (exact for perspective transforms).
    ///
    /// - `l == nil` names the *root space* of this layer's tree: the space in which the topmost
    ///   ancestor's `position` is expressed (its superlayer space, as if it had a superlayer with
    ///   identity geometry). Apple uses the window's space; the root space plays that part here.
    /// - Layers of different trees share no ancestor; their root spaces are treated as one space.
    /// - When a layer on the way down has a singular transform (a zero scale) or is seen edge-on, no
    ///   point of its plane projects onto `p` reliably and the result is `(nan, nan)`: the way down
    ///   counts as singular where it magnifies areas by at most 1e-12 (see `LaminaConversion`).
    public func convert(_ p: CGPoint, from l: CALayer?) -> CGPoint {
        Self.laminaConversion(from: l, to: self)?.apply(p) ?? .laminaUndefined
    }

    /// Converts `p` from this layer's coordinate space to the coordinate space of `l`.
    ///
    /// The mirror of `convert(_:from:)`, with the same rules: `l == nil` names the root space of this
    /// layer's tree, layers of different trees meet in their root spaces, and a singular or edge-on
    /// layer below the common ancestor on `l`'s side gives `(nan, nan)`.
    public func convert(_ p: CGPoint, to l: CALayer?) -> CGPoint {
        Self.laminaConversion(from: self, to: l)?.apply(p) ?? .laminaUndefined
    }

    // MARK: Converting rectangles

    /// Converts `r` from the coordinate space of `l` to this layer's coordinate space.
    ///
    /// The result is the bounding box of the four converted corners (the way `frame` is derived from
    /// `bounds`). `l == nil` and layers of different trees work as in `convert(_:from:)` for points.
    /// A null rectangle stays null, and so does the result when a corner cannot be converted (a
    /// singular map, or a corner sent to infinity by a perspective transform).
    public func convert(_ r: CGRect, from l: CALayer?) -> CGRect {
        Self.laminaConvert(r, with: Self.laminaConversion(from: l, to: self))
    }

    /// Converts `r` from this layer's coordinate space to the coordinate space of `l`.
    ///
    /// The mirror of `convert(_:from:)` for rectangles: the bounding box of the converted corners, or
    /// a null rectangle when `r` is null or a corner cannot be converted.
    public func convert(_ r: CGRect, to l: CALayer?) -> CGRect {
        Self.laminaConvert(r, with: Self.laminaConversion(from: self, to: l))
    }

    // MARK: Setting the frame

    /// Sets `bounds.size` and `position` so that `frame` reads back as `newValue` where the transform
    /// allows it: the implementation behind the `frame` setter.
    ///
    /// - With the identity transform: `bounds.size = newValue.size` and `position` = the frame's origin
    ///   plus `anchorPoint × size` (the bounds origin is left alone).
    /// - Otherwise the plane part of `transform` (`a b c d tx ty`, as `CATransform3DGetAffineTransform`
    ///   reads it; z and perspective are not solved for) decides. When its 2×2 part is invertible, the
    ///   size is that of the frame mapped back through the inverse (the bounding box of the inverse
    ///   image), and `position` puts the transformed bounds' centre on the frame's centre. For a scale,
    ///   a flip, a quarter turn or a translation that reads back exactly; for other rotations and skews
    ///   `frame` reads back as the bounding box of the transformed bounds, centred where asked (as on
    ///   Apple platforms, whose frame is always that bounding box). A singular part (a zero scale) has
    ///   no size to solve for: `bounds.size = newValue.size` and `position` is placed as above.
    ///
    /// Observers of `frame` hear the change (those of `bounds` and `position` hear theirs too).
    func setFrameThroughTransform(_ newValue: CGRect) {
        let observers = keyRecord.observers.flatMap { $0.observes("frame") ? $0 : nil }
        let oldFrame = observers == nil ? CGRect.null : modelState.frame
        observers?.willChange("frame")
        defer { observers?.didChange("frame", posting: modelState.frame != oldFrame) }
        let state = modelState
        guard !CATransform3DIsIdentity(state.transform) else {
            bounds.size = newValue.size
            position = CGPoint(
                x: newValue.origin.x + state.anchorPoint.x * newValue.width,
                y: newValue.origin.y + state.anchorPoint.y * newValue.height)
            return
        }
        let frame = newValue.standardized
        let m = CATransform3DGetAffineTransform(state.transform)
        let det = m.a * m.d - m.b * m.c
        var size = frame.size
        if det != 0, det.isFinite {
            // Row vectors: (x, y) · L = (a x + c y, b x + d y); the inverse's entries over the determinant.
            let ia = m.d / det, ib = -m.b / det, ic = -m.c / det, id = m.a / det
            let solved = CGSize(
                width: abs(ia) * frame.width + abs(ic) * frame.height,
                height: abs(ib) * frame.width + abs(id) * frame.height)
            if solved.width.isFinite, solved.height.isFinite { size = solved }
        }
        // The bounds' centre relative to the anchor point, then through the transform.
        let dx = (0.5 - state.anchorPoint.x) * size.width
        let dy = (0.5 - state.anchorPoint.y) * size.height
        bounds.size = size
        position = CGPoint(
            x: frame.midX - m.tx - (m.a * dx + m.c * dy),
            y: frame.midY - m.ty - (m.b * dx + m.d * dy))
    }

    // MARK: Hit testing

    /// Returns whether `p`, in this layer's coordinate space, lies inside `bounds`.
    ///
    /// The test is half-open, like `CGRect.contains`: `minX ≤ x < maxX` and `minY ≤ y < maxY`, so an
    /// empty `bounds` contains nothing and a point on the right or bottom edge is outside. A NaN
    /// coordinate is outside.
    ///
    /// The implementation behind the overridable entry point in CALayer.swift.
    func containsPoint(_ p: CGPoint) -> Bool {
        let b = modelState.bounds.standardized
        return p.x >= b.minX && p.x < b.maxX && p.y >= b.minY && p.y < b.maxY
    }

    /// Returns the farthest descendant of this layer (or the layer itself) under `p`, or nil.
    ///
    /// `p` is in the *superlayer's* coordinate space, as on Apple platforms (for a layer without a
    /// superlayer, the root space of `convert(_:from:)`). Hidden layers and layers of opacity 0 are
    /// skipped with their subtrees. The point is converted into this layer's space; when
    /// `masksToBounds` is set and the point is outside `bounds`, nothing in the subtree is hit.
    /// Otherwise the sublayers are asked front to back (the reverse of drawing order: higher
    /// `zPosition` first, then later in `sublayers` first), each with the point in this layer's space
    /// (each sublayer undoes this layer's `sublayerTransform` as it converts the point into its own
    /// space); the first hit wins. Failing that, the result is this layer if `contains` says so.
    ///
    /// The implementation behind the overridable entry point in CALayer.swift.
    func hitTestPoint(_ p: CGPoint) -> CALayer? {
        guard !modelState.isHidden, modelState.opacity > 0 else { return nil }
        guard let local = LaminaConversion(descent: laminaMapToSuperlayer())?.apply(p),
            local.x.isFinite, local.y.isFinite
        else { return nil }
        return hitTestLocal(local)
    }

    /// The rest of `hitTestPoint(_:)` once the point is in this layer's own space: `masksToBounds`,
    /// the sublayers front to back, then `contains`. A transform layer calls it for the face it found
    /// in 3-D, whose plane may be edge-on in the transform layer's own plane.
    func hitTestLocal(_ local: CGPoint) -> CALayer? {
        if modelState.masksToBounds && !contains(local) { return nil }
        let ordered = sublayerList.enumerated().sorted { a, b in
            a.element.modelState.zPosition != b.element.modelState.zPosition
                ? a.element.modelState.zPosition < b.element.modelState.zPosition
                : a.offset < b.offset
        }
        for sublayer in ordered.reversed() {
            if let hit = sublayer.element.hitTest(local) { return hit }
        }
        return contains(local) ? self : nil
    }

    // MARK: Plane maps

    /// The map from this layer's plane to its superlayer's (the root space for a root layer):
    /// `transformToSuperlayer` followed by the superlayer's `sublayerTransform`, flattened to 3×3.
    private func laminaMapToSuperlayer() -> LaminaPlaneMap {
        LaminaPlaneMap(laminaMatrixToSuperlayer())
    }

    /// The full 4×4 matrix from this layer's space to its superlayer's: `transformToSuperlayer`
    /// followed by the superlayer's `sublayerTransform` (and its `isGeometryFlipped`).
    func laminaMatrixToSuperlayer() -> CATransform3D {
        let own = modelState.transformToSuperlayer
        guard let parent = superlayer else { return own }
        return CATransform3DConcat(own, parent.modelState.transformForSublayers)
    }

    /// The map from the plane of `chain.first` up to the plane of the superlayer of `chain.last`, for
    /// a chain of layers each the superlayer of the one before. Each layer flattens into its
    /// superlayer's plane, except into a `CATransformLayer` the chain climbs past: there the full
    /// 4×4 matrices are multiplied on, so a face under a transform layer keeps its depth up to the
    /// nearest ancestor that flattens (a chain that ends at a transform layer flattens into its plane).
    private static func laminaPlaneMap(up chain: ArraySlice<CALayer>) -> LaminaPlaneMap {
        var map = LaminaPlaneMap.identity
        var pending: CATransform3D?
        for index in chain.indices {
            let layer = chain[index]
            let step = layer.laminaMatrixToSuperlayer()
            let depth = pending.map { CATransform3DConcat($0, step) } ?? step
            if index + 1 < chain.endIndex, layer.superlayer?.modelState.layerClass == .transform {
                pending = depth
            } else {
                map = map.then(LaminaPlaneMap(depth))
                pending = nil
            }
        }
        return map
    }

    /// The layer and its ancestors, nearest first.
    private func laminaAncestry() -> [CALayer] {
        var chain: [CALayer] = []
        var current: CALayer? = self
        while let layer = current {
            chain.append(layer)
            current = layer.superlayer
        }
        return chain
    }

    /// The conversion from the plane of `source` to the plane of `target`, where nil names the root
    /// space of the other one's tree; nil when the way down has no inverse at all.
    private static func laminaConversion(from source: CALayer?, to target: CALayer?) -> LaminaConversion? {
        let up = source?.laminaAncestry() ?? []
        let down = target?.laminaAncestry() ?? []
        // Stop at the nearest common ancestor; without one, climb to both root spaces.
        let downIDs = Set(down.map(ObjectIdentifier.init))
        let upCount = up.firstIndex { downIDs.contains(ObjectIdentifier($0)) } ?? up.count
        let downCount =
            upCount < up.count
            ? down.firstIndex { $0 === up[upCount] }! : down.count
        let climb = laminaPlaneMap(up: up[..<upCount])
        guard downCount > 0 else { return LaminaConversion(climb: climb) }
        let descent = laminaPlaneMap(up: down[..<downCount])
        return LaminaConversion(climb: climb, descent: descent)
    }

    /// The bounding box of `r`'s corners under `map`, or null when `r` is null or a corner is lost.
    private static func laminaConvert(_ r: CGRect, with map: LaminaConversion?) -> CGRect {
        guard !r.isNull, let map else { return .null }
        let corners = [
            CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
            CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY),
        ].map(map.apply)
        guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return .null }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}

extension CGPoint {
    /// The result of a conversion that has no answer.
    fileprivate static let laminaUndefined = CGPoint(x: CGFloat.nan, y: CGFloat.nan)
}

/// A conversion between two layers' planes: up to their common ancestor, then down.
///
/// Going down inverts `descent`, the map from the target's plane up to the ancestor's. Where that map
/// squashes the target's plane (almost) flat, the point found below is meaningless: a result is
/// refused, as `(nan, nan)`, when the descent's area magnification there (its Jacobian determinant,
/// `det(H) / w³` for a homography `H`) is at most 1e-12 in size. That catches a layer seen edge-on,
/// whose matrix is singular only up to rounding (`cos(π/2) ≈ 6e-17`), and zero scales.
private struct LaminaConversion {
    /// The whole map: the climb followed by the inverse of the descent.
    let map: LaminaPlaneMap
    /// The map from the target's plane up to the common ancestor's, when there is a way down.
    let descent: LaminaPlaneMap?

    /// A conversion that only goes up.
    init(climb: LaminaPlaneMap) {
        map = climb
        descent = nil
    }

    /// A conversion up by `climb` and then down through `descent`; nil when `descent` has no inverse.
    init?(climb: LaminaPlaneMap = .identity, descent: LaminaPlaneMap) {
        guard let inverse = descent.inverse else { return nil }
        map = climb.then(inverse)
        self.descent = descent
    }

    /// The image of `p`, or `(nan, nan)` where the way down is degenerate.
    func apply(_ p: CGPoint) -> CGPoint {
        let q = map.apply(p)
        guard let d = descent, q.x.isFinite, q.y.isFinite else { return q }
        let w = q.x * d.h13 + q.y * d.h23 + d.h33
        let magnification = d.determinant / (w * w * w)
        return abs(magnification) > 1e-12 ? q : .laminaUndefined
    }
}

/// A projective map between two planes, in Apple's row-vector convention: `[x y 1] · H`.
///
/// Made from rows and columns 1, 2 and 4 of a `CATransform3D`: the part that acts on points with
/// z = 0 and yields x, y and w (the output z is dropped, which is what flattening into the parent's
/// plane means).
struct LaminaPlaneMap {
    var h11, h12, h13: CGFloat
    var h21, h22, h23: CGFloat
    var h31, h32, h33: CGFloat

    static let identity = LaminaPlaneMap(h11: 1, h12: 0, h13: 0, h21: 0, h22: 1, h23: 0, h31: 0, h32: 0, h33: 1)

    init(
        h11: CGFloat, h12: CGFloat, h13: CGFloat,
        h21: CGFloat, h22: CGFloat, h23: CGFloat,
        h31: CGFloat, h32: CGFloat, h33: CGFloat
    ) {
        self.h11 = h11; self.h12 = h12; self.h13 = h13
        self.h21 = h21; self.h22 = h22; self.h23 = h23
        self.h31 = h31; self.h32 = h32; self.h33 = h33
    }

    /// The map of the z = 0 plane under `m`.
    init(_ m: CATransform3D) {
        self.init(
            h11: m.m11, h12: m.m12, h13: m.m14,
            h21: m.m21, h22: m.m22, h23: m.m24,
            h31: m.m41, h32: m.m42, h33: m.m44)
    }

    /// `self` followed by `next`: the row-vector product `self · next`.
    func then(_ n: LaminaPlaneMap) -> LaminaPlaneMap {
        LaminaPlaneMap(
            h11: h11 * n.h11 + h12 * n.h21 + h13 * n.h31,
            h12: h11 * n.h12 + h12 * n.h22 + h13 * n.h32,
            h13: h11 * n.h13 + h12 * n.h23 + h13 * n.h33,
            h21: h21 * n.h11 + h22 * n.h21 + h23 * n.h31,
            h22: h21 * n.h12 + h22 * n.h22 + h23 * n.h32,
            h23: h21 * n.h13 + h22 * n.h23 + h23 * n.h33,
            h31: h31 * n.h11 + h32 * n.h21 + h33 * n.h31,
            h32: h31 * n.h12 + h32 * n.h22 + h33 * n.h32,
            h33: h31 * n.h13 + h32 * n.h23 + h33 * n.h33)
    }

    /// The image of `p`, divided through by w; `(nan, nan)` when w is 0 (a point sent to infinity).
    func apply(_ p: CGPoint) -> CGPoint {
        let w = p.x * h13 + p.y * h23 + h33
        guard w != 0 else { return .laminaUndefined }
        return CGPoint(x: (p.x * h11 + p.y * h21 + h31) / w, y: (p.x * h12 + p.y * h22 + h32) / w)
    }

    /// The determinant of the 3×3 matrix.
    var determinant: CGFloat {
        h11 * (h22 * h33 - h23 * h32) + h12 * (h23 * h31 - h21 * h33) + h13 * (h21 * h32 - h22 * h31)
    }

    /// The inverse map (the adjugate over the determinant), or nil when the determinant is 0 or the
    /// result is not finite.
    var inverse: LaminaPlaneMap? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let inverse = LaminaPlaneMap(
            h11: (h22 * h33 - h23 * h32) / det, h12: (h13 * h32 - h12 * h33) / det, h13: (h12 * h23 - h13 * h22) / det,
            h21: (h23 * h31 - h21 * h33) / det, h22: (h11 * h33 - h13 * h31) / det, h23: (h13 * h21 - h11 * h23) / det,
            h31: (h21 * h32 - h22 * h31) / det, h32: (h12 * h31 - h11 * h32) / det, h33: (h11 * h22 - h12 * h21) / det)
        guard inverse.isFinite else { return nil }
        return inverse
    }

    /// Whether all nine entries are finite.
    var isFinite: Bool {
        [h11, h12, h13, h21, h22, h23, h31, h32, h33].allSatisfy(\.isFinite)
    }
}

extension CALayer {
    /// True when an odd number of this layer and its ancestors have `isGeometryFlipped` set.
    func oddNumberOfFlippedAncestors() -> Bool {
        var flipped = false
        var current: CALayer? = self
        while let layer = current {
            if layer.modelState.isGeometryFlipped { flipped.toggle() }
            current = layer.superlayer
        }
        return flipped
    }
}

extension CATransform3D {
    /// The affine part, or the identity when the transform has a z or perspective part (what
    /// `CALayer.affineTransform()` returns, as on Apple platforms).
    var affinePartOrIdentity: CGAffineTransform {
        CATransform3DIsAffine(self) ? CATransform3DGetAffineTransform(self) : .identity
    }
}

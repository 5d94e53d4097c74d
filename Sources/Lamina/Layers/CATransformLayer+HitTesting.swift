import Foundation

/// Hit testing in 3-D under a `CATransformLayer`.
///
/// The point is given in the superlayer's plane, the nearest ancestor that flattens (or one more
/// transform layer's z = 0 plane, when a transform layer is asked directly). Every face below the
/// transform layer (each sublayer that is not a transform layer, through nested transform layers)
/// is placed in that space by the product of the full 4×4 matrices on the way down, as the server
/// draws it. For each face the point is taken back onto the face's plane (the inverse of the plane's
/// homography, as `convert(_:from:)` does) and its depth there read off (z over w: +z is toward the
/// viewer, and perspective keeps the order along each line of sight). Faces are then asked nearest
/// first, each with the point in its own space (`hitTestLocal`); the first that answers wins.
extension CATransformLayer {
    /// One face under the point: the layer, the point on its plane, and its depth there.
    private struct FaceHit {
        let layer: CALayer
        let local: CGPoint
        let depth: CGFloat
        /// The face's place in drawing order (ties in depth go to the one drawn later).
        let order: Int
    }

    /// The most faces one hit test looks at, as the server bounds the faces it sorts; past it the
    /// rest are not hit.
    static let maxHitTestFaces = 4_096

    /// The implementation behind `hitTest(_:)`.
    func hitTestInDepth(_ p: CGPoint) -> CALayer? {
        guard !modelState.isHidden, modelState.opacity > 0, p.x.isFinite, p.y.isFinite else { return nil }
        var hits: [FaceHit] = []
        var visited = 0
        let flipped = superlayer?.modelState.isGeometryFlipped ?? false
        collectFaceHits(
            p, toSpace: laminaMatrixToSuperlayer(), flipped: flipped, hits: &hits, visited: &visited)
        hits.sort { ($0.depth, $0.order) > ($1.depth, $1.order) }
        for hit in hits {
            if let layer = hit.layer.hitTestLocal(hit.local) { return layer }
        }
        return nil
    }

    /// Adds the faces below this transform layer that lie under `p`, where `toSpace` takes this
    /// layer's space to the space the point is in and `flipped` says whether the layers between
    /// mirror it by `isGeometryFlipped` (a mirror is not a turn for `isDoubleSided`).
    private func collectFaceHits(
        _ p: CGPoint, toSpace: CATransform3D, flipped: Bool, hits: inout [FaceHit], visited: inout Int
    ) {
        let forSublayers = CATransform3DConcat(modelState.transformForSublayers, toSpace)
        let flipped = flipped != modelState.isGeometryFlipped
        let sublayers = sublayerList
        let order = sublayers.indices.sorted {
            (sublayers[$0].modelState.zPosition, $0) < (sublayers[$1].modelState.zPosition, $1)
        }
        for index in order {
            let layer = sublayers[index]
            guard visited < Self.maxHitTestFaces else { return }
            visited += 1
            let state = layer.modelState
            guard !state.isHidden, state.opacity > 0 else { continue }
            let m = CATransform3DConcat(state.transformToSuperlayer, forSublayers)
            if let nested = layer as? CATransformLayer {
                nested.collectFaceHits(p, toSpace: m, flipped: flipped, hits: &hits, visited: &visited)
                continue
            }
            let plane = LaminaPlaneMap(m)
            if !state.isDoubleSided, !Self.facesViewer(plane, at: state.bounds, flipped: flipped) { continue }
            guard let inverse = plane.inverse else { continue }
            let local = inverse.apply(p)
            guard local.x.isFinite, local.y.isFinite else { continue }
            let point = m.transform(x: local.x, y: local.y, z: 0)
            // Behind the eye, or an edge-on plane whose inverse says nothing.
            guard point.w > 1e-9 else { continue }
            let magnification = plane.determinant / (point.w * point.w * point.w)
            guard abs(magnification) > 1e-12 else { continue }
            hits.append(FaceHit(layer: layer, local: local, depth: point.z / point.w, order: visited))
        }
    }

    /// Whether the front of a face whose plane maps to the space by `plane` faces the viewer: the
    /// server's rule (`DisplayListBuilder.facesViewer`), the sign of the homography's determinant
    /// times w at the centre of `bounds`, with a mirror by `isGeometryFlipped` taken out.
    private static func facesViewer(_ plane: LaminaPlaneMap, at bounds: CGRect, flipped: Bool) -> Bool {
        let w = bounds.midX * plane.h13 + bounds.midY * plane.h23 + plane.h33
        return (plane.determinant * w > 0) != flipped
    }
}

import Foundation
import LaminaCore

/// The geometry the transform-layer tests predict pixels from, computed here on its own (not by the
/// server's sort): each face's full 4×4 matrix to the flattening ancestor's space, and for a device
/// point the faces under it with their depth, found by taking the point back onto each face's plane.
enum TransformLayerGeometry {
    /// One face: its full matrix to device space (the flattening ancestor at the device origin), its
    /// bounds and its premultiplied colour (0...1).
    struct Face {
        var matrix: CATransform3D
        var bounds: CGRect
        var color: SIMD4<Double>
        var doubleSided = true
    }

    /// A layer's `transformToSuperlayer` for bounds (0, 0, size), anchor in the middle.
    static func toSuperlayer(
        size: CGSize, position: CGPoint, transform: CATransform3D = CATransform3DIdentity, zPosition: CGFloat = 0
    ) -> CATransform3D {
        CATransform3DConcat(
            CATransform3DConcat(CATransform3DMakeTranslation(-size.width / 2, -size.height / 2, 0), transform),
            CATransform3DMakeTranslation(position.x, position.y, zPosition))
    }

    /// A `sublayerTransform` about the anchor in the middle of bounds (0, 0, size).
    static func aboutAnchor(_ t: CATransform3D, size: CGSize) -> CATransform3D {
        CATransform3DConcat(
            CATransform3DConcat(CATransform3DMakeTranslation(-size.width / 2, -size.height / 2, 0), t),
            CATransform3DMakeTranslation(size.width / 2, size.height / 2, 0))
    }

    /// A face's plane point under device point `p`: (the point in the face's space, depth z / w), or nil
    /// when the point is outside the face's bounds (by `margin` device-ish units inside), behind the
    /// eye, or the face is turned away while single-sided.
    static func hit(_ face: Face, at p: CGPoint, margin: CGFloat = 0) -> (local: CGPoint, depth: Double)? {
        let m = face.matrix
        // [x y 1] · H = [X Y W], H from rows and columns 1, 2 and 4.
        let h = [[m.m11, m.m12, m.m14], [m.m21, m.m22, m.m24], [m.m41, m.m42, m.m44]].map { $0.map(Double.init) }
        let det =
            h[0][0] * (h[1][1] * h[2][2] - h[1][2] * h[2][1]) - h[0][1] * (h[1][0] * h[2][2] - h[1][2] * h[2][0])
            + h[0][2] * (h[1][0] * h[2][1] - h[1][1] * h[2][0])
        guard abs(det) > 1e-12 else { return nil }
        // Solve [x y 1] · H = λ [px py 1] by Cramer on the columns.
        let px = Double(p.x), py = Double(p.y)
        // x·(h00 − px h02) + y·(h10 − px h12) = px h22 − h20, likewise for y.
        let a11 = h[0][0] - px * h[0][2], a12 = h[1][0] - px * h[1][2], b1 = px * h[2][2] - h[2][0]
        let a21 = h[0][1] - py * h[0][2], a22 = h[1][1] - py * h[1][2], b2 = py * h[2][2] - h[2][1]
        let d = a11 * a22 - a12 * a21
        guard abs(d) > 1e-12 else { return nil }
        let x = (b1 * a22 - a12 * b2) / d, y = (a11 * b2 - b1 * a21) / d
        let q = m.transform(x: CGFloat(x), y: CGFloat(y), z: 0)
        guard q.w > 1e-9 else { return nil }
        let b = face.bounds.insetBy(dx: margin, dy: margin)
        guard x >= b.minX, x <= b.maxX, y >= b.minY, y <= b.maxY else { return nil }
        if !face.doubleSided {
            let w = Double(face.bounds.midX) * h[0][2] + Double(face.bounds.midY) * h[1][2] + h[2][2]
            if det * w <= 0 { return nil }
        }
        return (CGPoint(x: x, y: y), Double(q.z / q.w))
    }

    /// The faces under `p`, nearest first (indices into `faces`).
    static func facesUnder(_ p: CGPoint, _ faces: [Face], margin: CGFloat = 0) -> [Int] {
        faces.indices.compactMap { i in hit(faces[i], at: p, margin: margin).map { (i, $0.depth) } }
            .sorted { $0.1 > $1.1 }.map(\.0)
    }

    /// The colour at `p`: the faces under it composited far to near over `background` (opaque), on
    /// 0...255; nil where the answer could change within `slack` pixels (an edge or a crossing).
    static func expectedColor(
        at p: CGPoint, _ faces: [Face], background: SIMD4<Double>, slack: CGFloat = 1.5
    ) -> [Int]? {
        let under = facesUnder(p, faces)
        for (dx, dy) in [(-slack, 0), (slack, 0), (0, -slack), (0, slack)] as [(CGFloat, CGFloat)] {
            if facesUnder(CGPoint(x: p.x + dx, y: p.y + dy), faces) != under { return nil }
        }
        var color = background
        for index in under.reversed() {
            let c = faces[index].color
            color = c + color * (1 - c.w)
        }
        return [color.x, color.y, color.z, color.w].map { Int(($0 * 255).rounded()) }
    }
}

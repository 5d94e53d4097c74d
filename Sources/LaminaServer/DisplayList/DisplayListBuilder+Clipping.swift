import Foundation
import LaminaCore

/// Clips and the geometry that decides how a layer is drawn: flattening, drawability, axis
/// alignment, device rectangles and the clip a `masksToBounds` layer gives its sublayers.
extension DisplayListBuilder {
    /// The clip in force: an axis-aligned device rectangle plus up to two general clips (rounded or
    /// transformed rectangles in some layer's plane), innermost last. A third nested general clip
    /// pushes out the outermost, which then clips only to its device bounding box (still part of
    /// `deviceRect`).
    struct Clip {
        var deviceRect: CGRect
        var general: [ShapeClip] = []
        static let maxGeneral = 2
    }
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

    /// The clip a layer's own drawing is cut by: `parentClip`, narrowed to the layer's rounded bounds
    /// when it masks to them; nil when that leaves nothing.
    static func ownClip(_ parentClip: Clip, of state: LayerState, radius: CGFloat, toDevice m: CATransform3D) -> Clip? {
        guard state.masksToBounds else { return parentClip }
        return narrow(parentClip, by: state.bounds, radius: radius, continuous: isContinuous(state), toDevice: m)
    }

    /// The clip after entering a layer with `masksToBounds`; nil when nothing can be visible.
    /// `continuous` rounds the clip's corners with the continuous curve (flag 1 in `row1.w`).
    static func narrow(
        _ clip: Clip, by bounds: CGRect, radius: CGFloat, continuous: Bool = false, toDevice m: CATransform3D
    ) -> Clip? {
        var result = clip
        if isAxisAligned(m) && radius == 0 {
            result.deviceRect = clip.deviceRect.intersection(deviceRect(bounds, m))
            return result.deviceRect.isEmpty ? nil : result
        }
        // The plane's homography G: [x y 1]·G = [X Y W]; its inverse maps device pixels back to the plane.
        let g = [[m.m11, m.m12, m.m14], [m.m21, m.m22, m.m24], [m.m41, m.m42, m.m44]].map { $0.map(Double.init) }
        guard let h = invert3x3(g) else { return nil }
        func row(_ r: [Double], _ w: CGFloat = 0) -> SIMD4<Float> {
            SIMD4(Float(r[0]), Float(r[1]), Float(r[2]), Float(w))
        }
        let general = ShapeClip(
            row0: row(h[0], radius), row1: row(h[1], continuous && radius > 0 ? 1 : 0), row2: row(h[2]),
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
        let det =
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
            - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
            + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        let inv = 1 / det
        return [
            [
                (a[1][1] * a[2][2] - a[1][2] * a[2][1]) * inv, (a[0][2] * a[2][1] - a[0][1] * a[2][2]) * inv,
                (a[0][1] * a[1][2] - a[0][2] * a[1][1]) * inv,
            ],
            [
                (a[1][2] * a[2][0] - a[1][0] * a[2][2]) * inv, (a[0][0] * a[2][2] - a[0][2] * a[2][0]) * inv,
                (a[0][2] * a[1][0] - a[0][0] * a[1][2]) * inv,
            ],
            [
                (a[1][0] * a[2][1] - a[1][1] * a[2][0]) * inv, (a[0][1] * a[2][0] - a[0][0] * a[2][1]) * inv,
                (a[0][0] * a[1][1] - a[0][1] * a[1][0]) * inv,
            ],
        ]
    }

    static func deviceRect(_ r: CGRect, _ m: CATransform3D) -> CGRect {
        let x0 = held(r.minX * m.m11 + m.m41), x1 = held(r.maxX * m.m11 + m.m41)
        let y0 = held(r.minY * m.m22 + m.m42), y1 = held(r.maxY * m.m22 + m.m42)
        return CGRect(x: min(x0, x1), y: min(y0, y1), width: abs(x1 - x0), height: abs(y1 - y0))
    }

    /// The largest device coordinate the builder works with: far beyond any display, and small enough
    /// that rectangle arithmetic stays finite (Foundation's `CGRect.intersection` traps on infinities,
    /// which a client's extreme transforms multiplied together can make).
    static let deviceLimit: CGFloat = 1e9

    /// A device coordinate held to ±`deviceLimit`; NaN becomes 0.
    @inline(__always)
    static func held(_ v: CGFloat) -> CGFloat { v.isNaN ? 0 : min(max(v, -deviceLimit), deviceLimit) }

    /// `r` with its edges held to ±`deviceLimit` (read from its origin and size, so that no
    /// Foundation geometry runs on a non-finite rectangle); a NaN edge becomes 0.
    static func held(_ r: CGRect) -> CGRect {
        let x0 = held(r.origin.x), x1 = held(r.origin.x + r.size.width)
        let y0 = held(r.origin.y), y1 = held(r.origin.y + r.size.height)
        return CGRect(x: min(x0, x1), y: min(y0, y1), width: abs(x1 - x0), height: abs(y1 - y0))
    }

    /// The device bounding box of a rectangle in a layer plane; nil when a corner is behind the viewer.
    static func deviceBoundingBox(_ r: CGRect, _ m: CATransform3D) -> CGRect? {
        let pts = [(r.minX, r.minY), (r.maxX, r.minY), (r.minX, r.maxY), (r.maxX, r.maxY)].map {
            m.transform(x: $0.0, y: $0.1, z: 0)
        }
        guard pts.allSatisfy({ $0.w > 1e-9 }) else { return nil }
        let xs = pts.map { held($0.x / $0.w) }, ys = pts.map { held($0.y / $0.w) }
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    // MARK: Emitting primitives

    static func isIntegral(_ r: CGRect) -> Bool {
        r.minX == r.minX.rounded() && r.minY == r.minY.rounded() && r.maxX == r.maxX.rounded()
            && r.maxY == r.maxY.rounded()
    }
}

import Foundation

/// The factors of a transform together with the exact rotation matrix found by Gram–Schmidt.
///
/// `DecomposedTransform` keeps only the quaternion; the virtual key-path components keep the
/// rotation rows so that reading and writing a component never round-trips through a quaternion.
struct TransformFactors {
    /// The decomposition; its quaternion describes `rotation`.
    var decomposed: DecomposedTransform
    /// The rotation's rows (row-vector convention), orthonormal with determinant +1.
    var rotation: MatrixRows3

    /// Factors `m`; nil when an entry is not finite, or when the upper 3×3 is singular and
    /// `allowSingular` is false.
    ///
    /// With `allowSingular`, a basis vector that vanishes (or lies in the span of the earlier ones)
    /// gets scale 0 and no skew, and its rotation row is completed to a right-handed orthonormal
    /// basis as close to the identity as possible. The recomposition then reproduces `m` exactly
    /// when the degenerate rows were zero (the usual case, a scale of 0); a non-zero degenerate row
    /// and any perspective that `L` cannot carry are lost. `m44 == 0` is accepted here.
    ///
    /// Every intermediate is a fixed-size value (no arrays), so factoring allocates nothing; the
    /// arithmetic, and its order, is that of the array form it replaced, so the factors are the same
    /// bit for bit (`AnimationEvaluationTests` checks this against the array form over random matrices).
    init?(_ m: CATransform3D, allowSingular: Bool) {
        guard m.isFinite else { return nil }
        let rows = MatrixRows3(
            SIMD3<Double>(m.m11, m.m12, m.m13), SIMD3<Double>(m.m21, m.m22, m.m23), SIMD3<Double>(m.m31, m.m32, m.m33))
        // The largest row length, compared as `max()` of the three lengths compares them.
        var largest = (rows.r0 * rows.r0).sum().squareRoot()
        for i in 1..<3 {
            let length = (rows[i] * rows[i]).sum().squareRoot()
            if largest < length { largest = length }
        }
        let threshold = largest * 1e-12

        // `basis[i]` is meaningful only where bit i of `present` is set (the array form's nil elsewhere).
        var basis = MatrixRows3.zero
        var present: UInt8 = 0
        var scale = SIMD3<Double>(0, 0, 0)
        var skew = MatrixRows3.zero
        for i in 0..<3 {
            var v = rows[i]
            var coefficients = SIMD3<Double>(0, 0, 0)
            for j in 0..<i {
                guard present & (1 << j) != 0 else { continue }
                let b = basis[j]
                let c = (v * b).sum()
                coefficients[j] = c
                v -= c * b
            }
            let length = (v * v).sum().squareRoot()
            if length > threshold && length > 0 {
                scale[i] = length
                basis[i] = v / length
                present |= 1 << i
                for j in 0..<i { skew[i][j] = coefficients[j] / length }
            } else if !allowSingular {
                return nil
            }
        }

        // The rows that got no basis vector, as bits; the first and last of them.
        let absent = ~present & 0b111
        switch present.nonzeroBitCount {
        case 3:
            let b = basis
            if (b[0] * Self.cross(b[1], b[2])).sum() < 0 {
                // The first axis with the smallest diagonal entry, as `min(by:)` picks it.
                var flip = 0
                for i in 1..<3 where b[i][i] < b[flip][flip] { flip = i }
                scale[flip] = -scale[flip]
                basis[flip] = -b[flip]
                for i in 0..<3 {
                    for j in 0..<i where (i == flip) != (j == flip) { skew[i][j] = -skew[i][j] }
                }
            }
        case 2:
            let missing = absent.trailingZeroBitCount
            basis[missing] = Self.cross(basis[(missing + 1) % 3], basis[(missing + 2) % 3])
        case 1:
            let only = present.trailingZeroBitCount
            let first = absent.trailingZeroBitCount
            let other = UInt8.bitWidth - 1 - absent.leadingZeroBitCount
            let r = basis[only]
            var candidate = Self.unit(first) - (Self.unit(first) * r).sum() * r
            if (candidate * candidate).sum() < 1e-6 {
                candidate = Self.unit(other) - (Self.unit(other) * r).sum() * r
            }
            basis[first] = candidate / (candidate * candidate).sum().squareRoot()
            basis[other] = Self.cross(basis[(other + 1) % 3], basis[(other + 2) % 3])
        default:
            basis = .identity
        }
        let r = basis

        // Perspective column q solves L·q = c with L = S·K·R, using 0 for 1/s where s is 0.
        let c = SIMD3<Double>(m.m14, m.m24, m.m34)
        var y = SIMD3<Double>(0, 0, 0)
        for i in 0..<3 where scale[i] != 0 { y[i] = c[i] / scale[i] }
        let z0 = y[0]
        let z1 = y[1] - skew[1][0] * z0
        let z2 = y[2] - skew[2][0] * z0 - skew[2][1] * z1
        let q = z0 * r[0] + z1 * r[1] + z2 * r[2]
        let t = SIMD3<Double>(m.m41, m.m42, m.m43)

        rotation = r
        decomposed = DecomposedTransform(
            translationX: t.x, translationY: t.y, translationZ: t.z,
            scaleX: scale[0], scaleY: scale[1], scaleZ: scale[2],
            skewXY: skew[1][0], skewXZ: skew[2][0], skewYZ: skew[2][1],
            perspective: SIMD4<Double>(q.x, q.y, q.z, m.m44 - (t * q).sum()),
            quaternion: DecomposedTransform.quaternion(fromRows: r))
    }

    /// The recomposed matrix, using the exact rotation rows.
    var matrix: CATransform3D {
        DecomposedTransform.compose(decomposed, rotation: rotation)
    }

    /// The Euler angles `(x, y, z)` of `rotation` with `R = Rx(x) · Ry(y) · Rz(z)`.
    ///
    /// In row-vector form x is applied first, then y, then z. With `R[i][j]` the rows:
    /// `R[0][2] = −sin y`, `R[1][2] = sin x cos y`, `R[2][2] = cos x cos y`,
    /// `R[0][0] = cos y cos z`, `R[0][1] = cos y sin z`. At gimbal lock (`cos y ≈ 0`) z is 0 and x
    /// comes from `R[1][1] = cos x`, `R[2][1] = −sin x`. Angles lie in (−π, π], y in [−π/2, π/2].
    var eulerAngles: SIMD3<Double> {
        let r = rotation
        let sinY = max(-1, min(1, -r[0].z))
        let y = asin(sinY)
        let cosY = (r[0].x * r[0].x + r[0].y * r[0].y).squareRoot()
        if cosY > 1e-12 {
            return SIMD3<Double>(atan2(r[1].z, r[2].z), y, atan2(r[0].y, r[0].x))
        }
        return SIMD3<Double>(atan2(-r[2].y, r[1].y), y, 0)
    }

    /// The rows of `Rx(a.x) · Ry(a.y) · Rz(a.z)` (see `eulerAngles`).
    static func rotationRows(euler a: SIMD3<Double>) -> MatrixRows3 {
        let (sa, ca) = (sin(a.x), cos(a.x))
        let (sb, cb) = (sin(a.y), cos(a.y))
        let (sc, cc) = (sin(a.z), cos(a.z))
        return MatrixRows3(
            SIMD3<Double>(cb * cc, cb * sc, -sb),
            SIMD3<Double>(sa * sb * cc - ca * sc, sa * sb * sc + ca * cc, sa * cb),
            SIMD3<Double>(ca * sb * cc + sa * sc, ca * sb * sc - sa * cc, ca * cb))
    }

    private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3<Double>(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    private static func unit(_ axis: Int) -> SIMD3<Double> {
        var v = SIMD3<Double>(0, 0, 0)
        v[axis] = 1
        return v
    }
}

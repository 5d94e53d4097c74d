import Foundation

/// A `CATransform3D` factored into translation, scale, skew, perspective and rotation, the form in
/// which Core Animation interpolates transforms.
///
/// The factors follow the classic "unmatrix" decomposition, adapted to Apple's row vectors
/// (`p' = [x y z 1] · M`). Read left to right, a point is first scaled, then skewed, rotated,
/// translated and finally projected:
///
///     M = S · K · R · T · P
///
/// - `S` is `diag(scaleX, scaleY, scaleZ, 1)`;
/// - `K` is the skew, the identity with `K[2][1] = skewXY`, `K[3][1] = skewXZ`,
///   `K[3][2] = skewYZ` (1-based rows and columns): row 2 of the upper 3×3 gains `skewXY` times
///   row 1, and so on;
/// - `R` is the rotation of the unit `quaternion` `(x, y, z, w)`; the quaternion of
///   `CATransform3DMakeRotation(a, ax, ay, az)` is `(sin(a/2)·axis, cos(a/2))`;
/// - `T` translates by `(translationX, translationY, translationZ)`, i.e. `m41 m42 m43`;
/// - `P` is the identity with its fourth column replaced by `perspective`; the common
///   `m34 = -1/d` perspective is `(0, 0, -1/d, 1)`.
///
/// `m44` is not normalised away: it is carried by `perspective.w`, so `matrix` reproduces the
/// original entries rather than a projectively equivalent multiple. When the upper 3×3 has a
/// negative determinant (a reflection), the scale factor of the axis whose basis vector is most
/// reversed is negated, so `CATransform3DMakeScale(-1, 1, 1)` reads `scaleX == -1` with no rotation.
public struct DecomposedTransform: Sendable, Hashable {
    /// Translation along x (`m41` of the original matrix).
    public var translationX: Double
    /// Translation along y (`m42`).
    public var translationY: Double
    /// Translation along z (`m43`).
    public var translationZ: Double
    /// Scale factor along x; negative for a reflection of x.
    public var scaleX: Double
    /// Scale factor along y.
    public var scaleY: Double
    /// Scale factor along z.
    public var scaleZ: Double
    /// Skew of y towards x: the y basis vector gains `skewXY` times the x basis vector.
    public var skewXY: Double
    /// Skew of z towards x.
    public var skewXZ: Double
    /// Skew of z towards y.
    public var skewYZ: Double
    /// The fourth column of the projection applied last; `(0, 0, 0, 1)` means no perspective.
    public var perspective: SIMD4<Double>
    /// The rotation as a unit quaternion `(x, y, z, w)`; `(0, 0, 0, 1)` is no rotation.
    public var quaternion: SIMD4<Double>

    /// Creates a decomposition from its factors; every default is the identity's.
    public init(
        translationX: Double = 0, translationY: Double = 0, translationZ: Double = 0,
        scaleX: Double = 1, scaleY: Double = 1, scaleZ: Double = 1,
        skewXY: Double = 0, skewXZ: Double = 0, skewYZ: Double = 0,
        perspective: SIMD4<Double> = SIMD4<Double>(0, 0, 0, 1),
        quaternion: SIMD4<Double> = SIMD4<Double>(0, 0, 0, 1)
    ) {
        self.translationX = translationX
        self.translationY = translationY
        self.translationZ = translationZ
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.scaleZ = scaleZ
        self.skewXY = skewXY
        self.skewXZ = skewXZ
        self.skewYZ = skewYZ
        self.perspective = perspective
        self.quaternion = quaternion
    }

    /// Decomposes `m`, or returns nil when it cannot be decomposed.
    ///
    /// Nil when an entry is not finite, when `m44 == 0`, or when the upper 3×3 is singular (a
    /// basis vector vanishes or lies in the span of the others, relative to 1e-12 of the largest).
    /// Singular transforms are legal (decisions.md A21); callers fall back to discrete behaviour.
    public init?(_ m: CATransform3D) {
        guard m.m44 != 0, let factors = TransformFactors(m, allowSingular: false) else { return nil }
        self = factors.decomposed
    }

    /// The matrix `S · K · R · T · P` these factors describe.
    ///
    /// Recomposing a decomposition reproduces the original matrix to rounding error (about 1e-15
    /// relative). A non-unit quaternion is normalised first; an all-zero one counts as no rotation.
    public var matrix: CATransform3D {
        Self.compose(self, rotation: rotationRows)
    }

    /// The factors a fraction `t` of the way from `a` to `b`.
    ///
    /// Translation, scale, skew and perspective are linear in `t`; the rotation follows the
    /// shorter great-circle arc between the quaternions (spherical linear interpolation). Any `t`
    /// is accepted: values outside 0...1 extrapolate (the rotation keeps turning at the same rate),
    /// as springs and overshooting timing functions need.
    public static func interpolate(_ a: DecomposedTransform, _ b: DecomposedTransform, fraction t: Double)
        -> DecomposedTransform
    {
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
        return DecomposedTransform(
            translationX: mix(a.translationX, b.translationX),
            translationY: mix(a.translationY, b.translationY),
            translationZ: mix(a.translationZ, b.translationZ),
            scaleX: mix(a.scaleX, b.scaleX),
            scaleY: mix(a.scaleY, b.scaleY),
            scaleZ: mix(a.scaleZ, b.scaleZ),
            skewXY: mix(a.skewXY, b.skewXY),
            skewXZ: mix(a.skewXZ, b.skewXZ),
            skewYZ: mix(a.skewYZ, b.skewYZ),
            perspective: a.perspective + (b.perspective - a.perspective) * t,
            quaternion: slerp(a.quaternion, b.quaternion, t))
    }

    // MARK: - Quaternions

    /// `q` scaled to unit length; the identity quaternion when `q` is zero or not finite.
    static func normalized(_ q: SIMD4<Double>) -> SIMD4<Double> {
        let length = (q * q).sum().squareRoot()
        guard length > 0, length.isFinite else { return SIMD4<Double>(0, 0, 0, 1) }
        return q / length
    }

    /// Spherical linear interpolation along the shorter arc; extrapolates for `t` outside 0...1.
    static func slerp(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ t: Double) -> SIMD4<Double> {
        let p = normalized(a)
        var q = normalized(b)
        var cosine = (p * q).sum()
        if cosine < 0 {
            q = -q
            cosine = -cosine
        }
        if cosine > 0.9995 {
            return normalized(p + (q - p) * t)
        }
        let angle = acos(min(cosine, 1))
        let sine = sin(angle)
        return normalized(p * (sin((1 - t) * angle) / sine) + q * (sin(t * angle) / sine))
    }

    /// The rotation angle in radians (0...π) that takes quaternion `a` to quaternion `b`.
    static func angle(between a: SIMD4<Double>, _ b: SIMD4<Double>) -> Double {
        let cosine = abs((normalized(a) * normalized(b)).sum())
        return 2 * acos(min(cosine, 1))
    }

    /// The unit quaternion of the rotation whose rows (row-vector convention) are `r`.
    ///
    /// With `Rc` the usual column-vector matrix, `R = Rcᵀ`; Shepperd's method picks the largest of
    /// `w`, `x`, `y`, `z` to divide by, so the result is accurate for every rotation. The sign is
    /// chosen so that `w ≥ 0`.
    static func quaternion(fromRows r: MatrixRows3) -> SIMD4<Double> {
        let trace = r[0].x + r[1].y + r[2].z
        var q: SIMD4<Double>
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            q = SIMD4<Double>((r[1].z - r[2].y) / s, (r[2].x - r[0].z) / s, (r[0].y - r[1].x) / s, s / 4)
        } else if r[0].x >= r[1].y && r[0].x >= r[2].z {
            let s = (1 + r[0].x - r[1].y - r[2].z).squareRoot() * 2
            q = SIMD4<Double>(s / 4, (r[0].y + r[1].x) / s, (r[0].z + r[2].x) / s, (r[1].z - r[2].y) / s)
        } else if r[1].y >= r[2].z {
            let s = (1 + r[1].y - r[0].x - r[2].z).squareRoot() * 2
            q = SIMD4<Double>((r[0].y + r[1].x) / s, s / 4, (r[1].z + r[2].y) / s, (r[2].x - r[0].z) / s)
        } else {
            let s = (1 + r[2].z - r[0].x - r[1].y).squareRoot() * 2
            q = SIMD4<Double>((r[0].z + r[2].x) / s, (r[1].z + r[2].y) / s, s / 4, (r[0].y - r[1].x) / s)
        }
        if q.w < 0 { q = -q }
        return normalized(q)
    }

    /// The rows of the rotation matrix (row-vector convention) of `quaternion`.
    var rotationRows: MatrixRows3 {
        let q = Self.normalized(quaternion)
        let (x, y, z, w) = (q.x, q.y, q.z, q.w)
        return MatrixRows3(
            SIMD3<Double>(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
            SIMD3<Double>(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
            SIMD3<Double>(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)))
    }

    // MARK: - Composition

    /// `S · K · R · T · P` for the factors of `d` with the rotation given as matrix rows.
    ///
    /// The upper 3×3 is `L = S · K · R`; the result is `[[L, L·q], [t, t·q + p.w]]` with
    /// `q = (p.x, p.y, p.z)` as a column and `t` the translation row.
    static func compose(_ d: DecomposedTransform, rotation r: MatrixRows3) -> CATransform3D {
        let l0 = d.scaleX * r[0]
        let l1 = d.scaleY * (d.skewXY * r[0] + r[1])
        let l2 = d.scaleZ * (d.skewXZ * r[0] + d.skewYZ * r[1] + r[2])
        let p = d.perspective
        let q = SIMD3<Double>(p.x, p.y, p.z)
        let t = SIMD3<Double>(d.translationX, d.translationY, d.translationZ)
        return CATransform3D(
            m11: l0.x, m12: l0.y, m13: l0.z, m14: (l0 * q).sum(),
            m21: l1.x, m22: l1.y, m23: l1.z, m24: (l1 * q).sum(),
            m31: l2.x, m32: l2.y, m33: l2.z, m34: (l2 * q).sum(),
            m41: t.x, m42: t.y, m43: t.z, m44: (t * q).sum() + p.w)
    }
}

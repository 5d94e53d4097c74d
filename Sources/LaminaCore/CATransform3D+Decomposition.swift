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
    public static func interpolate(_ a: DecomposedTransform, _ b: DecomposedTransform, fraction t: Double) -> DecomposedTransform {
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
    static func quaternion(fromRows r: [SIMD3<Double>]) -> SIMD4<Double> {
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
    var rotationRows: [SIMD3<Double>] {
        let q = Self.normalized(quaternion)
        let (x, y, z, w) = (q.x, q.y, q.z, q.w)
        return [
            SIMD3<Double>(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
            SIMD3<Double>(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
            SIMD3<Double>(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)),
        ]
    }

    // MARK: - Composition

    /// `S · K · R · T · P` for the factors of `d` with the rotation given as matrix rows.
    ///
    /// The upper 3×3 is `L = S · K · R`; the result is `[[L, L·q], [t, t·q + p.w]]` with
    /// `q = (p.x, p.y, p.z)` as a column and `t` the translation row.
    static func compose(_ d: DecomposedTransform, rotation r: [SIMD3<Double>]) -> CATransform3D {
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

/// The factors of a transform together with the exact rotation matrix found by Gram–Schmidt.
///
/// `DecomposedTransform` keeps only the quaternion; the virtual key-path components keep the
/// rotation rows so that reading and writing a component never round-trips through a quaternion.
struct TransformFactors {
    /// The decomposition; its quaternion describes `rotation`.
    var decomposed: DecomposedTransform
    /// The rotation's rows (row-vector convention), orthonormal with determinant +1.
    var rotation: [SIMD3<Double>]

    /// Factors `m`; nil when an entry is not finite, or when the upper 3×3 is singular and
    /// `allowSingular` is false.
    ///
    /// With `allowSingular`, a basis vector that vanishes (or lies in the span of the earlier ones)
    /// gets scale 0 and no skew, and its rotation row is completed to a right-handed orthonormal
    /// basis as close to the identity as possible. The recomposition then reproduces `m` exactly
    /// when the degenerate rows were zero (the usual case, a scale of 0); a non-zero degenerate row
    /// and any perspective that `L` cannot carry are lost. `m44 == 0` is accepted here.
    init?(_ m: CATransform3D, allowSingular: Bool) {
        guard m.isFinite else { return nil }
        let rows = [SIMD3<Double>(m.m11, m.m12, m.m13), SIMD3<Double>(m.m21, m.m22, m.m23), SIMD3<Double>(m.m31, m.m32, m.m33)]
        let largest = rows.map { ($0 * $0).sum().squareRoot() }.max() ?? 0
        let threshold = largest * 1e-12

        var basis: [SIMD3<Double>?] = [nil, nil, nil]
        var scale = SIMD3<Double>(0, 0, 0)
        var skew = [[Double]](repeating: [0, 0, 0], count: 3)
        for i in 0..<3 {
            var v = rows[i]
            var coefficients = [0.0, 0.0, 0.0]
            for j in 0..<i {
                guard let b = basis[j] else { continue }
                let c = (v * b).sum()
                coefficients[j] = c
                v -= c * b
            }
            let length = (v * v).sum().squareRoot()
            if length > threshold && length > 0 {
                scale[i] = length
                basis[i] = v / length
                for j in 0..<i { skew[i][j] = coefficients[j] / length }
            } else if !allowSingular {
                return nil
            }
        }

        let known = (0..<3).filter { basis[$0] != nil }
        switch known.count {
        case 3:
            let b = basis.map { $0! }
            if (b[0] * Self.cross(b[1], b[2])).sum() < 0 {
                let flip = (0..<3).min { b[$0][$0] < b[$1][$1] }!
                scale[flip] = -scale[flip]
                basis[flip] = -b[flip]
                for i in 0..<3 {
                    for j in 0..<i where (i == flip) != (j == flip) { skew[i][j] = -skew[i][j] }
                }
            }
        case 2:
            let missing = (0..<3).first { basis[$0] == nil }!
            basis[missing] = Self.cross(basis[(missing + 1) % 3]!, basis[(missing + 2) % 3]!)
        case 1:
            let present = known[0]
            let first = (0..<3).first { basis[$0] == nil }!
            let other = (0..<3).last { basis[$0] == nil }!
            let r = basis[present]!
            var candidate = Self.unit(first) - (Self.unit(first) * r).sum() * r
            if (candidate * candidate).sum() < 1e-6 {
                candidate = Self.unit(other) - (Self.unit(other) * r).sum() * r
            }
            basis[first] = candidate / (candidate * candidate).sum().squareRoot()
            basis[other] = Self.cross(basis[(other + 1) % 3]!, basis[(other + 2) % 3]!)
        default:
            basis = [Self.unit(0), Self.unit(1), Self.unit(2)]
        }
        let r = basis.map { $0! }

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
    static func rotationRows(euler a: SIMD3<Double>) -> [SIMD3<Double>] {
        let (sa, ca) = (sin(a.x), cos(a.x))
        let (sb, cb) = (sin(a.y), cos(a.y))
        let (sc, cc) = (sin(a.z), cos(a.z))
        return [
            SIMD3<Double>(cb * cc, cb * sc, -sb),
            SIMD3<Double>(sa * sb * cc - ca * sc, sa * sb * sc + ca * cc, sa * cb),
            SIMD3<Double>(ca * sb * cc + sa * sc, ca * sb * sc - sa * cc, ca * cb),
        ]
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

/// One of the virtual components of a transform that Core Animation exposes as key paths
/// (`transform.rotation.z`, `transform.scale`, `transform.translation.x`, ...).
///
/// The raw values are stable and may travel on the wire. `transform.translation` (x and y
/// together, a `CGSize`) is not a case; see `CATransform3D.translationXY`.
public enum TransformComponent: UInt8, Sendable, Hashable, CaseIterable {
    /// `rotation.x`: the Euler angle about x, in radians.
    case rotationX = 1
    /// `rotation.y`: the Euler angle about y, in radians.
    case rotationY
    /// `rotation.z` (and plain `rotation`): the Euler angle about z, in radians.
    case rotationZ
    /// `scale.x`: the scale factor along x.
    case scaleX
    /// `scale.y`: the scale factor along y.
    case scaleY
    /// `scale.z`: the scale factor along z.
    case scaleZ
    /// `scale`: reads the average of the three scale factors; setting it sets all three
    /// (decisions.md A16).
    case scale
    /// `translation.x`: the translation along x.
    case translationX
    /// `translation.y`: the translation along y.
    case translationY
    /// `translation.z`: the translation along z.
    case translationZ

    /// The component named by a key-path suffix after `transform.` or `sublayerTransform.`.
    ///
    /// Accepts `rotation.x`, `rotation.y`, `rotation.z`, `rotation` (same as `rotation.z`),
    /// `scale.x`, `scale.y`, `scale.z`, `scale`, `translation.x`, `translation.y` and
    /// `translation.z`; nil for anything else, including `translation` (a `CGSize`).
    public init?(keyPath: String) {
        switch keyPath {
        case "rotation.x": self = .rotationX
        case "rotation.y": self = .rotationY
        case "rotation.z", "rotation": self = .rotationZ
        case "scale.x": self = .scaleX
        case "scale.y": self = .scaleY
        case "scale.z": self = .scaleZ
        case "scale": self = .scale
        case "translation.x": self = .translationX
        case "translation.y": self = .translationY
        case "translation.z": self = .translationZ
        default: return nil
        }
    }

    /// The canonical key-path suffix (`"rotation.z"`, `"scale"`, ...).
    public var keyPath: String {
        switch self {
        case .rotationX: "rotation.x"
        case .rotationY: "rotation.y"
        case .rotationZ: "rotation.z"
        case .scaleX: "scale.x"
        case .scaleY: "scale.y"
        case .scaleZ: "scale.z"
        case .scale: "scale"
        case .translationX: "translation.x"
        case .translationY: "translation.y"
        case .translationZ: "translation.z"
        }
    }
}

extension CATransform3D {
    /// The transform a fraction `t` of the way from `self` to `other`, interpolated by
    /// decomposition (see `DecomposedTransform.interpolate`).
    ///
    /// `t == 0` returns `self` and `t == 1` returns `other`, exactly. When either end cannot be
    /// decomposed (singular, `m44 == 0`, not finite) the value switches discretely: `self` for
    /// `t < 1`, `other` from `t ≥ 1` (decisions.md A12). Other `t`, including values outside
    /// 0...1, extrapolate.
    public func interpolated(to other: CATransform3D, fraction t: Double) -> CATransform3D {
        if t == 0 { return self }
        if t == 1 { return other }
        guard let a = DecomposedTransform(self), let b = DecomposedTransform(other), !t.isNaN else {
            return t >= 1 ? other : self
        }
        return DecomposedTransform.interpolate(a, b, fraction: t).matrix
    }

    /// A distance between two transforms, used to pace keyframes.
    ///
    /// The Euclidean norm of the differences of the decomposed translation (3 numbers), scale
    /// (3 numbers) and the rotation angle between the two orientations in radians (0...π). Singular
    /// matrices are factored with zero scale factors (so a scale of 0 to 1 has a distance); when an
    /// entry is not finite the result is the Euclidean distance over the sixteen entries.
    public func distance(to other: CATransform3D) -> Double {
        guard let a = TransformFactors(self, allowSingular: true)?.decomposed,
              let b = TransformFactors(other, allowSingular: true)?.decomposed
        else {
            return zip(rowMajor, other.rowMajor).reduce(0.0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
        }
        let translation = SIMD3<Double>(a.translationX - b.translationX, a.translationY - b.translationY, a.translationZ - b.translationZ)
        let scale = SIMD3<Double>(a.scaleX - b.scaleX, a.scaleY - b.scaleY, a.scaleZ - b.scaleZ)
        let angle = DecomposedTransform.angle(between: a.quaternion, b.quaternion)
        return ((translation * translation).sum() + (scale * scale).sum() + angle * angle).squareRoot()
    }

    /// The value of one virtual component (`transform.rotation.z`, `transform.scale`, ...).
    ///
    /// The matrix is factored as scale, skew, rotation, translation and perspective (see
    /// `DecomposedTransform`); rotations are the Euler angles of `R = Rx · Ry · Rz` (x applied
    /// first, then y, then z), so `CATransform3DMakeRotation(a, 0, 0, 1)` reads `rotationZ == a`
    /// for `a` in (−π, π]. Singular matrices are accepted (a zero scale reads 0). NaN when an
    /// entry is not finite.
    public func component(_ c: TransformComponent) -> Double {
        guard let factors = TransformFactors(self, allowSingular: true) else { return .nan }
        let d = factors.decomposed
        switch c {
        case .rotationX: return factors.eulerAngles.x
        case .rotationY: return factors.eulerAngles.y
        case .rotationZ: return factors.eulerAngles.z
        case .scaleX: return d.scaleX
        case .scaleY: return d.scaleY
        case .scaleZ: return d.scaleZ
        case .scale: return (d.scaleX + d.scaleY + d.scaleZ) / 3
        case .translationX: return d.translationX
        case .translationY: return d.translationY
        case .translationZ: return d.translationZ
        }
    }

    /// This transform with one virtual component replaced: decompose, replace, recompose.
    ///
    /// Skew and perspective are kept. Setting a rotation rebuilds the rotation from the three
    /// Euler angles, so any angle is accepted (a z rotation of 2π gives the identity's rotation);
    /// setting `.scale` sets all three scale factors. On the identity, setting `rotationZ` to θ
    /// gives `CATransform3DMakeRotation(θ, 0, 0, 1)` and setting `translationX` to 10 gives
    /// `m41 == 10`. Singular matrices are accepted (see `component(_:)`); the transform is returned
    /// unchanged when `value` or an entry is not finite.
    public func setting(_ c: TransformComponent, to value: Double) -> CATransform3D {
        guard value.isFinite, var factors = TransformFactors(self, allowSingular: true) else { return self }
        switch c {
        case .rotationX, .rotationY, .rotationZ:
            var angles = factors.eulerAngles
            angles[Int(c.rawValue - TransformComponent.rotationX.rawValue)] = value
            factors.rotation = TransformFactors.rotationRows(euler: angles)
        case .scaleX: factors.decomposed.scaleX = value
        case .scaleY: factors.decomposed.scaleY = value
        case .scaleZ: factors.decomposed.scaleZ = value
        case .scale:
            factors.decomposed.scaleX = value
            factors.decomposed.scaleY = value
            factors.decomposed.scaleZ = value
        case .translationX: factors.decomposed.translationX = value
        case .translationY: factors.decomposed.translationY = value
        case .translationZ: factors.decomposed.translationZ = value
        }
        return factors.matrix
    }

    /// The virtual `translation` component: the x and y translation (`m41`, `m42`) as a size.
    public var translationXY: CGSize {
        CGSize(width: m41, height: m42)
    }

    /// This transform with its x and y translation replaced (the `transform.translation` key path).
    ///
    /// Decomposes, replaces both, recomposes, like `setting(_:to:)`; returned unchanged when a
    /// number is not finite.
    public func settingTranslationXY(_ s: CGSize) -> CATransform3D {
        guard s.width.isFinite, s.height.isFinite,
              var factors = TransformFactors(self, allowSingular: true)
        else { return self }
        factors.decomposed.translationX = s.width
        factors.decomposed.translationY = s.height
        return factors.matrix
    }
}

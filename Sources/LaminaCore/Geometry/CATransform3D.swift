import Foundation

/// A 4×4 homogeneous transformation matrix, mirroring Core Animation's `CATransform3D`.
///
/// Conventions follow Apple's (decisions.md A1): points are row vectors, so a point maps as
/// `p' = [x y z 1] · M`; translation lives in `m41 m42 m43`, and perspective is set with
/// `m34 = -1/d` for an eye at distance `d`. `CATransform3DConcat(a, b)` applies `a` first and then `b`
/// (the row-vector product `a · b`).
public struct CATransform3D: Sendable, Equatable, Hashable, Codable {
    /// Row 1, column 1.
    public var m11: CGFloat
    /// Row 1, column 2.
    public var m12: CGFloat
    /// Row 1, column 3.
    public var m13: CGFloat
    /// Row 1, column 4.
    public var m14: CGFloat
    /// Row 2, column 1.
    public var m21: CGFloat
    /// Row 2, column 2.
    public var m22: CGFloat
    /// Row 2, column 3.
    public var m23: CGFloat
    /// Row 2, column 4.
    public var m24: CGFloat
    /// Row 3, column 1.
    public var m31: CGFloat
    /// Row 3, column 2.
    public var m32: CGFloat
    /// Row 3, column 3.
    public var m33: CGFloat
    /// Row 3, column 4; `-1/d` gives a perspective projection with the eye at distance `d`.
    public var m34: CGFloat
    /// Row 4, column 1: the x translation.
    public var m41: CGFloat
    /// Row 4, column 2: the y translation.
    public var m42: CGFloat
    /// Row 4, column 3: the z translation.
    public var m43: CGFloat
    /// Row 4, column 4.
    public var m44: CGFloat

    /// Creates an all-zero matrix.
    ///
    /// Like the C struct's zero initialiser on Apple platforms, this is *not* the identity; use
    /// `CATransform3DIdentity` for that.
    public init() {
        self.init(
            m11: 0, m12: 0, m13: 0, m14: 0,
            m21: 0, m22: 0, m23: 0, m24: 0,
            m31: 0, m32: 0, m33: 0, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 0)
    }

    /// Creates a matrix from its sixteen entries, row by row.
    public init(
        m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
        m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
        m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
        m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat
    ) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// Creates the 3D matrix equivalent to a 2D affine transform (project convenience).
    ///
    /// Same as `CATransform3DMakeAffineTransform(affine)`: `m11 = a`, `m12 = b`, `m21 = c`, `m22 = d`,
    /// `m41 = tx`, `m42 = ty`, `m33 = m44 = 1`, all other entries 0.
    public init(_ affine: CGAffineTransform) {
        self.init(
            m11: affine.a, m12: affine.b, m13: 0, m14: 0,
            m21: affine.c, m22: affine.d, m23: 0, m24: 0,
            m31: 0, m32: 0, m33: 1, m34: 0,
            m41: affine.tx, m42: affine.ty, m43: 0, m44: 1)
    }

    /// The sixteen entries in row order `m11, m12, …, m44`.
    var rowMajor: [CGFloat] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    /// Builds a matrix from sixteen entries in row order `m11, m12, …, m44`.
    init(rowMajor e: [CGFloat]) {
        precondition(e.count == 16, "CATransform3D needs 16 entries")
        self.init(
            m11: e[0], m12: e[1], m13: e[2], m14: e[3],
            m21: e[4], m22: e[5], m23: e[6], m24: e[7],
            m31: e[8], m32: e[9], m33: e[10], m34: e[11],
            m41: e[12], m42: e[13], m43: e[14], m44: e[15])
    }

    /// Returns the transform that applies `self` first and then `other` (project convenience).
    ///
    /// Same as `CATransform3DConcat(self, other)`: the row-vector product `self · other`.
    public func concatenating(_ other: CATransform3D) -> CATransform3D {
        // Written out (no arrays: this runs several times per layer per frame). Each entry sums its
        // four products left to right from 0, as the loop it replaces did, so results are unchanged
        // to the bit (0 + -0 is +0).
        let b = other
        @inline(__always)
        func dot(
            _ x0: CGFloat, _ x1: CGFloat, _ x2: CGFloat, _ x3: CGFloat, _ y0: CGFloat, _ y1: CGFloat, _ y2: CGFloat,
            _ y3: CGFloat
        )
            -> CGFloat
        {
            var sum: CGFloat = 0
            sum += x0 * y0
            sum += x1 * y1
            sum += x2 * y2
            sum += x3 * y3
            return sum
        }
        return CATransform3D(
            m11: dot(m11, m12, m13, m14, b.m11, b.m21, b.m31, b.m41),
            m12: dot(m11, m12, m13, m14, b.m12, b.m22, b.m32, b.m42),
            m13: dot(m11, m12, m13, m14, b.m13, b.m23, b.m33, b.m43),
            m14: dot(m11, m12, m13, m14, b.m14, b.m24, b.m34, b.m44),
            m21: dot(m21, m22, m23, m24, b.m11, b.m21, b.m31, b.m41),
            m22: dot(m21, m22, m23, m24, b.m12, b.m22, b.m32, b.m42),
            m23: dot(m21, m22, m23, m24, b.m13, b.m23, b.m33, b.m43),
            m24: dot(m21, m22, m23, m24, b.m14, b.m24, b.m34, b.m44),
            m31: dot(m31, m32, m33, m34, b.m11, b.m21, b.m31, b.m41),
            m32: dot(m31, m32, m33, m34, b.m12, b.m22, b.m32, b.m42),
            m33: dot(m31, m32, m33, m34, b.m13, b.m23, b.m33, b.m43),
            m34: dot(m31, m32, m33, m34, b.m14, b.m24, b.m34, b.m44),
            m41: dot(m41, m42, m43, m44, b.m11, b.m21, b.m31, b.m41),
            m42: dot(m41, m42, m43, m44, b.m12, b.m22, b.m32, b.m42),
            m43: dot(m41, m42, m43, m44, b.m13, b.m23, b.m33, b.m43),
            m44: dot(m41, m42, m43, m44, b.m14, b.m24, b.m34, b.m44))
    }

    /// Applies the matrix to the point `(x, y, z, 1)` as a row vector (project convenience).
    ///
    /// Returns the homogeneous result `[x y z 1] · M`, e.g. `x' = x·m11 + y·m21 + z·m31 + m41` and
    /// `w' = x·m14 + y·m24 + z·m34 + m44`. Divide by `w` to get the projected point.
    public func transform(x: CGFloat, y: CGFloat, z: CGFloat) -> (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) {
        (
            x: x * m11 + y * m21 + z * m31 + m41,
            y: x * m12 + y * m22 + z * m32 + m42,
            z: x * m13 + y * m23 + z * m33 + m43,
            w: x * m14 + y * m24 + z * m34 + m44
        )
    }

    /// The determinant of the 4×4 matrix (project convenience).
    ///
    /// Zero means the matrix is singular and `CATransform3DInvert` returns it unchanged.
    public var determinant: CGFloat {
        let m = rowMajor
        let adj = Self.adjugate(m)
        return m[0] * adj[0] + m[1] * adj[4] + m[2] * adj[8] + m[3] * adj[12]
    }

    /// Whether all sixteen entries are finite (no NaN or infinity) (project convenience).
    public var isFinite: Bool {
        // Written out: no array (the display-list builder asks for every layer).
        m11.isFinite && m12.isFinite && m13.isFinite && m14.isFinite && m21.isFinite && m22.isFinite
            && m23.isFinite && m24.isFinite && m31.isFinite && m32.isFinite && m33.isFinite && m34.isFinite
            && m41.isFinite && m42.isFinite && m43.isFinite && m44.isFinite
    }

    /// The sixteen entries as `Float`s, ready to upload as a GLSL `mat4` (project convenience).
    ///
    /// GLSL fills a `mat4` column by column, and `M_glsl * v` treats `v` as a column vector. The
    /// row-vector product `[x y z 1] · M` equals `Mᵀ · v`, so we upload `Mᵀ`: GLSL column `j` is
    /// row `j+1` of this matrix, `(m(j+1)1, m(j+1)2, m(j+1)3, m(j+1)4)`. The list is therefore
    /// `m11, m12, m13, m14, m21, …, m44` (this matrix's row order), and a shader computes
    /// `u_transform * vec4(x, y, z, 1)`, whose `.x` is `x·m11 + y·m21 + z·m31 + m41`.
    public var columnMajorFloats: [Float] {
        rowMajor.map { Float($0) }
    }

    /// The adjugate (transposed cofactor matrix) of a row-major 4×4 matrix, in row-major order.
    ///
    /// `m · adj = det · I`, and `det = m[0]·adj[0] + m[1]·adj[4] + m[2]·adj[8] + m[3]·adj[12]`
    /// (expansion along the first row).
    static func adjugate(_ m: [CGFloat]) -> [CGFloat] {
        var inv = [CGFloat](repeating: 0, count: 16)
        inv[0] =
            m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15]
            + m[9] * m[7] * m[14] + m[13] * m[6] * m[11] - m[13] * m[7] * m[10]
        inv[4] =
            -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15]
            - m[8] * m[7] * m[14] - m[12] * m[6] * m[11] + m[12] * m[7] * m[10]
        inv[8] =
            m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15]
            + m[8] * m[7] * m[13] + m[12] * m[5] * m[11] - m[12] * m[7] * m[9]
        inv[12] =
            -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14]
            - m[8] * m[6] * m[13] - m[12] * m[5] * m[10] + m[12] * m[6] * m[9]
        inv[1] =
            -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15]
            - m[9] * m[3] * m[14] - m[13] * m[2] * m[11] + m[13] * m[3] * m[10]
        inv[5] =
            m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15]
            + m[8] * m[3] * m[14] + m[12] * m[2] * m[11] - m[12] * m[3] * m[10]
        inv[9] =
            -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15]
            - m[8] * m[3] * m[13] - m[12] * m[1] * m[11] + m[12] * m[3] * m[9]
        inv[13] =
            m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14]
            + m[8] * m[2] * m[13] + m[12] * m[1] * m[10] - m[12] * m[2] * m[9]
        inv[2] =
            m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15]
            + m[5] * m[3] * m[14] + m[13] * m[2] * m[7] - m[13] * m[3] * m[6]
        inv[6] =
            -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15]
            - m[4] * m[3] * m[14] - m[12] * m[2] * m[7] + m[12] * m[3] * m[6]
        inv[10] =
            m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15]
            + m[4] * m[3] * m[13] + m[12] * m[1] * m[7] - m[12] * m[3] * m[5]
        inv[14] =
            -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14]
            - m[4] * m[2] * m[13] - m[12] * m[1] * m[6] + m[12] * m[2] * m[5]
        inv[3] =
            -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11]
            - m[5] * m[3] * m[10] - m[9] * m[2] * m[7] + m[9] * m[3] * m[6]
        inv[7] =
            m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11]
            + m[4] * m[3] * m[10] + m[8] * m[2] * m[7] - m[8] * m[3] * m[6]
        inv[11] =
            -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11]
            - m[4] * m[3] * m[9] - m[8] * m[1] * m[7] + m[8] * m[3] * m[5]
        inv[15] =
            m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10]
            + m[4] * m[2] * m[9] + m[8] * m[1] * m[6] - m[8] * m[2] * m[5]
        return inv
    }
}

/// The identity transform: `m11 = m22 = m33 = m44 = 1`, all other entries 0.
public let CATransform3DIdentity = CATransform3D(
    m11: 1, m12: 0, m13: 0, m14: 0,
    m21: 0, m22: 1, m23: 0, m24: 0,
    m31: 0, m32: 0, m33: 1, m34: 0,
    m41: 0, m42: 0, m43: 0, m44: 1)

/// Returns whether `t` is exactly the identity transform.
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool {
    t == CATransform3DIdentity
}

/// Returns whether `a` and `b` are exactly equal, entry by entry.
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool {
    a == b
}

/// Returns a transform that translates by `(tx, ty, tz)`: the identity with `m41 m42 m43` set.
public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m41 = tx
    t.m42 = ty
    t.m43 = tz
    return t
}

/// Returns a transform that scales by `(sx, sy, sz)`: the diagonal `sx, sy, sz, 1`.
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m11 = sx
    t.m22 = sy
    t.m33 = sz
    return t
}

/// Returns a transform that rotates by `angle` radians about the axis `(x, y, z)`.
///
/// The axis is normalised first; a zero-length (or non-finite) axis gives the identity. The matrix is
/// Apple's: for a rotation about z, `m11 = cos`, `m12 = sin`, `m21 = −sin`, `m22 = cos`, so the point
/// (1, 0, 0) maps to (cos angle, sin angle, 0). In general, with `c = cos`, `s = sin`, `k = 1 − c`:
/// row 1 is `(c + x²k, xyk + zs, xzk − ys)`, row 2 `(xyk − zs, c + y²k, yzk + xs)`,
/// row 3 `(xzk + ys, yzk − xs, c + z²k)`.
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    let length = (x * x + y * y + z * z).squareRoot()
    guard length > 0, length.isFinite else { return CATransform3DIdentity }
    let x = x / length
    let y = y / length
    let z = z / length
    let c = cos(angle)
    let s = sin(angle)
    let k = 1 - c
    return CATransform3D(
        m11: c + x * x * k, m12: x * y * k + z * s, m13: x * z * k - y * s, m14: 0,
        m21: x * y * k - z * s, m22: c + y * y * k, m23: y * z * k + x * s, m24: 0,
        m31: x * z * k + y * s, m32: y * z * k - x * s, m33: c + z * z * k, m34: 0,
        m41: 0, m42: 0, m43: 0, m44: 1)
}

/// Returns `t` preceded by a translation of `(tx, ty, tz)`.
///
/// Equals `CATransform3DConcat(CATransform3DMakeTranslation(tx, ty, tz), t)`: the translation is
/// applied first, then `t`, as on Apple platforms.
public func CATransform3DTranslate(
    _ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat
) -> CATransform3D {
    CATransform3DConcat(CATransform3DMakeTranslation(tx, ty, tz), t)
}

/// Returns `t` preceded by a scale of `(sx, sy, sz)`.
///
/// Equals `CATransform3DConcat(CATransform3DMakeScale(sx, sy, sz), t)`: the scale is applied first.
public func CATransform3DScale(
    _ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat
) -> CATransform3D {
    CATransform3DConcat(CATransform3DMakeScale(sx, sy, sz), t)
}

/// Returns `t` preceded by a rotation of `angle` radians about the axis `(x, y, z)`.
///
/// Equals `CATransform3DConcat(CATransform3DMakeRotation(angle, x, y, z), t)`: the rotation is
/// applied first. A zero-length axis leaves `t` unchanged.
public func CATransform3DRotate(
    _ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat
) -> CATransform3D {
    CATransform3DConcat(CATransform3DMakeRotation(angle, x, y, z), t)
}

/// Returns the transform that applies `a` first and then `b`: the row-vector product `a · b`.
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D {
    a.concatenating(b)
}

/// Returns the inverse of `t`, or `t` unchanged when it has no inverse.
///
/// Uses the general 4×4 adjugate inverse. When the determinant is zero or not finite, or the
/// result would not be finite, the input is returned unchanged, as Apple documents.
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D {
    let m = t.rowMajor
    let adj = CATransform3D.adjugate(m)
    let det = m[0] * adj[0] + m[1] * adj[4] + m[2] * adj[8] + m[3] * adj[12]
    guard det != 0, det.isFinite else { return t }
    let inverse = CATransform3D(rowMajor: adj.map { $0 / det })
    guard inverse.isFinite else { return t }
    return inverse
}

/// Returns the 3D transform equivalent to the affine transform `m`.
///
/// `m11 = a`, `m12 = b`, `m21 = c`, `m22 = d`, `m41 = tx`, `m42 = ty`, `m33 = m44 = 1`, all else 0.
public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D {
    CATransform3D(m)
}

/// Returns whether `t` can be represented exactly as an affine transform.
///
/// True when `m13 m23 m31 m32 m34 m43 m14 m24` are 0 and `m33 = m44 = 1`.
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool {
    t.m13 == 0 && t.m23 == 0 && t.m31 == 0 && t.m32 == 0 && t.m33 == 1 && t.m34 == 0
        && t.m43 == 0 && t.m14 == 0 && t.m24 == 0 && t.m44 == 1
}

/// Returns the affine part of `t`: `(m11, m12, m21, m22, m41, m42)`.
///
/// Other entries are ignored; the result is exact only when `CATransform3DIsAffine(t)` is true.
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform {
    CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: t.m41, ty: t.m42)
}

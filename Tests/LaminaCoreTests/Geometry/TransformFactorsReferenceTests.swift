import Foundation
import Testing

@testable import LaminaCore

/// The transform factors, now built from fixed-size values, against the array form they replaced
/// (kept here, as it was, as the reference): the same factors, rotation rows, recomposed matrices
/// and Euler angles, bit for bit, over random matrices, singular ones included.
struct TransformFactorsReferenceTests {
    /// The array form of `TransformFactors` as it was before the fixed-size rewrite.
    struct ArrayFactors {
        var decomposed: DecomposedTransform
        var rotation: [SIMD3<Double>]

        init?(_ m: CATransform3D, allowSingular: Bool) {
            guard m.isFinite else { return nil }
            let rows = [
                SIMD3<Double>(m.m11, m.m12, m.m13), SIMD3<Double>(m.m21, m.m22, m.m23),
                SIMD3<Double>(m.m31, m.m32, m.m33),
            ]
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
                quaternion: Self.quaternion(fromRows: r))
        }

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
            return DecomposedTransform.normalized(q)
        }

        static func rotationRows(_ quaternion: SIMD4<Double>) -> [SIMD3<Double>] {
            let q = DecomposedTransform.normalized(quaternion)
            let (x, y, z, w) = (q.x, q.y, q.z, q.w)
            return [
                SIMD3<Double>(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
                SIMD3<Double>(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
                SIMD3<Double>(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)),
            ]
        }

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

        static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3<Double>(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        }

        static func unit(_ axis: Int) -> SIMD3<Double> {
            var v = SIMD3<Double>(0, 0, 0)
            v[axis] = 1
            return v
        }
    }

    /// The bit patterns of numbers, so that equal means the same bits (-0 is not 0, NaN is itself).
    static func bits(_ values: [Double]) -> [UInt64] { values.map(\.bitPattern) }

    static func bits(_ rows: MatrixRows3) -> [UInt64] {
        bits([rows.r0.x, rows.r0.y, rows.r0.z, rows.r1.x, rows.r1.y, rows.r1.z, rows.r2.x, rows.r2.y, rows.r2.z])
    }

    static func bits(_ rows: [SIMD3<Double>]) -> [UInt64] { bits(rows.flatMap { [$0.x, $0.y, $0.z] }) }

    static func bits(_ m: CATransform3D) -> [UInt64] { bits(m.rowMajor.map { Double($0) }) }

    static func bits(_ d: DecomposedTransform) -> [UInt64] {
        bits([
            d.translationX, d.translationY, d.translationZ, d.scaleX, d.scaleY, d.scaleZ, d.skewXY, d.skewXZ,
            d.skewYZ, d.perspective.x, d.perspective.y, d.perspective.z, d.perspective.w, d.quaternion.x,
            d.quaternion.y, d.quaternion.z, d.quaternion.w,
        ])
    }

    /// A random matrix: general entries, often a rotation-scale-translation product, and with some
    /// rows zeroed or copied from another (singular), negated (reflections) or with perspective.
    static func matrix(_ g: inout AnimationEvaluationTests.Generator) -> CATransform3D {
        func n() -> Double { Double.random(in: -3...3, using: &g) }
        var m: CATransform3D
        if Bool.random(using: &g) {
            m = CATransform3DMakeRotation(n(), n(), n(), n())
            m = CATransform3DScale(m, n(), n(), n())
            m = CATransform3DTranslate(m, n() * 100, n() * 100, n() * 100)
        } else {
            m = CATransform3D(rowMajor: (0..<16).map { _ in CGFloat(n()) })
        }
        var e = m.rowMajor
        switch Int.random(in: 0..<8, using: &g) {
        case 0:
            let row = Int.random(in: 0..<3, using: &g)
            for k in 0..<3 { e[4 * row + k] = 0 }
        case 1:
            let (a, b) = (Int.random(in: 0..<3, using: &g), Int.random(in: 0..<3, using: &g))
            for k in 0..<3 { e[4 * a + k] = e[4 * b + k] * 2 }
        case 2:
            for row in 0..<3 where Bool.random(using: &g) { for k in 0..<3 { e[4 * row + k] = 0 } }
        case 3:
            e[11] = -1 / 500
            e[3] = 0
            e[7] = 0
            e[15] = 1
        case 4:
            for k in 0..<3 { e[k] = -e[k] }
        default: break
        }
        return CATransform3D(rowMajor: e)
    }

    @Test(arguments: [false, true])
    func fixedSizeFactorsEqualTheArrayForm(allowSingular: Bool) {
        var g = AnimationEvaluationTests.Generator(state: allowSingular ? 7 : 8)
        var factored = 0
        for _ in 0..<5000 {
            let m = Self.matrix(&g)
            let new = TransformFactors(m, allowSingular: allowSingular)
            let old = ArrayFactors(m, allowSingular: allowSingular)
            #expect((new == nil) == (old == nil), "\(m)")
            guard let new, let old else { continue }
            factored += 1
            #expect(Self.bits(new.decomposed) == Self.bits(old.decomposed), "\(m)")
            #expect(Self.bits(new.rotation) == Self.bits(old.rotation), "\(m)")
            #expect(Self.bits(new.matrix) == Self.bits(ArrayFactors.compose(old.decomposed, rotation: old.rotation)))
            #expect(
                Self.bits(new.decomposed.matrix)
                    == Self.bits(
                        ArrayFactors.compose(
                            old.decomposed, rotation: ArrayFactors.rotationRows(old.decomposed.quaternion))))
            let angles = new.eulerAngles
            #expect(Self.bits([angles.x, angles.y, angles.z]) == Self.bits(Self.eulerAngles(old.rotation)))
            #expect(
                Self.bits(TransformFactors.rotationRows(euler: angles))
                    == Self.bits(ArrayFactors.rotationRows(euler: angles)))
        }
        #expect(factored > 1000)
    }

    /// `TransformFactors.eulerAngles` as written for the array form.
    static func eulerAngles(_ r: [SIMD3<Double>]) -> [Double] {
        let sinY = max(-1, min(1, -r[0].z))
        let y = asin(sinY)
        let cosY = (r[0].x * r[0].x + r[0].y * r[0].y).squareRoot()
        if cosY > 1e-12 { return [atan2(r[1].z, r[2].z), y, atan2(r[0].y, r[0].x)] }
        return [atan2(-r[2].y, r[1].y), y, 0]
    }
}

import Foundation
import LaminaCore
import Testing

// MARK: - Helpers

/// The sixteen entries of `t` in row order m11, m12, …, m44.
private func entries(_ t: CATransform3D) -> [CGFloat] {
    [
        t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
        t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44,
    ]
}

/// Whether every entry of `t` is within `tolerance` of the matching entry of `expected` (row order).
private func approxEqual(_ t: CATransform3D, _ expected: [CGFloat], tolerance: CGFloat = 1e-9) -> Bool {
    zip(entries(t), expected).allSatisfy { abs($0 - $1) <= tolerance }
}

private func approxEqual(_ a: CATransform3D, _ b: CATransform3D, tolerance: CGFloat = 1e-9) -> Bool {
    approxEqual(a, entries(b), tolerance: tolerance)
}

private func approxEqual(_ a: CGAffineTransform, _ b: CGAffineTransform, tolerance: CGFloat = 1e-9) -> Bool {
    zip([a.a, a.b, a.c, a.d, a.tx, a.ty], [b.a, b.b, b.c, b.d, b.tx, b.ty])
        .allSatisfy { abs($0 - $1) <= tolerance }
}

private func approxEqual(_ p: CGPoint, _ q: CGPoint, tolerance: CGFloat = 1e-9) -> Bool {
    abs(p.x - q.x) <= tolerance && abs(p.y - q.y) <= tolerance
}

private func approxEqual(_ r: CGRect, _ s: CGRect, tolerance: CGFloat = 1e-9) -> Bool {
    abs(r.origin.x - s.origin.x) <= tolerance && abs(r.origin.y - s.origin.y) <= tolerance
        && abs(r.width - s.width) <= tolerance && abs(r.height - s.height) <= tolerance
}

/// Maps `(x, y, z)` through `t` and divides by w.
private func project(_ t: CATransform3D, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> (CGFloat, CGFloat, CGFloat) {
    let r = t.transform(x: x, y: y, z: z)
    return (r.x / r.w, r.y / r.w, r.z / r.w)
}

private let r2 = 1 / CGFloat(2).squareRoot()

/// A transform built by a CATransform3D function, with its expected entries written by hand.
struct MatrixCase: Sendable, CustomTestStringConvertible {
    let name: String
    let transform: CATransform3D
    let expected: [CGFloat]
    var testDescription: String { name }
}

private let base = CATransform3DMakeTranslation(1, 2, 3)

let matrixCases: [MatrixCase] = [
    MatrixCase(
        name: "MakeTranslation(10, 20, 30)", transform: CATransform3DMakeTranslation(10, 20, 30),
        expected: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 20, 30, 1]),
    MatrixCase(
        name: "MakeScale(2, 3, 4)", transform: CATransform3DMakeScale(2, 3, 4),
        expected: [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1]),
    MatrixCase(
        name: "MakeRotation(π/2, z)", transform: CATransform3DMakeRotation(.pi / 2, 0, 0, 1),
        expected: [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
    MatrixCase(
        name: "MakeRotation(π/2, unnormalised z)", transform: CATransform3DMakeRotation(.pi / 2, 0, 0, 5),
        expected: [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
    MatrixCase(
        name: "MakeRotation(π/2, y)", transform: CATransform3DMakeRotation(.pi / 2, 0, 1, 0),
        expected: [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]),
    MatrixCase(
        name: "MakeRotation(π/2, x)", transform: CATransform3DMakeRotation(.pi / 2, 1, 0, 0),
        expected: [1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1]),
    MatrixCase(
        name: "MakeRotation(π/2, (1,1,0))", transform: CATransform3DMakeRotation(.pi / 2, 1, 1, 0),
        expected: [0.5, 0.5, -r2, 0, 0.5, 0.5, r2, 0, r2, -r2, 0, 0, 0, 0, 0, 1]),
    MatrixCase(
        name: "MakeRotation(π, (1,1,0))", transform: CATransform3DMakeRotation(.pi, 1, 1, 0),
        expected: [0, 1, 0, 0, 1, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1]),
    MatrixCase(
        name: "MakeRotation(1, zero axis) = identity", transform: CATransform3DMakeRotation(1, 0, 0, 0),
        expected: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
    // Translate/Scale/Rotate apply their operation first, then the given transform.
    MatrixCase(
        name: "Translate(T(1,2,3), 10, 20, 30)", transform: CATransform3DTranslate(base, 10, 20, 30),
        expected: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 11, 22, 33, 1]),
    MatrixCase(
        name: "Scale(T(1,2,3), 2, 3, 4)", transform: CATransform3DScale(base, 2, 3, 4),
        expected: [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1]),
    MatrixCase(
        name: "Rotate(T(1,2,3), π/2, z)", transform: CATransform3DRotate(base, .pi / 2, 0, 0, 1),
        expected: [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1]),
    MatrixCase(
        name: "Translate(Rz(π/2), 10, 0, 0)",
        transform: CATransform3DTranslate(CATransform3DMakeRotation(.pi / 2, 0, 0, 1), 10, 0, 0),
        expected: [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 10, 0, 1]),
    MatrixCase(
        name: "Scale(Rz(π/2), 2, 3, 1)",
        transform: CATransform3DScale(CATransform3DMakeRotation(.pi / 2, 0, 0, 1), 2, 3, 1),
        expected: [0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
    MatrixCase(
        name: "Concat(S(2,3,4), T(1,2,3))",
        transform: CATransform3DConcat(CATransform3DMakeScale(2, 3, 4), base),
        expected: [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1]),
    MatrixCase(
        name: "Concat(T(1,2,3), S(2,3,4))",
        transform: CATransform3DConcat(base, CATransform3DMakeScale(2, 3, 4)),
        expected: [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 2, 6, 12, 1]),
    MatrixCase(
        name: "MakeAffineTransform(1,2,3,4,5,6)",
        transform: CATransform3DMakeAffineTransform(CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)),
        expected: [1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 1, 0, 5, 6, 0, 1]),
]

// MARK: - CATransform3D

@Suite("CATransform3D")
struct CATransform3DTests {
    @Test("Functions produce the hand-computed matrices", arguments: matrixCases)
    func handComputed(_ c: MatrixCase) {
        #expect(approxEqual(c.transform, c.expected), "\(entries(c.transform))")
    }

    @Test func zeroInitIsAllZero() {
        let t = CATransform3D()
        #expect(entries(t).allSatisfy { $0 == 0 })
        #expect(!CATransform3DIsIdentity(t))
    }

    @Test func identity() {
        #expect(entries(CATransform3DIdentity) == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        #expect(CATransform3DIsIdentity(CATransform3DIdentity))
        #expect(CATransform3DIsIdentity(CATransform3DMakeTranslation(0, 0, 0)))
        #expect(!CATransform3DIsIdentity(CATransform3DMakeTranslation(0, 0, 1e-12)))
        #expect(CATransform3DEqualToTransform(CATransform3DMakeScale(1, 2, 3), CATransform3DMakeScale(1, 2, 3)))
        #expect(!CATransform3DEqualToTransform(CATransform3DMakeScale(1, 2, 3), CATransform3DMakeScale(1, 2, 4)))
        #expect(CATransform3DMakeScale(1, 2, 3) == CATransform3DMakeScale(1, 2, 3))
    }

    @Test func memberwiseInit() {
        let t = CATransform3D(
            m11: 1, m12: 2, m13: 3, m14: 4, m21: 5, m22: 6, m23: 7, m24: 8,
            m31: 9, m32: 10, m33: 11, m34: 12, m41: 13, m42: 14, m43: 15, m44: 16)
        #expect(entries(t) == (1...16).map { CGFloat($0) })
    }

    @Test func rotationAboutZMapsXAxisCounterClockwise() {
        let a: CGFloat = 0.3
        let p = CATransform3DMakeRotation(a, 0, 0, 1).transform(x: 1, y: 0, z: 0)
        #expect(abs(p.x - cos(a)) < 1e-12 && abs(p.y - sin(a)) < 1e-12 && p.z == 0 && p.w == 1)
    }

    @Test func rotateWithZeroAxisLeavesTransformUnchanged() {
        let t = CATransform3DMakeScale(2, 3, 4)
        #expect(CATransform3DRotate(t, 1, 0, 0, 0) == t)
    }

    @Test func concatOrderMatters() {
        let translate = CATransform3DMakeTranslation(10, 0, 0)
        let rotate = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        // Translate first, then rotate: (0,0) -> (10,0) -> (0,10).
        let tr = CATransform3DConcat(translate, rotate).transform(x: 0, y: 0, z: 0)
        #expect(abs(tr.x) < 1e-12 && abs(tr.y - 10) < 1e-12)
        // Rotate first, then translate: (0,0) -> (0,0) -> (10,0).
        let rt = CATransform3DConcat(rotate, translate).transform(x: 0, y: 0, z: 0)
        #expect(abs(rt.x - 10) < 1e-12 && abs(rt.y) < 1e-12)
        #expect(translate.concatenating(rotate) == CATransform3DConcat(translate, rotate))
    }

    @Test func seedExampleScaleRotateTranslate() {
        var t = CATransform3DIdentity
        t = CATransform3DScale(t, 0.5, 0.5, 1)
        t = CATransform3DRotate(t, .pi / 6, 0, 0, 1)
        t = CATransform3DTranslate(t, 200, 0, 0)
        let p = t.transform(x: 0, y: 0, z: 0)
        let expectedX = 200 * 0.5 * cos(CGFloat.pi / 6)  // 86.60…
        let expectedY = 200 * 0.5 * sin(CGFloat.pi / 6)  // 50
        #expect(abs(p.x - expectedX) < 1e-9)
        #expect(abs(p.y - expectedY) < 1e-9)
        #expect(abs(p.x - 86.6025403784) < 1e-6)
        #expect(abs(p.y - 50) < 1e-9)
        #expect(p.z == 0 && p.w == 1)

        // The same chain with CGAffineTransform gives the same point and the same matrix.
        let affine = CGAffineTransform.identity.scaledBy(x: 0.5, y: 0.5).rotated(by: .pi / 6)
            .translatedBy(x: 200, y: 0)
        #expect(approxEqual(CGPoint.zero.applying(affine), CGPoint(x: expectedX, y: expectedY)))
        #expect(CATransform3DIsAffine(t))
        #expect(approxEqual(CATransform3DGetAffineTransform(t), affine))
        #expect(approxEqual(CATransform3DMakeAffineTransform(affine), t))
    }

    @Test func translateRotateScaleMatchConcatDefinitions() {
        let t = CATransform3DMakeRotation(0.7, 1, 2, 3)
        #expect(CATransform3DTranslate(t, 1, 2, 3) == CATransform3DConcat(CATransform3DMakeTranslation(1, 2, 3), t))
        #expect(CATransform3DScale(t, 1, 2, 3) == CATransform3DConcat(CATransform3DMakeScale(1, 2, 3), t))
        #expect(
            CATransform3DRotate(t, 0.4, 0, 1, 1) == CATransform3DConcat(CATransform3DMakeRotation(0.4, 0, 1, 1), t))
    }

    @Test func transformAppliesRowVectorProduct() {
        let t = CATransform3D(
            m11: 1, m12: 2, m13: 3, m14: 4, m21: 5, m22: 6, m23: 7, m24: 8,
            m31: 9, m32: 10, m33: 11, m34: 12, m41: 13, m42: 14, m43: 15, m44: 16)
        let p = t.transform(x: 1, y: 2, z: 3)
        // [1 2 3 1] · M, column by column.
        // x = 1·1 + 2·5 + 3·9 + 13, y = 1·2 + 2·6 + 3·10 + 14, z = 1·3 + 2·7 + 3·11 + 15,
        // w = 1·4 + 2·8 + 3·12 + 16.
        #expect(p.x == 51)
        #expect(p.y == 58)
        #expect(p.z == 65)
        #expect(p.w == 72)
    }

    @Test func perspectiveProjection() {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 500
        // A point at z = 0 is unchanged.
        let flat = project(perspective, 100, 50, 0)
        #expect(flat == (100, 50, 0))
        // A point 100 towards the viewer: w = 1 - 100/500 = 0.8, so x and y grow by 1/0.8.
        let near = perspective.transform(x: 100, y: 50, z: 100)
        #expect(abs(near.w - 0.8) < 1e-12)
        let projected = project(perspective, 100, 50, 100)
        #expect(abs(projected.0 - 125) < 1e-9 && abs(projected.1 - 62.5) < 1e-9)
        // A point pushed away shrinks: w = 1 + 250/500 = 1.5.
        let far = project(perspective, 150, 0, -250)
        #expect(abs(far.0 - 100) < 1e-9)
        // Rotation about y then perspective, as a layer's sublayerTransform would: the edge at x = 100
        // rotated by 60° moves to z = -sin(60°)·100 and shrinks.
        let rotated = CATransform3DConcat(CATransform3DMakeRotation(.pi / 3, 0, 1, 0), perspective)
        let edge = project(rotated, 100, 0, 0)
        let z = -100 * sin(CGFloat.pi / 3)
        #expect(abs(edge.0 - 50 / (1 - z / 500)) < 1e-9)
        #expect(!CATransform3DIsAffine(perspective))
    }

    @Test(arguments: [
        CATransform3DMakeTranslation(10, -20, 30),
        CATransform3DMakeScale(2, 0.5, 4),
        CATransform3DMakeRotation(0.9, 1, 2, 3),
        CATransform3DTranslate(CATransform3DRotate(CATransform3DMakeScale(2, 3, 4), 0.5, 1, -1, 0.5), 5, 6, 7),
        CATransform3D(
            m11: 1, m12: 0.2, m13: 0.1, m14: 0.001, m21: -0.3, m22: 2, m23: 0.4, m24: -0.002,
            m31: 0.5, m32: 0.6, m33: 3, m34: -1.0 / 500, m41: 10, m42: 20, m43: 30, m44: 1),
    ])
    func invertGivesInverse(_ m: CATransform3D) {
        let inv = CATransform3DInvert(m)
        #expect(approxEqual(CATransform3DConcat(m, inv), CATransform3DIdentity))
        #expect(approxEqual(CATransform3DConcat(inv, m), CATransform3DIdentity))
    }

    @Test func invertHandComputed() {
        #expect(
            approxEqual(
                CATransform3DInvert(CATransform3DMakeTranslation(1, 2, 3)), CATransform3DMakeTranslation(-1, -2, -3)))
        #expect(
            approxEqual(CATransform3DInvert(CATransform3DMakeScale(2, 4, 8)), CATransform3DMakeScale(0.5, 0.25, 0.125)))
        #expect(
            approxEqual(
                CATransform3DInvert(CATransform3DMakeRotation(0.4, 0, 0, 1)), CATransform3DMakeRotation(-0.4, 0, 0, 1)))
    }

    @Test(arguments: [
        CATransform3D(),
        CATransform3DMakeScale(1, 0, 1),
        CATransform3DMakeScale(.infinity, 1, 1),
        CATransform3DMakeTranslation(.nan, 0, 0),
    ])
    func invertSingularReturnsInputUnchanged(_ m: CATransform3D) {
        let inv = CATransform3DInvert(m)
        // Compare bit patterns so the NaN case counts as unchanged.
        #expect(entries(inv).map(\.bitPattern) == entries(m).map(\.bitPattern))
    }

    @Test func determinant() {
        #expect(CATransform3DIdentity.determinant == 1)
        #expect(CATransform3DMakeScale(2, 3, 4).determinant == 24)
        #expect(abs(CATransform3DMakeRotation(1.1, 1, 2, 3).determinant - 1) < 1e-12)
        #expect(CATransform3DMakeScale(1, 0, 1).determinant == 0)
        let t = CATransform3D(
            m11: 2, m12: 0, m13: 0, m14: 1, m21: 0, m22: 3, m23: 0, m24: 0,
            m31: 0, m32: 0, m33: 4, m34: 0, m41: 1, m42: 0, m43: 0, m44: 1)
        // Block [[2,1],[1,1]] (det 1) times 3·4.
        #expect(abs(t.determinant - 12) < 1e-12)
    }

    @Test func isFinite() {
        #expect(CATransform3DIdentity.isFinite)
        #expect(!CATransform3DMakeTranslation(.nan, 0, 0).isFinite)
        #expect(!CATransform3DMakeScale(1, 1, .infinity).isFinite)
    }

    @Test func columnMajorFloatsMatchGLSLMatrixTimesVector() {
        let t = CATransform3D(
            m11: 1, m12: 2, m13: 3, m14: 4, m21: 5, m22: 6, m23: 7, m24: 8,
            m31: 9, m32: 10, m33: 11, m34: 12, m41: 13, m42: 14, m43: 15, m44: 16)
        let floats = t.columnMajorFloats
        #expect(floats.count == 16)
        #expect(floats == (1...16).map { Float($0) })
        // GLSL: mat4(floats) fills column by column, so mat[col][row] = floats[col * 4 + row],
        // and (mat * v)[row] = Σ_col mat[col][row] · v[col].
        func glslMatTimesVec(_ f: [Float], _ v: [Float]) -> [Float] {
            (0..<4).map { row in (0..<4).reduce(Float(0)) { $0 + f[$1 * 4 + row] * v[$1] } }
        }
        for (x, y, z) in [(0.0, 0.0, 0.0), (1.0, 2.0, 3.0), (-4.5, 0.25, 7.0)] as [(CGFloat, CGFloat, CGFloat)] {
            let gl = glslMatTimesVec(floats, [Float(x), Float(y), Float(z), 1])
            let p = t.transform(x: x, y: y, z: z)
            #expect(gl == [Float(p.x), Float(p.y), Float(p.z), Float(p.w)])
            #expect(gl[0] == Float(x * 1 + y * 5 + z * 9 + 13))
        }
        // And for a realistic transform with perspective.
        var persp = CATransform3DIdentity
        persp.m34 = -1 / 500
        let m = CATransform3DConcat(CATransform3DRotate(CATransform3DMakeTranslation(10, 20, 0), 0.5, 0, 1, 0), persp)
        let gl = glslMatTimesVec(m.columnMajorFloats, [30, 40, 5, 1])
        let p = m.transform(x: 30, y: 40, z: 5)
        for (a, b) in zip(gl, [p.x, p.y, p.z, p.w]) { #expect(abs(CGFloat(a) - b) < 1e-4) }
    }

    @Test func affineRoundTrips() {
        let affine = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let t = CATransform3DMakeAffineTransform(affine)
        #expect(CATransform3DIsAffine(t))
        #expect(CATransform3DGetAffineTransform(t) == affine)
        #expect(CATransform3D(affine) == t)
        #expect(CATransform3DIsAffine(CATransform3DIdentity))
        #expect(CATransform3DMakeAffineTransform(.identity) == CATransform3DIdentity)

        // Concatenation commutes with the conversion.
        let other = CGAffineTransform(rotationAngle: 0.3).translatedBy(x: 7, y: -2)
        #expect(
            approxEqual(
                CATransform3DMakeAffineTransform(affine.concatenating(other)),
                CATransform3DConcat(CATransform3DMakeAffineTransform(affine), CATransform3DMakeAffineTransform(other))))

        // Anything touching z or w is not affine; Get still returns the 2D part.
        for mutate in [
            { (t: inout CATransform3D) in t.m34 = -0.002 }, { $0.m13 = 1 }, { $0.m31 = 1 }, { $0.m33 = 2 },
            { $0.m43 = 5 }, { $0.m14 = 1 }, { $0.m44 = 2 },
        ] as [(inout CATransform3D) -> Void] {
            var u = t
            mutate(&u)
            #expect(!CATransform3DIsAffine(u))
            #expect(CATransform3DGetAffineTransform(u) == affine)
        }
        #expect(!CATransform3DIsAffine(CATransform3DMakeRotation(0.5, 1, 0, 0)))
        #expect(CATransform3DIsAffine(CATransform3DMakeRotation(0.5, 0, 0, 1)))
    }

    @Test func codableRoundTrip() throws {
        let t = CATransform3DRotate(CATransform3DMakeTranslation(1, 2, 3), 0.5, 1, 1, 0)
        let data = try JSONEncoder().encode(t)
        #expect(try JSONDecoder().decode(CATransform3D.self, from: data) == t)
        #expect(Set([t, t, CATransform3DIdentity]).count == 2)
    }
}

// MARK: - CGAffineTransform

@Suite("CGAffineTransform")
struct CGAffineTransformTests {
    @Test func initialisers() {
        let zero = CGAffineTransform()
        #expect([zero.a, zero.b, zero.c, zero.d, zero.tx, zero.ty] == [0, 0, 0, 0, 0, 0])
        #expect(!zero.isIdentity)
        #expect(CGAffineTransform.identity == CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        #expect(CGAffineTransform.identity.isIdentity)
        #expect(CGAffineTransform(1, 2, 3, 4, 5, 6) == CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6))
        #expect(CGAffineTransform(translationX: 3, y: 4) == CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 3, ty: 4))
        #expect(CGAffineTransform(scaleX: 2, y: 5) == CGAffineTransform(a: 2, b: 0, c: 0, d: 5, tx: 0, ty: 0))
        #expect(
            approxEqual(
                CGAffineTransform(rotationAngle: .pi / 2), CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)))
        #expect(CGAffineTransform(translationX: 0, y: 0).isIdentity)
        #expect(!CGAffineTransform(translationX: 1, y: 0).isIdentity)
    }

    @Test func pointApplying() {
        let t = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        // x' = a·x + c·y + tx, y' = b·x + d·y + ty.
        #expect(CGPoint(x: 10, y: 100).applying(t) == CGPoint(x: 10 + 300 + 5, y: 20 + 400 + 6))
        #expect(
            approxEqual(CGPoint(x: 1, y: 0).applying(CGAffineTransform(rotationAngle: .pi / 2)), CGPoint(x: 0, y: 1)))
    }

    @Test func sizeApplyingIgnoresTranslation() {
        let t = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        #expect(CGSize(width: 10, height: 100).applying(t) == CGSize(width: 310, height: 420))
        #expect(
            CGSize(width: 10, height: 20).applying(CGAffineTransform(scaleX: -1, y: 2))
                == CGSize(width: -10, height: 40))
    }

    @Test func concatenatingAppliesSelfFirst() {
        let translate = CGAffineTransform(translationX: 10, y: 0)
        let rotate = CGAffineTransform(rotationAngle: .pi / 2)
        #expect(approxEqual(CGPoint.zero.applying(translate.concatenating(rotate)), CGPoint(x: 0, y: 10)))
        #expect(approxEqual(CGPoint.zero.applying(rotate.concatenating(translate)), CGPoint(x: 10, y: 0)))
        let a = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let b = CGAffineTransform(a: 7, b: 8, c: 9, d: 10, tx: 11, ty: 12)
        // Hand-computed row-vector product a · b.
        #expect(a.concatenating(b) == CGAffineTransform(a: 25, b: 28, c: 57, d: 64, tx: 100, ty: 112))
        let p = CGPoint(x: 3, y: -2)
        #expect(p.applying(a.concatenating(b)) == p.applying(a).applying(b))
    }

    @Test func translatedScaledRotatedApplyTheirOperationFirst() {
        let r = CGAffineTransform(rotationAngle: .pi / 2)
        // Translate first, then rotate: (0,0) -> (10,0) -> (0,10).
        #expect(approxEqual(CGPoint.zero.applying(r.translatedBy(x: 10, y: 0)), CGPoint(x: 0, y: 10)))
        #expect(r.translatedBy(x: 10, y: 0) == CGAffineTransform(translationX: 10, y: 0).concatenating(r))
        #expect(r.scaledBy(x: 2, y: 3) == CGAffineTransform(scaleX: 2, y: 3).concatenating(r))
        #expect(r.rotated(by: 0.3) == CGAffineTransform(rotationAngle: 0.3).concatenating(r))
        let t = CGAffineTransform(translationX: 5, y: 5)
        // Scale first, then translate: (1,1) -> (2,3) -> (7,8).
        #expect(CGPoint(x: 1, y: 1).applying(t.scaledBy(x: 2, y: 3)) == CGPoint(x: 7, y: 8))
    }

    @Test(arguments: [
        CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6),
        CGAffineTransform(rotationAngle: 0.8).scaledBy(x: 2, y: -3).translatedBy(x: 10, y: 20),
        CGAffineTransform(translationX: -7, y: 9),
    ])
    func invertedGivesInverse(_ t: CGAffineTransform) {
        #expect(approxEqual(t.concatenating(t.inverted()), .identity))
        #expect(approxEqual(t.inverted().concatenating(t), .identity))
    }

    @Test func invertedHandComputedAndSingular() {
        #expect(CGAffineTransform(scaleX: 2, y: 4).inverted() == CGAffineTransform(scaleX: 0.5, y: 0.25))
        #expect(CGAffineTransform(translationX: 3, y: -4).inverted() == CGAffineTransform(translationX: -3, y: 4))
        let singular = CGAffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 5, ty: 6)
        #expect(singular.inverted() == singular)
        #expect(CGAffineTransform().inverted() == CGAffineTransform())
        let infinite = CGAffineTransform(scaleX: .infinity, y: 1)
        #expect(infinite.inverted() == infinite)
    }

    struct RectCase: Sendable, CustomTestStringConvertible {
        let name: String
        let rect: CGRect
        let transform: CGAffineTransform
        let expected: CGRect
        var testDescription: String { name }
    }

    @Test(
        "CGRect.applying gives the bounding box",
        arguments: [
            RectCase(
                name: "translate", rect: CGRect(x: 1, y: 2, width: 3, height: 4),
                transform: CGAffineTransform(translationX: 10, y: 20),
                expected: CGRect(x: 11, y: 22, width: 3, height: 4)),
            RectCase(
                name: "scale", rect: CGRect(x: 1, y: 2, width: 3, height: 4),
                transform: CGAffineTransform(scaleX: 2, y: 3), expected: CGRect(x: 2, y: 6, width: 6, height: 12)),
            RectCase(
                name: "flip x", rect: CGRect(x: 0, y: 0, width: 10, height: 10),
                transform: CGAffineTransform(scaleX: -1, y: 1), expected: CGRect(x: -10, y: 0, width: 10, height: 10)),
            RectCase(
                name: "rotate π/2", rect: CGRect(x: 0, y: 0, width: 10, height: 20),
                transform: CGAffineTransform(rotationAngle: .pi / 2),
                expected: CGRect(x: -20, y: 0, width: 20, height: 10)),
            RectCase(
                name: "rotate π/4", rect: CGRect(x: 0, y: 0, width: 10, height: 10),
                transform: CGAffineTransform(rotationAngle: .pi / 4),
                expected: CGRect(x: -10 * r2, y: 0, width: 20 * r2, height: 20 * r2)),
            RectCase(
                name: "negative size", rect: CGRect(x: 10, y: 10, width: -10, height: -5),
                transform: .identity, expected: CGRect(x: 0, y: 5, width: 10, height: 5)),
        ])
    func rectApplying(_ c: RectCase) {
        #expect(approxEqual(c.rect.applying(c.transform), c.expected), "\(c.rect.applying(c.transform))")
    }

    @Test func nullRectStaysNull() {
        #expect(CGRect.null.applying(CGAffineTransform(scaleX: 2, y: 2)).isNull)
        #expect(CGRect.null.applying(CGAffineTransform(translationX: 5, y: 5)).isNull)
    }

    @Test func codableAndHashable() throws {
        let t = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let data = try JSONEncoder().encode(t)
        #expect(try JSONDecoder().decode(CGAffineTransform.self, from: data) == t)
        #expect(Set([t, t, .identity]).count == 2)
    }
}

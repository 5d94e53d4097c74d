import Foundation
import LaminaCore
import Testing

// MARK: - Helpers

/// The sixteen entries of `t` in row order.
private func entries(_ t: CATransform3D) -> [Double] {
    [
        t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
        t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44,
    ]
}

/// Whether every entry of `a` is within `tolerance` of `b`'s.
private func close(_ a: CATransform3D, _ b: CATransform3D, _ tolerance: Double = 1e-9) -> Bool {
    zip(entries(a), entries(b)).allSatisfy { abs($0 - $1) <= tolerance }
}

/// A matrix from sixteen entries in row order.
private func matrix(_ e: [Double]) -> CATransform3D {
    CATransform3D(
        m11: e[0], m12: e[1], m13: e[2], m14: e[3], m21: e[4], m22: e[5], m23: e[6], m24: e[7],
        m31: e[8], m32: e[9], m33: e[10], m34: e[11], m41: e[12], m42: e[13], m43: e[14], m44: e[15])
}

/// `a` then `b` then `c`...
private func chain(_ transforms: CATransform3D...) -> CATransform3D {
    transforms.dropFirst().reduce(transforms[0]) { CATransform3DConcat($0, $1) }
}

/// The perspective sublayer transform with the eye at distance 500.
private let perspective500: CATransform3D = {
    var t = CATransform3DIdentity
    t.m34 = -1.0 / 500
    return t
}()

/// A skew: row 2 gains 0.3 × row 1, row 3 gains −0.2 × row 1 and 0.4 × row 2.
private let skew = matrix([1, 0, 0, 0, 0.3, 1, 0, 0, -0.2, 0.4, 1, 0, 0, 0, 0, 1])

/// A named transform for parameterised tests.
struct NamedTransform: Sendable, CustomTestStringConvertible {
    let name: String
    let transform: CATransform3D
    var testDescription: String { name }
}

// MARK: - Round trips

let roundTripCases: [NamedTransform] = [
    NamedTransform(name: "identity", transform: CATransform3DIdentity),
    NamedTransform(name: "translation", transform: CATransform3DMakeTranslation(10, -20, 30)),
    NamedTransform(name: "non-uniform scale", transform: CATransform3DMakeScale(2, 3, 0.5)),
    NamedTransform(name: "rotation z π/6", transform: CATransform3DMakeRotation(.pi / 6, 0, 0, 1)),
    NamedTransform(name: "rotation about (1,2,3)", transform: CATransform3DMakeRotation(1.1, 1, 2, 3)),
    NamedTransform(name: "rotation x π", transform: CATransform3DMakeRotation(.pi, 1, 0, 0)),
    NamedTransform(name: "rotation y −2.5", transform: CATransform3DMakeRotation(-2.5, 0, 1, 0)),
    NamedTransform(name: "rotation (1,1,0) by π", transform: CATransform3DMakeRotation(.pi, 1, 1, 0)),
    NamedTransform(name: "reflection x", transform: CATransform3DMakeScale(-1, 1, 1)),
    NamedTransform(name: "reflection y with scale", transform: CATransform3DMakeScale(1, -2, 3)),
    NamedTransform(name: "skew", transform: skew),
    NamedTransform(name: "perspective", transform: perspective500),
    NamedTransform(
        name: "scale · rotation · translation",
        transform: chain(
            CATransform3DMakeScale(2, 0.5, 3), CATransform3DMakeRotation(0.7, 1, 1, 0),
            CATransform3DMakeTranslation(5, -7, 11))),
    NamedTransform(
        name: "scale · skew · rotation · translation · perspective",
        transform: chain(
            CATransform3DMakeScale(1.5, -0.75, 2), skew, CATransform3DMakeRotation(2.2, -1, 0.5, 2),
            CATransform3DMakeTranslation(40, 50, -60), perspective500)),
    NamedTransform(
        name: "rotation y then perspective (door)",
        transform: chain(CATransform3DMakeRotation(-.pi / 2, 0, 1, 0), perspective500)),
    NamedTransform(
        name: "general projective column",
        transform: matrix([1, 0.2, 0, 0.001, -0.1, 2, 0.3, -0.002, 0, 0.5, 1, 0.003, 7, 8, 9, 1.5])),
    NamedTransform(name: "m44 = 2", transform: matrix([2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2])),
]

@Test("Decomposing and recomposing reproduces the matrix", arguments: roundTripCases)
func decompositionRoundTrip(_ c: NamedTransform) throws {
    let d = try #require(DecomposedTransform(c.transform))
    #expect(close(d.matrix, c.transform, 1e-9))
}

// MARK: - Factors by hand

/// A matrix with the factors it must decompose into.
struct FactorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let transform: CATransform3D
    let expected: DecomposedTransform
    var testDescription: String { name }
}

let factorCases: [FactorCase] = [
    FactorCase(
        name: "scale (2, 3, 4)", transform: CATransform3DMakeScale(2, 3, 4),
        expected: DecomposedTransform(scaleX: 2, scaleY: 3, scaleZ: 4)),
    FactorCase(
        name: "translation (1, 2, 3)", transform: CATransform3DMakeTranslation(1, 2, 3),
        expected: DecomposedTransform(translationX: 1, translationY: 2, translationZ: 3)),
    FactorCase(
        name: "rotation z π/2: quaternion (0, 0, sin π/4, cos π/4)",
        transform: CATransform3DMakeRotation(.pi / 2, 0, 0, 1),
        expected: DecomposedTransform(quaternion: SIMD4(0, 0, 0.5.squareRoot(), 0.5.squareRoot()))),
    FactorCase(
        name: "rotation x π/3: quaternion (sin π/6, 0, 0, cos π/6)",
        transform: CATransform3DMakeRotation(.pi / 3, 1, 0, 0),
        expected: DecomposedTransform(quaternion: SIMD4(0.5, 0, 0, 0.75.squareRoot()))),
    FactorCase(
        name: "reflection of x reads scaleX −1 and no rotation", transform: CATransform3DMakeScale(-1, 1, 1),
        expected: DecomposedTransform(scaleX: -1)),
    FactorCase(
        name: "reflection of y reads scaleY −1", transform: CATransform3DMakeScale(1, -1, 1),
        expected: DecomposedTransform(scaleY: -1)),
    FactorCase(
        name: "skew of y towards x", transform: matrix([1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
        expected: DecomposedTransform(skewXY: 0.5)),
    FactorCase(
        name: "perspective m34 = −1/500", transform: perspective500,
        expected: DecomposedTransform(perspective: SIMD4(0, 0, -0.002, 1))),
    FactorCase(
        name: "translate z 100 then perspective: m44 = 0.8 is carried by the perspective",
        transform: CATransform3DConcat(CATransform3DMakeTranslation(0, 0, 100), perspective500),
        expected: DecomposedTransform(translationZ: 100, perspective: SIMD4(0, 0, -0.002, 1))),
]

@Test("Decomposition yields the hand-derived factors", arguments: factorCases)
func decompositionFactors(_ c: FactorCase) throws {
    let d = try #require(DecomposedTransform(c.transform))
    let e = c.expected
    let got =
        [
            d.translationX, d.translationY, d.translationZ, d.scaleX, d.scaleY, d.scaleZ,
            d.skewXY, d.skewXZ, d.skewYZ,
        ] + (0..<4).map { d.perspective[$0] } + (0..<4).map { d.quaternion[$0] }
    let want =
        [
            e.translationX, e.translationY, e.translationZ, e.scaleX, e.scaleY, e.scaleZ,
            e.skewXY, e.skewXZ, e.skewYZ,
        ] + (0..<4).map { e.perspective[$0] } + (0..<4).map { e.quaternion[$0] }
    for (g, w) in zip(got, want) { #expect(abs(g - w) < 1e-12, "\(got) vs \(want)") }
}

let undecomposable: [NamedTransform] = [
    NamedTransform(name: "m44 = 0", transform: matrix([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0])),
    NamedTransform(name: "scale x 0", transform: CATransform3DMakeScale(0, 1, 1)),
    NamedTransform(name: "all zero", transform: CATransform3D()),
    NamedTransform(name: "two equal rows", transform: matrix([1, 2, 3, 0, 1, 2, 3, 0, 0, 0, 1, 0, 0, 0, 0, 1])),
    NamedTransform(name: "NaN entry", transform: CATransform3DMakeTranslation(.nan, 0, 0)),
]

@Test("Singular, m44 = 0 and non-finite matrices do not decompose", arguments: undecomposable)
func decompositionRefuses(_ c: NamedTransform) {
    #expect(DecomposedTransform(c.transform) == nil)
}

// MARK: - Interpolation

/// An interpolation between two transforms and the transform expected at a fraction.
struct InterpolationCase: Sendable, CustomTestStringConvertible {
    let name: String
    let from: CATransform3D
    let to: CATransform3D
    let fraction: Double
    let expected: CATransform3D
    var testDescription: String { name }
}

let interpolationCases: [InterpolationCase] = [
    InterpolationCase(
        name: "rotation z 0 → π/2 at 0.5 is π/4", from: CATransform3DIdentity,
        to: CATransform3DMakeRotation(.pi / 2, 0, 0, 1), fraction: 0.5,
        expected: CATransform3DMakeRotation(.pi / 4, 0, 0, 1)),
    InterpolationCase(
        name: "scale 1 → 3 at 0.5 is 2", from: CATransform3DIdentity,
        to: CATransform3DMakeScale(3, 3, 3), fraction: 0.5, expected: CATransform3DMakeScale(2, 2, 2)),
    InterpolationCase(
        name: "non-uniform scale at 0.25", from: CATransform3DMakeScale(1, 2, 3),
        to: CATransform3DMakeScale(5, 2, -1), fraction: 0.25, expected: CATransform3DMakeScale(2, 2, 2)),
    InterpolationCase(
        name: "translation at 0.25", from: CATransform3DIdentity,
        to: CATransform3DMakeTranslation(10, 20, 30), fraction: 0.25,
        expected: CATransform3DMakeTranslation(2.5, 5, 7.5)),
    InterpolationCase(
        name: "perspective is preserved while the door turns",
        from: perspective500, to: CATransform3DConcat(CATransform3DMakeRotation(.pi / 2, 0, 1, 0), perspective500),
        fraction: 0.5,
        expected: CATransform3DConcat(CATransform3DMakeRotation(.pi / 4, 0, 1, 0), perspective500)),
    InterpolationCase(
        name: "rotation 0 → 3π/2 takes the shorter arc (−π/2) and is −π/4 at 0.5",
        from: CATransform3DIdentity, to: CATransform3DMakeRotation(3 * .pi / 2, 0, 0, 1), fraction: 0.5,
        expected: CATransform3DMakeRotation(-.pi / 4, 0, 0, 1)),
    InterpolationCase(
        name: "rotation extrapolates at 1.5 (spring overshoot)", from: CATransform3DIdentity,
        to: CATransform3DMakeRotation(.pi / 2, 0, 0, 1), fraction: 1.5,
        expected: CATransform3DMakeRotation(3 * .pi / 4, 0, 0, 1)),
    InterpolationCase(
        name: "translation extrapolates at −0.5", from: CATransform3DIdentity,
        to: CATransform3DMakeTranslation(10, 0, 0), fraction: -0.5,
        expected: CATransform3DMakeTranslation(-5, 0, 0)),
    InterpolationCase(
        name: "scale and rotation together", from: CATransform3DMakeScale(2, 2, 1),
        to: CATransform3DConcat(CATransform3DMakeScale(4, 4, 1), CATransform3DMakeRotation(1, 0, 0, 1)),
        fraction: 0.5,
        expected: CATransform3DConcat(CATransform3DMakeScale(3, 3, 1), CATransform3DMakeRotation(0.5, 0, 0, 1))),
    InterpolationCase(
        name: "singular start switches at the end: 0.999 is still the start",
        from: CATransform3DMakeScale(0, 0, 1), to: CATransform3DIdentity, fraction: 0.999,
        expected: CATransform3DMakeScale(0, 0, 1)),
    InterpolationCase(
        name: "singular start switches at the end: 1 is the end",
        from: CATransform3DMakeScale(0, 0, 1), to: CATransform3DIdentity, fraction: 1,
        expected: CATransform3DIdentity),
]

@Test("Interpolation by decomposition", arguments: interpolationCases)
func transformInterpolation(_ c: InterpolationCase) {
    let result = c.from.interpolated(to: c.to, fraction: c.fraction)
    #expect(close(result, c.expected, 1e-12), "\(entries(result))")
}

@Test("Fractions 0 and 1 return the ends exactly", arguments: roundTripCases)
func interpolationEndsAreExact(_ c: NamedTransform) {
    let other = CATransform3DMakeRotation(0.3, 1, 1, 1)
    #expect(c.transform.interpolated(to: other, fraction: 0) == c.transform)
    #expect(c.transform.interpolated(to: other, fraction: 1) == other)
}

@Test("Interpolating the decomposed factors directly")
func decomposedInterpolate() throws {
    let a = DecomposedTransform(translationX: 0, scaleX: 1, skewXY: 0, perspective: SIMD4(0, 0, 0, 1))
    let b = DecomposedTransform(translationX: 8, scaleX: 3, skewXY: 1, perspective: SIMD4(0, 0, -0.004, 1))
    let m = DecomposedTransform.interpolate(a, b, fraction: 0.25)
    #expect(m.translationX == 2)
    #expect(m.scaleX == 1.5)
    #expect(m.skewXY == 0.25)
    #expect(m.perspective == SIMD4(0, 0, -0.001, 1))
    #expect(m.quaternion == SIMD4(0, 0, 0, 1))
}

// MARK: - Distance

/// A pair of transforms and their pacing distance.
struct DistanceCase: Sendable, CustomTestStringConvertible {
    let name: String
    let a: CATransform3D
    let b: CATransform3D
    let expected: Double
    var testDescription: String { name }
}

let distanceCases: [DistanceCase] = [
    DistanceCase(
        name: "translation (3, 4, 0) is 5", a: CATransform3DIdentity,
        b: CATransform3DMakeTranslation(3, 4, 0), expected: 5),
    DistanceCase(
        name: "scale 1 → 3 on three axes is √12", a: CATransform3DIdentity,
        b: CATransform3DMakeScale(3, 3, 3), expected: 12.0.squareRoot()),
    DistanceCase(
        name: "rotation π/2 is π/2", a: CATransform3DIdentity,
        b: CATransform3DMakeRotation(.pi / 2, 0, 1, 0), expected: .pi / 2),
    DistanceCase(
        name: "rotation 3π/2 is π/2 (shorter way)", a: CATransform3DIdentity,
        b: CATransform3DMakeRotation(3 * .pi / 2, 0, 0, 1), expected: .pi / 2),
    DistanceCase(
        name: "rotation 1 then translation 6 is √(1 + 36)", a: CATransform3DIdentity,
        b: CATransform3DConcat(CATransform3DMakeRotation(1, 0, 0, 1), CATransform3DMakeTranslation(6, 0, 0)),
        expected: 37.0.squareRoot()),
    DistanceCase(
        name: "singular: scale 0 → 1 on x and y is √2", a: CATransform3DMakeScale(0, 0, 1),
        b: CATransform3DIdentity, expected: 2.0.squareRoot()),
    DistanceCase(name: "equal transforms are 0", a: perspective500, b: perspective500, expected: 0),
]

@Test("Pacing distance between transforms", arguments: distanceCases)
func transformDistance(_ c: DistanceCase) {
    #expect(abs(c.a.distance(to: c.b) - c.expected) < 1e-12)
    #expect(abs(c.b.distance(to: c.a) - c.expected) < 1e-12)
}

// MARK: - Virtual components

/// A transform, a component and the value it must read.
struct ComponentReadCase: Sendable, CustomTestStringConvertible {
    let name: String
    let transform: CATransform3D
    let component: TransformComponent
    let expected: Double
    var testDescription: String { name }
}

private let rxyz = chain(
    CATransform3DMakeRotation(0.3, 1, 0, 0), CATransform3DMakeRotation(0.2, 0, 1, 0),
    CATransform3DMakeRotation(0.1, 0, 0, 1))

let componentReadCases: [ComponentReadCase] = [
    ComponentReadCase(
        name: "rotation z 0.3", transform: CATransform3DMakeRotation(0.3, 0, 0, 1), component: .rotationZ, expected: 0.3
    ),
    ComponentReadCase(
        name: "rotation z −2", transform: CATransform3DMakeRotation(-2, 0, 0, 1), component: .rotationZ, expected: -2),
    ComponentReadCase(
        name: "rotation z π", transform: CATransform3DMakeRotation(.pi, 0, 0, 1), component: .rotationZ, expected: .pi),
    ComponentReadCase(
        name: "rotation z 3 (near π)", transform: CATransform3DMakeRotation(3, 0, 0, 1), component: .rotationZ,
        expected: 3),
    ComponentReadCase(
        name: "rotation z 5 reads 5 − 2π", transform: CATransform3DMakeRotation(5, 0, 0, 1), component: .rotationZ,
        expected: 5 - 2 * .pi),
    ComponentReadCase(
        name: "rotation x 0.4", transform: CATransform3DMakeRotation(0.4, 1, 0, 0), component: .rotationX, expected: 0.4
    ),
    ComponentReadCase(
        name: "rotation x 0.4 has no z", transform: CATransform3DMakeRotation(0.4, 1, 0, 0), component: .rotationZ,
        expected: 0),
    ComponentReadCase(
        name: "rotation y −0.4", transform: CATransform3DMakeRotation(-0.4, 0, 1, 0), component: .rotationY,
        expected: -0.4),
    ComponentReadCase(name: "Rx(0.3)·Ry(0.2)·Rz(0.1): x", transform: rxyz, component: .rotationX, expected: 0.3),
    ComponentReadCase(name: "Rx(0.3)·Ry(0.2)·Rz(0.1): y", transform: rxyz, component: .rotationY, expected: 0.2),
    ComponentReadCase(name: "Rx(0.3)·Ry(0.2)·Rz(0.1): z", transform: rxyz, component: .rotationZ, expected: 0.1),
    ComponentReadCase(
        name: "rotation z under a scale",
        transform: CATransform3DConcat(CATransform3DMakeScale(2, 3, 1), CATransform3DMakeRotation(0.5, 0, 0, 1)),
        component: .rotationZ, expected: 0.5),
    ComponentReadCase(
        name: "scale.x of (2, 3, 4)", transform: CATransform3DMakeScale(2, 3, 4), component: .scaleX, expected: 2),
    ComponentReadCase(
        name: "scale.z of (2, 3, 4)", transform: CATransform3DMakeScale(2, 3, 4), component: .scaleZ, expected: 4),
    ComponentReadCase(
        name: "scale of (2, 3, 4) is the average 3", transform: CATransform3DMakeScale(2, 3, 4), component: .scale,
        expected: 3),
    ComponentReadCase(
        name: "scale.x of a singular scale (0, 1, 1) is 0", transform: CATransform3DMakeScale(0, 1, 1),
        component: .scaleX, expected: 0),
    ComponentReadCase(
        name: "rotation survives a zero x scale",
        transform: CATransform3DConcat(CATransform3DMakeScale(0, 1, 1), CATransform3DMakeRotation(0.7, 0, 0, 1)),
        component: .rotationZ, expected: 0.7),
    ComponentReadCase(
        name: "translation.y", transform: CATransform3DMakeTranslation(10, 20, 30), component: .translationY,
        expected: 20),
    ComponentReadCase(
        name: "translation.x after a rotation",
        transform: CATransform3DConcat(CATransform3DMakeRotation(1, 0, 0, 1), CATransform3DMakeTranslation(-4, 0, 0)),
        component: .translationX, expected: -4),
]

@Test("Reading virtual components", arguments: componentReadCases)
func componentRead(_ c: ComponentReadCase) {
    #expect(abs(c.transform.component(c.component) - c.expected) < 1e-12, "\(c.transform.component(c.component))")
}

/// A transform, a component set to a value, and the transform expected.
struct ComponentWriteCase: Sendable, CustomTestStringConvertible {
    let name: String
    let transform: CATransform3D
    let component: TransformComponent
    let value: Double
    let expected: CATransform3D
    var testDescription: String { name }
}

let componentWriteCases: [ComponentWriteCase] = [
    ComponentWriteCase(
        name: "E30: translation.x = 10 on identity", transform: CATransform3DIdentity,
        component: .translationX, value: 10, expected: CATransform3DMakeTranslation(10, 0, 0)),
    ComponentWriteCase(
        name: "rotation.z = 2π on identity is the identity", transform: CATransform3DIdentity,
        component: .rotationZ, value: 2 * .pi, expected: CATransform3DIdentity),
    ComponentWriteCase(
        name: "scale = 2 sets all three (A16)", transform: CATransform3DIdentity,
        component: .scale, value: 2, expected: CATransform3DMakeScale(2, 2, 2)),
    ComponentWriteCase(
        name: "scale.x = 2 keeps the rotation",
        transform: CATransform3DMakeRotation(0.5, 0, 0, 1), component: .scaleX, value: 2,
        expected: CATransform3DConcat(CATransform3DMakeScale(2, 1, 1), CATransform3DMakeRotation(0.5, 0, 0, 1))),
    ComponentWriteCase(
        name: "rotation.z keeps the translation",
        transform: CATransform3DMakeTranslation(5, 6, 7), component: .rotationZ, value: 0.5,
        expected: CATransform3DConcat(CATransform3DMakeRotation(0.5, 0, 0, 1), CATransform3DMakeTranslation(5, 6, 7))),
    ComponentWriteCase(
        name: "rotation.y keeps the perspective", transform: perspective500,
        component: .rotationY, value: -.pi / 2,
        expected: CATransform3DConcat(CATransform3DMakeRotation(-.pi / 2, 0, 1, 0), perspective500)),
    ComponentWriteCase(
        name: "rotation.x replaces only x", transform: rxyz, component: .rotationX, value: -0.6,
        expected: chain(
            CATransform3DMakeRotation(-0.6, 1, 0, 0), CATransform3DMakeRotation(0.2, 0, 1, 0),
            CATransform3DMakeRotation(0.1, 0, 0, 1))),
    ComponentWriteCase(
        name: "scale = 0.5 on a zero scale", transform: CATransform3DMakeScale(0, 0, 0),
        component: .scale, value: 0.5, expected: CATransform3DMakeScale(0.5, 0.5, 0.5)),
    ComponentWriteCase(
        name: "scale.x = 1 restores a zero x scale under a rotation",
        transform: CATransform3DConcat(CATransform3DMakeScale(0, 1, 1), CATransform3DMakeRotation(0.7, 0, 0, 1)),
        component: .scaleX, value: 1, expected: CATransform3DMakeRotation(0.7, 0, 0, 1)),
    ComponentWriteCase(
        name: "translation.z with perspective", transform: perspective500, component: .translationZ, value: 100,
        expected: CATransform3DConcat(CATransform3DMakeTranslation(0, 0, 100), perspective500)),
    ComponentWriteCase(
        name: "NaN leaves the transform unchanged", transform: CATransform3DMakeScale(2, 2, 2),
        component: .scaleX, value: .nan, expected: CATransform3DMakeScale(2, 2, 2)),
]

@Test("Setting virtual components", arguments: componentWriteCases)
func componentWrite(_ c: ComponentWriteCase) {
    let result = c.transform.setting(c.component, to: c.value)
    #expect(close(result, c.expected, 1e-12), "\(entries(result))")
}

@Test(
    "Setting rotation.z on the identity equals CATransform3DMakeRotation for any angle",
    arguments: [0.5, -1, Double.pi, -Double.pi, 2 * Double.pi, 5 * Double.pi / 2, 7, -10, 100])
func rotationZFromIdentity(_ angle: Double) {
    let result = CATransform3DIdentity.setting(.rotationZ, to: angle)
    #expect(close(result, CATransform3DMakeRotation(angle, 0, 0, 1), 1e-12))
}

@Test("A component set on a general matrix reads back", arguments: TransformComponent.allCases)
func componentReadsBack(_ component: TransformComponent) {
    let general = chain(
        CATransform3DMakeScale(2, 3, 4), CATransform3DMakeRotation(0.3, 1, 2, 3),
        CATransform3DMakeTranslation(1, 2, 3), perspective500)
    let value = 0.25
    let result = general.setting(component, to: value)
    #expect(abs(result.component(component) - value) < 1e-12)
    #expect(result.m34 != 0)
}

@Test("The translation component as a size")
func translationXY() {
    let t = CATransform3DIdentity.settingTranslationXY(CGSize(width: 3, height: 4))
    #expect(t == CATransform3DMakeTranslation(3, 4, 0))
    #expect(t.translationXY == CGSize(width: 3, height: 4))
    let rotated = CATransform3DMakeRotation(0.5, 0, 0, 1).settingTranslationXY(CGSize(width: -1, height: 2))
    #expect(
        close(
            rotated,
            CATransform3DConcat(CATransform3DMakeRotation(0.5, 0, 0, 1), CATransform3DMakeTranslation(-1, 2, 0)), 1e-12)
    )
}

@Test("Key-path names of the components")
func componentKeyPaths() {
    for component in TransformComponent.allCases {
        #expect(TransformComponent(keyPath: component.keyPath) == component)
    }
    #expect(TransformComponent(keyPath: "rotation") == .rotationZ)
    #expect(TransformComponent(keyPath: "translation") == nil)
    #expect(TransformComponent.rotationX.rawValue == 1)
}

import Foundation
import Testing

@testable import Lamina

// Coordinate conversion and hit testing on CALayer (CALayer+Geometry.swift). Every expected value is
// derived by hand in the table next to it; none needs a render server.

private let tolerance: CGFloat = 1e-9

/// True when both coordinates of `a` lie within `tolerance` of those of `b`.
private func close(_ a: CGPoint, _ b: CGPoint) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

/// True when every component of `a` lies within `tolerance` of the matching component of `b`.
private func close(_ a: CGRect, _ b: CGRect) -> Bool {
    close(a.origin, b.origin) && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}

/// A rotation about z whose matrix is exact (cos and sin of π/2 are not exact in floating point).
private let rotateZ90 = CATransform3DMakeAffineTransform(CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0))

/// The identity with `m34 = -1/d`: perspective with the eye at distance `d`.
private func perspective(_ d: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m34 = -1 / d
    return t
}

/// The suites of coordinate conversion and hit testing (the name keeps `--filter LayerGeometryTests` on them).
@Suite("CALayer geometry")
enum CALayerGeometryTests {}

extension CALayerGeometryTests {
    /// The geometry of one layer of a test scene.
    struct Spec: Sendable {
        var bounds: CGRect
        var position: CGPoint
        var anchorPoint = CGPoint(x: 0.5, y: 0.5)
        var transform = CATransform3DIdentity
        var sublayerTransform = CATransform3DIdentity

        func make(_ name: String) -> CALayer {
            let layer = CALayer()
            layer.name = name
            layer.bounds = bounds
            layer.anchorPoint = anchorPoint
            layer.position = position
            layer.transform = transform
            layer.sublayerTransform = sublayerTransform
            return layer
        }
    }

    /// A tree `R ⊃ {A ⊃ {C}, B}`. R's bounds space is the root space (R's anchor sits at its position).
    ///
    /// Defaults: A's bounds origin is at (50, 50) in R, B's at (275, 175) in R, C's at (55, 45) in A.
    struct Scene: Sendable {
        var root = Spec(bounds: CGRect(x: 0, y: 0, width: 1000, height: 1000), position: CGPoint(x: 500, y: 500))
        var a = Spec(bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100))
        var b = Spec(bounds: CGRect(x: 0, y: 0, width: 50, height: 50), position: CGPoint(x: 300, y: 200))
        var c = Spec(bounds: CGRect(x: 0, y: 0, width: 10, height: 10), position: CGPoint(x: 60, y: 50))

        /// The layers by name: "R", "A", "B", "C".
        func build() -> [String: CALayer] {
            let layers = ["R": root.make("R"), "A": a.make("A"), "B": b.make("B"), "C": c.make("C")]
            layers["R"]!.addSublayer(layers["A"]!)
            layers["R"]!.addSublayer(layers["B"]!)
            layers["A"]!.addSublayer(layers["C"]!)
            return layers
        }
    }

    /// A point converted from one layer of a scene to another (nil: the root space).
    struct PointCase: Sendable, CustomTestStringConvertible {
        var name: String
        var scene = Scene()
        var from: String
        var to: String?
        var point: CGPoint
        var expected: CGPoint
        var testDescription: String { name }
    }

    static let pointCases: [PointCase] = [
        // (10, 20) in A → R: + A's origin (50, 50) → (60, 70) → B: − B's origin (275, 175).
        PointCase(
            name: "siblings A to B", from: "A", to: "B", point: CGPoint(x: 10, y: 20),
            expected: CGPoint(x: -215, y: -105)),
        // (0, 0) in B → R (275, 175) → A: − (50, 50).
        PointCase(name: "siblings B to A", from: "B", to: "A", point: .zero, expected: CGPoint(x: 225, y: 125)),
        PointCase(name: "same layer", from: "A", to: "A", point: CGPoint(x: 3, y: 4), expected: CGPoint(x: 3, y: 4)),
        // C's anchor in bounds is (5, 5), placed at (60, 50): C (0, 0) → A (55, 45).
        PointCase(name: "child to parent", from: "C", to: "A", point: .zero, expected: CGPoint(x: 55, y: 45)),
        PointCase(name: "child to root", from: "C", to: "R", point: .zero, expected: CGPoint(x: 105, y: 95)),
        PointCase(
            name: "child to root space (nil)", from: "C", to: nil, point: .zero, expected: CGPoint(x: 105, y: 95)),
        // R (105, 95) → B: − (275, 175).
        PointCase(name: "cousins C to B", from: "C", to: "B", point: .zero, expected: CGPoint(x: -170, y: -80)),
        // A bounds (−50, −50, 100, 100): its anchor in bounds is (0, 0), at (100, 100). C bounds (10, 20, 40, 40):
        // anchor in bounds (30, 40), at (50, 50). C (10, 20) → A (30, 30) → R (130, 130).
        PointCase(
            name: "bounds origin offsets, up",
            scene: Scene(
                a: Spec(bounds: CGRect(x: -50, y: -50, width: 100, height: 100), position: CGPoint(x: 100, y: 100)),
                c: Spec(bounds: CGRect(x: 10, y: 20, width: 40, height: 40), position: CGPoint(x: 50, y: 50))),
            from: "C", to: "R", point: CGPoint(x: 10, y: 20), expected: CGPoint(x: 130, y: 130)),
        // A → C subtracts (50, 50) − (30, 40) = (20, 10).
        PointCase(
            name: "bounds origin offsets, down",
            scene: Scene(
                a: Spec(bounds: CGRect(x: -50, y: -50, width: 100, height: 100), position: CGPoint(x: 100, y: 100)),
                c: Spec(bounds: CGRect(x: 10, y: 20, width: 40, height: 40), position: CGPoint(x: 50, y: 50))),
            from: "A", to: "C", point: .zero, expected: CGPoint(x: -20, y: -10)),
        // Anchor (0, 0): the bounds origin sits at the position (200, 100).
        PointCase(
            name: "anchorPoint (0, 0)",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 50), position: CGPoint(x: 200, y: 100),
                    anchorPoint: .zero)),
            from: "A", to: "R", point: CGPoint(x: 10, y: 10), expected: CGPoint(x: 210, y: 110)),
        // Anchor (1, 1): (100, 50) sits at (200, 100); (10, 10) → (10 − 100 + 200, 10 − 50 + 100).
        PointCase(
            name: "anchorPoint (1, 1)",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 50), position: CGPoint(x: 200, y: 100),
                    anchorPoint: CGPoint(x: 1, y: 1))),
            from: "A", to: "R", point: CGPoint(x: 10, y: 10), expected: CGPoint(x: 110, y: 60)),
        // Rotation by 90° about the anchor (50, 25): an offset (u, v) from the anchor becomes (−v, u).
        // (100, 25): offset (50, 0) → (0, 50) → (200, 250).
        PointCase(
            name: "rotation 90°, right edge",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 50), position: CGPoint(x: 200, y: 200),
                    transform: rotateZ90)),
            from: "A", to: "R", point: CGPoint(x: 100, y: 25), expected: CGPoint(x: 200, y: 250)),
        // (0, 0): offset (−50, −25) → (25, −50) → (225, 150).
        PointCase(
            name: "rotation 90°, origin",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 50), position: CGPoint(x: 200, y: 200),
                    transform: rotateZ90)),
            from: "A", to: "R", point: .zero, expected: CGPoint(x: 225, y: 150)),
        // The same with CATransform3DMakeRotation (cos(π/2) ≈ 6e-17, within the tolerance).
        PointCase(
            name: "rotation 90° via MakeRotation",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 50), position: CGPoint(x: 200, y: 200),
                    transform: CATransform3DMakeRotation(.pi / 2, 0, 0, 1))),
            from: "A", to: "R", point: .zero, expected: CGPoint(x: 225, y: 150)),
        // A rotated 90° about (50, 50) at (100, 100); C (0, 0) → A (55, 45): offset (5, −5) → (5, 5) → R (105, 105)
        // → B: − (275, 175).
        PointCase(
            name: "child of a rotated layer to its parent's sibling",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100),
                    transform: rotateZ90)),
            from: "C", to: "B", point: .zero, expected: CGPoint(x: -170, y: -70)),
        // Scale (2, 3) about (50, 50) at (100, 100): offset (−50, −50) → (−100, −150) → (0, −50).
        PointCase(
            name: "scale, origin",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100),
                    transform: CATransform3DMakeScale(2, 3, 1))),
            from: "A", to: "R", point: .zero, expected: CGPoint(x: 0, y: -50)),
        // (75, 50): offset (25, 0) → (50, 0) → (150, 100).
        PointCase(
            name: "scale, inner point",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100),
                    transform: CATransform3DMakeScale(2, 3, 1))),
            from: "A", to: "R", point: CGPoint(x: 75, y: 50), expected: CGPoint(x: 150, y: 100)),
        // A's sublayerTransform scales by 2 about A's anchor (50, 50). C (5, 5) is placed at (60, 50) → (70, 50).
        PointCase(
            name: "sublayerTransform scale, child anchor",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100),
                    sublayerTransform: CATransform3DMakeScale(2, 2, 1))),
            from: "C", to: "A", point: CGPoint(x: 5, y: 5), expected: CGPoint(x: 70, y: 50)),
        // C (0, 0) → (55, 45) → offset (5, −5) × 2 → (60, 40).
        PointCase(
            name: "sublayerTransform scale, child origin",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100),
                    sublayerTransform: CATransform3DMakeScale(2, 2, 1))),
            from: "C", to: "A", point: .zero, expected: CGPoint(x: 60, y: 40)),
        // (70, 50) in A → R: + (50, 50). A's own bounds are not moved by its sublayerTransform.
        PointCase(
            name: "sublayerTransform scale, child to root",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100),
                    sublayerTransform: CATransform3DMakeScale(2, 2, 1))),
            from: "C", to: "R", point: CGPoint(x: 5, y: 5), expected: CGPoint(x: 120, y: 100)),
        // Sublayer rotation 90° about (50, 50): (60, 50) is offset (10, 0) → (0, 10) → (50, 60).
        PointCase(
            name: "sublayerTransform rotation",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100),
                    sublayerTransform: rotateZ90)),
            from: "C", to: "A", point: CGPoint(x: 5, y: 5), expected: CGPoint(x: 50, y: 60)),
        PointCase(
            name: "sublayerTransform translation",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100),
                    sublayerTransform: CATransform3DMakeTranslation(10, -5, 0))),
            from: "C", to: "A", point: CGPoint(x: 5, y: 5), expected: CGPoint(x: 70, y: 45)),
        // A projective matrix with m14 = 0.01, anchored at R's origin: w = 1 + x/100, so (100, 50) → (50, 25).
        PointCase(
            name: "perspective divide",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: .zero,
                    anchorPoint: .zero,
                    transform: {
                        var t = CATransform3DIdentity
                        t.m14 = 0.01
                        return t
                    }())),
            from: "A", to: "R", point: CGPoint(x: 100, y: 50), expected: CGPoint(x: 50, y: 25)),
        // Rotation by 30° about y, then perspective with d = 500: row 1 is (cos 30°, 0, −sin 30°, sin 30°/500),
        // so (100, 50) → (100 cos 30°, 50) / (1 + 100 × 0.001) = (50√3, 50) / 1.1.
        PointCase(
            name: "rotation about y in perspective",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: .zero,
                    anchorPoint: .zero,
                    transform: CATransform3DConcat(CATransform3DMakeRotation(.pi / 6, 0, 1, 0), perspective(500)))),
            from: "A", to: "R", point: CGPoint(x: 100, y: 50),
            expected: CGPoint(x: 50 * CGFloat(3).squareRoot() / 1.1, y: 50 / 1.1)),
    ]

    /// A rectangle converted from one layer of a scene to another.
    struct RectCase: Sendable, CustomTestStringConvertible {
        var name: String
        var scene = Scene()
        var from: String
        var to: String
        var rect: CGRect
        var expected: CGRect
        var testDescription: String { name }
    }

    /// A rotated by 90° about its anchor (50, 25), placed at (200, 200): offset (u, v) → (−v, u).
    static let rotatedScene = Scene(
        a: Spec(
            bounds: CGRect(x: 0, y: 0, width: 100, height: 50), position: CGPoint(x: 200, y: 200),
            transform: rotateZ90))

    static let rectCases: [RectCase] = [
        // Corners (0,0) (100,0) (0,50) (100,50) → (225,150) (225,250) (175,150) (175,250).
        RectCase(
            name: "rotated bounds to parent", scene: CALayerGeometryTests.rotatedScene, from: "A", to: "R",
            rect: CGRect(x: 0, y: 0, width: 100, height: 50), expected: CGRect(x: 175, y: 150, width: 50, height: 100)),
        // Corners (0,0) (10,0) (0,20) (10,20) → (225,150) (225,160) (205,150) (205,160).
        RectCase(
            name: "rotated small rect to parent", scene: CALayerGeometryTests.rotatedScene, from: "A", to: "R",
            rect: CGRect(x: 0, y: 0, width: 10, height: 20), expected: CGRect(x: 205, y: 150, width: 20, height: 10)),
        RectCase(
            name: "parent rect into rotated layer", scene: CALayerGeometryTests.rotatedScene, from: "R", to: "A",
            rect: CGRect(x: 175, y: 150, width: 50, height: 100), expected: CGRect(x: 0, y: 0, width: 100, height: 50)),
        // Sibling B's origin is at (275, 175): the rotated footprint (175, 150, 50, 100) shifts by −(275, 175).
        RectCase(
            name: "rotated bounds to sibling", scene: CALayerGeometryTests.rotatedScene, from: "A", to: "B",
            rect: CGRect(x: 0, y: 0, width: 100, height: 50),
            expected: CGRect(x: -100, y: -25, width: 50, height: 100)),
        // C's bounds under A's sublayerTransform (scale 2 about (50, 50)): (55, 45)–(65, 55) → (60, 40)–(80, 60).
        RectCase(
            name: "through sublayerTransform",
            scene: Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100),
                    sublayerTransform: CATransform3DMakeScale(2, 2, 1))),
            from: "C", to: "A", rect: CGRect(x: 0, y: 0, width: 10, height: 10),
            expected: CGRect(x: 60, y: 40, width: 20, height: 20)),
    ]

    @Suite("coordinate conversion")
    struct Conversion {
        @Test(arguments: CALayerGeometryTests.pointCases)
        func convertsPoints(_ c: PointCase) {
            let layers = c.scene.build()
            let source = layers[c.from]!
            let target = c.to.map { layers[$0]! }
            let up = source.convert(c.point, to: target)
            #expect(close(up, c.expected), "to: got \(up)")
            if let target {
                let mirrored = target.convert(c.point, from: source)
                #expect(close(mirrored, c.expected), "from: got \(mirrored)")
            }
            let back = source.convert(c.expected, from: target)
            #expect(close(back, c.point), "back: got \(back)")
        }

        @Test(arguments: CALayerGeometryTests.rectCases)
        func convertsRects(_ c: RectCase) {
            let layers = c.scene.build()
            let source = layers[c.from]!
            let target = layers[c.to]!
            let converted = source.convert(c.rect, to: target)
            #expect(close(converted, c.expected), "to: got \(converted)")
            let mirrored = target.convert(c.rect, from: source)
            #expect(close(mirrored, c.expected), "from: got \(mirrored)")
        }

        @Test func nullRectStaysNull() {
            let layers = Scene().build()
            #expect(layers["C"]!.convert(CGRect.null, to: layers["B"]!).isNull)
        }

        @Test func nilMeansTheRootSpace() {
            // R is at (100, 100) with anchor (50, 50), so the root space is R's bounds space shifted by
            // (50, 50). A's origin sits at (50, 50) in R: A (1, 2) → R (51, 52) → root space (101, 102).
            let layers = Scene(
                root: Spec(bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100))
            ).build()
            let a = layers["A"]!
            #expect(close(a.convert(CGPoint(x: 1, y: 2), to: nil), CGPoint(x: 101, y: 102)))
            #expect(close(a.convert(CGPoint(x: 101, y: 102), from: nil), CGPoint(x: 1, y: 2)))
            #expect(close(layers["R"]!.convert(CGPoint(x: 0, y: 0), to: nil), CGPoint(x: 50, y: 50)))
            #expect(
                close(
                    a.convert(CGRect(x: 0, y: 0, width: 10, height: 10), to: nil),
                    CGRect(x: 100, y: 100, width: 10, height: 10)))
        }

        @Test func layersOfDifferentTreesMeetInTheirRootSpaces() {
            // Tree 1: R1 at (100, 100), anchor (50, 50); X at (20, 30), anchor (5, 5): X (0, 0) → R1 (15, 25) →
            // root space (65, 75). Tree 2: R2 and Y have their origins at the root space's origin.
            let r1 = Spec(bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100)).make(
                "R1")
            let x = Spec(bounds: CGRect(x: 0, y: 0, width: 10, height: 10), position: CGPoint(x: 20, y: 30)).make("X")
            let r2 = Spec(bounds: CGRect(x: 0, y: 0, width: 10, height: 10), position: CGPoint(x: 5, y: 5)).make("R2")
            let y = Spec(bounds: CGRect(x: 0, y: 0, width: 4, height: 4), position: CGPoint(x: 2, y: 2)).make("Y")
            r1.addSublayer(x)
            r2.addSublayer(y)
            #expect(close(x.convert(.zero, to: y), CGPoint(x: 65, y: 75)))
            #expect(close(y.convert(.zero, from: x), CGPoint(x: 65, y: 75)))
            #expect(close(y.convert(CGPoint(x: 65, y: 75), to: x), .zero))
        }

        /// Transforms that leave no unique point of the layer's plane under a point of its parent's.
        static let singularTransforms: [CATransform3D] = [
            CATransform3DMakeScale(0, 1, 1),
            CATransform3DMakeScale(0, 0, 1),
            CATransform3DMakeRotation(.pi / 2, 0, 1, 0),  // edge-on; singular only up to rounding
            CATransform3DMakeRotation(.pi / 2, 1, 0, 0),
        ]

        @Test(arguments: singularTransforms)
        func singularWayDownGivesNaN(_ transform: CATransform3D) {
            let layers = Scene(
                a: Spec(
                    bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100),
                    transform: transform)
            ).build()
            let a = layers["A"]!
            let r = layers["R"]!
            let down = a.convert(CGPoint(x: 100, y: 100), from: r)
            #expect(down.x.isNaN && down.y.isNaN)
            #expect(r.convert(CGPoint(x: 100, y: 100), to: layers["C"]!).x.isNaN)
            #expect(a.convert(CGRect(x: 90, y: 90, width: 20, height: 20), from: r).isNull)
            // Going up is still defined: the layer's centre stays at its position.
            #expect(close(a.convert(CGPoint(x: 50, y: 50), to: r), CGPoint(x: 100, y: 100)))
            // And a singular layer is never hit.
            #expect(r.hitTest(CGPoint(x: 100, y: 100)) === r)
        }

        /// A scene with perspective at several levels: R's sublayerTransform, A's transform and
        /// sublayerTransform, C's rotation about x and an anchor away from the centre, B's tilted axis.
        static let perspectiveScene = Scene(
            root: Spec(
                bounds: CGRect(x: 0, y: 0, width: 1000, height: 1000), position: CGPoint(x: 500, y: 500),
                sublayerTransform: perspective(800)),
            a: Spec(
                bounds: CGRect(x: 0, y: 0, width: 200, height: 100), position: CGPoint(x: 400, y: 300),
                transform: CATransform3DConcat(
                    CATransform3DMakeRotation(0.6, 0, 1, 0),
                    CATransform3DMakeRotation(-0.35, 1, 0, 0)),
                sublayerTransform: perspective(300)),
            b: Spec(
                bounds: CGRect(x: 0, y: 0, width: 50, height: 50), position: CGPoint(x: 600, y: 500),
                transform: CATransform3DMakeRotation(0.9, 1, 1, 0)),
            c: Spec(
                bounds: CGRect(x: 10, y: 10, width: 80, height: 60), position: CGPoint(x: 120, y: 40),
                anchorPoint: CGPoint(x: 0.2, y: 0.7), transform: CATransform3DMakeRotation(0.7, 1, 0, 0)))

        static let roundTripPoints: [CGPoint] = [
            .zero, CGPoint(x: 10, y: 20), CGPoint(x: 95, y: 5), CGPoint(x: -30, y: 140), CGPoint(x: 50, y: 50),
        ]

        @Test(arguments: roundTripPoints)
        func perspectiveRoundTrips(_ p: CGPoint) {
            let layers = Self.perspectiveScene.build()
            let c = layers["C"]!
            for other in [layers["B"], layers["A"], layers["R"], nil] as [CALayer?] {
                let there = c.convert(p, to: other)
                #expect(there.x.isFinite && there.y.isFinite)
                let back = c.convert(there, from: other)
                #expect(close(back, p), "via \(other?.name ?? "root space"): \(p) → \(there) → \(back)")
            }
            // The projection really acts: C → A differs from the affine part of the same matrices.
            let a = layers["A"]!
            let affine = CATransform3DConcat(c.modelState.transformToSuperlayer, a.modelState.transformForSublayers)
            let flat = CGPoint(
                x: p.x * affine.m11 + p.y * affine.m21 + affine.m41,
                y: p.x * affine.m12 + p.y * affine.m22 + affine.m42)
            let projected = c.convert(p, to: a)
            #expect(!close(projected, flat))
        }
    }

    /// The scene of the hit tests, in R's space (which is also the root space):
    ///
    /// - R: (0, 0, 400, 400); its sublayers back to front are A, B, D, S.
    /// - A: frame (0, 0, 100, 100), with a sublayer C whose frame (−40, 0, 60, 20) sticks out to the left.
    /// - B: frame (50, 50, 100, 100), overlapping A's bottom-right quarter.
    /// - D: bounds (0, 0, 100, 20) rotated 45° about its centre at (300, 300): a thin diagonal bar.
    /// - S: frame (200, 0, 100, 100), sublayerTransform translating by (50, 0); its sublayer F, placed at
    ///   (0, 0, 20, 20) in S, shows at (250, 0, 20, 20) in R.
    enum HitTweak: Sendable {
        case hideA, hideB, transparentB, raiseA, maskA
    }

    struct HitCase: Sendable, CustomTestStringConvertible {
        var name: String
        var tweaks: [HitTweak] = []
        var point: CGPoint
        var expected: String?
        var testDescription: String { name }
    }

    static func hitScene(_ tweaks: [HitTweak]) -> CALayer {
        let r = Spec(bounds: CGRect(x: 0, y: 0, width: 400, height: 400), position: CGPoint(x: 200, y: 200)).make("R")
        let a = Spec(bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 50, y: 50)).make("A")
        let b = Spec(bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100)).make("B")
        let c = Spec(bounds: CGRect(x: 0, y: 0, width: 60, height: 20), position: CGPoint(x: -10, y: 10)).make("C")
        let d = Spec(
            bounds: CGRect(x: 0, y: 0, width: 100, height: 20), position: CGPoint(x: 300, y: 300),
            transform: CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        ).make("D")
        let s = Spec(
            bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 250, y: 50),
            sublayerTransform: CATransform3DMakeTranslation(50, 0, 0)
        ).make("S")
        let f = Spec(bounds: CGRect(x: 0, y: 0, width: 20, height: 20), position: CGPoint(x: 10, y: 10)).make("F")
        r.sublayers = [a, b, d, s]
        a.addSublayer(c)
        s.addSublayer(f)
        for tweak in tweaks {
            switch tweak {
            case .hideA: a.isHidden = true
            case .hideB: b.isHidden = true
            case .transparentB: b.opacity = 0
            case .raiseA: a.zPosition = 1
            case .maskA: a.masksToBounds = true
            }
        }
        return r
    }

    static let hitCases: [HitCase] = [
        HitCase(name: "front sibling wins the overlap", point: CGPoint(x: 75, y: 75), expected: "B"),
        HitCase(name: "back sibling where uncovered", point: CGPoint(x: 25, y: 60), expected: "A"),
        HitCase(name: "front sibling alone", point: CGPoint(x: 140, y: 140), expected: "B"),
        HitCase(name: "zPosition beats array order", tweaks: [.raiseA], point: CGPoint(x: 75, y: 75), expected: "A"),
        HitCase(
            name: "zPosition outside the overlap", tweaks: [.raiseA], point: CGPoint(x: 140, y: 140), expected: "B"),
        HitCase(name: "hidden layer skipped", tweaks: [.hideB], point: CGPoint(x: 75, y: 75), expected: "A"),
        HitCase(
            name: "hidden layer falls through to the root", tweaks: [.hideB], point: CGPoint(x: 140, y: 140),
            expected: "R"),
        HitCase(name: "opacity 0 skipped", tweaks: [.transparentB], point: CGPoint(x: 75, y: 75), expected: "A"),
        HitCase(
            name: "hidden parent hides its sublayers", tweaks: [.hideA], point: CGPoint(x: 10, y: 10), expected: "R"),
        HitCase(name: "sublayer over its parent", point: CGPoint(x: 10, y: 10), expected: "C"),
        HitCase(
            name: "unmasked sublayer hit outside its parent and the root", point: CGPoint(x: -20, y: 10),
            expected: "C"),
        HitCase(
            name: "masksToBounds cuts the sublayer off", tweaks: [.maskA], point: CGPoint(x: -20, y: 10),
            expected: nil),
        HitCase(
            name: "masked sublayer still hit inside", tweaks: [.maskA], point: CGPoint(x: 10, y: 10), expected: "C"),
        HitCase(name: "rotated layer at its centre", point: CGPoint(x: 300, y: 300), expected: "D"),
        // (330, 330) is offset (30, 30) from the centre: (30√2, 0) ≈ (42.4, 0) in D's axes, inside ±(50, 10).
        HitCase(name: "rotated layer along its diagonal", point: CGPoint(x: 330, y: 330), expected: "D"),
        // (310, 290) is offset (10, −10): (0, −10√2) ≈ (0, −14.1) in D's axes; inside D's frame, outside D.
        HitCase(name: "rotated layer: in its frame, off its footprint", point: CGPoint(x: 310, y: 290), expected: "R"),
        // (340, 340): (40√2, 0) ≈ (56.6, 0), past the bar's end.
        HitCase(name: "rotated layer: past its end", point: CGPoint(x: 340, y: 340), expected: "R"),
        HitCase(name: "sublayerTransform moves the sublayer", point: CGPoint(x: 260, y: 10), expected: "F"),
        HitCase(
            name: "sublayerTransform: the sublayer's untransformed place", point: CGPoint(x: 210, y: 10),
            expected: "S"),
        HitCase(name: "outside everything", point: CGPoint(x: 500, y: 500), expected: nil),
        HitCase(name: "outside everything, negative", point: CGPoint(x: -100, y: -100), expected: nil),
    ]

    @Suite("hit testing")
    struct HitTesting {
        @Test(arguments: CALayerGeometryTests.hitCases)
        func hitTest(_ c: HitCase) {
            let root = CALayerGeometryTests.hitScene(c.tweaks)
            #expect(root.hitTest(c.point)?.name == c.expected)
        }

        @Test func hitTestTakesThePointInTheSuperlayerSpace() {
            // B's origin is at (50, 50) in R: B.hitTest takes R's coordinates, contains takes B's own.
            let root = CALayerGeometryTests.hitScene([])
            let b = root.sublayerList[1]
            #expect(b.hitTest(CGPoint(x: 140, y: 140)) === b)
            #expect(b.hitTest(CGPoint(x: 10, y: 10)) == nil)
            #expect(b.contains(CGPoint(x: 10, y: 10)))
            #expect(!b.contains(CGPoint(x: 140, y: 140)))
        }

        @Test(arguments: [
            (CGPoint(x: 10, y: 20), true),  // the origin corner
            (CGPoint(x: 109.5, y: 69.5), true),
            (CGPoint(x: 110, y: 30), false),  // the right edge is outside (half-open)
            (CGPoint(x: 50, y: 70), false),  // the bottom edge too
            (CGPoint(x: 9.99, y: 30), false),
            (CGPoint(x: CGFloat.nan, y: 30), false),
        ])
        func containsIsHalfOpen(_ p: CGPoint, _ inside: Bool) {
            let layer = CALayer()
            layer.bounds = CGRect(x: 10, y: 20, width: 100, height: 50)
            #expect(layer.contains(p) == inside)
        }

        @Test func emptyBoundsContainNothing() {
            let layer = CALayer()
            #expect(!layer.contains(.zero))
        }
    }
}

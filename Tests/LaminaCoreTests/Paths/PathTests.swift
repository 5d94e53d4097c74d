import Foundation
import LaminaCore
import Testing

// MARK: - Helpers

private func near(_ a: CGPoint, _ b: CGPoint, _ tolerance: Double = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

private func near(_ a: CGRect, _ b: CGRect, _ tolerance: Double = 1e-9) -> Bool {
    if a.isNull || b.isNull { return a.isNull && b.isNull }
    return abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance
        && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}

/// Builds a mutable path with `build`.
private func path(_ build: (CGMutablePath) -> Void) -> CGMutablePath {
    let p = CGMutablePath()
    build(p)
    return p
}

/// E35: two cubic arches from (74, 74) dipping to y = 393.5.
let bouncePath = path {
    $0.move(to: CGPoint(x: 74, y: 74))
    $0.addCurve(to: CGPoint(x: 320, y: 74), control1: CGPoint(x: 74, y: 500), control2: CGPoint(x: 320, y: 500))
    $0.addCurve(to: CGPoint(x: 566, y: 74), control1: CGPoint(x: 320, y: 500), control2: CGPoint(x: 566, y: 500))
}

/// A rectangle (10, 10, 80, 80) with a smaller one (30, 30, 40, 40) inside, drawn the same way round.
let nestedSameDirection = path {
    $0.addRect(CGRect(x: 10, y: 10, width: 80, height: 80))
    $0.addRect(CGRect(x: 30, y: 30, width: 40, height: 40))
}

/// The same rectangles, the inner one drawn the other way round.
let nestedOppositeDirection = path {
    $0.addRect(CGRect(x: 10, y: 10, width: 80, height: 80))
    $0.addLines(between: [CGPoint(x: 30, y: 30), CGPoint(x: 30, y: 70), CGPoint(x: 70, y: 70), CGPoint(x: 70, y: 30)])
    $0.closeSubpath()
}

// MARK: - Elements

@Test("A rectangle path is a move, three lines and a close, counter-clockwise in y-up terms")
func rectElements() {
    let p = CGPath(rect: CGRect(x: 10, y: 20, width: 30, height: 40))
    #expect(
        p.pathElements == [
            .moveTo(CGPoint(x: 10, y: 20)), .lineTo(CGPoint(x: 40, y: 20)), .lineTo(CGPoint(x: 40, y: 60)),
            .lineTo(CGPoint(x: 10, y: 60)), .closeSubpath,
        ])
    let standardised = CGPath(rect: CGRect(x: 40, y: 60, width: -30, height: -40))
    #expect(standardised == p)
}

@Test("An ellipse starts at (maxX, midY) and is four curves and a close")
func ellipseElements() {
    let p = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 50))
    #expect(p.pathElements.count == 6)
    #expect(p.pathElements.first == .moveTo(CGPoint(x: 100, y: 25)))
    guard case .curveTo(let end, _, _) = p.pathElements[1] else {
        Issue.record("second element is not a curve")
        return
    }
    #expect(near(end, CGPoint(x: 50, y: 50)))
    #expect(p.pathElements.last == .closeSubpath)
}

@Test("Lines and curves need a current point; after a close they start from the subpath's start")
func currentPointRules() {
    let p = CGMutablePath()
    p.addLine(to: CGPoint(x: 5, y: 5))
    p.addCurve(to: CGPoint(x: 1, y: 1), control1: .zero, control2: .zero)
    #expect(p.isEmpty)
    #expect(p.currentPoint == .zero)
    p.move(to: CGPoint(x: 1, y: 2))
    p.addLine(to: CGPoint(x: 3, y: 4))
    #expect(p.currentPoint == CGPoint(x: 3, y: 4))
    p.closeSubpath()
    #expect(p.currentPoint == CGPoint(x: 1, y: 2))
    p.closeSubpath()
    p.addLine(to: CGPoint(x: 9, y: 9))
    #expect(
        p.pathElements == [
            .moveTo(CGPoint(x: 1, y: 2)), .lineTo(CGPoint(x: 3, y: 4)), .closeSubpath,
            .moveTo(CGPoint(x: 1, y: 2)), .lineTo(CGPoint(x: 9, y: 9)),
        ])
}

@Test("Transforms map the added points")
func transformedElements() {
    let t = CGAffineTransform(translationX: 10, y: 20).scaledBy(x: 2, y: 3)
    let p = path {
        $0.move(to: CGPoint(x: 1, y: 1), transform: t)
        $0.addQuadCurve(to: CGPoint(x: 2, y: 0), control: CGPoint(x: 0, y: 2), transform: t)
    }
    #expect(
        p.pathElements == [
            .moveTo(CGPoint(x: 12, y: 23)), .quadCurveTo(CGPoint(x: 14, y: 20), control: CGPoint(x: 10, y: 26)),
        ])
    let added = path { $0.addPath(p, transform: CGAffineTransform(translationX: -12, y: -23)) }
    #expect(added.pathElements.first == .moveTo(.zero))
}

@Test("Equality is element-wise; copies are equal and independent")
func equalityAndCopies() throws {
    let immutable = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
    let mutable = path { $0.addRect(CGRect(x: 0, y: 0, width: 10, height: 10)) }
    #expect(immutable == mutable)
    #expect(immutable.hashValue == mutable.hashValue)
    let copy = try #require(mutable.copy())
    let mutableCopy = try #require(immutable.mutableCopy())
    #expect(copy == immutable)
    mutableCopy.addLine(to: CGPoint(x: 50, y: 50))
    #expect(mutableCopy != immutable)
    #expect(immutable.pathElements.count == 5)
    let moved = try #require(immutable.copy(using: CGAffineTransform(translationX: 5, y: 0)))
    #expect(moved.boundingBox == CGRect(x: 5, y: 0, width: 10, height: 10))
    #expect(
        CGPath(roundedRect: CGRect(x: 0, y: 0, width: 10, height: 10), cornerWidth: 0, cornerHeight: 0) == immutable)
}

// MARK: - Arcs

/// An arc and where its elements must go.
struct ArcCase: Sendable, CustomTestStringConvertible {
    let name: String
    let start: Double
    let end: Double
    let clockwise: Bool
    let curves: Int
    let endPoint: CGPoint
    var testDescription: String { name }
}

let arcCases: [ArcCase] = [
    ArcCase(
        name: "0 → π/2 increasing: one quarter", start: 0, end: .pi / 2, clockwise: false, curves: 1,
        endPoint: CGPoint(x: 0, y: 10)),
    ArcCase(
        name: "0 → π/2 clockwise (decreasing): three quarters", start: 0, end: .pi / 2, clockwise: true, curves: 3,
        endPoint: CGPoint(x: 0, y: 10)),
    ArcCase(
        name: "0 → 2π increasing: full circle", start: 0, end: 2 * .pi, clockwise: false, curves: 4,
        endPoint: CGPoint(x: 10, y: 0)),
    ArcCase(
        name: "0 → 2π clockwise: nothing (Core Graphics' rule)", start: 0, end: 2 * .pi, clockwise: true, curves: 0,
        endPoint: CGPoint(x: 10, y: 0)),
    ArcCase(
        name: "π → 0 clockwise: a half circle through −π/2", start: .pi, end: 0, clockwise: true, curves: 2,
        endPoint: CGPoint(x: 10, y: 0)),
    ArcCase(
        name: "0 → 5π increasing: one full turn, clamped", start: 0, end: 5 * .pi, clockwise: false, curves: 4,
        endPoint: CGPoint(x: 10, y: 0)),
]

@Test("Arcs: direction, pieces of at most 90° and end points", arguments: arcCases)
func arcs(_ c: ArcCase) {
    let p = path {
        $0.addArc(
            center: .zero, radius: 10, startAngle: CGFloat(c.start), endAngle: CGFloat(c.end), clockwise: c.clockwise)
    }
    guard case .moveTo(let first) = p.pathElements.first else {
        Issue.record("the arc does not start with a move")
        return
    }
    #expect(near(first, CGPoint(x: 10 * cos(c.start), y: 10 * sin(c.start))))
    #expect(p.pathElements.count == 1 + c.curves)
    #expect(near(p.currentPoint, c.endPoint, 1e-9))
}

@Test("A quarter arc uses the 4/3·tan(θ/4) control distance and stays within 0.03 % of the circle")
func quarterArcControls() {
    let p = path { $0.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false) }
    guard case .curveTo(_, let c1, let c2) = p.pathElements[1] else {
        Issue.record("no curve")
        return
    }
    let k = 10 * 4.0 / 3.0 * tan(Double.pi / 8)
    #expect(near(c1, CGPoint(x: 10, y: k)))
    #expect(near(c2, CGPoint(x: k, y: 10)))
    let midpoint = (10 + 3 * 10 + 3 * k + 0) / 8
    #expect(abs((2 * midpoint * midpoint).squareRoot() - 10) < 10 * 3e-4)
}

@Test("An arc after a current point starts with a line to the arc")
func arcConnects() {
    let p = path {
        $0.move(to: CGPoint(x: -50, y: 0))
        $0.addArc(center: .zero, radius: 10, startAngle: .pi, endAngle: .pi / 2, clockwise: true)
    }
    #expect(p.pathElements[1] == .lineTo(CGPoint(x: -10, y: 10 * sin(Double.pi))))
    #expect(near(p.currentPoint, CGPoint(x: 0, y: 10)))
}

@Test("A tangent arc rounds a corner: line to (80, 0), arc to (100, 20)")
func tangentArc() {
    let p = path {
        $0.move(to: .zero)
        $0.addArc(tangent1End: CGPoint(x: 100, y: 0), tangent2End: CGPoint(x: 100, y: 100), radius: 20)
    }
    guard case .lineTo(let corner) = p.pathElements[1] else {
        Issue.record("no line before the arc")
        return
    }
    #expect(near(corner, CGPoint(x: 80, y: 0)))
    #expect(p.pathElements.count == 3)
    #expect(near(p.currentPoint, CGPoint(x: 100, y: 20), 1e-9))
    #expect(near(p.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 100, height: 20), 1e-9))
}

// MARK: - Bounding boxes

/// A path with both of its bounding boxes.
struct BoundsCase: Sendable, CustomTestStringConvertible {
    let name: String
    let path: CGPath
    let boundingBox: CGRect
    let boundingBoxOfPath: CGRect
    var testDescription: String { name }
}

let boundsCases: [BoundsCase] = [
    BoundsCase(
        name: "rectangle", path: CGPath(rect: CGRect(x: 10, y: 20, width: 30, height: 40)),
        boundingBox: CGRect(x: 10, y: 20, width: 30, height: 40),
        boundingBoxOfPath: CGRect(x: 10, y: 20, width: 30, height: 40)),
    BoundsCase(
        name: "E35 arches: controls reach 500, the curve 393.5", path: bouncePath,
        boundingBox: CGRect(x: 74, y: 74, width: 492, height: 426),
        boundingBoxOfPath: CGRect(x: 74, y: 74, width: 492, height: 319.5)),
    BoundsCase(
        name: "quadratic hump: control at 100, apex at 50",
        path: path {
            $0.move(to: .zero)
            $0.addQuadCurve(to: CGPoint(x: 100, y: 0), control: CGPoint(x: 50, y: 100))
        },
        boundingBox: CGRect(x: 0, y: 0, width: 100, height: 100),
        boundingBoxOfPath: CGRect(x: 0, y: 0, width: 100, height: 50)),
    BoundsCase(
        name: "ellipse fills its rectangle", path: CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 50)),
        boundingBox: CGRect(x: 0, y: 0, width: 100, height: 50),
        boundingBoxOfPath: CGRect(x: 0, y: 0, width: 100, height: 50)),
    BoundsCase(
        name: "transformed rectangle",
        // The transform goes by pointer, as on Apple platforms.
        path: withUnsafePointer(to: CGAffineTransform(translationX: 5, y: 5).scaledBy(x: 2, y: 1)) {
            CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: $0)
        },
        boundingBox: CGRect(x: 5, y: 5, width: 20, height: 10),
        boundingBoxOfPath: CGRect(x: 5, y: 5, width: 20, height: 10)),
    BoundsCase(
        name: "rounded rectangle",
        path: CGPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 60), cornerWidth: 20, cornerHeight: 10),
        boundingBox: CGRect(x: 0, y: 0, width: 100, height: 60),
        boundingBoxOfPath: CGRect(x: 0, y: 0, width: 100, height: 60)),
    BoundsCase(name: "empty path is null", path: CGMutablePath(), boundingBox: .null, boundingBoxOfPath: .null),
]

@Test("boundingBox includes control points; boundingBoxOfPath is tight", arguments: boundsCases)
func boundingBoxes(_ c: BoundsCase) {
    #expect(near(c.path.boundingBox, c.boundingBox), "\(c.path.boundingBox)")
    #expect(near(c.path.boundingBoxOfPath, c.boundingBoxOfPath), "\(c.path.boundingBoxOfPath)")
}

// MARK: - Containment

/// A point tested against a path under a fill rule.
struct ContainsCase: Sendable, CustomTestStringConvertible {
    let name: String
    let path: CGPath
    let point: CGPoint
    let rule: CGPathFillRule
    let transform: CGAffineTransform
    let expected: Bool
    var testDescription: String { name }

    init(
        _ name: String, _ path: CGPath, _ point: CGPoint, _ rule: CGPathFillRule, _ expected: Bool,
        transform: CGAffineTransform = .identity
    ) {
        self.name = name
        self.path = path
        self.point = point
        self.rule = rule
        self.transform = transform
        self.expected = expected
    }
}

private let rect = CGPath(rect: CGRect(x: 10, y: 20, width: 30, height: 40))
private let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100))
private let openTriangle = path {
    $0.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0), CGPoint(x: 0, y: 100)])
}
private let rounded = CGPath(
    roundedRect: CGRect(x: 0, y: 0, width: 100, height: 100), cornerWidth: 20, cornerHeight: 20)

let containsCases: [ContainsCase] = [
    ContainsCase("inside a rectangle", rect, CGPoint(x: 25, y: 40), .winding, true),
    ContainsCase("left of a rectangle", rect, CGPoint(x: 5, y: 40), .winding, false),
    ContainsCase("below a rectangle", rect, CGPoint(x: 25, y: 61), .evenOdd, false),
    ContainsCase(
        "nested, same direction, inner point, winding: inside (winding 2)", nestedSameDirection, CGPoint(x: 50, y: 50),
        .winding, true),
    ContainsCase(
        "nested, same direction, inner point, even-odd: hole", nestedSameDirection, CGPoint(x: 50, y: 50), .evenOdd,
        false),
    ContainsCase(
        "nested, same direction, ring point, even-odd", nestedSameDirection, CGPoint(x: 20, y: 50), .evenOdd, true),
    ContainsCase(
        "nested, opposite direction, inner point, winding: hole", nestedOppositeDirection, CGPoint(x: 50, y: 50),
        .winding, false),
    ContainsCase(
        "nested, opposite direction, inner point, even-odd: hole", nestedOppositeDirection, CGPoint(x: 50, y: 50),
        .evenOdd, false),
    ContainsCase(
        "nested, opposite direction, ring point, winding", nestedOppositeDirection, CGPoint(x: 80, y: 20), .winding,
        true),
    ContainsCase("circle centre", circle, CGPoint(x: 50, y: 50), .winding, true),
    ContainsCase("circle, just inside the right edge", circle, CGPoint(x: 99, y: 50), .winding, true),
    ContainsCase("circle, outside the corner", circle, CGPoint(x: 90, y: 90), .winding, false),
    ContainsCase("open triangle counts as closed", openTriangle, CGPoint(x: 20, y: 20), .winding, true),
    ContainsCase("beyond the open triangle's hypotenuse", openTriangle, CGPoint(x: 60, y: 60), .evenOdd, false),
    ContainsCase("rounded rectangle centre", rounded, CGPoint(x: 50, y: 50), .winding, true),
    ContainsCase("rounded rectangle edge middle", rounded, CGPoint(x: 2, y: 50), .winding, true),
    ContainsCase("rounded rectangle cut corner", rounded, CGPoint(x: 2, y: 2), .winding, false),
    ContainsCase(
        "the transform maps the point first", CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)),
        CGPoint(x: 15, y: 15), .winding, true, transform: CGAffineTransform(translationX: -10, y: -10)),
    ContainsCase("empty path contains nothing", CGMutablePath(), .zero, .winding, false),
]

@Test("contains(_:using:transform:)", arguments: containsCases)
func containment(_ c: ContainsCase) {
    #expect(c.path.contains(c.point, using: c.rule, transform: c.transform) == c.expected)
}

@Test("Default fill rule is winding")
func defaultRule() {
    #expect(nestedSameDirection.contains(CGPoint(x: 50, y: 50)))
}

@Test("Relative arcs sweep by delta; addRects adds one closed subpath per rectangle")
func relativeArcAndRects() {
    let arc = path { $0.addRelativeArc(center: .zero, radius: 10, startAngle: 0, delta: -.pi / 2) }
    #expect(arc.pathElements.count == 2)
    #expect(near(arc.currentPoint, CGPoint(x: 0, y: -10)))
    let rects = path {
        $0.addRects([CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 5, y: 5, width: 1, height: 1)])
    }
    #expect(rects.pathElements.count == 10)
    #expect(rects.boundingBox == CGRect(x: 0, y: 0, width: 6, height: 6))
}

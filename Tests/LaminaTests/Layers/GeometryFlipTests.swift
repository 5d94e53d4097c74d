import Foundation
import Testing

@testable import Lamina

// `isGeometryFlipped`, `contentsAreFlipped()`, `cornerCurve` and `cornerCurveExpansionFactor(_:)` on
// the client (issue 10, point 2). Expected values are worked out by hand beside each check.

/// True when both coordinates of `a` lie within 1e-9 of those of `b`.
private func close(_ a: CGPoint, _ b: CGPoint) -> Bool {
    abs(a.x - b.x) <= 1e-9 && abs(a.y - b.y) <= 1e-9
}

/// A root of bounds (0, 0, 200, 100) whose bounds space is the root space, holding a 20 × 10 sublayer
/// whose frame is (10, 0, 20, 10) in the root's (possibly flipped) sublayer space.
private func flippedScene(flipped: Bool) -> (root: CALayer, child: CALayer) {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
    root.position = CGPoint(x: 100, y: 50)
    root.isGeometryFlipped = flipped
    let child = CALayer()
    child.frame = CGRect(x: 10, y: 0, width: 20, height: 10)
    root.addSublayer(child)
    return (root, child)
}

@Suite("Geometry: isGeometryFlipped")
struct GeometryFlipTests {
    @Test func defaultsAreApples() {
        // CALayer.h: geometryFlipped defaults to NO; cornerCurve defaults to kCACornerCurveCircular.
        let layer = CALayer()
        #expect(!layer.isGeometryFlipped)
        #expect(!layer.contentsAreFlipped())
        #expect(layer.cornerCurve == .circular)
    }

    @Test func flippedSublayerAtTheTopIsConvertedToTheBottom() {
        // CALayer.h: geometryFlipped flips the layer's geometry vertically for its sublayers. The
        // child's frame (10, 0, 20, 10) in a flipped 100-high parent lies at y 90…100 of the parent's
        // bounds: its origin (0, 0) converts to (10, 100) and its far corner (20, 10) to (30, 90).
        let (root, child) = flippedScene(flipped: true)
        #expect(close(child.convert(CGPoint(x: 0, y: 0), to: root), CGPoint(x: 10, y: 100)))
        #expect(close(child.convert(CGPoint(x: 20, y: 10), to: root), CGPoint(x: 30, y: 90)))
        #expect(close(root.convert(CGPoint(x: 15, y: 95), to: child), CGPoint(x: 5, y: 5)))
        // The rectangle's bounding box lands at the bottom.
        let r = child.convert(child.bounds, to: root)
        #expect(close(r.origin, CGPoint(x: 10, y: 90)) && r.size == CGSize(width: 20, height: 10))
    }

    @Test func unflippedSublayerStaysAtTheTop() {
        // The same scene unflipped: the child's origin converts to (10, 0).
        let (root, child) = flippedScene(flipped: false)
        #expect(close(child.convert(CGPoint(x: 0, y: 0), to: root), CGPoint(x: 10, y: 0)))
    }

    @Test func hitTestFindsTheFlippedSublayerAtTheBottom() {
        // The root's superlayer space is its bounds space here: the child occupies x 10…30, y 90…100.
        let (root, child) = flippedScene(flipped: true)
        #expect(root.hitTest(CGPoint(x: 15, y: 95)) === child)
        #expect(root.hitTest(CGPoint(x: 15, y: 5)) === root)
        let (plain, plainChild) = flippedScene(flipped: false)
        #expect(plain.hitTest(CGPoint(x: 15, y: 5)) === plainChild)
        #expect(plain.hitTest(CGPoint(x: 15, y: 95)) === plain)
    }

    @Test func flipIsAboutTheBoundsMiddleLine() {
        // With bounds origin (0, 50) the bounds span y 50…150 (middle 100): y ↦ 200 − y, so the
        // sublayer space's y = 50 (the visible top when unflipped) is the bottom edge, 150.
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 50, width: 100, height: 100)
        root.position = CGPoint(x: 50, y: 50)
        root.isGeometryFlipped = true
        let child = CALayer()
        child.frame = CGRect(x: 0, y: 50, width: 10, height: 10)
        root.addSublayer(child)
        // Root space = root's superlayer space: bounds y 50…150 shows at 0…100.
        #expect(close(child.convert(CGPoint(x: 0, y: 0), to: nil), CGPoint(x: 0, y: 100)))
    }

    @Test func flipComesBeforeTheSublayerTransform() {
        // sublayerTransform scale(2, 2) about the anchor (100, 50): after the flip the child's origin
        // is (10, 100), which the scale about (100, 50) sends to (−80, 150).
        let (root, child) = flippedScene(flipped: true)
        root.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        #expect(close(child.convert(CGPoint(x: 0, y: 0), to: root), CGPoint(x: -80, y: 150)))
    }

    @Test func contentsAreFlippedCombinesTheAncestors() {
        // Apple (CALayer.h, -contentsAreFlipped): true when the layer, after combining the flips of
        // its ancestors, is flipped; two flips cancel.
        let a = CALayer()
        let b = CALayer()
        let c = CALayer()
        a.addSublayer(b)
        b.addSublayer(c)
        a.isGeometryFlipped = true
        #expect(a.contentsAreFlipped() && b.contentsAreFlipped() && c.contentsAreFlipped())
        b.isGeometryFlipped = true
        #expect(a.contentsAreFlipped() && !b.contentsAreFlipped() && !c.contentsAreFlipped())
    }

    @Test func keyValueCodingUsesApplesKey() {
        // CALayer.h: the property is `geometryFlipped` with getter `isGeometryFlipped`.
        let layer = CALayer()
        layer.setValue(true, forKey: "geometryFlipped")
        #expect(layer.isGeometryFlipped)
        #expect(layer.value(forKey: "geometryFlipped") as? Bool == true)
        // kCACornerCurve… are NSStrings: the key takes and gives the curve's name.
        layer.setValue("continuous", forKey: "cornerCurve")
        #expect(layer.cornerCurve == .continuous)
        #expect(layer.value(forKey: "cornerCurve") as? String == "continuous")
    }
}

@Suite("Geometry: cornerCurve")
struct CornerCurveTests {
    @Test func expansionFactorsAreApples() {
        // Apple (CALayer.h, +cornerCurveExpansionFactor:), observed: circular 1.0, continuous ≈ 1.528665.
        #expect(CALayer.cornerCurveExpansionFactor(.circular) == 1)
        #expect(CALayer.cornerCurveExpansionFactor(.continuous) == 1.528665)
    }

    @Test func rawValuesAreApples() {
        // CALayer.h: kCACornerCurveCircular = "circular", kCACornerCurveContinuous = "continuous".
        #expect(CALayerCornerCurve.circular.rawValue == "circular")
        #expect(CALayerCornerCurve.continuous.rawValue == "continuous")
        #expect(CALayerCornerCurve(rawValue: "continuous") == .continuous)
    }

    @Test func theStateKeepsOnlyTheCurvesItDraws() {
        // Unknown names draw circular corners: the state written from the wire stores `circular`.
        var state = LayerState()
        state[.cornerCurve] = .string("continuous")
        #expect(state.cornerCurve == .continuous)
        state[.cornerCurve] = .string(String(repeating: "x", count: 4000))
        #expect(state.cornerCurve == .circular)
        state[.cornerCurve] = .string(nil)
        #expect(state.cornerCurve == .circular)
    }

    @Test func settingTheCurveIsSentAsItsName() {
        let layer = CALayer()
        let before = layer.version
        layer.cornerCurve = .continuous
        #expect(layer.cornerCurve == .continuous)
        #expect(layer.modelState[.cornerCurve] == .string("continuous"))
        #expect(layer.version != before)
    }
}

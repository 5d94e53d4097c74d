import Foundation
import Testing

@testable import Lamina

// Constraint layout (`CAConstraint`, `CAConstraintLayoutManager`, spec §6.2). Attributes act on the
// numeric frame values in the superlayer's space (Lamina's y-down space: `minY` is the top edge on
// screen), so the arithmetic is Apple's. Every expected frame is computed in the comment beside it.

/// A layer named `name` with `constraints`, added to `parent`.
@discardableResult
private func constrained(_ name: String, in parent: CALayer, _ constraints: [CAConstraint]) -> CALayer {
    let layer = CALayer()
    layer.name = name
    for c in constraints { layer.addConstraint(c) }
    parent.addSublayer(layer)
    return layer
}

/// A parent of bounds (0, 0, width, height) laid out by a `CAConstraintLayoutManager`.
private func host(_ width: CGFloat, _ height: CGFloat) -> CALayer {
    let parent = CALayer()
    parent.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    parent.layoutManager = CAConstraintLayoutManager()
    return parent
}

@Suite("Layout: constraints")
struct ConstraintLayoutTests {
    @Test func attributeRawValuesAndInitialiserDefaultsAreApples() {
        // Apple, CAConstraintLayoutManager.h: kCAConstraintMinX 0, MidX 1, MaxX 2, Width 3, MinY 4,
        // MidY 5, MaxY 6, Height 7; "+constraintWithAttribute:relativeTo:attribute:offset:" has scale 1
        // and the form without offset has offset 0.
        let all: [CAConstraintAttribute] = [.minX, .midX, .maxX, .width, .minY, .midY, .maxY, .height]
        #expect(all.map(\.rawValue) == [0, 1, 2, 3, 4, 5, 6, 7])
        let c = CAConstraint(attribute: .maxY, relativeTo: "layerA", attribute: .minY, offset: -10)
        #expect(c.attribute == .maxY && c.sourceName == "layerA" && c.sourceAttribute == .minY)
        #expect(c.scale == 1 && c.offset == -10)
        let plain = CAConstraint(attribute: .midX, relativeTo: "superlayer", attribute: .midX)
        #expect(plain.scale == 1 && plain.offset == 0)
    }

    @Test func constraintsRoundTripThroughAnArchive() throws {
        // Apple: CAConstraint conforms to NSSecureCoding.
        let c = CAConstraint(attribute: .width, relativeTo: "superlayer", attribute: .height, scale: 0.5, offset: 3)
        let data = try NSKeyedArchiver.archivedData(withRootObject: c, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CAConstraint.self, from: data))
        #expect(back.attribute == .width && back.sourceName == "superlayer" && back.sourceAttribute == .height)
        #expect(back.scale == 0.5 && back.offset == 3)
    }

    @Test(arguments: [CGSize(width: 400, height: 300), CGSize(width: 240, height: 180)])
    func e75TwoLayersConstrainedToTheSuperlayerAndEachOther(_ size: CGSize) {
        // E75 (Core Animation Programming Guide, "Using Constraints to Manage Your Layer's Geometry"):
        // layerA (100 × 25) is centred: frame (W/2 − 50, H/2 − 12.5, 100, 25). layerB: width = A's,
        // midX = A's, maxY = A.minY − 10 = H/2 − 22.5, minY = superlayer.minY + 10 = 10, so its height
        // is H/2 − 12.5 − 10 − 10. For 400 × 300: A (150, 137.5, 100, 25), B (150, 10, 100, 117.5).
        let parent = host(size.width, size.height)
        let a = constrained(
            "layerA", in: parent,
            [
                CAConstraint(attribute: .midY, relativeTo: "superlayer", attribute: .midY),
                CAConstraint(attribute: .midX, relativeTo: "superlayer", attribute: .midX),
            ])
        a.bounds = CGRect(x: 0, y: 0, width: 100, height: 25)
        a.borderWidth = 2
        let b = constrained(
            "layerB", in: parent,
            [
                CAConstraint(attribute: .width, relativeTo: "layerA", attribute: .width),
                CAConstraint(attribute: .midX, relativeTo: "layerA", attribute: .midX),
                CAConstraint(attribute: .maxY, relativeTo: "layerA", attribute: .minY, offset: -10),
                CAConstraint(attribute: .minY, relativeTo: "superlayer", attribute: .minY, offset: 10),
            ])
        b.borderWidth = 2
        parent.layoutIfNeeded()
        let w = size.width
        let h = size.height
        #expect(a.frame == CGRect(x: w / 2 - 50, y: h / 2 - 12.5, width: 100, height: 25))
        #expect(b.frame == CGRect(x: w / 2 - 50, y: 10, width: 100, height: h / 2 - 12.5 - 10 - 10))
    }

    @Test func sizesAreRecomputedAtEveryPass() {
        // Spec §6.2: "Sizes derived from constraints are recomputed at every layout pass". The parent
        // is marked by its own size change: width = superlayer.width × 0.5 + 10 goes 210 → 110.
        let parent = host(400, 300)
        let layer = constrained(
            "half", in: parent,
            [
                CAConstraint(attribute: .width, relativeTo: "superlayer", attribute: .width, scale: 0.5, offset: 10),
                CAConstraint(attribute: .minX, relativeTo: "superlayer", attribute: .minX, offset: 5),
                CAConstraint(attribute: .height, relativeTo: "superlayer", attribute: .height, scale: 0.25, offset: 0),
                CAConstraint(attribute: .maxY, relativeTo: "superlayer", attribute: .maxY),
            ])
        parent.layoutIfNeeded()
        // x: minX 5, width 210; y: height 75, maxY 300 → minY 225.
        #expect(layer.frame == CGRect(x: 5, y: 225, width: 210, height: 75))
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        parent.layoutIfNeeded()
        // x: minX 5, width 110; y: height 25, maxY 100 → minY 75.
        #expect(layer.frame == CGRect(x: 5, y: 75, width: 110, height: 25))
    }

    @Test func whatEachPairOfConstraintsFixes() {
        // Spec §6.2: one edge keeps the size; two edges set the size; an edge and the size move the
        // other edge; the size alone leaves the axis as it is, as Apple does (GNUstep's QuartzCore
        // tests run on macOS, issue 24).
        let parent = host(400, 300)
        let oneEdge = constrained(
            "oneEdge", in: parent, [CAConstraint(attribute: .minX, relativeTo: "superlayer", attribute: .midX)])
        oneEdge.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        let twoEdges = constrained(
            "twoEdges", in: parent,
            [
                CAConstraint(attribute: .minX, relativeTo: "superlayer", attribute: .minX, offset: 10),
                CAConstraint(attribute: .maxX, relativeTo: "superlayer", attribute: .maxX, offset: -10),
            ])
        twoEdges.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        let edgeAndSize = constrained(
            "edgeAndSize", in: parent,
            [
                CAConstraint(attribute: .maxX, relativeTo: "superlayer", attribute: .maxX, offset: -10),
                CAConstraint(attribute: .width, relativeTo: "superlayer", attribute: .width, scale: 0, offset: 50),
            ])
        edgeAndSize.frame = CGRect(x: 0, y: 0, width: 20, height: 50)
        let sizeOnly = constrained(
            "sizeOnly", in: parent,
            [CAConstraint(attribute: .width, relativeTo: "superlayer", attribute: .width, scale: 0, offset: 100)])
        sizeOnly.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        let midAndEdge = constrained(
            "midAndEdge", in: parent,
            [
                CAConstraint(attribute: .midY, relativeTo: "superlayer", attribute: .midY),
                CAConstraint(attribute: .minY, relativeTo: "superlayer", attribute: .minY, offset: 100),
            ])
        midAndEdge.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        parent.layoutIfNeeded()
        #expect(oneEdge.frame == CGRect(x: 200, y: 0, width: 50, height: 50))
        #expect(twoEdges.frame == CGRect(x: 10, y: 0, width: 380, height: 50))
        #expect(edgeAndSize.frame == CGRect(x: 340, y: 0, width: 50, height: 50))
        #expect(sizeOnly.frame == CGRect(x: 0, y: 0, width: 50, height: 50))
        // midY 150 and minY 100: height 2 × (150 − 100) = 100.
        #expect(midAndEdge.frame == CGRect(x: 0, y: 100, width: 50, height: 100))
    }

    /// One sublayer at (3, 5, 40, 20), named "child", of a (0, 0, 200, 100) superlayer, under
    /// `constraints`, laid out once: its frame.
    static func laidOut(_ constraints: [CAConstraint]) -> CGRect {
        let parent = host(200, 100)
        let child = CALayer()
        child.name = "child"
        child.frame = CGRect(x: 3, y: 5, width: 40, height: 20)
        parent.addSublayer(child)
        child.constraints = constraints
        parent.layoutSublayers()
        return child.frame
    }

    static func c(
        _ attribute: CAConstraintAttribute, _ source: String, _ sourceAttribute: CAConstraintAttribute,
        scale: CGFloat = 1, offset: CGFloat = 0
    ) -> CAConstraint {
        CAConstraint(attribute: attribute, relativeTo: source, attribute: sourceAttribute, scale: scale, offset: offset)
    }

    static func c(
        _ attribute: CAConstraintAttribute, _ sourceAttribute: CAConstraintAttribute, scale: CGFloat = 1,
        offset: CGFloat = 0
    ) -> CAConstraint {
        c(attribute, "superlayer", sourceAttribute, scale: scale, offset: offset)
    }

    @Test func overAndUnderDeterminedAxesFollowApple() {
        // Apple's frames (GNUstep's QuartzCore tests run on macOS, issue 24): the constraint given
        // last decides the axis, paired with the lowest of the others (left edge, centre, right edge,
        // width); a size alone, the same attribute twice, a missing layer and the layer itself leave
        // the axis alone; one constraint keeps the size; the other axis is untouched.
        func x(_ constraints: [CAConstraint]) -> (CGFloat, CGFloat) {
            let f = Self.laidOut(constraints)
            return (f.minX, f.width)
        }
        let quarter = Self.c(.width, .width, scale: 0.25)
        let midLeft = Self.c(.midX, .midX, offset: -30)
        #expect(x([Self.c(.width, .width, scale: 0.5)]) == (3, 40))
        #expect(x([Self.c(.maxX, .maxX), Self.c(.minX, .minX), quarter]) == (0, 50))
        #expect(x([Self.c(.maxX, .maxX), midLeft, quarter]) == (45, 50))
        #expect(x([quarter, Self.c(.maxX, .maxX), midLeft]) == (-60, 260))
        #expect(x([Self.c(.maxX, .maxX), midLeft, Self.c(.minX, .minX)]) == (0, 140))
        #expect(x([Self.c(.minX, .minX), midLeft, Self.c(.maxX, .maxX), quarter]) == (0, 50))
        #expect(x([Self.c(.minX, .minX, offset: 10), Self.c(.minX, .minX, offset: 40)]) == (3, 40))
        #expect(x([Self.c(.minX, "nobody", .minX)]) == (3, 40))
        #expect(x([Self.c(.minX, "child", .minX, offset: 10)]) == (3, 40))
        // One constraint; two constraints; scale and offset; another axis read.
        #expect(x([Self.c(.minX, .minX)]) == (0, 40))
        #expect(x([Self.c(.midX, .midX)]) == (80, 40))
        #expect(x([Self.c(.maxX, .maxX)]) == (160, 40))
        #expect(Self.laidOut([Self.c(.minX, .minX)]).minY == 5 && Self.laidOut([Self.c(.minX, .minX)]).height == 20)
        #expect(x([Self.c(.minX, .minX), Self.c(.maxX, .maxX)]) == (0, 200))
        #expect(x([Self.c(.minX, .minX), Self.c(.width, .width, scale: 0.5)]) == (0, 100))
        #expect(x([Self.c(.maxX, .maxX), Self.c(.width, .width, scale: 0.5)]) == (100, 100))
        #expect(x([Self.c(.midX, .midX), Self.c(.width, .width, scale: 0.5)]) == (50, 100))
        #expect(x([Self.c(.minX, .minX, offset: 20), Self.c(.midX, .midX)]) == (20, 160))
        #expect(x([Self.c(.midX, .midX), Self.c(.maxX, .maxX, offset: -20)]) == (20, 160))
        #expect(x([Self.c(.minX, .maxX, scale: 0.25, offset: 7)]).0 == 57)
        #expect(x([Self.c(.minX, .maxY)]).0 == 100)
        #expect(Self.laidOut([Self.c(.minY, .minY)]).minY == 0)
        #expect(Self.laidOut([Self.c(.maxY, .maxY)]).minY == 80)
    }

    @Test func siblingsAsSourcesFollowApple() {
        // Apple (GNUstep's QuartzCore tests run on macOS, issue 24), sublayers a and b of a
        // (0, 0, 200, 100) superlayer: b's minX = a.maxX + 5 needs a laid out on x; a sibling with no
        // constraints, or with constraints on y only, leaves b at x 0; two layers waiting on each
        // other both stay at x 0; the order of the sublayers does not matter.
        func pair(
            a aConstraints: [CAConstraint], aFrame: CGRect = CGRect(x: 10, y: 0, width: 30, height: 20),
            b bConstraints: [CAConstraint], bFrame: CGRect = CGRect(x: 0, y: 0, width: 50, height: 20),
            bFirst: Bool = false
        ) -> (CGRect, CGRect) {
            let parent = host(200, 100)
            let a = CALayer()
            a.name = "a"
            a.frame = aFrame
            a.constraints = aConstraints
            let b = CALayer()
            b.name = "b"
            b.frame = bFrame
            b.constraints = bConstraints
            for layer in bFirst ? [b, a] : [a, b] { parent.addSublayer(layer) }
            parent.layoutSublayers()
            return (a.frame, b.frame)
        }
        let afterA = Self.c(.minX, "a", .maxX, offset: 5)
        #expect(pair(a: [Self.c(.minX, .minX, offset: 10)], b: [afterA]).1.minX == 45)
        #expect(pair(a: [], b: [afterA]).1.minX == 0)
        #expect(pair(a: [Self.c(.minY, .minY)], b: [afterA]).1.minX == 0)
        let cycle = pair(
            a: [Self.c(.minX, "b", .maxX, offset: 1)], aFrame: CGRect(x: 0, y: 0, width: 50, height: 20),
            b: [Self.c(.minX, "a", .maxX, offset: 1)], bFrame: CGRect(x: 0, y: 0, width: 30, height: 20))
        #expect(cycle.0.minX == 0 && cycle.1.minX == 0)
        let ordered = pair(
            a: [Self.c(.minX, .midX)], aFrame: CGRect(x: 0, y: 0, width: 50, height: 20),
            b: [Self.c(.minX, "a", .minX, offset: 10)], bFrame: CGRect(x: 0, y: 0, width: 30, height: 20), bFirst: true)
        #expect(ordered.0.minX == 100 && ordered.1.minX == 110)
    }

    @Test func applesTwoHalvesExample() {
        // Apple's example (GNUstep's QuartzCore tests run on macOS, issue 24): two layers each half
        // the width fill a (0, 0, 200, 100) superlayer between them; the superlayer's bounds origin
        // counts ((30, 70, 200, 100) pins minX/minY to 30, 70).
        let parent = host(200, 100)
        let left = CALayer()
        left.name = "left"
        left.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        let right = CALayer()
        right.name = "right"
        right.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        parent.addSublayer(left)
        parent.addSublayer(right)
        let shared = [Self.c(.height, .height), Self.c(.width, .width, scale: 0.5), Self.c(.minY, .minY)]
        left.constraints = shared + [Self.c(.minX, .minX)]
        right.constraints = shared + [Self.c(.maxX, .maxX)]
        parent.layoutSublayers()
        #expect(left.frame == CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(right.frame == CGRect(x: 100, y: 0, width: 100, height: 100))
        let offset = CALayer()
        offset.bounds = CGRect(x: 30, y: 70, width: 200, height: 100)
        offset.layoutManager = CAConstraintLayoutManager()
        let pinned = CALayer()
        pinned.frame = CGRect(x: 3, y: 5, width: 40, height: 20)
        offset.addSublayer(pinned)
        pinned.constraints = [Self.c(.minX, .minX), Self.c(.minY, .minY)]
        offset.layoutSublayers()
        #expect(pinned.frame.origin == CGPoint(x: 30, y: 70))
    }

    @Test func siblingsAreLaidOutInDependencyOrder() {
        // Spec §6.2: a layer constrained to a sibling uses the sibling's laid-out frame, whatever the
        // order of `sublayers`: c follows b follows a, added as c, b, a.
        // a: minX 10, width 50 → (10, 0, 50, 0); b: minX = a.maxX + 5 = 65, width = a.width → 50;
        // c: minX = b.maxX + 5 = 120, width = b.width × 2 = 100.
        let parent = host(400, 300)
        let c = constrained(
            "c", in: parent,
            [
                CAConstraint(attribute: .minX, relativeTo: "b", attribute: .maxX, offset: 5),
                CAConstraint(attribute: .width, relativeTo: "b", attribute: .width, scale: 2, offset: 0),
            ])
        let b = constrained(
            "b", in: parent,
            [
                CAConstraint(attribute: .minX, relativeTo: "a", attribute: .maxX, offset: 5),
                CAConstraint(attribute: .width, relativeTo: "a", attribute: .width),
            ])
        let a = constrained(
            "a", in: parent,
            [
                CAConstraint(attribute: .minX, relativeTo: "superlayer", attribute: .minX, offset: 10),
                CAConstraint(attribute: .width, relativeTo: "superlayer", attribute: .width, scale: 0, offset: 50),
            ])
        parent.layoutIfNeeded()
        #expect(a.frame == CGRect(x: 10, y: 0, width: 50, height: 0))
        #expect(b.frame == CGRect(x: 65, y: 0, width: 50, height: 0))
        #expect(c.frame == CGRect(x: 120, y: 0, width: 100, height: 0))
    }

    @Test func aSiblingsNewSizeLaysTheSuperlayerOutAgain() {
        // Apple, CALayoutManager layoutSublayersOfLayer: "typically called when a sublayer has changed
        // its size": b's width follows a's when a is resized by hand (50 → 80).
        let parent = host(400, 300)
        let a = constrained(
            "a", in: parent, [CAConstraint(attribute: .minX, relativeTo: "superlayer", attribute: .minX)])
        a.bounds = CGRect(x: 0, y: 0, width: 50, height: 10)
        // b has an edge too: a width alone leaves an axis as it is (Apple, issue 24).
        let b = constrained(
            "b", in: parent,
            [
                CAConstraint(attribute: .minX, relativeTo: "superlayer", attribute: .minX),
                CAConstraint(attribute: .width, relativeTo: "a", attribute: .width),
            ])
        parent.layoutIfNeeded()
        #expect(b.bounds.width == 50)
        a.bounds = CGRect(x: 0, y: 0, width: 80, height: 10)
        #expect(parent.needsLayout())
        parent.layoutIfNeeded()
        #expect(b.bounds.width == 80)
    }

    @Test func aCycleDoesNotCrashAndKeepsTheSizes() {
        // Spec §6.2: a cycle's result is undefined. As on Apple (issue 24), constraints between the
        // layers of a cycle are ignored, so each keeps its frame, and every value stays finite.
        let parent = host(400, 300)
        let a = constrained(
            "a", in: parent, [CAConstraint(attribute: .minX, relativeTo: "b", attribute: .maxX, offset: 10)])
        a.frame = CGRect(x: 0, y: 0, width: 30, height: 10)
        let b = constrained(
            "b", in: parent, [CAConstraint(attribute: .minX, relativeTo: "a", attribute: .maxX, offset: 10)])
        b.frame = CGRect(x: 0, y: 0, width: 40, height: 10)
        parent.layoutIfNeeded()
        for layer in [a, b] {
            #expect(layer.frame.minX.isFinite && layer.frame.minY.isFinite)
        }
        #expect(a.frame.width == 30 && b.frame.width == 40)
        #expect(!parent.needsLayout())
    }

    @Test func aMissingReferenceAndASelfReferenceAreIgnored() {
        // Apple (GNUstep's QuartzCore tests run on macOS, issue 24): neither moves the layer.
        let parent = host(400, 300)
        let layer = constrained(
            "me", in: parent,
            [
                CAConstraint(attribute: .minX, relativeTo: "nobody", attribute: .minX, offset: 99),
                CAConstraint(attribute: .minY, relativeTo: "me", attribute: .minY, offset: 5),
            ])
        layer.frame = CGRect(x: 7, y: 20, width: 10, height: 10)
        parent.layoutIfNeeded()
        #expect(layer.frame == CGRect(x: 7, y: 20, width: 10, height: 10))
    }

    @Test func addingAConstraintMarksTheSuperlayer() {
        let parent = host(400, 300)
        let layer = constrained("late", in: parent, [])
        parent.layoutIfNeeded()
        layer.addConstraint(CAConstraint(attribute: .minX, relativeTo: "superlayer", attribute: .midX))
        #expect(parent.needsLayout())
        parent.layoutIfNeeded()
        #expect(layer.frame.minX == 200)
        layer.constraints = nil
        #expect(parent.needsLayout())
    }
}

@Suite("Layout: archiving")
struct LayoutArchivingTests {
    @Test func aLayerArchiveKeepsItsMaskAndConstraints() throws {
        // Apple: CALayer and CAConstraint conform to NSSecureCoding; a layer's archive carries its
        // properties, autoresizingMask and constraints among them.
        let layer = CALayer()
        layer.autoresizingMask = [.layerMaxXMargin, .layerHeightSizable]
        layer.addConstraint(CAConstraint(attribute: .maxY, relativeTo: "a", attribute: .minY, offset: -10))
        let data = try NSKeyedArchiver.archivedData(withRootObject: layer, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CALayer.self, from: data))
        #expect(back.autoresizingMask == [.layerMaxXMargin, .layerHeightSizable])
        let c = try #require(back.constraints?.first)
        #expect(back.constraints?.count == 1)
        #expect(c.attribute == .maxY && c.sourceName == "a" && c.sourceAttribute == .minY && c.offset == -10)
    }
}

import Foundation
import Testing

@testable import Lamina

// Unit tests of the client-side layer model: default values, geometry (frame), the affine-transform
// accessors and the hierarchy API. None of them needs a render server.

/// True when every component of `a` lies within `tolerance` of the matching component of `b`.
private func approximatelyEqual(_ a: CGRect, _ b: CGRect, tolerance: CGFloat = 1e-9) -> Bool {
    abs(a.origin.x - b.origin.x) <= tolerance && abs(a.origin.y - b.origin.y) <= tolerance
        && abs(a.size.width - b.size.width) <= tolerance && abs(a.size.height - b.size.height) <= tolerance
}

/// A layer with a name, so failing expectations print something readable.
private func named(_ name: String) -> CALayer {
    let layer = CALayer()
    layer.name = name
    return layer
}

/// The names of `layer`'s sublayers, back to front ([] when it has none).
private func names(_ layer: CALayer) -> [String] {
    (layer.sublayers ?? []).map { $0.name ?? "?" }
}

@Suite("CALayer defaults")
struct LayerDefaultTests {
    @Test func defaultsMatchCoreAnimation() {
        let layer = CALayer()
        #expect(layer.bounds == .zero)
        #expect(layer.position == .zero)
        #expect(layer.anchorPoint == CGPoint(x: 0.5, y: 0.5))
        #expect(layer.anchorPointZ == 0)
        #expect(layer.zPosition == 0)
        #expect(CATransform3DIsIdentity(layer.transform))
        #expect(layer.transform == CATransform3DIdentity)
        #expect(layer.sublayerTransform == CATransform3DIdentity)
        #expect(layer.opacity == 1)
        #expect(layer.isHidden == false)
        #expect(layer.backgroundColor == nil)
        #expect(layer.cornerRadius == 0)
        #expect(layer.maskedCorners == .all)
        #expect(layer.borderWidth == 0)
        #expect(layer.borderColor == CGColor(gray: 0, alpha: 1))
        #expect(layer.borderColor?.alpha == 1)
        #expect(layer.masksToBounds == false)
        #expect(layer.name == nil)
        #expect(layer.sublayers == nil)
        #expect(layer.superlayer == nil)
        #expect(layer.frame == .zero)
    }

    @Test func defaultModelMatchesServerDefaults() {
        // The server creates layers with `LayerState()`; a fresh client layer must agree with it,
        // or a create without property operations would render differently from the client's model.
        let layer = CALayer()
        #expect(layer.modelState == LayerState())
        #expect(layer.modelState.borderColor == RGBAColor.black)
        #expect(layer.modelState.backgroundColor == nil)
    }

    @Test func layerIDsAreUniqueAndNonZero() {
        let layers = (0..<100).map { _ in CALayer() }
        let ids = Set(layers.map(\.layerID))
        #expect(ids.count == layers.count)
        #expect(!ids.contains(0))
    }

    @Test func settingAPropertyBumpsTheVersionAndTheModel() {
        let layer = CALayer()
        let before = layer.version
        layer.opacity = 0.25
        #expect(layer.version != before)
        #expect(layer.modelState.opacity == 0.25)
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        #expect(layer.modelState.backgroundColor == RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))
        layer.borderColor = nil
        #expect(layer.borderColor == nil)
        #expect(layer.modelState.borderColor == nil)
    }

    @Test func initWithLayerCopiesProperties() {
        let source = CALayer()
        source.bounds = CGRect(x: 1, y: 2, width: 30, height: 40)
        source.opacity = 0.5
        source.backgroundColor = CGColor(gray: 1, alpha: 1)
        source.name = "source"
        let copy = CALayer(layer: source)
        #expect(copy.modelState == source.modelState)
        #expect(copy.backgroundColor == source.backgroundColor)
        #expect(copy.layerID != source.layerID)
        #expect(copy.sublayers == nil && copy.superlayer == nil)
    }
}

@Suite("CALayer geometry")
struct LayerGeometryTests {
    struct FrameCase: Sendable, CustomTestStringConvertible {
        var label: String
        var bounds: CGRect
        var position: CGPoint
        var anchorPoint: CGPoint
        var transform: CATransform3D
        var expected: CGRect
        var testDescription: String { label }
    }

    // Hand-computed: frame = bounding box of the bounds corners, moved so the anchor point lands on
    // `position`, after `transform` about the anchor point.
    static let frameCases: [FrameCase] = [
        FrameCase(
            label: "centre anchor", bounds: CGRect(x: 0, y: 0, width: 100, height: 50),
            position: CGPoint(x: 200, y: 100), anchorPoint: CGPoint(x: 0.5, y: 0.5),
            transform: CATransform3DIdentity, expected: CGRect(x: 150, y: 75, width: 100, height: 50)),
        FrameCase(
            label: "origin anchor", bounds: CGRect(x: 0, y: 0, width: 100, height: 50),
            position: CGPoint(x: 200, y: 100), anchorPoint: CGPoint(x: 0, y: 0),
            transform: CATransform3DIdentity, expected: CGRect(x: 200, y: 100, width: 100, height: 50)),
        FrameCase(
            label: "far-corner anchor", bounds: CGRect(x: 0, y: 0, width: 100, height: 50),
            position: CGPoint(x: 200, y: 100), anchorPoint: CGPoint(x: 1, y: 1),
            transform: CATransform3DIdentity, expected: CGRect(x: 100, y: 50, width: 100, height: 50)),
        // The bounds origin moves the content, not the frame.
        FrameCase(
            label: "bounds origin ignored", bounds: CGRect(x: 30, y: -20, width: 100, height: 50),
            position: CGPoint(x: 200, y: 100), anchorPoint: CGPoint(x: 0.5, y: 0.5),
            transform: CATransform3DIdentity, expected: CGRect(x: 150, y: 75, width: 100, height: 50)),
        // Scale 2 about the centre: 200 × 100 centred on (200, 100).
        FrameCase(
            label: "scale 2", bounds: CGRect(x: 0, y: 0, width: 100, height: 50),
            position: CGPoint(x: 200, y: 100), anchorPoint: CGPoint(x: 0.5, y: 0.5),
            transform: CATransform3DMakeScale(2, 2, 1), expected: CGRect(x: 100, y: 50, width: 200, height: 100)),
        // Scale 2 about the top-left corner: grows right and down from the position.
        FrameCase(
            label: "scale 2, origin anchor", bounds: CGRect(x: 0, y: 0, width: 100, height: 50),
            position: CGPoint(x: 200, y: 100), anchorPoint: CGPoint(x: 0, y: 0),
            transform: CATransform3DMakeScale(2, 2, 1), expected: CGRect(x: 200, y: 100, width: 200, height: 100)),
        // Rotation by π/2 about the centre: 50 × 100 centred on (200, 100).
        FrameCase(
            label: "rotate π/2", bounds: CGRect(x: 0, y: 0, width: 100, height: 50),
            position: CGPoint(x: 200, y: 100), anchorPoint: CGPoint(x: 0.5, y: 0.5),
            transform: CATransform3DMakeRotation(.pi / 2, 0, 0, 1),
            expected: CGRect(x: 175, y: 50, width: 50, height: 100)),
        // Rotation by π/2 about the top-left corner (y down): (x, y) → (−y, x); corners
        // (0,0) (100,0) (0,50) (100,50) → (0,0) (0,100) (−50,0) (−50,100), then + (200, 100).
        FrameCase(
            label: "rotate π/2, origin anchor", bounds: CGRect(x: 0, y: 0, width: 100, height: 50),
            position: CGPoint(x: 200, y: 100), anchorPoint: CGPoint(x: 0, y: 0),
            transform: CATransform3DMakeRotation(.pi / 2, 0, 0, 1),
            expected: CGRect(x: 150, y: 100, width: 50, height: 100)),
        // Translation moves the frame.
        FrameCase(
            label: "translate", bounds: CGRect(x: 0, y: 0, width: 100, height: 50),
            position: CGPoint(x: 200, y: 100), anchorPoint: CGPoint(x: 0.5, y: 0.5),
            transform: CATransform3DMakeTranslation(10, -5, 0),
            expected: CGRect(x: 160, y: 70, width: 100, height: 50)),
    ]

    @Test(arguments: frameCases)
    func frameIsDerived(_ c: FrameCase) {
        let layer = CALayer()
        layer.bounds = c.bounds
        layer.position = c.position
        layer.anchorPoint = c.anchorPoint
        layer.transform = c.transform
        #expect(approximatelyEqual(layer.frame, c.expected), "frame \(layer.frame), expected \(c.expected)")
    }

    struct FrameSetCase: Sendable, CustomTestStringConvertible {
        var anchorPoint: CGPoint
        var frame: CGRect
        var expectedPosition: CGPoint
        var testDescription: String { "anchor \(anchorPoint)" }
    }

    static let frameSetCases: [FrameSetCase] = [
        FrameSetCase(
            anchorPoint: CGPoint(x: 0.5, y: 0.5), frame: CGRect(x: 150, y: 75, width: 100, height: 50),
            expectedPosition: CGPoint(x: 200, y: 100)),
        FrameSetCase(
            anchorPoint: CGPoint(x: 0, y: 0), frame: CGRect(x: 150, y: 75, width: 100, height: 50),
            expectedPosition: CGPoint(x: 150, y: 75)),
        FrameSetCase(
            anchorPoint: CGPoint(x: 1, y: 0.25), frame: CGRect(x: 10, y: 20, width: 40, height: 80),
            expectedPosition: CGPoint(x: 50, y: 40)),
    ]

    @Test(arguments: frameSetCases)
    func settingFrameSetsPositionAndSize(_ c: FrameSetCase) {
        let layer = CALayer()
        layer.anchorPoint = c.anchorPoint
        layer.bounds = CGRect(x: 7, y: 9, width: 1, height: 1)
        layer.frame = c.frame
        #expect(layer.position == c.expectedPosition)
        #expect(layer.bounds.size == c.frame.size)
        // The bounds origin is not part of the frame: it is left alone.
        #expect(layer.bounds.origin == CGPoint(x: 7, y: 9))
        #expect(layer.anchorPoint == c.anchorPoint)
        #expect(layer.frame == c.frame)
    }

    @Test func settingFrameBumpsTheVersion() {
        let layer = CALayer()
        let before = layer.version
        layer.frame = CGRect(x: 1, y: 2, width: 3, height: 4)
        #expect(layer.version != before)
    }

    @Test func changingAnchorPointMovesTheFrameNotThePosition() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        layer.position = CGPoint(x: 200, y: 100)
        layer.anchorPoint = CGPoint(x: 0, y: 1)
        #expect(layer.position == CGPoint(x: 200, y: 100))
        #expect(layer.frame == CGRect(x: 200, y: 50, width: 100, height: 50))
    }

    static let affineTransforms: [CGAffineTransform] = [
        .identity,
        CGAffineTransform(translationX: 12, y: -7),
        CGAffineTransform(scaleX: 2, y: 0.5),
        CGAffineTransform(rotationAngle: .pi / 6),
        CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6),
    ]

    @Test(arguments: affineTransforms)
    func affineTransformRoundTrips(_ m: CGAffineTransform) {
        let layer = CALayer()
        layer.setAffineTransform(m)
        #expect(layer.affineTransform() == m)
        #expect(layer.transform == CATransform3DMakeAffineTransform(m))
        #expect(CATransform3DIsAffine(layer.transform))
    }

    @Test func setAffineTransformFillsTheMatrix() {
        let layer = CALayer()
        layer.setAffineTransform(CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6))
        let t = layer.transform
        // Apple's layout: a b in m11 m12, c d in m21 m22, tx ty in m41 m42, the rest identity.
        #expect([t.m11, t.m12, t.m13, t.m14] == [1, 2, 0, 0])
        #expect([t.m21, t.m22, t.m23, t.m24] == [3, 4, 0, 0])
        #expect([t.m31, t.m32, t.m33, t.m34] == [0, 0, 1, 0])
        #expect([t.m41, t.m42, t.m43, t.m44] == [5, 6, 0, 1])
    }

    @Test func affineTransformOfA3DTransformIsTheIdentity() {
        // Apple, observed: a transform that is not affine (here m43 = 5) reads back as the identity
        // (issue 10; more cases in GeometryFrameTests).
        let layer = CALayer()
        layer.transform = CATransform3DMakeTranslation(3, 4, 5)
        #expect(layer.affineTransform() == .identity)
    }
}

@Suite("CALayer hierarchy")
struct LayerHierarchyTests {
    /// A parent with sublayers a, b, c.
    func abc() -> (parent: CALayer, a: CALayer, b: CALayer, c: CALayer) {
        let parent = named("parent")
        let a = named("a"), b = named("b"), c = named("c")
        parent.addSublayer(a)
        parent.addSublayer(b)
        parent.addSublayer(c)
        return (parent, a, b, c)
    }

    @Test func addSublayerAppendsAndSetsSuperlayer() {
        let (parent, a, b, c) = abc()
        #expect(names(parent) == ["a", "b", "c"])
        #expect(parent.sublayers?[0] === a && parent.sublayers?[1] === b && parent.sublayers?[2] === c)
        #expect(a.superlayer === parent && b.superlayer === parent && c.superlayer === parent)
        #expect(parent.superlayer == nil)
    }

    @Test func addSublayerMovesALayerFromAnotherParent() {
        let (parent, a, b, c) = abc()
        let other = named("other")
        other.addSublayer(b)
        #expect(names(parent) == ["a", "c"])
        #expect(names(other) == ["b"])
        #expect(b.superlayer === other)
        #expect(a.superlayer === parent && c.superlayer === parent)
    }

    @Test func addSublayerOfAnExistingSublayerMovesItToTheTop() {
        let (parent, a, _, _) = abc()
        parent.addSublayer(a)
        #expect(names(parent) == ["b", "c", "a"])
        #expect(a.superlayer === parent)
    }

    @Test(arguments: [
        (UInt32(0), ["x", "a", "b", "c"]),
        (UInt32(1), ["a", "x", "b", "c"]),
        (UInt32(2), ["a", "b", "x", "c"]),
        (UInt32(3), ["a", "b", "c", "x"]),
        (UInt32(4), ["a", "b", "c", "x"]),
        (UInt32(1000), ["a", "b", "c", "x"]),
        (UInt32.max, ["a", "b", "c", "x"]),
    ])
    func insertSublayerAtIndex(_ index: UInt32, _ expected: [String]) {
        let (parent, _, _, _) = abc()
        let x = named("x")
        parent.insertSublayer(x, at: index)
        #expect(names(parent) == expected)
        #expect(x.superlayer === parent)
    }

    @Test func insertSublayerAtIndexMovesFromAnotherParent() {
        let (parent, _, _, _) = abc()
        let other = named("other")
        let x = named("x")
        other.addSublayer(x)
        parent.insertSublayer(x, at: 1)
        #expect(names(parent) == ["a", "x", "b", "c"])
        #expect(other.sublayers == nil)
        #expect(x.superlayer === parent)
    }

    @Test func insertSublayerIntoEmptyParentAtLargeIndex() {
        let parent = named("parent")
        let x = named("x")
        parent.insertSublayer(x, at: 5)
        #expect(names(parent) == ["x"])
    }

    enum Sibling: String, Sendable, CaseIterable { case a, b, c }
    enum Moving: String, Sendable { case a, b, c, x }

    /// Inserting `moving` above or below `sibling` in [a, b, c] (x is a new layer).
    @Test(arguments: [
        // New layer.
        (Moving.x, true, Sibling.a, ["a", "x", "b", "c"]),
        (Moving.x, true, Sibling.c, ["a", "b", "c", "x"]),
        (Moving.x, false, Sibling.a, ["x", "a", "b", "c"]),
        (Moving.x, false, Sibling.c, ["a", "b", "x", "c"]),
        // Moving within the same parent.
        (Moving.a, true, Sibling.c, ["b", "c", "a"]),
        (Moving.a, true, Sibling.b, ["b", "a", "c"]),
        (Moving.c, false, Sibling.a, ["c", "a", "b"]),
        (Moving.c, false, Sibling.b, ["a", "c", "b"]),
        (Moving.a, false, Sibling.c, ["b", "a", "c"]),
        (Moving.c, true, Sibling.a, ["a", "c", "b"]),
        // Relative to itself: nothing moves.
        (Moving.b, true, Sibling.b, ["a", "b", "c"]),
        (Moving.b, false, Sibling.b, ["a", "b", "c"]),
        // Already in place: nothing moves.
        (Moving.a, false, Sibling.b, ["a", "b", "c"]),
        (Moving.c, true, Sibling.b, ["a", "b", "c"]),
    ])
    func insertSublayerAboveBelow(_ moving: Moving, _ above: Bool, _ sibling: Sibling, _ expected: [String]) {
        let (parent, a, b, c) = abc()
        let byName = ["a": a, "b": b, "c": c, "x": named("x")]
        let layer = byName[moving.rawValue]!
        let reference = byName[sibling.rawValue]!
        if above {
            parent.insertSublayer(layer, above: reference)
        } else {
            parent.insertSublayer(layer, below: reference)
        }
        #expect(names(parent) == expected)
        #expect(layer.superlayer === parent)
        #expect(Set(parent.sublayers!.map(ObjectIdentifier.init)).count == parent.sublayers!.count)
    }

    @Test func insertSublayerAboveBelowMovesFromAnotherParent() {
        let (parent, _, b, _) = abc()
        let other = named("other")
        let x = named("x"), y = named("y")
        other.addSublayer(x)
        other.addSublayer(y)
        parent.insertSublayer(x, above: b)
        parent.insertSublayer(y, below: b)
        #expect(names(parent) == ["a", "y", "b", "x", "c"])
        #expect(other.sublayers == nil)
        #expect(x.superlayer === parent && y.superlayer === parent)
    }

    @Test func insertSublayerRelativeToNilOrAStranger() {
        // Apple raises for a sibling that is not a sublayer; Lamina documents top (above) and
        // bottom (below).
        let (parent, _, _, _) = abc()
        parent.insertSublayer(named("top"), above: nil)
        parent.insertSublayer(named("bottom"), below: nil)
        parent.insertSublayer(named("top2"), above: named("stranger"))
        parent.insertSublayer(named("bottom2"), below: named("stranger"))
        #expect(names(parent) == ["bottom2", "bottom", "a", "b", "c", "top", "top2"])
    }

    @Test func removeFromSuperlayer() {
        let (parent, a, b, c) = abc()
        b.removeFromSuperlayer()
        #expect(names(parent) == ["a", "c"])
        #expect(b.superlayer == nil)
        // Removing again, or removing a root, does nothing.
        b.removeFromSuperlayer()
        parent.removeFromSuperlayer()
        #expect(names(parent) == ["a", "c"])
        a.removeFromSuperlayer()
        c.removeFromSuperlayer()
        #expect(parent.sublayers == nil)
    }

    @Test func removeFromSuperlayerKeepsTheSubtree() {
        let root = named("root"), child = named("child"), grandchild = named("grandchild")
        root.addSublayer(child)
        child.addSublayer(grandchild)
        child.removeFromSuperlayer()
        #expect(root.sublayers == nil)
        #expect(child.superlayer == nil)
        #expect(grandchild.superlayer === child)
        #expect(names(child) == ["grandchild"])
    }

    @Test func replaceSublayerTakesTheOldIndex() {
        let (parent, a, b, c) = abc()
        let x = named("x")
        parent.replaceSublayer(b, with: x)
        #expect(names(parent) == ["a", "x", "c"])
        #expect(x.superlayer === parent)
        #expect(b.superlayer == nil)
        #expect(a.superlayer === parent && c.superlayer === parent)
    }

    @Test(arguments: [0, 2])
    func replaceSublayerAtTheEnds(_ index: Int) {
        let (parent, a, _, c) = abc()
        let old = index == 0 ? a : c
        let x = named("x")
        parent.replaceSublayer(old, with: x)
        var expected = ["a", "b", "c"]
        expected[index] = "x"
        #expect(names(parent) == expected)
        #expect(old.superlayer == nil)
    }

    @Test func replaceSublayerWithALayerFromAnotherHierarchy() {
        let (parent, _, b, _) = abc()
        let other = named("other")
        let o1 = named("o1"), x = named("x"), o2 = named("o2")
        other.addSublayer(o1)
        other.addSublayer(x)
        other.addSublayer(o2)
        parent.replaceSublayer(b, with: x)
        #expect(names(parent) == ["a", "x", "c"])
        #expect(names(other) == ["o1", "o2"])
        #expect(x.superlayer === parent)
        #expect(b.superlayer == nil)
    }

    @Test func replaceSublayerWithASibling() {
        // Cases where "the new layer takes the old one's place" is unambiguous.
        do {
            let (parent, a, _, c) = abc()
            parent.replaceSublayer(c, with: a)
            #expect(names(parent) == ["b", "a"])
            #expect(c.superlayer == nil && a.superlayer === parent)
        }
        do {
            let (parent, a, _, c) = abc()
            parent.replaceSublayer(a, with: c)
            #expect(names(parent) == ["c", "b"])
            #expect(a.superlayer == nil && c.superlayer === parent)
        }
    }

    @Test func replaceSublayerWithItselfOrANonSublayerDoesNothing() {
        let (parent, _, b, _) = abc()
        parent.replaceSublayer(b, with: b)
        #expect(names(parent) == ["a", "b", "c"])
        let x = named("x")
        parent.replaceSublayer(named("stranger"), with: x)
        #expect(names(parent) == ["a", "b", "c"])
        #expect(x.superlayer == nil)
    }

    @Test func settingSublayersReplacesAll() {
        let (parent, a, b, c) = abc()
        let x = named("x"), y = named("y")
        parent.sublayers = [x, b, y]
        #expect(names(parent) == ["x", "b", "y"])
        #expect(x.superlayer === parent && b.superlayer === parent && y.superlayer === parent)
        #expect(a.superlayer == nil && c.superlayer == nil)
    }

    @Test func settingSublayersTakesLayersFromOtherParents() {
        let parent = named("parent")
        let other = named("other")
        let x = named("x"), y = named("y")
        other.addSublayer(x)
        other.addSublayer(y)
        parent.sublayers = [y]
        #expect(names(parent) == ["y"])
        #expect(names(other) == ["x"])
        #expect(y.superlayer === parent)
    }

    @Test func settingSublayersToNilOrEmptyDetachesAll() {
        for newValue in [nil, [CALayer]()] {
            let (parent, a, b, c) = abc()
            parent.sublayers = newValue
            #expect(parent.sublayers == nil)
            #expect(a.superlayer == nil && b.superlayer == nil && c.superlayer == nil)
        }
    }

    enum Ancestor: String, Sendable, CaseIterable { case itself, parent, grandparent }

    @Test(arguments: Ancestor.allCases)
    func addingALayerToItsOwnSubtreeIsRefused(_ which: Ancestor) {
        let grandparent = named("grandparent"), parent = named("parent"), layer = named("layer")
        let sibling = named("sibling"), child = named("child")
        grandparent.addSublayer(parent)
        parent.addSublayer(layer)
        parent.addSublayer(sibling)
        layer.addSublayer(child)
        let intruder =
            switch which {
            case .itself: layer
            case .parent: parent
            case .grandparent: grandparent
            }
        func unchanged(sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(grandparent.superlayer == nil, sourceLocation: sourceLocation)
            #expect(names(grandparent) == ["parent"], sourceLocation: sourceLocation)
            #expect(parent.superlayer === grandparent, sourceLocation: sourceLocation)
            #expect(names(parent) == ["layer", "sibling"], sourceLocation: sourceLocation)
            #expect(layer.superlayer === parent, sourceLocation: sourceLocation)
            #expect(names(layer) == ["child"], sourceLocation: sourceLocation)
            #expect(child.superlayer === layer, sourceLocation: sourceLocation)
            #expect(child.sublayers == nil, sourceLocation: sourceLocation)
        }
        layer.addSublayer(intruder)
        unchanged()
        layer.insertSublayer(intruder, at: 0)
        unchanged()
        layer.insertSublayer(intruder, above: child)
        unchanged()
        layer.insertSublayer(intruder, below: child)
        unchanged()
        // Deeper in the subtree too.
        child.addSublayer(intruder)
        unchanged()
        layer.replaceSublayer(child, with: intruder)
        unchanged()
    }

    @Test(arguments: Ancestor.allCases)
    func settingSublayersToIncludeAnAncestorIsRefused(_ which: Ancestor) {
        let grandparent = named("grandparent"), parent = named("parent"), layer = named("layer")
        let child = named("child")
        grandparent.addSublayer(parent)
        parent.addSublayer(layer)
        layer.addSublayer(child)
        let intruder =
            switch which {
            case .itself: layer
            case .parent: parent
            case .grandparent: grandparent
            }
        layer.sublayers = [intruder]
        // Whatever happens to `layer`'s own list, the tree must stay a tree.
        #expect(intruder.superlayer !== layer)
        #expect(!(layer.sublayers ?? []).contains { $0 === intruder })
        #expect(names(grandparent) == ["parent"])
        #expect(names(parent) == ["layer"])
        #expect(layer.superlayer === parent)
        // Apple raises and leaves the sublayers alone; a refusal must not half-apply.
        #expect(names(layer) == ["child"])
        #expect(child.superlayer === layer)
    }

    @Test func hierarchyChangesBumpVersions() {
        let (parent, a, _, _) = abc()
        let other = named("other")
        let v = (parent: parent.version, other: other.version)
        other.addSublayer(a)
        #expect(parent.version != v.parent)
        #expect(other.version != v.other)
        let v2 = parent.version
        parent.sublayers = nil
        #expect(parent.version != v2)
    }
}

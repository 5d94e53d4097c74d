import Foundation
import LaminaProtocol
import Testing

@testable import Lamina

// Apple fidelity of the client's geometry (issue 10, point 2): setting `frame` under a transform,
// `affineTransform()` of a 3-D transform, and `maskedCorners` keeping only its corner bits. Every
// expected value is computed by hand in the comment beside it.

/// True when both coordinates of `a` lie within 1e-9 of those of `b`.
private func close(_ a: CGPoint, _ b: CGPoint) -> Bool {
    abs(a.x - b.x) <= 1e-9 && abs(a.y - b.y) <= 1e-9
}

/// True when origin and size of `a` lie within 1e-9 of those of `b`.
private func close(_ a: CGRect, _ b: CGRect) -> Bool {
    close(a.origin, b.origin) && abs(a.width - b.width) <= 1e-9 && abs(a.height - b.height) <= 1e-9
}

/// A quarter turn about z with an exact matrix (x → y, y → −x in row-vector form).
private let quarterTurn = CATransform3DMakeAffineTransform(CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0))

@Suite("Geometry: frame under a transform")
struct GeometryFrameTests {
    @Test func scaledFrameReadsBackAsSet() {
        // Apple, observed on Apple platforms (issue 10's recorded value): with
        // transform scale(0.25, 0.75) and anchorPoint (0.5, 0.5), setting frame (50, 50, 100, 100)
        // reads back (50, 50, 100, 100) with bounds.size (400, 133.33…). CALayer.h: "frame is a
        // function of bounds, anchorPoint, position and transform". The centre (100, 100) is the
        // position, since the anchor is the centre.
        let layer = CALayer()
        layer.transform = CATransform3DMakeScale(0.25, 0.75, 1)
        layer.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        #expect(close(layer.frame, CGRect(x: 50, y: 50, width: 100, height: 100)))
        #expect(layer.bounds.size.width == 400)
        #expect(abs(layer.bounds.size.height - 400.0 / 3) <= 1e-9)
        #expect(close(layer.position, CGPoint(x: 100, y: 100)))
    }

    @Test func flippedScaleWithACornerAnchorReadsBack() {
        // scale(2, −1) with anchor (0, 0): x ∈ [0, 2w] and y ∈ [−h, 0] around the position. For frame
        // (10, 20, 80, 40): w = 40, h = 40, position = (10, 60). Apple's frame is that bounding box.
        let layer = CALayer()
        layer.anchorPoint = .zero
        layer.transform = CATransform3DMakeScale(2, -1, 1)
        layer.frame = CGRect(x: 10, y: 20, width: 80, height: 40)
        #expect(close(layer.frame, CGRect(x: 10, y: 20, width: 80, height: 40)))
        #expect(layer.bounds.size == CGSize(width: 40, height: 40))
        #expect(close(layer.position, CGPoint(x: 10, y: 60)))
    }

    @Test func quarterTurnSwapsTheSides() {
        // A quarter turn maps a w × h bounds to an h × w box: frame (10, 20, 100, 50) needs bounds
        // 50 × 100, centred at (60, 45).
        let layer = CALayer()
        layer.transform = quarterTurn
        layer.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        #expect(layer.bounds.size == CGSize(width: 50, height: 100))
        #expect(close(layer.position, CGPoint(x: 60, y: 45)))
        #expect(close(layer.frame, CGRect(x: 10, y: 20, width: 100, height: 50)))
    }

    @Test func translationMovesThePositionBack() {
        // translate(10, 20) adds to the position: frame (50, 50, 100, 100) → position (90, 80).
        let layer = CALayer()
        layer.transform = CATransform3DMakeTranslation(10, 20, 0)
        layer.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        #expect(layer.bounds.size == CGSize(width: 100, height: 100))
        #expect(close(layer.position, CGPoint(x: 90, y: 80)))
        #expect(close(layer.frame, CGRect(x: 50, y: 50, width: 100, height: 100)))
    }

    @Test func rotationKeepsTheCentreAndReadsBackTheBoundingBox() {
        // A rotation that is not a quarter turn cannot give an axis-aligned frame of its own: Apple's
        // frame is always the bounding box of the transformed bounds (CALayer.h), so no size reads
        // back a 100 × 100 frame under 45°. Our choice (the Apple-like inverse mapping): the size is
        // the frame's bounding box mapped back through the inverse rotation, 100·(cos + sin) =
        // 141.42… square, and the position puts the centre on the frame's centre (50, 50). The frame
        // then reads back as the rotated square's box: side 141.42…·√2 = 200, centred at (50, 50).
        let layer = CALayer()
        layer.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let side = 100 * 2.0.squareRoot()
        #expect(abs(layer.bounds.width - side) <= 1e-9 && abs(layer.bounds.height - side) <= 1e-9)
        #expect(close(layer.position, CGPoint(x: 50, y: 50)))
        #expect(close(layer.frame, CGRect(x: -50, y: -50, width: 200, height: 200)))
    }

    @Test func singularScaleKeepsTheSizeAndPlacesTheCentre() {
        // scale(0, 1) has no inverse: no size maps onto a frame of width 100, so the size is taken as
        // given (100 × 100) and the centre (60, 60) is the position; the frame reads back collapsed
        // onto x = 60 (width 0), as the bounding box of a zero-width image.
        let layer = CALayer()
        layer.transform = CATransform3DMakeScale(0, 1, 1)
        layer.frame = CGRect(x: 10, y: 10, width: 100, height: 100)
        #expect(layer.bounds.size == CGSize(width: 100, height: 100))
        #expect(close(layer.position, CGPoint(x: 60, y: 60)))
        #expect(close(layer.frame, CGRect(x: 60, y: 10, width: 0, height: 100)))
    }

    @Test func convertAndHitTestAgreeWithTheSolvedFrame() {
        // The root's bounds space is its superlayer space (bounds at the origin, anchor at the centre).
        // The child, scaled (0.25, 0.75), gets frame (50, 50, 100, 100): its bounds corners convert to
        // the frame's corners, and hit testing the root finds it exactly inside that frame (half-open).
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.position = CGPoint(x: 100, y: 100)
        let child = CALayer()
        child.transform = CATransform3DMakeScale(0.25, 0.75, 1)
        root.addSublayer(child)
        child.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        #expect(close(child.convert(child.bounds, to: root), CGRect(x: 50, y: 50, width: 100, height: 100)))
        #expect(close(child.convert(CGPoint(x: 400, y: 400.0 / 3), to: root), CGPoint(x: 150, y: 150)))
        #expect(close(root.convert(CGPoint(x: 50, y: 50), to: child), .zero))
        #expect(root.hitTest(CGPoint(x: 50.5, y: 50.5)) === child)
        #expect(root.hitTest(CGPoint(x: 149.5, y: 149.5)) === child)
        #expect(root.hitTest(CGPoint(x: 49.5, y: 100)) === root)
        #expect(root.hitTest(CGPoint(x: 100, y: 150.5)) === root)
    }
}

@Suite("Geometry: affineTransform of a 3-D transform")
struct GeometryAffineTransformTests {
    /// Transforms with a z or perspective part, each differing from the identity in one of m13, m14,
    /// m23, m24, m31, m32, m33, m34 or m43.
    static let nonAffine: [CATransform3D] = {
        var m13 = CATransform3DIdentity
        m13.m13 = 0.5
        var m14 = CATransform3DIdentity
        m14.m14 = 0.01
        var m24 = CATransform3DIdentity
        m24.m24 = 0.01
        var m32 = CATransform3DIdentity
        m32.m32 = 2
        var m34 = CATransform3DIdentity
        m34.m34 = -1.0 / 500
        return [
            m13, m14, m24, m32, m34,
            CATransform3DMakeScale(2, 3, 4),  // m33 = 4
            CATransform3DMakeRotation(0.3, 1, 0, 0),  // m23, m32 ≠ 0, m33 = cos 0.3
            CATransform3DMakeTranslation(3, 4, 5),  // m43 = 5
            CATransform3DConcat(CATransform3DMakeScale(2, 2, 1), CATransform3DMakeRotation(0.2, 0, 1, 0)),
        ]
    }()

    @Test(arguments: nonAffine)
    func nonAffineTransformReadsBackTheIdentity(_ t: CATransform3D) {
        // Apple (CALayer.h, -affineTransform: "Convenience methods for accessing the transform property
        // as an affine transform"), observed: a transform that CATransform3DIsAffine rejects reads back
        // CGAffineTransformIdentity.
        let layer = CALayer()
        layer.transform = t
        #expect(!CATransform3DIsAffine(t))
        #expect(layer.affineTransform() == .identity)
    }

    @Test func affineTransformWithScaleAndTranslationReadsBackItsParts() {
        // An affine transform set through the 3-D property reads back its six entries.
        let layer = CALayer()
        layer.transform = CATransform3DTranslate(CATransform3DMakeScale(2, 3, 1), 5, 6, 0)
        #expect(layer.affineTransform() == CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 10, ty: 18))
    }
}

@Suite("Geometry: maskedCorners keeps the corner bits")
struct GeometryMaskedCornersTests {
    @Test func clientKeepsOnlyTheFourCornerBits() {
        // Apple, observed: CACornerMask has four bits (CALayer.h: kCALayerMinXMinYCorner = 1U << 0 …
        // kCALayerMaxXMaxYCorner = 1U << 3); setting rawValue 255 reads back 15.
        let layer = CALayer()
        layer.maskedCorners = CACornerMask(rawValue: 255)
        #expect(layer.maskedCorners.rawValue == 15)
        layer.maskedCorners = CACornerMask(rawValue: 0b1_0010)
        #expect(layer.maskedCorners == .layerMaxXMinYCorner)
    }

    @Test func keyValueCodingKeepsOnlyTheFourCornerBits() {
        // The same through the table's typed write (key-value coding and animations use it).
        var state = LayerState()
        state[.maskedCorners] = .corners(CACornerMask(rawValue: 255))
        #expect(state.maskedCorners.rawValue == 15)
    }

    @Test func serverRefusesExtraBitsOnTheWireAndNeverKeepsThem() {
        // The client never sends extra bits now. A mask with extra bits on the wire stays a protocol
        // error (refused with its reason, docs/protocol.md §7), never a trap; and a state written
        // directly (the apply step after validation) keeps only the four corner bits, like the client.
        let property = LayerProperty.maskedCorners(CACornerMask(rawValue: 0xFFFF_FFFC))
        #expect(property.invalidReason == "maskedCorners has unknown bits")
        var state = LayerState()
        property.apply(to: &state)
        #expect(state.maskedCorners == [.layerMinXMaxYCorner, .layerMaxXMaxYCorner])
    }
}

// CATransformLayer on the client: its class on the wire, Apple's initialisers, and hit testing and
// point conversion in 3-D (CATransformLayer.h: the layer renders "true 3D layer hierarchies"; spec
// §3.5 [EXT]: "does hit testing in 3-D"; E29: touches on the cube's visible faces reach them).
import Foundation
import LaminaProtocol
import Testing

@testable import Lamina

@Suite(.serialized) struct TransformLayerTests {
    @Test func classAndInitialisers() throws {
        let layer = CATransformLayer()
        #expect(layer.serverLayerClass == .transform && layer.modelState.layerClass == .transform)
        #expect(LayerClass.transform.rawValue == 7 && LayerClass.transform.className == "CATransformLayer")
        layer.position = CGPoint(x: 3, y: 4)
        let copy = CATransformLayer(layer: layer)
        #expect(copy.modelState.layerClass == .transform && copy.position == CGPoint(x: 3, y: 4))
        let data = try NSKeyedArchiver.archivedData(withRootObject: layer, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CATransformLayer.self, from: data))
        #expect(back.modelState.layerClass == .transform && back.position == CGPoint(x: 3, y: 4))
        // A subclass is still a transform layer for the server.
        final class Arm: CATransformLayer {}
        #expect(Arm().serverLayerClass == .transform)
        // Its own drawing properties are kept (Apple keeps them; it does not draw them).
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        #expect(layer.backgroundColor != nil)
    }

    /// The class travels as code 7 in `createLayer` (operation 9).
    @Test func theClassTravelsAsCodeSeven() throws {
        let bytes = MessageCodec.encode(ClientMessage.transactionPart([.createLayer(5, .transform)]))
        let decoded = try MessageCodec.decodeClient(bytes)
        #expect(decoded == .transactionPart([.createLayer(5, .transform)]))
    }

    // MARK: E29's cube

    static let transforms: [CATransform3D] = [
        CATransform3DMakeTranslation(0, 0, 100),
        CATransform3DRotate(CATransform3DMakeTranslation(100, 0, 0), .pi / 2, 0, 1, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(0, -100, 0), .pi / 2, 1, 0, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(0, 100, 0), -.pi / 2, 1, 0, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(-100, 0, 0), -.pi / 2, 0, 1, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -100), .pi, 0, 1, 0),
    ]

    /// E29: a 400×400 container with perspective and the corner view, a transform layer the size of
    /// the container, six 200×200 faces each with a 100×100 button in its middle.
    static func cube(transformLayer: Bool = true, doubleSided: Bool = true)
        -> (container: CALayer, faces: [CALayer], buttons: [CALayer])
    {
        let container = CALayer()
        container.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        perspective = CATransform3DRotate(perspective, -.pi / 4, 1, 0, 0)
        perspective = CATransform3DRotate(perspective, -.pi / 4, 0, 1, 0)
        container.sublayerTransform = perspective
        let cube: CALayer = transformLayer ? CATransformLayer() : CALayer()
        cube.frame = container.bounds
        container.addSublayer(cube)
        var faces: [CALayer] = []
        var buttons: [CALayer] = []
        for transform in transforms {
            let face = CALayer()
            face.frame = CGRect(x: 100, y: 100, width: 200, height: 200)
            face.transform = transform
            face.isDoubleSided = doubleSided
            let button = CALayer()
            button.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
            button.cornerRadius = 10
            face.addSublayer(button)
            cube.addSublayer(face)
            faces.append(face)
            buttons.append(button)
        }
        return (container, faces, buttons)
    }

    /// Where point `p` of face `i` lands in the container's space: the full 4×4 matrices multiplied
    /// (the transform layer keeps depth), then the perspective divide.
    static func projected(_ p: CGPoint, face i: Int, container: CALayer) -> CGPoint {
        let face = CATransform3DConcat(
            CATransform3DConcat(CATransform3DMakeTranslation(-100, -100, 0), transforms[i]),
            CATransform3DMakeTranslation(200, 200, 0))
        let about = CATransform3DConcat(
            CATransform3DConcat(CATransform3DMakeTranslation(-200, -200, 0), container.sublayerTransform),
            CATransform3DMakeTranslation(200, 200, 0))
        let q = CATransform3DConcat(face, about).transform(x: p.x, y: p.y, z: 0)
        return CGPoint(x: q.x / q.w, y: q.y / q.w)
    }

    /// Touches on the visible faces' buttons reach those buttons, on the faces themselves the faces,
    /// whatever the sublayer order (faces 3 to 5 come later in it and lie behind); outside the cube,
    /// nothing of it.
    @Test func hitTestFindsTheNearestFace() {
        let (container, faces, buttons) = Self.cube()
        for i in 0..<3 {
            let centre = Self.projected(CGPoint(x: 100, y: 100), face: i, container: container)
            #expect(container.hitTest(centre) === buttons[i], "face \(i)'s button")
            let corner = Self.projected(CGPoint(x: 25, y: 25), face: i, container: container)
            #expect(container.hitTest(corner) === faces[i], "face \(i) beside its button")
        }
        #expect(container.hitTest(CGPoint(x: 2, y: 2)) === container)
        #expect(container.hitTest(CGPoint(x: -10, y: -10)) == nil)
        // Asking the transform layer directly gives the same faces.
        let cube = container.sublayers![0]
        let centre = Self.projected(CGPoint(x: 100, y: 100), face: 0, container: container)
        #expect(cube.hitTest(centre) === buttons[0])
        #expect(cube.hitTest(CGPoint(x: 2, y: 2)) == nil, "a transform layer has no plane to be hit on")
    }

    /// In a plain layer the faces are flattened and asked in sublayer order, as Core Animation does
    /// (the reason E29 turns off touches on faces 3 to 5): a later face wins over the visible one.
    @Test func aPlainLayerAsksInSublayerOrder() {
        let (container, faces, _) = Self.cube(transformLayer: false)
        let hit = container.hitTest(CGPoint(x: 200, y: 200))
        #expect(hit != nil && hit !== container)
        #expect(faces.contains { $0 === hit || $0 === hit?.superlayer })
        #expect(hit === faces[5] || hit?.superlayer === faces[5], "the last face, flattened over the others")
    }

    /// Faces turned away with `isDoubleSided` false are not hit; hidden faces are not either.
    @Test func singleSidedBackFacesAndHiddenFacesAreNotHit() {
        let (container, faces, buttons) = Self.cube(doubleSided: false)
        faces[0].isHidden = true
        // Through where face 0 was, the ray meets the back of the cube: face 3, 4 or 5 from inside,
        // turned away, so nothing of the cube.
        let centre = Self.projected(CGPoint(x: 100, y: 100), face: 0, container: container)
        let hit = container.hitTest(centre)
        #expect(hit === container, "\(String(describing: hit))")
        // Face 1 still answers.
        let other = Self.projected(CGPoint(x: 100, y: 100), face: 1, container: container)
        #expect(container.hitTest(other) === buttons[1])
    }

    /// Converting through a transform layer multiplies the 4×4 matrices (no flattening at it): face
    /// 1's centre lands where the server draws it.
    @Test func convertKeepsDepthThroughTheTransformLayer() {
        let (container, faces, _) = Self.cube()
        for i in [0, 1, 2] {
            let want = Self.projected(CGPoint(x: 100, y: 100), face: i, container: container)
            let got = faces[i].convert(CGPoint(x: 100, y: 100), to: container)
            #expect(abs(got.x - want.x) < 1e-6 && abs(got.y - want.y) < 1e-6, "face \(i): \(got) vs \(want)")
            let back = faces[i].convert(want, from: container)
            #expect(abs(back.x - 100) < 1e-6 && abs(back.y - 100) < 1e-6, "face \(i) back: \(back)")
        }
    }
}

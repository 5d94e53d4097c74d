import Foundation
import Lamina
import LaminaTesting
import Testing

/// End to end: E29's cube built by a client with a `CATransformLayer`, as Apple code would, drawn by
/// a real laminad and captured: the visible faces' buttons and faces where the geometry puts them,
/// the same picture with the faces in reverse order, and hit tests that reach the buttons drawn there.
@Suite(.serialized) final class TransformLayerSceneTests {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 400, height: 400)
    }

    deinit {
        server.stop()
    }

    static let transforms: [CATransform3D] = [
        CATransform3DMakeTranslation(0, 0, 100),
        CATransform3DRotate(CATransform3DMakeTranslation(100, 0, 0), .pi / 2, 0, 1, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(0, -100, 0), .pi / 2, 1, 0, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(0, 100, 0), -.pi / 2, 1, 0, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(-100, 0, 0), -.pi / 2, 0, 1, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -100), .pi, 0, 1, 0),
    ]

    /// E29: white 200×200 faces with a 1-point grey border and a blue 100×100 button (corner radius
    /// 10), in a transform layer under a container whose `sublayerTransform` is m34 = −1/500, −π/4
    /// about x, −π/4 about y. Faces added in `order`.
    static func cube(order: [Int]) -> (root: CALayer, buttons: [CALayer]) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        perspective = CATransform3DRotate(perspective, -.pi / 4, 1, 0, 0)
        perspective = CATransform3DRotate(perspective, -.pi / 4, 0, 1, 0)
        root.sublayerTransform = perspective
        let cube = CATransformLayer()
        cube.frame = root.bounds
        root.addSublayer(cube)
        var buttons = [CALayer](repeating: CALayer(), count: 6)
        for i in order {
            let face = CALayer()
            face.frame = CGRect(x: 100, y: 100, width: 200, height: 200)
            face.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            face.borderWidth = 1
            face.borderColor = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
            face.transform = transforms[i]
            let button = CALayer()
            button.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
            button.cornerRadius = 10
            button.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            face.addSublayer(button)
            cube.addSublayer(face)
            buttons[i] = button
        }
        return (root, buttons)
    }

    /// Where point `p` of face `i` lands on the display.
    static func projected(_ p: CGPoint, face i: Int, root: CALayer) -> CGPoint {
        let face = CATransform3DConcat(
            CATransform3DConcat(CATransform3DMakeTranslation(-100, -100, 0), transforms[i]),
            CATransform3DMakeTranslation(200, 200, 0))
        let about = CATransform3DConcat(
            CATransform3DConcat(CATransform3DMakeTranslation(-200, -200, 0), root.sublayerTransform),
            CATransform3DMakeTranslation(200, 200, 0))
        let q = CATransform3DConcat(face, about).transform(x: p.x, y: p.y, z: 0)
        return CGPoint(x: q.x / q.w, y: q.y / q.w)
    }

    @Test func e29CubeFromTheClient() throws {
        let context = try server.connect(name: "cube")
        var images: [CGImage] = []
        for order in [Array(0..<6), Array((0..<6).reversed())] {
            let (root, buttons) = Self.cube(order: order)
            context.layer = root
            try context.synchronize()
            let image = try context.capture()
            images.append(image)
            for i in 0..<3 {
                let centre = Self.projected(CGPoint(x: 100, y: 100), face: i, root: root)
                expectPixel(image, Int(centre.x), Int(centre.y), (0, 0, 255), tolerance: 1, "face \(i)'s button")
                let beside = Self.projected(CGPoint(x: 25, y: 25), face: i, root: root)
                expectPixel(image, Int(beside.x), Int(beside.y), (255, 255, 255), tolerance: 1, "face \(i)")
                // Touches on the visible buttons reach them (E29), whatever the sublayer order.
                #expect(root.hitTest(centre) === buttons[i], "hit on face \(i)'s button, order \(order)")
            }
        }
        try images[0].writePNG(to: server.directory.appendingPathComponent("cube.png").path)
        // The same picture in either order, but for the anti-aliased pixels where two visible faces
        // meet (drawn in another order there).
        var differing = 0
        for y in 0..<400 {
            for x in 0..<400 {
                let a = images[0].pixel(x: x, y: y), b = images[1].pixel(x: x, y: y)
                let d = abs(Int(a.red) - Int(b.red)) + abs(Int(a.green) - Int(b.green)) + abs(Int(a.blue) - Int(b.blue))
                if d > 6 { differing += 1 }
            }
        }
        #expect(differing < 800, "\(differing) pixels differ")

        let report = server.stop()
        #expect(report.validationMessages.isEmpty, "validation: \(report.validationMessages)")
        #expect(report.exitStatus == 0, "laminad exit status \(report.exitStatus)\n\(report.log)")
    }
}

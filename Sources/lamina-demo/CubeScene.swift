import Foundation
import Lamina

/// The demo's fifth scene: 3-D with `CATransformLayer`. E29's cube (six white faces with a grey
/// border, each with a blue numbered button and a black overlay shading it by a fixed light) in a
/// transform layer under a container with perspective, turning about y on the server's clock; beside
/// it, a red and a blue plane crossing at 90°, each shown in front where it is nearer, and the same
/// cube's faces (unshaded) in a plain layer, flattened and painted in sublayer order, for comparison:
/// the back face, last, covers the others. Writes
/// `cube.png` and captures of the turn.
func runCubeScene(on context: CAContext, outputFolder: String) throws {
    let root = CALayer()
    root.name = "cube root"
    root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
    root.backgroundColor = color(0.13, 0.14, 0.17)

    var perspective = CATransform3DIdentity
    perspective.m34 = -1.0 / 500
    let corner = CATransform3DRotate(CATransform3DRotate(perspective, -.pi / 4, 1, 0, 0), -.pi / 4, 0, 1, 0)

    // E29 in a transform layer: true 3-D.
    let container = CALayer()
    container.name = "cube container"
    container.frame = CGRect(x: 60, y: 160, width: 400, height: 400)
    container.sublayerTransform = corner
    let cube = CATransformLayer()
    cube.name = "cube"
    cube.frame = container.bounds
    addCubeFaces(to: cube)
    container.addSublayer(cube)
    root.addSublayer(container)

    // Two planes crossing at 90° about y.
    let crossing = CALayer()
    crossing.name = "crossing container"
    crossing.frame = CGRect(x: 520, y: 210, width: 300, height: 300)
    crossing.sublayerTransform = CATransform3DRotate(perspective, -0.35, 1, 0, 0)
    let planes = CATransformLayer()
    planes.name = "crossing planes"
    planes.frame = crossing.bounds
    for (angle, tint) in [(CGFloat.pi / 4, color(0.9, 0.2, 0.2)), (-CGFloat.pi / 4, color(0.2, 0.4, 0.95))] {
        let plane = CALayer()
        plane.frame = CGRect(x: 50, y: 90, width: 200, height: 120)
        plane.backgroundColor = tint
        plane.cornerRadius = 12
        plane.borderWidth = 2
        plane.borderColor = color(1, 1, 1, 0.8)
        plane.transform = CATransform3DMakeRotation(angle, 0, 1, 0)
        planes.addSublayer(plane)
    }
    crossing.addSublayer(planes)
    root.addSublayer(crossing)

    // The same faces in a plain layer: flattened into it, painted in sublayer order.
    let flatContainer = CALayer()
    flatContainer.name = "flat container"
    flatContainer.frame = CGRect(x: 860, y: 160, width: 400, height: 400)
    flatContainer.sublayerTransform = corner
    flatContainer.transform = CATransform3DMakeScale(0.7, 0.7, 1)
    let flat = CALayer()
    flat.name = "flat cube"
    flat.frame = flatContainer.bounds
    addCubeFaces(to: flat, shaded: false)
    flatContainer.addSublayer(flat)
    root.addSublayer(flatContainer)

    context.layer = root
    try context.capture().writePNG(to: outputFolder + "/cube.png")
    print("wrote \(outputFolder)/cube.png")

    // The cube and the planes turn about y on the server's clock.
    let t0 = CACurrentMediaTime() + 0.5
    for layer in [cube, planes] {
        let turn = CABasicAnimation(keyPath: "transform.rotation.y")
        turn.fromValue = 0
        turn.toValue = 2 * Double.pi
        turn.duration = 8
        turn.repeatCount = .infinity
        turn.beginTime = t0
        turn.timingFunction = CAMediaTimingFunction(name: .linear)
        layer.add(turn, forKey: "turn")
    }
    CATransaction.flush()
    for t in [0.5, 1.5, 3.0] {
        let frame = try context.capture(at: t0 + t)
        let name = String(format: "cube-%.2fs.png", t)
        try frame.writePNG(to: outputFolder + "/" + name)
        print("wrote \(outputFolder)/\(name)")
    }
}

/// Adds E29's six 200×200 faces, centred in `parent` (400×400): white, a 1-point grey border, a
/// 100×100 blue button with corner radius 10 showing the face's number, and a black overlay whose
/// alpha shades the face by a light from (0, 1, −0.5) (1 + light · normal − 0.5 ambient), unless
/// `shaded` is false.
func addCubeFaces(to parent: CALayer, shaded: Bool = true) {
    let transforms: [CATransform3D] = [
        CATransform3DMakeTranslation(0, 0, 100),
        CATransform3DRotate(CATransform3DMakeTranslation(100, 0, 0), .pi / 2, 0, 1, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(0, -100, 0), .pi / 2, 1, 0, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(0, 100, 0), -.pi / 2, 1, 0, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(-100, 0, 0), -.pi / 2, 0, 1, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -100), .pi, 0, 1, 0),
    ]
    let light = (x: 0.0, y: 1.0 / 1.25.squareRoot(), z: -0.5 / 1.25.squareRoot())
    for (index, transform) in transforms.enumerated() {
        let face = CALayer()
        face.name = "face \(index)"
        face.frame = CGRect(x: 100, y: 100, width: 200, height: 200)
        face.backgroundColor = color(1, 1, 1)
        face.borderWidth = 1
        face.borderColor = color(0.55, 0.55, 0.6)
        face.transform = transform
        let button = CALayer()
        button.name = "button \(index)"
        button.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        button.cornerRadius = 10
        button.backgroundColor = color(0.15, 0.4, 0.9)
        let label = CATextLayer()
        label.frame = CGRect(x: 0, y: 22, width: 100, height: 60)
        label.string = "\(index)"
        label.fontSize = 44
        label.alignmentMode = .center
        label.foregroundColor = color(1, 1, 1)
        label.contentsScale = 2
        button.addSublayer(label)
        face.addSublayer(button)
        // The face's normal is (0, 0, 1) through the face's own 3×3 matrix.
        let normal = (x: Double(transform.m31), y: Double(transform.m32), z: Double(transform.m33))
        let shade = 1 + (light.x * normal.x + light.y * normal.y + light.z * normal.z) - 0.5
        if shaded {
            let overlay = CALayer()
            overlay.frame = face.bounds
            overlay.backgroundColor = color(0, 0, 0, CGFloat(min(max(shade, 0), 1)))
            face.addSublayer(overlay)
        }
        parent.addSublayer(face)
    }
}

import Foundation
import Lamina

/// The demo's third scene: shape and gradient layers. Progress rings whose strokeEnd animates on the
/// server's clock, a dashed outline whose dashes march (lineDashPhase), a star whose path morphs, and
/// a loading placeholder with a shimmer (a gradient's locations sliding across it), over axial,
/// radial and conic gradient cards, an activity spinner and a badge with its reflection (replicator
/// layers). Writes `shapes.png` and captures of the animations.
func runShapeScene(on context: CAContext, outputFolder: String) throws {
    let root = CALayer()
    root.name = "shape root"
    root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
    root.backgroundColor = color(0.97, 0.97, 0.96)

    // Gradient cards.
    let cards: [(CAGradientLayerType, [CGColor], CGPoint, CGPoint)] = [
        (.axial, [color(1, 0.55, 0.1), color(0.55, 0.1, 0.9)], CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 1)),
        (.radial, [color(1, 1, 1), color(0.1, 0.45, 0.85)], CGPoint(x: 0.5, y: 0.5), CGPoint(x: 1, y: 1)),
        (
            .conic,
            [
                color(1, 0, 0), color(1, 1, 0), color(0, 1, 0), color(0, 1, 1), color(0, 0, 1), color(1, 0, 1),
                color(1, 0, 0),
            ],
            CGPoint(x: 0.5, y: 0.5), CGPoint(x: 1, y: 0.5)
        ),
    ]
    for (index, (type, colors, start, end)) in cards.enumerated() {
        let card = CAGradientLayer()
        card.name = "\(type.rawValue) gradient"
        card.frame = CGRect(x: 60 + CGFloat(index) * 400, y: 60, width: 360, height: 240)
        card.type = type
        card.colors = colors
        card.startPoint = start
        card.endPoint = end
        card.cornerRadius = 28
        // A soft shadow below each card: the gradient's opaque colours fill its rounded bounds, so the
        // server draws the shadow in closed form.
        card.shadowOpacity = 0.3
        card.shadowRadius = 12
        card.shadowOffset = CGSize(width: 0, height: 8)
        root.addSublayer(card)
    }

    // Progress rings: a grey track and a blue arc, rotated so the arc starts at 12 o'clock.
    var rings: [CAShapeLayer] = []
    for index in 0..<3 {
        let ring = addProgressRing(
            to: root, frame: CGRect(x: 80 + CGFloat(index) * 170, y: 360, width: 140, height: 140), inset: 10,
            lineWidth: 14, track: color(0.86, 0.86, 0.86),
            arc: [color(0, 0.45, 1), color(0.2, 0.75, 0.35), color(1, 0.4, 0.2)][index],
            strokeEnd: [0.35, 0.6, 0.9][index], name: "progress ring \(index)")
        rings.append(ring)
    }

    // A dashed outline and a star.
    let outline = CAShapeLayer()
    outline.name = "marching ants"
    outline.frame = CGRect(x: 620, y: 360, width: 260, height: 160)
    outline.path = CGPath(
        roundedRect: CGRect(x: 4, y: 4, width: 252, height: 152), cornerWidth: 20, cornerHeight: 20)
    outline.fillColor = color(0.1, 0.45, 0.85, 0.08)
    outline.strokeColor = color(0.1, 0.3, 0.6)
    outline.lineWidth = 3
    outline.lineDashPattern = [10, 6]
    root.addSublayer(outline)

    func star(points: Int, inner: CGFloat) -> CGPath {
        let path = CGMutablePath()
        for i in 0..<(2 * points) {
            let angle = -CGFloat.pi / 2 + CGFloat(i) * .pi / CGFloat(points)
            let r: CGFloat = i % 2 == 0 ? 70 : 70 * inner
            let p = CGPoint(x: 80 + r * cos(angle), y: 80 + r * sin(angle))
            if i == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        path.closeSubpath()
        return path
    }
    let starLayer = CAShapeLayer()
    starLayer.name = "star"
    starLayer.frame = CGRect(x: 940, y: 350, width: 160, height: 160)
    starLayer.path = star(points: 5, inner: 0.42)
    starLayer.fillColor = color(1, 0.78, 0.1)
    starLayer.strokeColor = color(0.55, 0.35, 0)
    starLayer.lineWidth = 3
    starLayer.lineJoin = .round
    root.addSublayer(starLayer)

    // A loading placeholder: grey bars under a moving highlight.
    let placeholder = CALayer()
    placeholder.name = "placeholder"
    placeholder.frame = CGRect(x: 80, y: 560, width: 1120, height: 110)
    placeholder.masksToBounds = true
    placeholder.cornerRadius = 16
    placeholder.backgroundColor = color(1, 1, 1)
    root.addSublayer(placeholder)
    for (index, width) in [700.0, 980.0, 540.0].enumerated() {
        let bar = CALayer()
        bar.frame = CGRect(x: 24, y: 18 + CGFloat(index) * 28, width: width, height: 18)
        bar.backgroundColor = color(0.88, 0.88, 0.9)
        bar.cornerRadius = 9
        placeholder.addSublayer(bar)
    }
    let shimmer = CAGradientLayer()
    shimmer.name = "shimmer"
    shimmer.frame = placeholder.bounds
    shimmer.colors = [color(1, 1, 1, 0), color(1, 1, 1, 0.8), color(1, 1, 1, 0)]
    shimmer.locations = [-0.3, -0.15, 0]
    shimmer.startPoint = CGPoint(x: 0, y: 0.5)
    shimmer.endPoint = CGPoint(x: 1, y: 0.5)
    placeholder.addSublayer(shimmer)

    let (spinnerBar, _) = addReplicators(to: root)

    context.layer = root
    try context.capture().writePNG(to: outputFolder + "/shapes.png")
    print("wrote \(outputFolder)/shapes.png")

    // Animations on the server's clock, captured at chosen times.
    let t0 = CACurrentMediaTime() + 0.5
    for (index, ring) in rings.enumerated() {
        let progress = CABasicAnimation(keyPath: "strokeEnd")
        progress.fromValue = 0
        progress.toValue = ring.strokeEnd
        progress.duration = 1 + Double(index) * 0.25
        progress.beginTime = t0
        progress.timingFunction = CAMediaTimingFunction(name: .easeOut)
        ring.add(progress, forKey: "progress")
    }
    let ants = CABasicAnimation(keyPath: "lineDashPhase")
    ants.fromValue = 0
    ants.toValue = 16
    ants.duration = 0.5
    ants.repeatCount = .infinity
    ants.beginTime = t0
    outline.add(ants, forKey: "ants")
    let morph = CABasicAnimation(keyPath: "path")
    morph.fromValue = star(points: 5, inner: 0.42)
    morph.toValue = star(points: 5, inner: 0.9)
    morph.duration = 1
    morph.autoreverses = true
    morph.repeatCount = .infinity
    morph.beginTime = t0
    starLayer.add(morph, forKey: "morph")
    let slide = CABasicAnimation(keyPath: "locations")
    slide.fromValue = [-0.3, -0.15, 0]
    slide.toValue = [1, 1.15, 1.3]
    slide.duration = 1.5
    slide.repeatCount = .infinity
    slide.beginTime = t0
    shimmer.add(slide, forKey: "shimmer")
    let spin = CABasicAnimation(keyPath: "opacity")
    spin.fromValue = 1
    spin.toValue = 0.15
    spin.duration = 1.2
    spin.repeatCount = .infinity
    spin.beginTime = t0
    spinnerBar.add(spin, forKey: "spin")
    CATransaction.flush()
    for t in [0.25, 0.75] {
        let frame = try context.capture(at: t0 + t)
        let name = String(format: "shapes-%.2fs.png", t)
        try frame.writePNG(to: outputFolder + "/" + name)
        print("wrote \(outputFolder)/\(name)")
    }
}

import Foundation
import Lamina

/// The demo's sixth scene: effects. Photo cards with rounded clips and soft shadows (each a shadow
/// host with a rounded `shadowPath`, so the server draws the shadow in closed form, holding a clipped
/// photo), a sticker whose shadow follows its star outline (no `shadowPath`: the drawing's alpha
/// blurred in offscreen passes), a round avatar cut by a circular `mask`, two overlapping discs faded
/// as one group and, beside them, faded piece by piece (`allowsGroupOpacity` false), a frosted panel
/// over two of the cards (a Gaussian blur of what lies behind it, `backgroundFilters`, with a
/// multiply-blended label strip), and a card that
/// flips in perspective to show its back (`isDoubleSided` false on both faces of a transform layer),
/// turning on the server's clock. Writes `effects.png` and captures of the flip.
func runEffectsScene(on context: CAContext, outputFolder: String) throws {
    let root = CALayer()
    root.name = "effects root"
    root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
    root.backgroundColor = color(0.86, 0.88, 0.92)

    for index in 0..<3 {
        root.addSublayer(makeShadowedCard(index: index, origin: CGPoint(x: 60 + CGFloat(index) * 280, y: 60)))
    }
    root.addSublayer(makeSticker(origin: CGPoint(x: 900, y: 50)))
    root.addSublayer(makeAvatar(origin: CGPoint(x: 60, y: 360)))
    root.addSublayer(makeDiscPair(origin: CGPoint(x: 300, y: 370), groupOpacity: true))
    root.addSublayer(makeDiscPair(origin: CGPoint(x: 520, y: 370), groupOpacity: false))
    root.addSublayer(makeFrostedPanel(frame: CGRect(x: 430, y: 150, width: 330, height: 120)))

    var perspective = CATransform3DIdentity
    perspective.m34 = -1.0 / 800
    let stage = CALayer()
    stage.name = "flip stage"
    stage.frame = CGRect(x: 820, y: 330, width: 400, height: 340)
    stage.sublayerTransform = perspective
    let flip = CATransformLayer()
    flip.name = "flip card"
    flip.frame = CGRect(x: 60, y: 40, width: 280, height: 260)
    let front = CALayer()
    front.name = "flip front"
    front.frame = flip.bounds
    front.contents = makePhoto(variant: 1)
    front.contentsGravity = .resizeAspectFill
    front.cornerRadius = 20
    front.masksToBounds = true
    front.isDoubleSided = false
    let back = CALayer()
    back.name = "flip back"
    back.frame = flip.bounds
    back.backgroundColor = color(0.16, 0.33, 0.72)
    back.cornerRadius = 20
    back.borderWidth = 6
    back.borderColor = color(1, 1, 1, 0.9)
    back.isDoubleSided = false
    back.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
    flip.addSublayer(back)
    flip.addSublayer(front)
    stage.addSublayer(flip)
    root.addSublayer(stage)

    context.layer = root
    try context.capture().writePNG(to: outputFolder + "/effects.png")
    print("wrote \(outputFolder)/effects.png")

    // The flip: half a turn about y in 1 s; the front faces away after a quarter turn and the back,
    // already turned by half a turn, faces the viewer from then on.
    let turn = CABasicAnimation(keyPath: "transform.rotation.y")
    turn.fromValue = 0
    turn.toValue = Double.pi
    turn.duration = 1
    turn.fillMode = .forwards
    turn.isRemovedOnCompletion = false
    CATransaction.begin()
    flip.add(turn, forKey: "flip")
    CATransaction.commit()
    let start = flip.animation(forKey: "flip")?.beginTime ?? CACurrentMediaTime()
    for t in [0.2, 0.4, 0.6, 0.8] {
        let name = String(format: "effects-flip-%.2fs.png", t)
        try context.capture(at: start + t).writePNG(to: outputFolder + "/" + name)
        print("wrote \(outputFolder)/\(name)")
    }
}

/// A photo card: the host casts the shadow along a rounded `shadowPath` and the photo inside is
/// clipped to the same rounded rectangle.
private func makeShadowedCard(index: Int, origin: CGPoint) -> CALayer {
    let size = CGSize(width: 240, height: 180)
    let host = CALayer()
    host.name = "shadowed card \(index)"
    host.frame = CGRect(origin: origin, size: size)
    host.cornerRadius = 16
    host.backgroundColor = color(1, 1, 1)
    host.shadowOpacity = 0.35
    host.shadowRadius = 10
    host.shadowOffset = CGSize(width: 0, height: 8)
    host.shadowPath = CGPath(
        roundedRect: CGRect(origin: .zero, size: size), cornerWidth: 16, cornerHeight: 16, transform: nil)
    let photo = CALayer()
    photo.name = "card photo \(index)"
    photo.frame = CGRect(origin: .zero, size: size).insetBy(dx: 6, dy: 6)
    photo.contents = makePhoto(variant: index)
    photo.contentsGravity = .resizeAspectFill
    photo.cornerRadius = 11
    photo.masksToBounds = true
    host.addSublayer(photo)
    return host
}

/// A five-pointed star shape layer with a shadow and no `shadowPath`: the shadow is the star's own
/// outline blurred.
private func makeSticker(origin: CGPoint) -> CALayer {
    let star = CAShapeLayer()
    star.name = "star sticker"
    star.frame = CGRect(origin: origin, size: CGSize(width: 220, height: 220))
    let path = CGMutablePath()
    for point in 0..<10 {
        let angle = -CGFloat.pi / 2 + CGFloat(point) * .pi / 5
        let radius: CGFloat = point.isMultiple(of: 2) ? 100 : 42
        let p = CGPoint(x: 110 + radius * cos(angle), y: 112 + radius * sin(angle))
        if point == 0 { path.move(to: p) } else { path.addLine(to: p) }
    }
    path.closeSubpath()
    star.path = path
    star.fillColor = color(0.98, 0.75, 0.15)
    star.strokeColor = color(0.85, 0.45, 0.05)
    star.lineWidth = 4
    star.lineJoin = .round
    star.shadowOpacity = 0.45
    star.shadowRadius = 6
    star.shadowOffset = CGSize(width: 4, height: 8)
    return star
}

/// A square photo cut to a circle by a shape-layer mask, over a white ring.
private func makeAvatar(origin: CGPoint) -> CALayer {
    let ring = CALayer()
    ring.name = "avatar ring"
    ring.frame = CGRect(origin: origin, size: CGSize(width: 180, height: 180))
    ring.backgroundColor = color(1, 1, 1)
    ring.cornerRadius = 90
    ring.shadowOpacity = 0.3
    ring.shadowRadius = 6
    ring.shadowOffset = CGSize(width: 0, height: 4)
    let avatar = CALayer()
    avatar.name = "avatar"
    avatar.frame = ring.bounds.insetBy(dx: 8, dy: 8)
    avatar.contents = makePhoto(variant: 2)
    avatar.contentsGravity = .resizeAspectFill
    let circle = CAShapeLayer()
    circle.frame = avatar.bounds
    circle.path = CGPath(ellipseIn: avatar.bounds, transform: nil)
    circle.fillColor = color(0, 0, 0)
    avatar.mask = circle
    ring.addSublayer(avatar)
    return ring
}

/// Two overlapping discs in a layer of opacity 0.5: drawn as one faded image when `groupOpacity`
/// (their overlap shows no seam), else each disc faded on its own (the overlap is darker).
private func makeDiscPair(origin: CGPoint, groupOpacity: Bool) -> CALayer {
    let group = CALayer()
    group.name = groupOpacity ? "discs, group opacity" : "discs, opacity per disc"
    group.frame = CGRect(origin: origin, size: CGSize(width: 200, height: 160))
    group.opacity = 0.5
    group.allowsGroupOpacity = groupOpacity
    for (index, tint) in [color(0.85, 0.15, 0.3), color(0.1, 0.45, 0.85)].enumerated() {
        let disc = CALayer()
        disc.frame = CGRect(x: CGFloat(index) * 70, y: CGFloat(index) * 30, width: 130, height: 130)
        disc.backgroundColor = tint
        disc.cornerRadius = 65
        group.addSublayer(disc)
    }
    return group
}

/// A frosted panel: what lies behind it blurred (`backgroundFilters`, `CIGaussianBlur` of radius 10)
/// under a translucent white, with a strip multiplied into it (`compositingFilter`).
private func makeFrostedPanel(frame: CGRect) -> CALayer {
    let panel = CALayer()
    panel.name = "frosted panel"
    panel.frame = frame
    panel.cornerRadius = 22
    panel.backgroundColor = color(1, 1, 1, 0.35)
    panel.borderWidth = 1
    panel.borderColor = color(1, 1, 1, 0.7)
    if let blur = CIFilter(name: "CIGaussianBlur") {
        blur.setValue(10, forKey: kCIInputRadiusKey)
        panel.backgroundFilters = [blur]
    }
    let strip = CALayer()
    strip.name = "multiplied strip"
    strip.frame = CGRect(x: 24, y: 44, width: frame.width - 48, height: 32)
    strip.cornerRadius = 8
    strip.backgroundColor = color(0.95, 0.6, 0.2)
    strip.compositingFilter = "multiplyBlendMode"
    panel.addSublayer(strip)
    return panel
}

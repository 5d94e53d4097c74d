import Foundation
import Lamina

/// The demo's fourth scene: text. A card with a title, a wrapped paragraph truncated at its last
/// line, a Chinese line and a right-to-left Arabic line; a progress ring whose percentage label is a
/// text layer; a "Loading" label under a shimmer (a gradient's `locations` sliding across it); and a
/// label whose `foregroundColor` animates on the server's clock (the glyphs are drawn once; the server
/// tints them). Writes `text.png` and captures of the animations.
func runTextScene(on context: CAContext, outputFolder: String) throws {
    func label(_ string: Any, _ frame: CGRect, size: CGFloat, _ textColor: CGColor) -> CATextLayer {
        let layer = CATextLayer()
        layer.frame = frame
        layer.string = string
        layer.font = "Helvetica" as CFTypeRef
        layer.fontSize = size
        layer.foregroundColor = textColor
        return layer
    }
    let root = CALayer()
    root.name = "text root"
    root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
    root.backgroundColor = color(0.94, 0.95, 0.97)

    // The text card.
    let card = CALayer()
    card.name = "text card"
    card.frame = CGRect(x: 60, y: 60, width: 560, height: 420)
    card.backgroundColor = color(1, 1, 1)
    card.cornerRadius = 24
    card.borderWidth = 1
    card.borderColor = color(0.85, 0.86, 0.9)
    root.addSublayer(card)
    let title = label("Lamina text", CGRect(x: 32, y: 28, width: 496, height: 48), size: 36, color(0.1, 0.15, 0.3))
    title.name = "title"
    title.font = "Helvetica-Bold" as CFTypeRef
    card.addSublayer(title)
    let paragraph = label(
        "Text layers lay their string out with Pango: they wrap it at the bounds, shape every script with "
            + "HarfBuzz, fall back to other fonts for characters the first one lacks, and end the last line "
            + "that fits with an ellipsis when the string runs out of room, as this paragraph does here.",
        CGRect(x: 32, y: 92, width: 496, height: 100), size: 20, color(0.25, 0.27, 0.32))
    paragraph.name = "paragraph"
    paragraph.isWrapped = true
    paragraph.truncationMode = .end
    card.addSublayer(paragraph)
    let chinese = label("文字层：你好，世界！", CGRect(x: 32, y: 244, width: 496, height: 40), size: 28, color(0.75, 0.1, 0.15))
    chinese.name = "chinese"
    card.addSublayer(chinese)
    let arabic = label(
        "مرحبا بالعالم: نص من اليمين إلى اليسار", CGRect(x: 32, y: 300, width: 496, height: 40), size: 26,
        color(0.05, 0.4, 0.3))
    arabic.name = "arabic (natural: right-aligned)"
    card.addSublayer(arabic)
    let note = label(
        "alignment center · 16 pt", CGRect(x: 32, y: 366, width: 496, height: 24), size: 16, color(0.5, 0.5, 0.55))
    note.alignmentMode = .center
    card.addSublayer(note)

    // A progress ring with its percentage in the middle.
    let ring = addProgressRing(
        to: root, frame: CGRect(x: 700, y: 70, width: 200, height: 200), inset: 14, lineWidth: 18,
        track: color(0.86, 0.87, 0.9), arc: color(0.2, 0.5, 1), strokeEnd: 0.72, name: "progress ring")
    let percent = label("72%", CGRect(x: 700, y: 146, width: 200, height: 48), size: 40, color(0.15, 0.2, 0.35))
    percent.name = "percentage"
    percent.alignmentMode = .center
    root.addSublayer(percent)

    // A label under a shimmer.
    let loading = label(
        "Loading your library…", CGRect(x: 700, y: 330, width: 520, height: 56), size: 40,
        color(0.55, 0.57, 0.62))
    loading.name = "loading label"
    root.addSublayer(loading)
    let shimmer = CAGradientLayer()
    shimmer.name = "shimmer over the label"
    shimmer.frame = loading.frame
    shimmer.colors = [color(0.94, 0.95, 0.97, 0), color(0.94, 0.95, 0.97, 0.9), color(0.94, 0.95, 0.97, 0)]
    shimmer.locations = [-0.3, -0.15, 0]
    shimmer.startPoint = CGPoint(x: 0, y: 0.5)
    shimmer.endPoint = CGPoint(x: 1, y: 0.3)
    root.addSublayer(shimmer)

    // A label whose colour animates on the server's clock.
    let status = label(
        "Colour on the server's clock", CGRect(x: 700, y: 430, width: 520, height: 44), size: 30,
        color(0.85, 0.2, 0.2))
    status.name = "colour label"
    root.addSublayer(status)

    context.layer = root
    try context.capture().writePNG(to: outputFolder + "/text.png")
    print("wrote \(outputFolder)/text.png")

    let t0 = CACurrentMediaTime() + 0.5
    let progress = CABasicAnimation(keyPath: "strokeEnd")
    progress.fromValue = 0
    progress.toValue = ring.strokeEnd
    progress.duration = 1
    progress.beginTime = t0
    ring.add(progress, forKey: "progress")
    let slide = CABasicAnimation(keyPath: "locations")
    slide.fromValue = [-0.3, -0.15, 0]
    slide.toValue = [1, 1.15, 1.3]
    slide.duration = 1.5
    slide.repeatCount = .infinity
    slide.beginTime = t0
    shimmer.add(slide, forKey: "shimmer")
    let fade = CABasicAnimation(keyPath: "foregroundColor")
    fade.fromValue = color(0.85, 0.2, 0.2)
    fade.toValue = color(0.1, 0.4, 0.95)
    fade.duration = 1
    fade.beginTime = t0
    fade.fillMode = .forwards
    fade.isRemovedOnCompletion = false
    status.add(fade, forKey: "fade")
    CATransaction.flush()
    for t in [0.25, 0.5, 1.0] {
        let frame = try context.capture(at: t0 + t)
        let name = String(format: "text-%.2fs.png", t)
        try frame.writePNG(to: outputFolder + "/" + name)
        print("wrote \(outputFolder)/\(name)")
    }
}
